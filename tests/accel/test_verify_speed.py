"""The verifier's short cuts give exactly what the plain recipes give.

``tajmahal verify`` takes four short cuts (docs/performance.md, "The verifier"): the
canonical text of a state is put together from the texts of parts it shares with the
state written before; the walk over every parsed value runs only when the text shows
something it could refuse; action strings are remembered; and a compiled schema
validator (the ``fast`` extra) may confirm a record valid before ``jsonschema`` is asked.
Each is checked here against the recipe it replaces, on real games, hand-made odd
values and generated documents; the tests run with and without the extra installed.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from tajmahal.cli._verify import fewer_collections
from tajmahal.engine import (
    apply,
    apply_with_events,
    legal_actions,
    legal_choices,
    new_game,
    random_reshuffle,
    random_setup,
)
from tajmahal.errors import RecordError
from tajmahal.inputs import (
    FAST_PATH_VARIABLE,
    RECORD_LIMITS,
    InputError,
    compiled_says_valid,
    first_violation,
    parse_json_document,
)
from tajmahal.inputs import _files as inputs
from tajmahal.inputs import _parsing as input_parsing
from tajmahal.inputs import _schemas as schemas
from tajmahal.inputs import _structure as input_structure
from tajmahal.model import (
    Action,
    CardColour,
    Event,
    GameState,
    MajorityScope,
    Palace,
    PlayerState,
    RuleSet,
    Withdrawal,
    default_components,
    parse_action,
)
from tajmahal.notation import _canonical_parts as canonical_parts
from tajmahal.notation import _digest as digest
from tajmahal.notation import (
    action_strings,
    canonical_json,
    legal_digest,
    state_digest,
    state_from_json,
    state_to_json,
)
from tajmahal.records import (
    VerificationError,
    edge_tags,
    read_record,
    replay_steps,
    replayed_states,
    step_clauses,
)
from tajmahal.records import _replay as trace_replay
from tajmahal.records._tags import action_clauses, sorted_edge_tags
from tajmahal.testing.strategies import damaged_records, rule_sets
from tajmahal.verification import verify_paths

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "specs" / "traces"
COMPONENTS = default_components()
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def plain_canonical(state: GameState) -> str:
    """The recipe of docs/trace-format.md, "Digests"."""
    return json.dumps(
        state_to_json(state), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )


def game(players: int, seed: int, rules: RuleSet) -> Iterator[GameState]:
    """Every state of a random game."""
    rng = random.Random(seed)
    state = new_game(COMPONENTS, players, random_setup(COMPONENTS, players, seed), rules)
    yield state
    while not state.is_over:
        if state.is_chance:
            action: Action = random_reshuffle(state, rng)
        else:
            action = rng.choice(legal_actions(state))
        state = apply(state, action)
        yield state


# ---------------------------------------------------------------------------------------
# Canonical JSON


@pytest.mark.parametrize("players", [3, 4, 5])
def test_canonical_text_of_every_state_of_games_is_the_plain_recipe(players: int) -> None:
    for seed in range(2):
        for state in game(players, seed, RuleSet()):
            assert canonical_json(state) == plain_canonical(state)


@SETTINGS
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1), rules=rule_sets())
def test_canonical_text_under_any_rule_set_is_the_plain_recipe(
    players: int, seed: int, rules: RuleSet
) -> None:
    for state in game(players, seed, rules):
        assert canonical_json(state) == plain_canonical(state)


def plain_digest(state: GameState) -> str:
    """The recipe of docs/trace-format.md, "Digests"."""
    return "sha256:" + hashlib.sha256(plain_canonical(state).encode("utf-8")).hexdigest()


@pytest.mark.parametrize("players", [3, 5])
def test_state_digest_going_on_from_the_head_is_the_plain_recipe(players: int) -> None:
    """The digest goes on from the remembered head's SHA-256 when a step leaves the head
    unchanged: every state of a game, each digested once, twice, after its text was
    written, and after another game's state was digested."""
    other = list(game(4, 31, RuleSet(majority_scope=MajorityScope.ALL)))
    for index, state in enumerate(game(players, 32, RuleSet())):
        assert state_digest(state) == plain_digest(state)
        assert state_digest(state) == plain_digest(state)
        if index % 3 == 0:
            canonical_json(other[index % len(other)])
            assert state_digest(state) == plain_digest(state)
        if index % 5 == 0:
            assert state_digest(other[index % len(other)]) == plain_digest(
                other[index % len(other)]
            )


