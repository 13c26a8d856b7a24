"""Reading a record with the compiled validator vouching first gives exactly what the
core's reading gives: the same record, or the same error.

``accel._records.read_record`` asks ``jsonschema-rs`` (the ``fast`` extra) whether a
record with plain numbers is valid before ``jsonschema`` is asked. It must never vouch for
a record ``jsonschema`` refuses: checked on damaged golden records, on steps generated
from the schema, on numbers written with a fraction, and on whole files read both ways.
The tests run with and without the extra installed (``make check`` requires it).

``accel._records.parse_action`` remembers the action strings it has parsed: it must give
the same action, or refuse with the same message, as :func:`tajmahal.model.parse_action`.
``accel._records.edge_tags`` must find the tags :func:`tajmahal.records.edge_tags` finds,
on every step of the random games the other pinning tests play.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from games import GAMES, steps
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from depth import depth
from tajmahal.accel import _records
from tajmahal.errors import ActionSyntaxError, RecordError
from tajmahal.inputs import RECORD_LIMITS, InputError, first_violation, parse_json_document
from tajmahal.inputs import validator as schema_validator
from tajmahal.model import Play, RuleSet, default_components
from tajmahal.records import Record, read_record, replay_steps
from tajmahal.testing.strategies import damaged_records

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "specs" / "traces"
READ = _records.READ_RECORD
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture
def compiled() -> None:
    """Skip when the ``fast`` extra is missing (``make check`` installs it and then
    requires it: ``TAJMAHAL_REQUIRE_EXTRAS=1``)."""
    if os.environ.get("TAJMAHAL_REQUIRE_EXTRAS") == "1":
        assert _records.compiled_available("trace"), "the [fast] extra is missing"
    elif not _records.compiled_available("trace"):
        pytest.skip("the [fast] extra (jsonschema-rs) is not installed")


def read_either_way(path: Path) -> tuple[Record | str, Record | str]:
    """The record or the error message, read by the drop-in and by the core."""
    found: list[Record | str] = []
    for read in (READ.fast, READ.core):
        try:
            found.append(read(path))
        except RecordError as error:
            found.append(str(error))
    return found[0], found[1]


def agrees(document: Any) -> None:
    """Read as a record file is read, a document the compiled validator vouches for is
    one jsonschema accepts."""
    try:
        parsed = parse_json_document(json.dumps(document, ensure_ascii=False), RECORD_LIMITS, "x")
    except InputError:
        return
    if not parsed.plain_numbers:
        return
    for name in ("trace", "trace-v1", "position"):
        if _records.vouch(name, parsed.document):
            assert first_violation(name, parsed.document) is None, name


GOLDEN = json.loads((CORPUS / "seeded-3p-001.json").read_text(encoding="utf-8"))
GOLDEN["steps"] = GOLDEN["steps"][:40]


@pytest.mark.pins(READ)
@pytest.mark.usefixtures("compiled")
@SETTINGS
@given(document=damaged_records(GOLDEN))
def test_the_compiled_validator_vouches_for_no_damaged_record_jsonschema_refuses(
    document: Any,
) -> None:
    agrees(document)


def _step_schema() -> dict[str, Any]:
    """The schema of one step, its references resolved, without the public position
    (``hypothesis-jsonschema`` generates from it much faster than from the record's)."""
    step = json.loads(json.dumps(schema_validator("trace").schema["properties"]["steps"]["items"]))
    del step["properties"]["public"]
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **step}


@pytest.mark.pins(READ)
@pytest.mark.usefixtures("compiled")
@settings(parent=SETTINGS, max_examples=depth(10, 25))
@given(steps=st.lists(from_schema(_step_schema()), min_size=1, max_size=3))
def test_the_compiled_validator_vouches_for_no_generated_step_jsonschema_refuses(
    steps: list[Any],
) -> None:
    agrees({**GOLDEN, "steps": steps})


@pytest.mark.pins(READ)
@pytest.mark.usefixtures("compiled")
@pytest.mark.parametrize(
    "document",
    [
        {**GOLDEN, "players": 3.0},
        {**GOLDEN, "version": 2.0},
        {**GOLDEN, "steps": [{**GOLDEN["steps"][0], "actor": 1.0}]},
    ],
)
def test_integers_written_with_a_fraction_are_refused_though_the_compiled_validator_accepts_them(
    document: Any, tmp_path: Path
) -> None:
    """jsonschema-rs counts ``3.0`` as an integer, this package does not: such records
    have numbers that are not plain, so they go to jsonschema, which refuses them."""
    parsed = parse_json_document(json.dumps(document), RECORD_LIMITS, "x.json")
    assert not parsed.plain_numbers
    assert _records.vouch("trace", parsed.document)  # why the numbers must be plain
    path = tmp_path / "fraction.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    fast, core = read_either_way(path)
    assert isinstance(fast, str) and fast == core


@pytest.mark.pins(READ)
def test_every_corpus_record_reads_the_same_either_way() -> None:
    """Every third record of the corpus under ``make check``, every record deep."""
    records = [path for path in sorted(CORPUS.glob("*.json")) if path.name != "index.json"]
    for path in records[:: depth(3, 1)]:
        fast, core = read_either_way(path)
        assert isinstance(fast, Record), path
        assert fast == core, path


@pytest.mark.pins(READ)
def test_damaged_records_are_refused_with_the_same_message_either_way(tmp_path: Path) -> None:
    rng = random.Random(7)
    for index in range(16):
        document = json.loads(json.dumps(GOLDEN))
        step = document["steps"][rng.randrange(len(document["steps"]))]
        field = rng.choice(["actor", "action", "scores", "legal_count", "tags", "extra"])
        step[field] = rng.choice([4.0, -1, "x y", [], None, "chance", 10**20])
        path = tmp_path / f"bad-{index}.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        fast, core = read_either_way(path)
        assert fast == core


