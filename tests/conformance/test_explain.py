"""Explaining a disagreement: deliberately wrong records, each explained in the terms an
implementer acts on.

Every record here is a golden record with one thing changed, as another engine might
have written it: a wrong score, a different move, a different state, a step deleted, a
step inserted, a wrong legal count, legal actions missing and extra, an action the
reference refuses. Each explanation must name the step (numbered from 1, as every tool
numbers steps), the position it is played from, the action, a rule, and what was
expected (the reference's) and found (the record's). The clauses expected are read from
the registry's ids the rulebooks give these rules, or from the engine's own refusal
(never from the explanation code). No clause markers: these tests check the tool, not a
rule.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tajmahal.engine import apply, legal_actions
from tajmahal.errors import IllegalActionError
from tajmahal.model import GameState, default_components, parse_action
from tajmahal.notation import legal_digest
from tajmahal.records import read_record, replay_steps
from tajmahal.verification import (
    Explanation,
    FileReport,
    Hypothesis,
    Outcome,
    explanation_to_json,
    text_lines,
    verify_file,
)

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "specs" / "traces"
SEEDED = CORPUS / "seeded-3p-001.json"  # steps 6 to 11 are described in docs/trace-format.md
FULL = CORPUS / "full-3p.json"
COMPONENTS = default_components()


def _document(path: Path = SEEDED) -> dict[str, Any]:
    return copy.deepcopy(_documents(path))


_CACHE: dict[Path, dict[str, Any]] = {}


def _documents(path: Path) -> dict[str, Any]:
    if path not in _CACHE:
        _CACHE[path] = json.loads(path.read_text(encoding="utf-8"))
    return _CACHE[path]


def _verify(tmp_path: Path, document: dict[str, Any]) -> tuple[FileReport, Explanation, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    result = verify_file(path, COMPONENTS)
    assert result.outcome is Outcome.DIVERGED, result.message
    assert result.explanation is not None
    return result, result.explanation, "\n".join(text_lines(result))


def _position_after(path: Path, steps: int) -> GameState:
    """The reference's position after the first ``steps`` steps of a golden record."""
    record = read_record(path)
    for replayed in replay_steps(record, COMPONENTS):
        if replayed.number == steps:
            return replayed.after
    raise AssertionError(steps)


def _refusing_clause(state: GameState, text: str) -> str:
    """The clause the engine names when it refuses ``text`` in ``state``."""
    with pytest.raises(IllegalActionError) as refused:
        apply(state, parse_action(text))
    assert refused.value.clause
    return refused.value.clause


def _names_the_place(text: str, step: int, action: str) -> None:
    """The explanation names the step, the position it is played from and the action."""
    assert f"step {step}: {action}" in text or f"step {step}, before its action" in text
    assert f"the position after step {step - 1}" in text
    assert action in text


def test_a_wrong_score_names_the_scoring_rule_and_both_scores(tmp_path: Path) -> None:
    document = _document()
    document["steps"][7]["scores"][2] += 2  # step 8, palace G3: the reference scores 4 in all
    result, explanation, text = _verify(tmp_path, document)
    assert (explanation.kind, explanation.step, explanation.action) == ("scores", 8, "palace G3")
    assert explanation.scores == ((0, 0, 4), (0, 0, 6))
    # The +2 the record adds is the size of the goods bonus tile the step scores: that
    # rule is named first.
    assert explanation.rules[0].id == "TM.SCORE.BONUS.GOOD"
    assert "bonus-10" in explanation.rules[0].reason
    _names_the_place(text, 8, "palace G3")
    assert "expected [0, 0, 4] (the reference), found [0, 0, 6] (the record)" in text
    assert result.message.startswith(f"{result.path}: step 8: scores:")


