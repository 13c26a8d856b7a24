"""Game records: writing, reading, the published schema, and errors that name the field.

No clause markers: these tests check the record format (``specs/schemas/trace.schema.json``)
and its error reporting, not a rule of the game.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import pytest
from positions import NON_DEFAULT_RULES
from referencing import Registry, Resource

from tajmahal import RecordError, RuleSet, apply, default_components, legal_actions, parse_action
from tajmahal.agents import GreedyPlayer, MatchResult, Player, RandomPlayer, play_match
from tajmahal.model import Components, Step
from tajmahal.notation import state_from_json, state_to_json
from tajmahal.records import (
    Record,
    VerificationError,
    dumps_record,
    read_record,
    record_to_json,
    replay,
    replay_steps,
    verify,
    write_record,
)

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "specs" / "schemas" / "trace.schema.json"
V1_RECORD = ROOT / "tests" / "data" / "trace-v1-3p-seed11.json"
KNOWN_IDS = {
    line.split('"')[1]
    for path in (*(ROOT / "specs" / "clauses").glob("*.toml"), *(ROOT / "rulings").glob("*.toml"))
    for line in path.read_text(encoding="utf-8").splitlines()
    if line.startswith("id = ")
}
"""Every clause and ruling id of the registry."""


def _components() -> Components:
    return default_components()


def _match(players: int = 4, seed: int = 7, rules: RuleSet | None = None) -> MatchResult:
    agents: list[Player] = [
        GreedyPlayer(seed),
        RandomPlayer(seed),
        GreedyPlayer(seed + 1),
        RandomPlayer(seed + 1),
        GreedyPlayer(seed + 2),
    ]
    return play_match(_components(), agents[:players], seed, rules)


@pytest.fixture(scope="module")
def match() -> MatchResult:
    return _match()


@pytest.fixture
def document(match: MatchResult) -> dict[str, Any]:
    """A fresh, modifiable JSON document of the module's record."""
    return json.loads(dumps_record(match.record))  # type: ignore[no-any-return]


def _write(path: Path, document: dict[str, Any]) -> Path:
    path.write_text(json.dumps(document, indent=1), encoding="utf-8")
    return path


def _read_and_verify(path: Path) -> None:
    verify(read_record(path), _components(), str(path))


# ---------------------------------------------------------------------------------------
# Round trips and layout


def test_write_then_read_round_trips(match: MatchResult, tmp_path: Path) -> None:
    path = tmp_path / "sub" / "game.json"
    write_record(match.record, path)
    assert read_record(path) == match.record
    assert not [p for p in path.parent.iterdir() if p.name != "game.json"], "temporary left"


@pytest.mark.parametrize("players", [3, 5])
def test_round_trip_other_player_counts_and_rules(players: int, tmp_path: Path) -> None:
    record = _match(players, seed=players, rules=NON_DEFAULT_RULES).record
    path = tmp_path / "game.json"
    write_record(record, path)
    again = read_record(path)
    assert again == record
    assert again.rules == NON_DEFAULT_RULES


def test_record_verifies_to_the_final_state(match: MatchResult) -> None:
    final = verify(match.record, _components())
    assert final == match.final
    assert final.is_over
    assert match.record.final_scores == final.scores
    assert match.record.winners == final.winners()


def test_dumps_record_is_json_with_one_step_per_line(match: MatchResult) -> None:
    text = dumps_record(match.record)
    document = json.loads(text)
    assert document == record_to_json(match.record)
    lines = text.splitlines()
    step_lines = [line for line in lines if line.startswith("  {")]
    assert len(step_lines) == len(match.record.steps)
    for line, step in zip(step_lines, document["steps"], strict=True):
        assert json.loads(line.rstrip(",")) == step
    # Everything else is one top-level field per line.
    others = [line for line in lines if not line.startswith("  {")]
    assert others[0] == "{" and others[-1] == "}"
    assert len(others) == len(document) + 3  # braces, and the closing ']' of the steps


def _outsider_validator() -> Any:
    """The trace schema checked as an outsider would: plain jsonschema, with the other
    published schemas registered for its cross-file references."""
    schemas = [
        json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(SCHEMA.parent.glob("*.schema.json"))
    ]
    registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas
    )
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    return validator_class(schema, registry=registry)


def test_record_validates_against_the_schema(match: MatchResult) -> None:
    validator = _outsider_validator()
    for record in (match.record, _match(3, 11, NON_DEFAULT_RULES).record):
        errors = sorted(validator.iter_errors(record_to_json(record)), key=str)
        assert not errors, errors[0].message
        assert not list(validator.iter_errors(json.loads(dumps_record(record))))


# ---------------------------------------------------------------------------------------
# Reading errors name the file and the field


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "missing.json"
    with pytest.raises(RecordError) as caught:
        read_record(path)
    assert caught.value.source == str(path)
    assert str(path) in str(caught.value)