def test_canonical_text_of_states_of_two_games_in_turn_is_the_plain_recipe() -> None:
    """Parts shared with the state written last are reused; states of two games written
    in alternation share nothing, and reloaded states share no object at all."""
    first = list(game(3, 11, RuleSet()))
    second = list(game(5, 12, RuleSet()))
    for one, other in zip(first, second, strict=False):
        for state in (one, other, state_from_json(state_to_json(one), COMPONENTS)):
            assert canonical_json(state) == plain_canonical(state)


ODD_IDS = [
    'say "hi"',
    "back\\slash",
    "tab\there",
    "bell\x07",
    "del\x7f",
    "é-card",
    "\u2028",
    "next-line\x85",  # not printable, yet JSON writes it as itself
]


@pytest.mark.parametrize("odd", ODD_IDS)
def test_ids_that_need_escapes_are_written_as_the_plain_recipe_writes_them(odd: str) -> None:
    """States are not checked against the components when written, so any string can
    appear in one; those that JSON escapes take the encoder's path."""
    state = next(game(4, 3, RuleSet()))
    seat = state.players[0]
    odd_seat = attrs.evolve(seat, hand=(*seat.hand, odd), played=(odd,), goods_tiles=(odd,))
    withdrawal = Withdrawal(seat=0, palaces_owed=1, crown_owed=False, placed=(odd,))
    for changed in (
        attrs.evolve(state, players=(odd_seat, *state.players[1:])),
        attrs.evolve(state, deck=(odd, *state.deck), display=(odd,)),
        attrs.evolve(state, withdrawal=withdrawal, court_province_tile=odd),
        attrs.evolve(state, bonus_on_board=((odd, odd),)),
    ):
        assert canonical_json(changed) == plain_canonical(changed)


@pytest.mark.parametrize("odd", ODD_IDS)
def test_a_seat_changing_one_field_after_another_is_written_as_the_plain_recipe(
    odd: str,
) -> None:
    """A seat's text reuses the texts of the fields it shares with the seat written
    before; an odd id appearing, staying while another field changes, and going."""
    state = next(game(4, 7, RuleSet()))
    seat = state.players[1]
    odd_hand = attrs.evolve(seat, hand=(*seat.hand, odd))
    scored = attrs.evolve(odd_hand, score=seat.score + 3)
    played = attrs.evolve(scored, played=(odd,))
    plain_again = attrs.evolve(played, hand=seat.hand, played=seat.played)
    canonical_json(state)
    for changed_seat in (odd_hand, scored, played, plain_again, seat):
        changed = attrs.evolve(state, players=(state.players[0], changed_seat, *state.players[2:]))
        assert canonical_json(changed) == plain_canonical(changed)


def test_values_of_other_types_are_written_as_the_plain_recipe_writes_them() -> None:
    state = next(game(3, 5, RuleSet()))
    numbers: Any = (1, 2)
    seat = PlayerState(hand=numbers, played=(), colour=CardColour.RED, score=7)
    changed = attrs.evolve(state, players=(seat, *state.players[1:]), deck=numbers)
    assert canonical_json(changed) == plain_canonical(changed)


