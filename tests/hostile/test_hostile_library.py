"""The library's entry points, given hostile Python values: only ``TajMahalError``.

A program hands the package documents it built itself (not parsed from text, so never
bounded by :mod:`tajmahal.inputs`) and actions it built by hand. Every entry point that
reads such a value (``position_from_json``, ``state_from_json``, ``record_from_json``,
``RuleSet.from_json``, ``components_from_documents``, ``parse_action``, ``apply`` and
``apply_with_events``) must answer or raise a :class:`~tajmahal.errors.TajMahalError`
subclass: never ``RecursionError`` (documents nested thousands of levels deep),
``TypeError`` (a card id that is a number, a set where a list belongs) or anything else.

Documents are valid ones with one value replaced by a hostile one (nested very deep, of
a type JSON has not, a number that is not finite, a huge integer, a string no file may
hold); actions are every action class built with hostile fields, applied at every kind
of step.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostile.support import DEEP, HOSTILE
from tajmahal.agents import PLAYER_TYPES, play_match
from tajmahal.engine import apply, apply_with_events, legal_actions, new_game, random_setup
from tajmahal.errors import IllegalActionError, TajMahalError
from tajmahal.model import (
    GameState,
    PlaceCrown,
    PlacePalace,
    Play,
    Reshuffle,
    RuleSet,
    Step,
    Take,
    Withdraw,
    components_from_documents,
    default_components,
    parse_action,
)
from tajmahal.notation import position_from_json, state_from_json, state_to_json
from tajmahal.records import record_from_json, record_to_json

COMPONENTS = default_components()


def _deep(levels: int, kind: str) -> Any:
    """A list or object nested ``levels`` deep, built without recursion."""
    root: Any = [] if kind == "list" else {}
    node = root
    for _ in range(levels):
        child: Any = [] if kind == "list" else {}
        if isinstance(node, list):
            node.append(child)
        else:
            node["a"] = child
        node = child
    return root


class _Odd:
    """An object of no JSON type whose ``repr`` and comparisons are ordinary."""


HOSTILE_VALUES: list[Any] = [
    _deep(100_000, "list"),
    _deep(100_000, "object"),
    _deep(40, "list"),
    {("tuple", "key"): 1},
    {1: "a"},
    {None: 1},
    {"a", "b"},
    frozenset({1}),
    b"bytes",
    bytearray(b"x"),
    ("a", "b"),
    math.nan,
    math.inf,
    -math.inf,
    10**5000,
    -(10**50),
    2**63,
    1.5,
    -1,
    True,
    None,
    "",
    "\ud800",
    "\x1b[2J",
    "x" * 70_000,
    _Odd(),
    [1, "a", None],
    [[1]],
    {"a": [{}]},
    object,
    print,
    float,
]


def _paths(document: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into ``document`` (the first three items of each list)."""
    found = [path]
    if isinstance(document, dict):
        for key, value in document.items():
            found.extend(_paths(value, (*path, key)))
    elif isinstance(document, list):
        for index, value in enumerate(document[:3]):
            found.extend(_paths(value, (*path, index)))
    return found