def test_malformed_json_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n "format": "tajmahal-trace",\n "version": 1,,\n}\n', encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        read_record(path)
    message = str(caught.value)
    assert str(path) in message
    assert "line 3" in message
    assert "column" in message


def test_wrong_format_tag(document: dict[str, Any], tmp_path: Path) -> None:
    document["format"] = "chess-pgn"
    with pytest.raises(RecordError) as caught:
        read_record(_write(tmp_path / "g.json", document))
    assert caught.value.field == "format"
    assert "format" in str(caught.value)


def test_unknown_version(document: dict[str, Any], tmp_path: Path) -> None:
    document["version"] = 99
    with pytest.raises(RecordError) as caught:
        read_record(_write(tmp_path / "g.json", document))
    assert caught.value.field == "version"
    assert "99" in str(caught.value)


def test_unknown_card_in_a_hand(document: dict[str, Any], tmp_path: Path) -> None:
    document["setup"]["hands"][1][2] = "purple-42"
    path = _write(tmp_path / "g.json", document)
    with pytest.raises(RecordError) as caught:
        _read_and_verify(path)
    assert caught.value.field == "setup.hands[1][2]"
    assert "setup.hands[1][2]" in str(caught.value)
    assert "purple-42" in str(caught.value)


def test_wrong_actor_names_step_and_actor(document: dict[str, Any], tmp_path: Path) -> None:
    actor = document["steps"][5]["actor"]
    players = document["players"]
    document["steps"][5]["actor"] = 0 if actor == "chance" else (actor + 1) % players
    path = _write(tmp_path / "g.json", document)
    with pytest.raises(VerificationError) as caught:
        _read_and_verify(path)
    assert caught.value.step == 6  # steps[5] is step 6
    assert caught.value.field == "actor"
    assert "step 6" in str(caught.value)
    assert "actor" in str(caught.value)


def test_actor_out_of_range(document: dict[str, Any], tmp_path: Path) -> None:
    document["steps"][3]["actor"] = 9
    with pytest.raises(RecordError) as caught:
        read_record(_write(tmp_path / "g.json", document))
    assert caught.value.step == 4
    assert caught.value.field == "actor"


def test_illegal_action_names_step_and_action(
    match: MatchResult, document: dict[str, Any], tmp_path: Path
) -> None:
    # The first step where a card is played: replace it by a palace, illegal at a play step.
    index = next(
        i
        for i, step in enumerate(document["steps"])
        if step["action"].startswith("play ") and i > 0
    )
    document["steps"][index]["action"] = "palace Agra"
    path = _write(tmp_path / "g.json", document)
    with pytest.raises(VerificationError) as caught:
        _read_and_verify(path)
    assert caught.value.step == index + 1
    assert caught.value.field == "action"
    assert f"step {index + 1}" in str(caught.value)
    assert "action" in str(caught.value)


def test_unparsable_action_names_step_and_action(document: dict[str, Any], tmp_path: Path) -> None:
    document["steps"][2]["action"] = "play  red-01"
    with pytest.raises(RecordError) as caught:
        _read_and_verify(_write(tmp_path / "g.json", document))
    assert caught.value.step == 3
    assert caught.value.field == "action"


def test_unknown_rule_option(document: dict[str, Any], tmp_path: Path) -> None:
    document["ruleset"]["xyz"] = "1"
    with pytest.raises(RecordError) as caught:
        read_record(_write(tmp_path / "g.json", document))
    assert caught.value.field == "ruleset.xyz"
    assert "ruleset.xyz" in str(caught.value)


def test_unknown_rule_value(document: dict[str, Any], tmp_path: Path) -> None:
    document["ruleset"]["majority_scope"] = "some"
    with pytest.raises(RecordError) as caught:
        read_record(_write(tmp_path / "g.json", document))
    assert caught.value.field == "ruleset.majority_scope"


def test_other_component_set_is_refused(document: dict[str, Any], tmp_path: Path) -> None:
    document["components"]["digest"] = "sha256:" + "0" * 64
    with pytest.raises(RecordError) as caught:
        _read_and_verify(_write(tmp_path / "g.json", document))
    assert caught.value.field == "components.digest"


def test_extra_step_after_the_end(document: dict[str, Any], tmp_path: Path) -> None:
    document["steps"].append({"actor": 0, "action": "withdraw"})
    with pytest.raises(VerificationError) as caught:
        _read_and_verify(_write(tmp_path / "g.json", document))
    assert caught.value.step == len(document["steps"])  # the last step, counted from 1


def test_non_integer_player_count(document: dict[str, Any], tmp_path: Path) -> None:
    document["players"] = float(document["players"])
    with pytest.raises(RecordError) as caught:
        read_record(_write(tmp_path / "g.json", document))
    assert caught.value.field == "players"