def test_a_different_move_is_named_with_the_move_its_expectations_fit(tmp_path: Path) -> None:
    document = _document()
    assert document["steps"][6]["action"] == "palace G1"  # step 7
    document["steps"][6]["action"] = "palace G3"  # legal too, but the expectations are G1's
    result, explanation, text = _verify(tmp_path, document)
    assert (explanation.kind, explanation.step) == ("different-move", 7)
    assert "palace G1" in explanation.summary and "palace G3" in explanation.summary
    assert result.message.startswith(f"{result.path}: step 7: different-move:")
    _names_the_place(text, 7, "palace G3")


def test_a_different_state_leads_with_the_fields_that_differ(tmp_path: Path) -> None:
    document = _document(FULL)
    step = document["steps"][11]  # step 12: P0's crown palace, which scores its chain (1)
    assert step["action"] == "crown K1"
    step["public"]["seats"][0]["score"] += 3
    found = step["public"]["seats"][0]["score"]
    result, explanation, text = _verify(tmp_path, document)
    assert (explanation.kind, explanation.step) == ("state", 12)
    assert not explanation.digest_only
    [difference] = explanation.differences
    assert (difference.path, difference.expected, difference.actual) == (
        "seats[0].score",
        found - 3,
        found,
    )
    assert f"seats[0].score: expected {found - 3}, found {found}" in text
    assert "state digest after" not in text  # the fields lead; no digest is needed
    assert explanation.rules[0].id == "TM.SCORE.PALACE.CURRENT"  # P0's only points here
    # The first line names the field, not the two whole public positions.
    assert result.message == (
        f"{result.path}: step 12: public: seats[0].score: the record says {found}, the "
        f"reference {found - 3}"
    )
    _names_the_place(text, 12, "crown K1")


def test_a_field_the_step_does_not_change_names_no_rule(tmp_path: Path) -> None:
    document = _document(FULL)
    document["steps"][11]["public"]["seats"][1]["score"] += 3  # P1 does nothing in step 12
    _, explanation, text = _verify(tmp_path, document)
    assert explanation.rules == ()
    assert "nothing the reference did in the step changes what differs" in text


def test_a_digest_alone_is_the_last_resort_and_says_so(tmp_path: Path) -> None:
    document = _document()
    reference = document["steps"][7]["state_digest"]
    document["steps"][7]["state_digest"] = "sha256:" + "0" * 64
    _, explanation, text = _verify(tmp_path, document)
    assert (explanation.kind, explanation.step, explanation.digest_only) == ("state", 8, True)
    assert explanation.digests == (reference, "sha256:" + "0" * 64)
    assert "only the digests are known (the last resort)" in text
    assert f"expected {reference} (the reference)" in text
    _names_the_place(text, 8, "palace G3")


def test_a_deleted_step_is_recognised_as_one(tmp_path: Path) -> None:
    document = _document()
    assert document["steps"][7]["action"] == "palace G3"
    del document["steps"][7]  # the record's step 8 is now the take of step 9
    result, explanation, text = _verify(tmp_path, document)
    assert (explanation.kind, explanation.step) == ("deleted-step", 8)
    assert "palace G3" in explanation.summary
    assert result.message.startswith(f"{result.path}: step 8: deleted-step: a step is missing")
    assert "legal_count" not in result.message and "legal_digest" not in result.message
    # The rule named is what places a palace, not an unrelated clause of the take.
    assert "TM.REWARD.INFLUENCE.PALACE" in [rule.id for rule in explanation.rules]
    _names_the_place(text, 8, "take green-08 green-17")


def test_an_inserted_step_is_recognised_as_one(tmp_path: Path) -> None:
    document = _document()
    document["steps"].insert(7, copy.deepcopy(document["steps"][8]))  # step 9 twice
    result, explanation, text = _verify(tmp_path, document)
    assert (explanation.kind, explanation.step) == ("inserted-step", 8)
    assert explanation.action == "take green-08 green-17"
    assert result.message.startswith(f"{result.path}: step 8: inserted-step: a step too many")
    refused = _refusing_clause(_position_after(SEEDED, 7), "take green-08 green-17")
    assert explanation.rules[0].id == refused
    _names_the_place(text, 8, "take green-08 green-17")