def _replaced(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    copied = copy.deepcopy(document)
    node = copied
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copied


def _states() -> list[GameState]:
    """States at every kind of step: play, place, take, shuffle and over (hoarders run
    the deck dry, so a reshuffle comes)."""
    rng = random.Random(5)
    found: dict[Step, GameState] = {}
    for seed in range(40):
        players = [PLAYER_TYPES["hoarder"](seed * 10 + seat) for seat in range(3)]
        state = new_game(COMPONENTS, 3, random_setup(COMPONENTS, 3, seed))
        while not state.is_over:
            found.setdefault(state.step, state)
            if state.is_chance:
                cards = list(state.discard)
                rng.shuffle(cards)
                state = apply(state, Reshuffle(tuple(cards)))
            else:
                assert state.to_move is not None
                state = apply(state, players[state.to_move].choose(state, legal_actions(state)))
        found.setdefault(state.step, state)
        if len(found) == len(Step):
            break
    return list(found.values())


STATES = _states()
STATE_DOCUMENT = state_to_json(STATES[0])
STATE_PATHS = _paths(STATE_DOCUMENT)
_WHOLE_RECORD = record_to_json(
    play_match(COMPONENTS, [PLAYER_TYPES["random"](seat) for seat in range(3)], 3).record
)
RECORD_DOCUMENT = {**_WHOLE_RECORD, "steps": _WHOLE_RECORD["steps"][:4]}
"""A record of a game's first four steps (reading does not replay, so it is a valid
document): the attacks reach the first three items of each list, and reading the 150
other steps would be most of each attack's cost."""
RECORD_PATHS = [path for path in _paths(RECORD_DOCUMENT) if path[:1] != ("steps",) or len(path) < 4]
RULESET_DOCUMENT = RuleSet().to_json()
DATA = Path(__file__).resolve().parents[2] / "reference" / "tajmahal" / "data"
COMPONENT_DOCUMENTS = {
    name: json.loads((DATA / name).read_text(encoding="utf-8"))
    for name in ("cards.json", "specials.json", "province_tiles.json", "bonus_tiles.json")
}


COMPONENT_PATHS = 40 if DEEP else 12
"""How many paths of each component file are attacked (each attack loads a whole component
set): the first forty under ``make hostile``, the first twelve (every field of the first
entries) under ``make check``."""


RECORD_STRIDE = 4
"""Under ``make check`` every fourth path of the record is attacked, each kind of field
among them (each attack reads a whole record against its schema); every path under
``make hostile``."""


def _only_package_errors(call: Any, *arguments: Any) -> None:
    with contextlib.suppress(TajMahalError):
        call(*arguments)


def test_every_kind_of_step_is_attacked() -> None:
    assert {state.step for state in STATES} == set(Step)


@pytest.mark.parametrize("value", HOSTILE_VALUES, ids=lambda value: type(value).__name__)
def test_a_hostile_value_anywhere_in_a_position_is_refused(value: Any) -> None:
    for path in STATE_PATHS:
        document = _replaced(STATE_DOCUMENT, path, value)
        _only_package_errors(position_from_json, document, COMPONENTS)
        _only_package_errors(state_from_json, document, COMPONENTS)


@pytest.mark.parametrize("value", HOSTILE_VALUES, ids=lambda value: type(value).__name__)
def test_a_hostile_value_anywhere_in_a_record_or_rule_set_is_refused(value: Any) -> None:
    for path in RECORD_PATHS if DEEP else RECORD_PATHS[::RECORD_STRIDE]:
        _only_package_errors(record_from_json, _replaced(RECORD_DOCUMENT, path, value), "x")
    for path in _paths(RULESET_DOCUMENT):
        _only_package_errors(RuleSet.from_json, _replaced(RULESET_DOCUMENT, path, value))
    for name, document in COMPONENT_DOCUMENTS.items():
        for path in _paths(document)[:COMPONENT_PATHS]:
            documents = {**COMPONENT_DOCUMENTS, name: _replaced(document, path, value)}
            _only_package_errors(components_from_documents, documents)
    _only_package_errors(parse_action, value)


FIELD_VALUES = st.one_of(
    # (what hypothesis can describe: no value nested deep, no integer too long to write)
    st.sampled_from(
        [value for value in HOSTILE_VALUES[3:] if value != 10**5000 and value != "x" * 70_000]
    ),
    st.text(max_size=8),
    st.integers(),
    st.lists(st.one_of(st.integers(), st.text(max_size=4), st.none()), max_size=3),
    st.tuples(st.one_of(st.integers(), st.text(max_size=4), st.none())),
    st.tuples(st.integers(), st.text(max_size=3)),
    st.sampled_from(sorted(COMPONENTS.cards)[:5] + sorted(COMPONENTS.board.cities)[:5]),
)
ACTIONS = st.one_of(
    st.builds(Play, FIELD_VALUES, FIELD_VALUES),
    st.builds(PlacePalace, FIELD_VALUES),
    st.builds(PlaceCrown, FIELD_VALUES),
    st.builds(Take, FIELD_VALUES),
    st.builds(Reshuffle, FIELD_VALUES),
    st.sampled_from([Withdraw(), None, "withdraw", 5, object()]),
)


@HOSTILE
@given(data=st.data())
def test_hand_built_actions_are_applied_or_refused(data: st.DataObject) -> None:
    try:
        action = data.draw(ACTIONS)
    except TajMahalError:
        return  # refused as it was built (a Take of cards that cannot be sorted)
    for state in STATES:
        for call in (apply, apply_with_events):
            with contextlib.suppress(IllegalActionError):
                call(state, action)


def _by_hand(kind: Any, *fields: Any) -> Any:
    """An action built with fields of any type (as a program may, whatever its types say)."""
    return kind(*fields)


@pytest.mark.parametrize(
    "action",
    [
        _by_hand(Take, (5,)),
        _by_hand(Take, (5, 6)),
        _by_hand(Play, 5),
        _by_hand(Play, "red-01", 7),
        _by_hand(PlacePalace, 3),
        _by_hand(PlaceCrown, None),
        _by_hand(Reshuffle, (1, 2)),
        _by_hand(Reshuffle, "abc"),
        _by_hand(Take, "ab"),
        _by_hand(Take, ([1],)),
        _by_hand(Play, ["x"]),
        _by_hand(Take, (10**5000,)),
        _by_hand(Play, 10**5000),
    ],
    ids=lambda action: type(action).__name__,
)
def test_the_reported_hand_built_actions_are_illegal(action: Any) -> None:
    for state in STATES:
        with pytest.raises(IllegalActionError):
            apply(state, action)