def test_lists_of_ids_found_plain_before_are_the_plain_recipe(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A list whose strings were all found plain before is joined without reading its
    characters; lists mixing such strings with odd ones, other values or unhashable ones,
    and lists met after the remembered strings were forgotten, are written as before."""
    monkeypatch.setattr(canonical_parts, "_PLAIN_KEPT", 8)
    monkeypatch.setattr(canonical_parts, "_PLAIN_IDS", set())
    state = next(game(4, 9, RuleSet()))
    canonical_json(state)
    hand = state.players[0].hand
    lists: list[Any] = [
        hand,
        (*hand, 'say "hi"'),
        ("back\\slash", *hand),
        (*hand, 7),
        (*hand, ["unhashable"]),
        (*hand, None),
        tuple(reversed(hand)),
        *(tuple(f"id-{n}-{m}" for m in range(5)) for n in range(6)),
        hand,
    ]
    for ids in lists:
        seat = attrs.evolve(state.players[0], hand=ids, played=ids[:2])
        changed = attrs.evolve(state, players=(seat, *state.players[1:]), display=ids, deck=ids)
        assert canonical_json(changed) == plain_canonical(changed)
        assert len(canonical_parts._PLAIN_IDS) <= 8 + len(ids)


def test_withdrawals_of_every_shape_are_written_as_the_plain_recipe_writes_them() -> None:
    state = next(game(3, 13, RuleSet()))
    for withdrawal in (
        Withdrawal(seat=0, palaces_owed=0, crown_owed=False),
        Withdrawal(seat=2, palaces_owed=2, crown_owed=True, placed=("A1", "B2")),
        Withdrawal(seat=1, palaces_owed=1, crown_owed=False, province_won="tile-3"),
        Withdrawal(seat=1, palaces_owed=0, crown_owed=True, played_nothing=True, scored=True),
        Withdrawal(seat=1, palaces_owed=1, crown_owed=1, played_nothing=0, scored=None),  # type: ignore[arg-type]
        Withdrawal(seat=True, palaces_owed=False, crown_owed=False, placed=['"q"']),  # type: ignore[arg-type]
    ):
        changed = attrs.evolve(state, withdrawal=withdrawal)
        assert canonical_json(changed) == plain_canonical(changed)


def test_palaces_after_each_kind_of_change_are_written_as_the_plain_recipe() -> None:
    """The palaces' text is taken from the last one written when one palace is placed
    among the same palace objects (at the end, the front or between); any other change
    (an equal palace that is another object, an odd value, the same object twice,
    palaces taken away) is written afresh."""
    state = next(game(4, 19, RuleSet()))
    a, b, c, x, d = (
        Palace("B1", 0),
        Palace("C2", 1),
        Palace("A3", 2),
        Palace("B9", 3),
        Palace("D4", 0),
    )
    again = Palace("B1", 0)
    odd: Any = Palace("B1", True)
    crowned = Palace("E5", 2, crowned=True)
    for palaces in (
        (),
        (a,),
        (a, b),
        (c, a, b),
        (c, a, x, b),
        (c, a, x, b, crowned),
        (c, again, x, b, crowned, d),
        (c, odd, x, b, crowned, d, d),
        (c, odd, x, b, crowned, d),
        (c, a, x),
        (c, a, x, b),
    ):
        changed = attrs.evolve(state, palaces=palaces)
        assert canonical_json(changed) == plain_canonical(changed)


# ---------------------------------------------------------------------------------------
# Action strings


def test_action_strings_are_the_sorted_strings_of_the_actions() -> None:
    for state in game(4, 21, RuleSet()):
        if state.is_chance or state.is_over:
            continue
        legal = legal_actions(state)
        assert action_strings(legal) == sorted(str(action) for action in legal)
        assert action_strings(legal) == action_strings(legal)
        assert legal_digest(legal) == legal_digest([str(action) for action in legal])


def test_action_strings_of_fresh_mixed_and_forgotten_actions() -> None:
    """Actions not remembered yet, strings among actions (first or last), strings
    alone, a generator, and a memo emptied when full all give the plain recipe."""
    legal = next(game(3, 22, RuleSet()))
    actions = list(legal_actions(legal))
    assert len(actions) > 2
    fresh = [parse_action(str(action)) for action in actions]  # equal, not the same objects
    mixed = [str(actions[0]), *actions[1:]]
    mixed_last = [*map(str, actions[1:]), actions[0]]
    strings = [str(action) for action in reversed(actions)]
    plain = sorted(str(action) for action in actions)
    for listed in (actions, fresh, mixed, mixed_last, strings, iter(fresh), tuple(actions)):
        assert action_strings(listed) == plain
    digest._TEXTS.clear()
    digest._ALIVE.clear()
    assert action_strings(actions) == plain
    assert len(digest._TEXTS) == len(digest._ALIVE) == len(actions)
    for _ in range(3):  # fill the memo past its bound: it starts afresh
        for state in game(5, 23, RuleSet()):
            if not state.is_chance and not state.is_over:
                action_strings([parse_action(str(a)) for a in legal_actions(state)])
        assert len(digest._TEXTS) <= digest._TEXTS_KEPT
    assert action_strings(actions) == plain


# ---------------------------------------------------------------------------------------
# Parsing: the walk over every value only when it could refuse something


def outcome(text: str, walk_always: bool) -> Any:
    """The parsed document, or the error message (``walk_always``: without either short
    cut, the walk over every value and the integer hook for every integer)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(input_parsing, "_WALK_ONLY_IF_NEEDED", not walk_always)
        patch.setattr(input_parsing, "_HOOK_ONLY_IF_NEEDED", not walk_always)
        try:
            return parse_json_document(text, RECORD_LIMITS, "x.json")
        except InputError as error:
            return str(error)


JSON_PIECES = st.sampled_from(
    [
        *['"', "\\", "\\u0000", "\\ud800", "\\n", "\x7f", "\x85", "é", "[", "]", "{", "}", ","],
        *[":", "1", "1.5", "1e400", "NaN", "12345678901234567890", "9" * 41, "true", "null"],
        *[" ", '"a"', '"k":', '{"a":1,"a":2}', "-0", "4.0"],
        *["123456789012345", "-123456789012345", "1234567890123456", '"1234567890123456"'],
        *['"sha256:1234567890123456"', '"a12345678901234567"', "12345678901234567"],
    ]
)


@SETTINGS
@given(pieces=st.lists(JSON_PIECES, max_size=40))
def test_skipping_the_walk_changes_no_outcome(pieces: list[str]) -> None:
    text = "".join(pieces)
    for candidate in (text, f"[{text}]", '{"a": [' + text + "]}"):
        assert outcome(candidate, False) == outcome(candidate, True)


@SETTINGS
@given(
    value=st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
        lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    )
)
def test_skipping_the_walk_changes_no_outcome_on_any_json(value: Any) -> None:
    text = json.dumps(value, ensure_ascii=False, allow_nan=True)
    assert outcome(text, False) == outcome(text, True)


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ('{"n": [123456789012345, -123456789012345]}', True),
        ('{"n": 1234567890123456}', False),
        ('{"n": -1234567890123456}', False),
        ('{"n": 1, "digest": "sha256:1234567890123456"}', True),  # the run is in a string
        ('{"d": "sha256:1234567890123456", "n": 12345678901234567}', False),
        ('{"d": ["1234567890123456", "x"], "n": [1234567890123456]}', False),
        ('{"a": "1234567890123456", "b": "98765432109876543210"}', True),
        ('{"n": 1, "name": "é"}', True),
    ],
)
def test_integers_are_looked_at_when_the_text_may_hold_a_long_one(text: str, plain: bool) -> None:
    parsed = outcome(text, False)
    assert parsed == outcome(text, True)
    assert parsed.plain_numbers is plain


