"""Declaring position cases, and exporting them to ``specs/cases/*.json``.

A case module (``case_<area>.py`` in this folder) lists :class:`Case` values: a
hand-built position (made with the same builders as the rule and ruling tests, often by
the tests' own position functions) and its tests, whose expected values are written
here literally, taken from the tests' assertions and worked out by hand: the legal-action
list, the clause that forbids a move, the score change, the fields of the resulting
state. :func:`export` turns a case into its JSON form and checks every expectation
against the engine; any disagreement raises :class:`CaseMismatch`, so a wrong hand-worked
value or an engine regression stops the export loudly. The one value taken from the
engine is the resulting state's digest, which identifies the whole position and cannot
be worked by hand; the score change and the ``after`` fields pin down what matters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

import attrs

from tajmahal.engine import apply, apply_with_events, legal_actions
from tajmahal.errors import IllegalActionError, StateFormatError
from tajmahal.model import DEFAULT_RULES, GameState, parse_action
from tajmahal.notation import check_position, state_digest, state_to_json, with_player
from tajmahal.records import edge_tags

CARD_NUMBER: Final = re.compile(r"^(red|yellow|green|violet)-(\d\d)$")


class CaseMismatch(AssertionError):
    """A hand-worked expectation disagrees with the engine."""


@attrs.frozen(slots=True)
class Check:
    """One test of a case."""

    description: str
    """What it checks, in words."""
    action: str | None = None
    """The action tried (None for a legal-action list)."""
    legal: bool | None = None
    """True: accepted; False: refused; None: a legal-action list."""
    clause: str | None = None
    """For a refused action: the clause or ruling that forbids it."""
    score_change: tuple[int, ...] | None = None
    """For an accepted action: each seat's score change."""
    after: Mapping[str, Any] | None = None
    """For an accepted action: fields of the resulting state document that must match."""
    legal_actions: frozenset[str] | None = None
    """For a legal-action list: exactly these actions."""


def ok(
    action: str,
    description: str,
    change: Iterable[int],
    after: Mapping[str, Any] | None = None,
) -> Check:
    """``action`` is legal, changes the scores by ``change`` and leads to ``after``."""
    return Check(description, action, True, score_change=tuple(change), after=after)


def refused(action: str, clause: str, description: str) -> Check:
    """``action`` is illegal because of ``clause``."""
    return Check(description, action, False, clause=clause)


def actions(expected: Iterable[str], description: str) -> Check:
    """The legal actions are exactly ``expected``."""
    return Check(description, legal_actions=frozenset(expected))


@attrs.frozen(slots=True)
class Case:
    """A position and its tests."""

    id: str
    """``<clause or ruling id>/<slug>``."""
    description: str
    """What the case is about."""
    position: GameState
    """The position every test starts from."""
    tests: tuple[Check, ...]
    """Its tests."""
    clauses: tuple[str, ...] = ()
    """Clause ids checked (the id's clause is added)."""
    rulings: tuple[str, ...] = ()
    """Ruling ids the expectations rest on (the id's ruling is added)."""


def case(
    id: str,
    description: str,
    position: GameState,
    *tests: Check,
    clauses: Iterable[str] = (),
    rulings: Iterable[str] = (),
) -> Case:
    """A :class:`Case` (keyword form kept short for the case modules)."""
    return Case(id, description, position, tests, tuple(clauses), tuple(rulings))


def _cards_involved(case: Case) -> set[str]:
    cards: set[str] = set()
    for player in case.position.players:
        cards.update(player.played)
    for check in case.tests:
        if check.action is not None and check.action.startswith("play"):
            cards.update(check.action.split()[1:])
    return cards


def _component_rulings(case: Case) -> set[str]:
    """The reconstructed components a case rests on, found from what it touches."""
    found: set[str] = set()
    placements = [c.action or "" for c in case.tests] + [
        a for c in case.tests for a in (c.legal_actions or ())
    ]
    if any(text.startswith(("palace ", "crown ")) for text in placements):
        found.add("RUL.COMPONENTS.BOARD")
    if any(c.action == "withdraw" for c in case.tests):
        for card in _cards_involved(case):
            match = CARD_NUMBER.match(card)
            if match and int(match.group(2)) <= 4:
                found.add("RUL.COMPONENTS.TWO_CHARACTER_CARDS")
            if match and int(match.group(2)) == 21:
                found.add("RUL.COMPONENTS.TWENTY_FIRST_CARD")
            if card.startswith("white-"):
                found.add("RUL.COMPONENTS.WHITE_CARDS")
    return found


def _differences(expected: Any, actual: Any, path: str) -> list[str]:
    if isinstance(expected, dict):
        if isinstance(actual, list):
            return [
                d
                for key, value in expected.items()
                for d in _differences(value, actual[int(key)], f"{path}[{key}]")
            ]
        if not isinstance(actual, dict):
            return [path]
        return [
            d
            for key, value in expected.items()
            for d in _differences(value, actual.get(key), f"{path}.{key}")
        ]
    return [] if expected == actual else [f"{path}: expected {expected!r}, found {actual!r}"]