def test_a_wrong_legal_count_lists_the_reference_actions_and_why(tmp_path: Path) -> None:
    document = _document()
    step = document["steps"][10]  # step 11, palace G2: the reference allows G2 and G4
    step["legal_count"] += 1
    _, explanation, text = _verify(tmp_path, document)
    assert (explanation.kind, explanation.step) == ("legal", 11)
    assert explanation.legal is not None
    reference, record = explanation.legal
    assert reference.actions == ("palace G2", "palace G4")
    assert (reference.to_move, record.to_move) == (0, 0)
    assert (reference.count, record.count, record.actions) == (2, 3, None)
    assert "the reference's 2: palace G2, palace G4" in text
    assert "step 11, before its action: the position after step 10" in text
    # The record allows one more placement: the rule refusing the other cities of the
    # province is named (read from the engine's refusal).
    before = _position_after(SEEDED, 10)
    assert explanation.rules[0].id == _refusing_clause(before, "palace G1")


def test_listed_legal_actions_show_missing_and_extra_in_full(tmp_path: Path) -> None:
    document = _document(FULL)
    index = next(i for i, s in enumerate(document["steps"]) if s.get("legal_count", 0) > 8)
    step = document["steps"][index]
    before = _position_after(FULL, index)
    dropped = [text for text in step["legal"] if text != step["action"]][:3]
    added = "crown Agra"
    assert added not in [str(action) for action in legal_actions(before)]
    step["legal"] = sorted({*step["legal"], added} - set(dropped))
    step["legal_count"] = len(step["legal"])
    step["legal_digest"] = legal_digest(step["legal"])
    _, explanation, text = _verify(tmp_path, document)
    assert (explanation.kind, explanation.step) == ("legal", index + 1)
    assert explanation.missing == tuple(sorted(dropped))
    assert explanation.extra == (added,)
    assert f"missing in the record (3): {', '.join(sorted(dropped))}" in text
    assert f"extra in the record (1): {added}" in text  # never cut before the extras
    assert explanation.rules[0].id == _refusing_clause(before, added)


def test_an_action_the_reference_refuses_names_the_refusing_rule(tmp_path: Path) -> None:
    document = _document()
    index = next(
        i for i, s in enumerate(document["steps"]) if s["action"].startswith("play ") and i > 20
    )
    document["steps"][index]["action"] = "crown Agra"
    _, explanation, text = _verify(tmp_path, document)
    assert (explanation.kind, explanation.step, explanation.action) == (
        "legal",
        index + 1,
        "crown Agra",
    )
    assert explanation.extra == ("crown Agra",)
    before = _position_after(SEEDED, index)
    assert explanation.rules[0].id == _refusing_clause(before, "crown Agra")
    _names_the_place(text, index + 1, "crown Agra")


def test_hypotheses_found_elsewhere_are_printed_first(tmp_path: Path) -> None:
    document = _document()
    document["steps"][7]["scores"][2] += 2
    path = tmp_path / "record.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    seen: list[int] = []

    def tester(record: Any, explanation: Explanation) -> list[Hypothesis]:
        seen.append(explanation.step)
        assert len(record.steps) == len(document["steps"])
        return [Hypothesis("your engine counts the tea it owns twice", "RUL.SCORE.GOODS_COUNT")]

    result = verify_file(path, COMPONENTS, hypotheses=tester)
    assert seen == [8]
    lines = text_lines(result)
    assert lines[2] == "  likely: your engine counts the tea it owns twice: RUL.SCORE.GOODS_COUNT"
    assert result.explanation is not None
    document_json = explanation_to_json(result.explanation)
    assert document_json["hypotheses"] == [
        {
            "text": "your engine counts the tea it owns twice",
            "rule": "RUL.SCORE.GOODS_COUNT",
            "option": None,
        }
    ]
    assert document_json["step"] == 8 and document_json["position"] == 7