def _long_integer_outside_strings(text: str) -> bool:
    """The plain recipe: a run of 16 digits in the text with its string literals blanked
    by the literal pattern (to a space, which joins no run)."""
    return re.search("[0-9]{16}", input_structure._STRING.sub(" ", text)) is not None


@SETTINGS
@given(text=st.text(alphabet='[]{}",: a01\\', max_size=80))
@example(text='"0000000000000000"')
@example(text='"a" 0000000000000000 "b"')
@example(text='"0000000000000000" "0000000000000000000" 0000000000000000')
@example(text='"x" "0000000000000000')
def test_long_integers_are_found_outside_strings_as_the_plain_recipe_finds_them(
    text: str,
) -> None:
    text = text.replace("1", "0" * 8)  # runs long enough to matter
    found = input_parsing._may_hold_long_integers(text, 15)
    if _long_integer_outside_strings(text):
        assert found
    if "\\" not in text and text.count('"') % 2 == 0:
        assert found == _long_integer_outside_strings(text)


def test_long_strings_are_still_refused_with_their_path() -> None:
    long = "x" * (inputs.MAX_STRING_CHARS + 1)
    text = json.dumps({"steps": [{"action": long}], "pad": "y" * 10})
    found = outcome(text, False)
    assert found == outcome(text, True)
    assert found.startswith("x.json: steps[0].action: a string of 65537 characters")