def _ids(case: Case) -> tuple[list[str], list[str]]:
    head = case.id.split("/")[0]
    everything = {head, *case.clauses, *case.rulings, *_component_rulings(case)}
    everything |= {c.clause for c in case.tests if c.clause}
    clauses = sorted(i for i in everything if i.startswith("TM."))
    rulings = sorted(i for i in everything if i.startswith("RUL."))
    return clauses, rulings


def export(case: Case) -> dict[str, Any]:
    """The JSON form of ``case``, after checking every expectation against the engine."""
    state = case.position
    try:
        check_position(state)
    except StateFormatError as error:
        raise CaseMismatch(f"{case.id}: inconsistent position: {error}") from None
    clauses, rulings = _ids(case)
    defaults = DEFAULT_RULES.to_json()
    tests: list[dict[str, Any]] = []
    edges: set[str] = set()
    for check in case.tests:
        where = f"{case.id}: {check.description}"
        if check.legal_actions is not None:
            found = {str(a) for a in legal_actions(state)}
            if found != set(check.legal_actions):
                raise CaseMismatch(
                    f"{where}: legal actions differ: missing "
                    f"{sorted(check.legal_actions - found)}, extra "
                    f"{sorted(found - check.legal_actions)}"
                )
            tests.append(
                {
                    "description": check.description,
                    "expect": {"legal_actions": sorted(check.legal_actions)},
                }
            )
            continue
        assert check.action is not None
        action = parse_action(check.action)
        try:
            after, events = apply_with_events(state, action)
        except IllegalActionError as error:
            if check.legal:
                raise CaseMismatch(f"{where}: {check.action} refused: {error}") from None
            if check.action.startswith(("palace ", "crown ")):
                edges.add("placement-refused")
            reported = error.clause
            if reported != check.clause:
                raise CaseMismatch(
                    f"{where}: {check.action} refused by {reported}, expected {check.clause}"
                ) from None
            tests.append(
                {
                    "description": check.description,
                    "action": check.action,
                    "expect": {"legal": False, "clause": check.clause},
                }
            )
            continue
        if not check.legal:
            raise CaseMismatch(f"{where}: {check.action} accepted, expected refused")
        edges |= edge_tags(state, action, events, after)
        change = tuple(b - a for a, b in zip(state.scores, after.scores, strict=True))
        if change != check.score_change:
            raise CaseMismatch(f"{where}: score change {change}, expected {check.score_change}")
        wrong = _differences(dict(check.after or {}), state_to_json(after), "")
        if wrong:
            raise CaseMismatch(f"{where}: {'; '.join(wrong)}")
        expect: dict[str, Any] = {
            "legal": True,
            "score_change": list(change),
            "state_digest": state_digest(after),
        }
        if check.after:
            expect["after"] = dict(check.after)
        tests.append({"description": check.description, "action": check.action, "expect": expect})
    ruleset = state.config.rules.to_json()
    return {
        "id": case.id,
        "description": case.description,
        "clauses": clauses,
        "rulings": rulings,
        "ruleset": {k: v for k, v in ruleset.items() if defaults[k] != v},
        "tags": sorted(edges)
        + (
            ["reconstructed-components"]
            if any(r.startswith("RUL.COMPONENTS.") for r in rulings)
            else []
        ),
        "position": state_to_json(state),
        "tests": tests,
    }


def before_visit_end(state: GameState) -> tuple[GameState, str]:
    """Drive the visit as ``finish_visit`` does (everyone withdraws, the first legal
    placement or take) and stop just before the action that ends it: that position and
    that action."""
    from tajmahal.model import WITHDRAW, Step

    visit = state.visit
    while True:
        action = WITHDRAW if state.step is Step.PLAY else legal_actions(state)[0]
        after = apply(state, action)
        if after.visit != visit or after.step in (Step.OVER, Step.SHUFFLE):
            return state, str(action)
        state = after


def off_board(state: GameState, *tiles: str) -> GameState:
    """``state`` with bonus ``tiles`` no longer lying on a fortress (a player won them)."""
    kept = tuple((city, tile) for city, tile in state.bonus_on_board if tile not in tiles)
    return attrs.evolve(state, bonus_on_board=kept)


def owning(
    state: GameState,
    seat: int,
    province_tiles: Iterable[str],
    goods_tiles: Iterable[str],
    **fields: Any,
) -> GameState:
    """``state`` where ``seat`` won ``province_tiles`` and the bonus ``goods_tiles`` in
    earlier visits: the goods tiles are off the board (:func:`off_board`) and in front of
    the player, with any other player ``fields`` (a score) set too."""
    goods = tuple(goods_tiles)
    return with_player(
        off_board(state, *goods),
        seat,
        province_tiles=tuple(province_tiles),
        goods_tiles=goods,
        **fields,
    )


def taken_bonus_removed(state: GameState) -> GameState:
    """``state`` without the bonus tiles lying under a normal palace (the palace took them
    when it was placed), so that hand-placed palaces leave a position play could reach."""
    taken = {p.city for p in state.palaces if not p.crowned}
    kept = tuple((city, tile) for city, tile in state.bonus_on_board if city not in taken)
    return attrs.evolve(state, bonus_on_board=kept)