# ---------------------------------------------------------------------------------------
# Verification


def test_tampered_step_score(document: dict[str, Any], tmp_path: Path) -> None:
    index = 12
    document["steps"][index]["scores"][0] += 1
    with pytest.raises(VerificationError) as caught:
        _read_and_verify(_write(tmp_path / "g.json", document))
    assert caught.value.step == index + 1
    assert caught.value.field == "scores"
    assert f"step {index + 1}" in str(caught.value)
    assert "scores" in str(caught.value)


def test_tampered_result(document: dict[str, Any], tmp_path: Path) -> None:
    document["result"]["scores"][1] += 5
    with pytest.raises(VerificationError) as caught:
        _read_and_verify(_write(tmp_path / "g.json", document))
    assert caught.value.field == "result.scores"


def test_tampered_winners(document: dict[str, Any], tmp_path: Path) -> None:
    winners = document["result"]["winners"]
    document["result"]["winners"] = [
        seat for seat in range(document["players"]) if seat not in winners
    ][:1]
    with pytest.raises(VerificationError) as caught:
        _read_and_verify(_write(tmp_path / "g.json", document))
    assert caught.value.field == "result.winners"


def test_truncated_record_fails_verify(match: MatchResult, tmp_path: Path) -> None:
    steps = match.record.steps[: len(match.record.steps) // 2]
    truncated = attrs.evolve(match.record, steps=steps, final_scores=None, winners=None)
    path = tmp_path / "half.json"
    write_record(truncated, path)
    record = read_record(path)
    state = replay(record, _components(), str(path))  # replays fine, as far as it goes
    assert not state.is_over
    assert len(list(replay_steps(record, _components()))) == len(steps)
    with pytest.raises(VerificationError) as caught:
        verify(record, _components(), str(path))
    assert "stops" in str(caught.value)
    assert caught.value.field == "steps"


def test_truncated_record_with_its_result_kept_fails_verify(match: MatchResult) -> None:
    truncated = attrs.evolve(match.record, steps=match.record.steps[:-1])
    with pytest.raises(VerificationError):
        verify(truncated, _components())


# ---------------------------------------------------------------------------------------
# The rule set travels with the record


def _diverging_variant_record() -> Record:
    """A record under NON_DEFAULT_RULES that the default rules do not replay."""
    components = _components()
    for seed in range(40):
        record = _match(4, seed, NON_DEFAULT_RULES).record
        try:
            verify(attrs.evolve(record, rules=RuleSet()), components)
        except (RecordError, VerificationError):
            return record
    raise AssertionError("no seed found where the rule sets diverge")


def test_rule_set_is_read_from_the_record(tmp_path: Path) -> None:
    record = _diverging_variant_record()
    path = tmp_path / "variant.json"
    write_record(record, path)
    assert json.loads(path.read_text(encoding="utf-8"))["ruleset"] == NON_DEFAULT_RULES.to_json()
    loaded = read_record(path)
    assert loaded.rules == NON_DEFAULT_RULES
    final = verify(loaded, _components(), str(path))
    assert final.config.rules == NON_DEFAULT_RULES
    assert final.step is Step.OVER
    # Under the default rule set the same steps do not replay to the same result.
    document = json.loads(path.read_text(encoding="utf-8"))
    document["ruleset"] = {}
    with pytest.raises((RecordError, VerificationError)):
        _read_and_verify(_write(tmp_path / "default.json", document))


def test_a_position_written_in_any_order_loads_in_canonical_order() -> None:
    components = default_components()
    state = play_match(components, [RandomPlayer(seat) for seat in range(3)], seed=3).final
    document = state_to_json(state)
    for seat in document["seats"]:
        seat["hand"].reverse()
        seat["influence"].reverse()
    document["palaces"].reverse()
    document["discard"].reverse()
    assert state_from_json(document, components) == state


# ---------------------------------------------------------------------------------------
# Version 2: what each step carries, checked against the definitions in the docs


def _sha256(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_every_step_carries_its_digests(match: MatchResult) -> None:
    state = match.initial
    for step, events in zip(match.record.steps, match.events, strict=True):
        after = apply(state, parse_action(step.action))
        canonical = json.dumps(
            state_to_json(after), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
        assert step.state_digest == _sha256(canonical)
        assert step.scores == after.scores
        if state.is_chance:
            assert step.actor is None and step.legal_count is None and step.legal_digest is None
        else:
            strings = sorted(str(action) for action in legal_actions(state))
            assert step.actor == state.to_move
            assert step.legal_count == len(strings)
            assert step.legal_digest == _sha256("\n".join(strings))
            assert step.action in strings
        assert step.clauses == tuple(sorted(set(step.clauses)))
        assert set(step.clauses) <= KNOWN_IDS, set(step.clauses) - KNOWN_IDS
        assert step.tags is not None and list(step.tags) == sorted(set(step.tags))
        if any(event.kind == "unwon" for event in events):
            assert "unwon-tile" in step.tags
        state = after


def test_the_last_step_includes_hand_points(match: MatchResult) -> None:
    last = match.record.steps[-1]
    assert last.scores == match.final.scores == match.record.final_scores
    hand = [event for event in match.events[-1] if event.kind == "hand"]
    assert len(hand) == match.record.players, "hand points are scored in the last step"
    before = match.record.steps[-2].scores
    assert before is not None and last.scores is not None
    assert sum(last.scores) - sum(before) >= sum(event.points for event in hand)


def test_full_record_lists_legal_actions_and_public_position(tmp_path: Path) -> None:
    agents: list[Player] = [GreedyPlayer(1), RandomPlayer(2), GreedyPlayer(3)]
    result = play_match(_components(), agents, 4, full=True)
    path = tmp_path / "full.json"
    write_record(result.record, path)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert not list(_outsider_validator().iter_errors(document))
    state = result.initial
    for step in result.record.steps:
        after = apply(state, parse_action(step.action))
        assert step.public is not None
        assert step.public["deck_size"] == len(after.deck)
        assert [seat["hand_size"] for seat in step.public["seats"]] == [
            len(player.hand) for player in after.players
        ]
        assert "deck" not in step.public
        assert all("hand" not in seat for seat in step.public["seats"])
        if not state.is_chance:
            assert step.legal == tuple(str(action) for action in legal_actions(state))
        state = after
    assert verify(read_record(path), _components(), str(path)) == result.final


@pytest.mark.parametrize(
    ("field", "change"),
    [
        ("legal_count", lambda step: step.update(legal_count=step["legal_count"] + 1)),
        ("legal_digest", lambda step: step.update(legal_digest="sha256:" + "1" * 64)),
        ("state_digest", lambda step: step.update(state_digest="sha256:" + "2" * 64)),
        ("tags", lambda step: step.update(tags=["tied-winners"])),
        ("clauses", lambda step: step.update(clauses=["TM.END.TIE"])),
    ],
)
def test_tampered_expectation_names_the_field(
    document: dict[str, Any], tmp_path: Path, field: str, change: Any
) -> None:
    index = next(
        i for i, step in enumerate(document["steps"]) if i > 20 and step["actor"] != "chance"
    )
    change(document["steps"][index])
    with pytest.raises(VerificationError) as caught:
        _read_and_verify(_write(tmp_path / "g.json", document))
    assert caught.value.step == index + 1  # steps[index] is step index + 1
    assert caught.value.field == field
    assert [m.field for m in caught.value.mismatches] == [field]


@pytest.mark.parametrize(
    ("index", "key", "value", "field"),
    [
        pytest.param(7, "comment", "nice move", "comment", id="unknown-step-field"),
        pytest.param(4, "clauses", ["tm.turn.choice"], "clauses[0]", id="malformed-clause-id"),
    ],
)
def test_a_step_the_schema_refuses_is_named_with_its_field(
    document: dict[str, Any], tmp_path: Path, index: int, key: str, value: Any, field: str
) -> None:
    document["steps"][index][key] = value
    with pytest.raises(RecordError) as caught:
        read_record(_write(tmp_path / "g.json", document))
    assert caught.value.step == index + 1  # steps[index] is step index + 1
    assert caught.value.field == field


def test_chance_step_has_no_legal_fields(document: dict[str, Any], tmp_path: Path) -> None:
    index = next(i for i, step in enumerate(document["steps"]) if step["actor"] == "chance")
    document["steps"][index]["legal_count"] = 1
    document["steps"][index]["legal_digest"] = "sha256:" + "0" * 64
    with pytest.raises(RecordError) as caught:
        read_record(_write(tmp_path / "g.json", document))
    assert caught.value.step == index + 1  # steps[index] is step index + 1


def test_version_1_records_still_verify() -> None:
    record = read_record(V1_RECORD)
    assert record.version == 1
    final = verify(record, _components(), str(V1_RECORD))
    assert final.is_over
    assert record.final_scores == final.scores
    assert json.loads(V1_RECORD.read_text(encoding="utf-8"))["version"] == 1


def test_version_1_records_are_checked_against_the_version_1_schema(tmp_path: Path) -> None:
    document = json.loads(V1_RECORD.read_text(encoding="utf-8"))
    document["steps"][0]["state_digest"] = "sha256:" + "0" * 64
    with pytest.raises(RecordError) as caught:
        read_record(_write(tmp_path / "v1.json", document))
    assert caught.value.step == 1  # steps[0] is step 1
    assert caught.value.field == "state_digest"