@SETTINGS
@given(text=st.text(alphabet='[]{}",:\\ab0', max_size=60))
def test_strings_are_blanked_as_the_string_pattern_blanks_them(text: str) -> None:
    assert input_structure._blank_strings(text) == input_structure._STRING.sub("0", text)


def test_numbers_are_plain_only_when_all_are_short_integers() -> None:
    def plain(text: str) -> bool:
        return parse_json_document(text, RECORD_LIMITS, "x").plain_numbers

    assert plain('{"a": [1, -2, 123456789012345, true, null, "4.0"]}')
    assert not plain('{"a": 4.0}')
    assert not plain('{"a": 1e2}')
    assert not plain('{"a": 1234567890123456}')


# ---------------------------------------------------------------------------------------
# The compiled schema validator: a short cut to "valid", never a different answer


@pytest.fixture
def compiled() -> None:
    """Skip when the ``fast`` extra is missing (``make check`` installs it and then
    requires it: ``TAJMAHAL_REQUIRE_EXTRAS=1``)."""
    if os.environ.get("TAJMAHAL_REQUIRE_EXTRAS") == "1":
        assert schemas.compiled_validator_available("trace"), "the [fast] extra is missing"
    elif not schemas.compiled_validator_available("trace"):
        pytest.skip("the [fast] extra (jsonschema-rs) is not installed")


def agrees(document: Any) -> None:
    """Read as the verifier reads it, a document the compiled validator accepts is one
    jsonschema accepts."""
    text = json.dumps(document, ensure_ascii=False)
    try:
        parsed = parse_json_document(text, RECORD_LIMITS, "x.json")
    except InputError:
        return
    if not parsed.plain_numbers:
        return
    for name in ("trace", "trace-v1", "position"):
        if compiled_says_valid(name, parsed.document):
            assert first_violation(name, parsed.document) is None, name


GOLDEN = json.loads((CORPUS / "seeded-3p-001.json").read_text(encoding="utf-8"))
GOLDEN["steps"] = GOLDEN["steps"][:40]


@pytest.mark.usefixtures("compiled")
@SETTINGS
@given(document=damaged_records(GOLDEN))
def test_compiled_validator_accepts_no_damaged_record_jsonschema_refuses(document: Any) -> None:
    agrees(document)


def _step_schema() -> dict[str, Any]:
    """The schema of one step, its references resolved, without the public position
    (``hypothesis-jsonschema`` generates from it much faster than from the record's
    schema; the damaged records above keep their public positions)."""
    step = json.loads(json.dumps(schemas.validator("trace").schema["properties"]["steps"]["items"]))
    del step["properties"]["public"]
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **step}


STEP_SCHEMA = _step_schema()


@pytest.mark.usefixtures("compiled")
@settings(parent=SETTINGS, max_examples=25)
@given(steps=st.lists(from_schema(STEP_SCHEMA), min_size=1, max_size=3))
def test_compiled_validator_accepts_no_generated_step_jsonschema_refuses(
    steps: list[Any],
) -> None:
    agrees({**GOLDEN, "steps": steps})


FLOATS_AND_TUPLES = [
    {**GOLDEN, "players": 3.0},
    {**GOLDEN, "version": 2.0},
    {**GOLDEN, "steps": [{**GOLDEN["steps"][0], "actor": 1.0}]},
]


