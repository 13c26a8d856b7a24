"""``show``, ``position`` and ``replay`` on a record that does not verify.

The record is displayed up to and including the step where it diverges, that step is
marked, and the fields where the record's position differs from the reference's are
shown beside it; the explanation follows on standard error and the exit code is 1. Bad
input still gets one line and exit code 2. The positions expected are the reference's,
read from the unchanged golden record. No clause markers: these tests check the tool,
not a rule.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tajmahal.cli import main
from tajmahal.model import default_components
from tajmahal.notation import canonical_json, position_from_json
from tajmahal.records import read_record, replay_steps

ROOT = Path(__file__).resolve().parents[2]
SEEDED = ROOT / "specs" / "traces" / "seeded-3p-001.json"
COMPONENTS = default_components()


def _write(tmp_path: Path, change: Any) -> Path:
    document = copy.deepcopy(json.loads(SEEDED.read_text(encoding="utf-8")))
    change(document)
    path = tmp_path / "diverging.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _wrong_score(document: dict[str, Any]) -> None:
    document["steps"][7]["scores"][2] += 2  # step 8 (palace G3): the reference scores 4


def _illegal(document: dict[str, Any]) -> None:
    document["steps"][7]["action"] = "take green-08 green-17"  # step 8: a palace is owed


def _reference_position(steps: int) -> str:
    """The canonical text of the golden record's position after ``steps`` steps."""
    record = read_record(SEEDED)
    for replayed in replay_steps(record, COMPONENTS):
        if replayed.number == steps:
            return canonical_json(replayed.after)
    raise AssertionError(steps)


@pytest.mark.parametrize("step", [None, "8", "40"])
def test_show_marks_the_diverging_step_beside_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], step: str | None
) -> None:
    path = _write(tmp_path, _wrong_score)
    arguments = ["show", str(path)] + ([] if step is None else ["--step", step])
    assert main(arguments) == 1
    captured = capsys.readouterr()
    caption = captured.out.splitlines()[0]
    assert caption.startswith("diverging.json, after step 8 of 150")
    assert "step 8 does not verify; the reference's position after it" in caption
    assert "P2 (greedy): 4 points" in captured.out  # the reference's position, drawn
    assert "The record's position after step 8, where it differs" in captured.out
    assert "scores" in captured.out and "[0, 0, 4]" in captured.out
    assert "[0, 0, 6]" in captured.out
    assert captured.err.startswith(f"FAIL {path}: step 8: scores:")
    assert "TM.SCORE.BONUS.GOOD" in captured.err


def test_show_before_the_divergence_is_an_ordinary_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, _wrong_score)
    assert main(["show", str(path), "--step", "7"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("diverging.json, after step 7 of 150\n")
    assert captured.err == ""


def test_an_action_the_reference_refuses_shows_the_position_it_is_played_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, _illegal)
    assert main(["show", str(path), "--step", "20"]) == 1
    captured = capsys.readouterr()
    caption = captured.out.splitlines()[0]
    assert caption.startswith("diverging.json, after step 7 of 150")
    assert "step 8 (take green-08 green-17) does not verify; the position it is played from" in (
        caption
    )
    assert "At the start of step 8, the record against the reference:" in captured.out
    assert "FAIL" in captured.err and "step 8" in captured.err


def test_position_prints_the_reference_position_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, _wrong_score)
    assert main(["position", str(path), "--step", "30", "--compact"]) == 1
    captured = capsys.readouterr()
    state = position_from_json(json.loads(captured.out), COMPONENTS)
    assert canonical_json(state) == _reference_position(8)
    assert "step 8 does not verify" in captured.err
    assert f"FAIL {path}: step 8: scores:" in captured.err


def test_replay_stops_at_the_marked_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, _wrong_score)
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    numbered = [int(line[:4]) for line in lines if line[:4].strip().isdigit()]
    assert numbered == list(range(1, 9))  # steps 1 to 8, the diverging one included
    assert any(line.startswith("  >>  step 8 does not verify: the scores") for line in lines)
    assert "The record diverges at step 8" in captured.out
    assert captured.err.startswith(f"FAIL {path}: step 8: scores:")


def test_bad_input_is_still_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def unreadable(document: dict[str, Any]) -> None:
        document["steps"][7]["action"] = "palace"  # not an action string

    path = _write(tmp_path, unreadable)
    for command in (["show"], ["position", "--step", "20"], ["replay"]):
        assert main([*command[:1], str(path), *command[1:]]) == 2
        captured = capsys.readouterr()
        assert captured.err.count("\n") == 1, captured.err
        assert captured.err.startswith(f"error: {path}: step 8: action:")