@pytest.mark.pins(READ)
def test_a_document_the_compiled_validator_cannot_read_goes_to_jsonschema() -> None:
    """A value it cannot read (a tuple, a set) or no compiled validator at all: the
    compiled validator vouches for nothing."""
    assert not _records.vouch("trace", {**GOLDEN, "steps": {1, 2}})
    assert not _records.vouch("no-such-schema", GOLDEN) or _records.compiled_available(
        "no-such-schema"
    )


PARSE = _records.PARSE_ACTION


def _parsed(parse: Any, text: Any) -> tuple[str, Any]:
    """What ``parse`` makes of ``text``: ("parsed", the action) or ("refused", the
    message)."""
    try:
        return ("parsed", parse(text))
    except ActionSyntaxError as error:
        return ("refused", str(error))


@pytest.mark.pins(PARSE)
def test_every_action_of_the_corpus_parses_the_same_either_way() -> None:
    texts = [
        step["action"]
        for path in sorted(CORPUS.glob("*.json"))
        if path.name != "index.json"
        for step in json.loads(path.read_text(encoding="utf-8"))["steps"]
    ]
    # Twice: the second time the fast path finds every string remembered.
    for text in texts + texts:
        assert _parsed(PARSE.fast, text) == _parsed(PARSE.core, text) != ("refused", None)


@pytest.mark.pins(PARSE)
@pytest.mark.parametrize(
    "text",
    [
        "",
        " withdraw",
        "withdraw ",
        "withdraw now",
        "play",
        "play a b c",
        "take b a",
        "palace",
        "crown x y",
        "reshuffle",
        "jump",
        None,
        5,
        ["play", "red-01"],
    ],
)
def test_malformed_actions_are_refused_with_the_same_message_either_way(text: Any) -> None:
    for _ in range(2):  # a refused string is not remembered: refused again the same way
        fast = _parsed(PARSE.fast, text)
        assert fast == _parsed(PARSE.core, text)
        assert fast[0] == "refused"


@pytest.mark.pins(PARSE)
def test_a_string_subclass_goes_to_the_core() -> None:
    class Text(str):
        pass

    assert PARSE.fast(Text("play red-01")) == PARSE.core("play red-01")


EDGE_TAGS = _records.EDGE_TAGS


@pytest.mark.pins(EDGE_TAGS)
@pytest.mark.parametrize(("players", "seed", "rules"), GAMES)
def test_edge_tags_are_the_core_edge_tags(players: int, seed: int, rules: RuleSet) -> None:
    shown: set[str] = set()
    for step in steps(players, seed, rules):
        fast = EDGE_TAGS.fast(step.before, step.action, step.events, step.after)
        assert fast == EDGE_TAGS.core(step.before, step.action, step.events, step.after)
        # Events given as an iterator are read once, also when the core tags some of them.
        assert fast == EDGE_TAGS.fast(step.before, step.action, iter(step.events), step.after)
        shown |= fast
    assert shown  # every game shows some tag


@pytest.mark.pins(EDGE_TAGS)
def test_every_tag_the_random_games_show_is_found_the_same_either_way() -> None:
    """Over the games of the pinning tests, every tag the core finds is found by the fast
    path too (the events it tags itself and those it hands to the core's rules)."""
    core_tags: set[str] = set()
    fast_tags: set[str] = set()
    for players, seed, rules in GAMES[::3]:
        for step in steps(players, seed, rules):
            core_tags |= EDGE_TAGS.core(step.before, step.action, step.events, step.after)
            fast_tags |= EDGE_TAGS.fast(step.before, step.action, step.events, step.after)
    assert fast_tags == core_tags
    assert {"tie", "tie-broken", "zero-symbols", "last-player-alone"} <= core_tags


@pytest.mark.pins(EDGE_TAGS)
@pytest.mark.deep
def test_every_step_of_the_edge_records_is_tagged_the_same_either_way() -> None:
    """The corpus's edge records reach the rare events the fast path hands to the core
    (crowns, bonuses, exchanges, forfeits, unwon tiles, the end). ``make check`` verifies
    their recorded tags with the fast path; here every step is compared with the core."""
    reached: set[str] = set()
    for path in sorted(CORPUS.glob("edge-*.json")):
        for step in replay_steps(read_record(path), default_components(), str(path)):
            fast = EDGE_TAGS.fast(step.before, step.action, step.events, step.after)
            assert fast == EDGE_TAGS.core(step.before, step.action, step.events, step.after), (
                f"{path.name}, step {step.number}: {step.action}"
            )
            reached |= fast
    assert {"pairs-collide", "crown-on-occupied", "card-bonus-empty-deck"} <= reached


@pytest.mark.pins(EDGE_TAGS)
def test_an_action_of_a_subclass_is_tagged_by_the_core() -> None:
    """The fast path compares an action's exact type; an instance of a subclass of
    ``Play`` goes to the core's :func:`tajmahal.records.action_tags`."""

    class Marked(Play):
        pass

    for step in steps(3, 7, RuleSet()):
        if isinstance(step.action, Play) and "last-player-alone" in EDGE_TAGS.core(
            step.before, step.action, step.events, step.after
        ):
            marked = Marked(step.action.coloured, step.action.extra)
            tags = EDGE_TAGS.fast(step.before, marked, step.events, step.after)
            assert "last-player-alone" in tags
            assert tags == EDGE_TAGS.core(step.before, marked, step.events, step.after)
            return
    pytest.fail("game 7 has no play by the last player left in a visit")