@pytest.mark.usefixtures("compiled")
@pytest.mark.parametrize("document", FLOATS_AND_TUPLES)
def test_integers_written_with_a_fraction_never_take_the_short_cut(
    document: Any, tmp_path: Path
) -> None:
    """jsonschema-rs counts ``3.0`` as an integer, this package does not: such records
    are not plain and go to jsonschema, which refuses them."""
    parsed = parse_json_document(json.dumps(document), RECORD_LIMITS, "x.json")
    assert not parsed.plain_numbers
    assert compiled_says_valid("trace", parsed.document)  # why the guard is needed
    path = tmp_path / "fraction.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(RecordError, match=r"players|version|step 1: actor"):
        read_record(path)


def reports(paths: list[Path], monkeypatch: pytest.MonkeyPatch, fast: bool) -> list[Any]:
    monkeypatch.setenv(FAST_PATH_VARIABLE, "1" if fast else "0")
    report = verify_paths(paths, COMPONENTS)
    return [(item.outcome, item.message, item.step, item.field) for item in report.files]


def test_verify_says_the_same_with_and_without_the_short_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Good and bad records: the same outcome and the same message either way."""
    paths = [CORPUS / "seeded-3p-001.json", CORPUS / "full-3p.json"]
    rng = random.Random(7)
    for index in range(12):
        document = json.loads(json.dumps(GOLDEN))
        step = document["steps"][rng.randrange(len(document["steps"]))]
        field = rng.choice(["actor", "action", "scores", "legal_count", "tags", "extra"])
        step[field] = rng.choice([4.0, -1, "x y", [], None, "chance", 10**20])
        path = tmp_path / f"bad-{index}.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        paths.append(path)
    assert reports(paths, monkeypatch, fast=True) == reports(paths, monkeypatch, fast=False)


def test_a_record_read_either_way_is_the_same_record(monkeypatch: pytest.MonkeyPatch) -> None:
    path = CORPUS / "seeded-4p-001.json"
    monkeypatch.setenv(FAST_PATH_VARIABLE, "0")
    pure = read_record(path)
    monkeypatch.setenv(FAST_PATH_VARIABLE, "1")
    assert read_record(path) == pure


def test_without_the_extra_everything_goes_to_jsonschema(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(FAST_PATH_VARIABLE, "0")
    assert not schemas.compiled_validator_available("trace")
    assert not compiled_says_valid("trace", GOLDEN)
    assert first_violation("trace", GOLDEN, plain_json=True) is None
    broken = {**GOLDEN, "players": 6}
    violation = first_violation("trace", broken, plain_json=True)
    assert violation is not None and violation.field == "players"


@SETTINGS
@given(text=st.text(alphabet='[]{}",:\\ab0é', max_size=60))
@example(text='":""')  # a closed string, then an unterminated one
@example(text='"a""b",[]')
def test_the_structure_counted_is_what_blanking_the_strings_leaves(text: str) -> None:
    def counted(bare: str) -> str:
        return "".join(char for char in bare if char in "[]{},:")

    assert counted(input_structure._structure(text)) == counted(
        input_structure._STRING.sub("0", text)
    )


@SETTINGS
@given(
    text=st.text(alphabet="[]{},:0é", max_size=80),
    limit=st.integers(min_value=0, max_value=6),
)
@example(text="[" * 33, limit=32)
@example(text="]]][[[", limit=2)
@example(text="", limit=0)
def test_the_depth_in_c_is_the_depth_by_the_recipe(text: str, limit: int) -> None:
    assert input_structure._too_deep(text, limit) == input_structure._plain_too_deep(text, limit)


def test_the_depth_is_checked_in_c_only_for_ascii(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast depth is taken for ASCII text; turning it off gives the same verdicts."""
    deep = "[" * 40 + "]" * 40
    verdicts = [input_structure._too_deep(text, 32) for text in (deep, "[é]", "[[]]")]
    monkeypatch.setattr(input_structure, "_FAST_DEPTH", False)
    assert [input_structure._too_deep(text, 32) for text in (deep, "[é]", "[[]]")] == verdicts
    assert verdicts == [True, False, False]


# ---------------------------------------------------------------------------------------
# The command's collector setting


def test_the_command_raises_the_youngest_threshold_and_gives_it_back() -> None:
    """``tajmahal verify`` collects the youngest generation after 100,000 new objects
    while it runs, and leaves the thresholds as it found them, even after an error."""
    before = gc.get_threshold()
    with fewer_collections():
        assert gc.get_threshold() == (100_000, *before[1:])
    assert gc.get_threshold() == before
    with pytest.raises(KeyError), fewer_collections():
        raise KeyError("stop")
    assert gc.get_threshold() == before


# ---------------------------------------------------------------------------------------
# Step clauses


def plain_step_clauses(action: Action, events: tuple[Event, ...]) -> tuple[str, ...]:
    """The recipe: the action's clauses and every event's, sorted, unique."""
    return tuple(sorted({*action_clauses(action), *(c for e in events for c in e.clauses)}))


@pytest.mark.parametrize("players", [3, 5])
def test_remembered_step_clauses_are_the_plain_recipe(players: int) -> None:
    rng = random.Random(players)
    state = new_game(COMPONENTS, players, random_setup(COMPONENTS, players, 9), RuleSet())
    while not state.is_over:
        if state.is_chance:
            action: Action = random_reshuffle(state, rng)
        else:
            action = rng.choice(legal_actions(state))
        state, events = apply_with_events(state, action)
        for _ in range(2):  # written, then remembered
            assert step_clauses(action, events) == plain_step_clauses(action, events)
            assert step_clauses(action, iter(events)) == plain_step_clauses(action, events)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1), rules=rule_sets())
def test_sorted_edge_tags_are_the_edge_tags_sorted(players: int, seed: int, rules: RuleSet) -> None:
    """The replay compares the record's tags with :func:`sorted_edge_tags`, a tuple
    built without a frozenset: it is the sorted :func:`edge_tags` at every step of
    random games under every rule set."""
    rng = random.Random(seed)
    state = new_game(COMPONENTS, players, random_setup(COMPONENTS, players, seed), rules)
    shown: set[str] = set()
    while not state.is_over:
        if state.is_chance:
            action: Action = random_reshuffle(state, rng)
        else:
            action = rng.choice(legal_actions(state))
        after, events = apply_with_events(state, action)
        tags = sorted_edge_tags(state, action, events, after)
        assert tags == tuple(sorted(edge_tags(state, action, events, after)))
        assert type(tags) is tuple
        shown.update(tags)
        state = after
    assert "last-player-alone" in shown  # the last player of every visit acts alone


# ---------------------------------------------------------------------------------------
# The verifier's replay


def test_replayed_states_are_the_states_of_replay_steps() -> None:
    for path in sorted(CORPUS.glob("*.json"))[:12]:
        record = read_record(path)
        assert list(replayed_states(record, COMPONENTS)) == [
            replayed.after for replayed in replay_steps(record, COMPONENTS)
        ]


def test_replayed_states_stop_with_the_error_replay_steps_raises(tmp_path: Path) -> None:
    path = sorted(CORPUS.glob("*.json"))[0]
    document = json.loads(path.read_text(encoding="utf-8"))
    document["steps"][7]["state_digest"] = "sha256:" + "0" * 64
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps(document), encoding="utf-8")
    record = read_record(damaged)
    errors = []
    for replaying in (replayed_states, replay_steps):
        with pytest.raises(VerificationError) as caught:
            list(replaying(record, COMPONENTS))
        errors.append(caught.value)
    assert [(e.step, e.field, str(e), e.mismatches) for e in errors] == [
        (8, "state_digest", str(errors[1]), errors[1].mismatches)
    ] * 2


def plain_legal_summary(actions: tuple[Action, ...]) -> tuple[list[str], str]:
    """The recipe: the sorted strings of the actions and their legal digest."""
    strings = sorted(str(action) for action in actions)
    return strings, legal_digest(strings)


@SETTINGS
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1), rules=rule_sets())
def test_remembered_legal_digests_are_the_plain_recipe(
    players: int, seed: int, rules: RuleSet
) -> None:
    """At every state of a random game, the string tables list the strings of the legal
    actions, in their order, and their digest is the digest of the actions, digested
    afresh and found again."""
    tables = trace_replay._string_tables(COMPONENTS)
    for state in game(players, seed, rules):
        actions = legal_actions(state)
        strings = legal_choices(state, tables)
        assert strings == [str(action) for action in actions]
        for _ in range(2):  # digested, then remembered
            assert trace_replay._legal_digest(strings) == legal_digest(actions)


def test_legal_digests_of_lists_in_any_order_and_a_full_memo() -> None:
    """Strings in another order are digested by the recipe (sorted first); past its
    bound the memo starts afresh and still gives the plain digests."""
    states = [state for state in game(4, 41, RuleSet()) if legal_actions(state)]
    actions = legal_actions(states[0])
    reordered = [str(action) for action in reversed(actions)]
    assert trace_replay._legal_digest(reordered) == plain_legal_summary(actions)[1]
    tables = trace_replay._string_tables(COMPONENTS)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(trace_replay, "LEGAL_KEPT", 8)
        # Start from an empty memo: entries left by earlier tests are only emptied when
        # a new key is added, so the bound holds from the first miss on, not before.
        patch.setattr(trace_replay, "_LEGAL", {})
        for state in states:
            strings = legal_choices(state, tables)
            assert (
                trace_replay._legal_digest(strings) == plain_legal_summary(legal_actions(state))[1]
            )
            assert len(trace_replay._LEGAL) <= 8


def test_verify_says_the_same_with_remembered_and_fresh_legal_summaries(
    tmp_path: Path,
) -> None:
    """The corpus's first records and a record whose legal count and digest are damaged
    verify alike either way, messages included."""
    paths: list[str | Path] = [*sorted(CORPUS.glob("*.json"))[:4]]
    text = Path(paths[0]).read_text(encoding="utf-8")
    for index, field in ((5, "legal_count"), (9, "legal_digest")):
        document = json.loads(text)
        step = document["steps"][index]
        step[field] = step[field] + 1 if field == "legal_count" else "sha256:" + "1" * 64
        path = tmp_path / f"damaged-{field}.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        paths.append(path)

    def lines(report: Any) -> list[Any]:
        return [(f.outcome, f.message, f.step, f.field, f.mismatches) for f in report.files]

    remembered = lines(verify_paths(paths, COMPONENTS))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(trace_replay, "_legal_digest", trace_replay._plain_legal_digest)
        assert lines(verify_paths(paths, COMPONENTS)) == remembered
    assert [line[0].value for line in remembered] == ["ok"] * 4 + ["diverged"] * 2
    assert [line[2:4] for line in remembered[4:]] == [
        (6, "legal_count"),
        (10, "legal_digest"),
    ]  # steps[5], steps[9]


def test_step_clauses_of_events_with_a_clause_list_are_the_plain_recipe() -> None:
    """An event built with a list of clauses (not hashable) is not remembered."""
    state = next(game(4, 3, RuleSet()))
    action = legal_actions(state)[0]
    _, events = apply_with_events(state, action)
    listed: Any = [*events[0].clauses, "TM.ZZZ"]
    odd = (attrs.evolve(events[0], clauses=listed), *events[1:])
    for _ in range(2):
        assert step_clauses(action, odd) == plain_step_clauses(action, odd)


# ---------------------------------------------------------------------------------------
# The benchmark's comparison with another checkout


def test_the_benchmark_compares_with_another_checkout(capsys: pytest.CaptureFixture[str]) -> None:
    """This checkout against itself, copied under another name: both verify the same
    record and give the same digest."""
    import bench_verify

    record = str(sorted(CORPUS.glob("*.json"))[0])
    assert bench_verify.main(["--against", str(ROOT), "--runs", "2", record]) == 0
    printed = capsys.readouterr().out
    digests = re.findall(r"digest (sha256:[0-9a-f]{16})", printed)
    assert len(digests) == 2 and digests[0] == digests[1]
    assert "per-run ratios" in printed
