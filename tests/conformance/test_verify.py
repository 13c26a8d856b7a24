"""``tajmahal verify``: every file checked, divergences reported field by field, reports
for other projects' CI.

No clause markers: these tests check the verifier and its reports, not a rule.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest

from tajmahal.cli import main
from tajmahal.inputs import first_violation
from tajmahal.model import default_components
from tajmahal.notation import legal_digest
from tajmahal.verification import Outcome, json_differences, text_lines, verify_file, verify_paths

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "specs" / "traces"
GOOD = CORPUS / "seeded-3p-001.json"
FULL = CORPUS / "full-3p.json"


def _document(path: Path = GOOD) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _write(path: Path, document: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder with one good record, one diverging, one bad, a nested good one and a
    manifest (skipped)."""
    (tmp_path / "good.json").write_bytes(GOOD.read_bytes())
    diverging = _document()
    diverging["steps"][30]["scores"][0] += 1
    _write(tmp_path / "diverging.json", diverging)
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "nested.json").write_bytes(GOOD.read_bytes())
    (tmp_path / "index.json").write_text(
        '{"format": "tajmahal-trace-index", "traces": []}', encoding="utf-8"
    )
    return tmp_path


def test_every_file_is_checked_after_a_bad_one(folder: Path) -> None:
    report = verify_paths([folder], default_components())
    outcomes = {Path(r.path).name: r.outcome for r in report.files}
    assert outcomes == {
        "bad.json": Outcome.BAD_INPUT,
        "diverging.json": Outcome.DIVERGED,
        "good.json": Outcome.OK,
        "nested.json": Outcome.OK,
    }
    assert report.exit_code == 2
    assert report.summary().startswith("4 file(s): 2 conform, 1 diverge, 1 bad input")


def test_exit_codes(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(folder / "good.json"), str(folder / "sub")]) == 0
    assert main(["verify", str(folder / "good.json"), str(folder / "diverging.json")]) == 1
    assert main(["verify", str(folder)]) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err


def test_divergence_names_trace_step_action_fields_and_clauses(tmp_path: Path) -> None:
    document = _document()
    index = next(i for i, s in enumerate(document["steps"]) if s["action"] == "withdraw" and i > 8)
    document["steps"][index]["scores"][1] += 2
    document["steps"][index]["state_digest"] = "sha256:" + "0" * 64
    path = _write(tmp_path / "d.json", document)
    result = verify_file(path, default_components())
    assert result.outcome is Outcome.DIVERGED
    assert result.trace_id == "seeded-3p-001"
    assert result.step == index + 1  # steps[index] is step index + 1
    assert result.action == "withdraw"
    assert [m.field for m in result.mismatches] == ["scores", "state_digest"]
    assert result.mismatches[0].expected[1] == result.mismatches[0].actual[1] + 2
    assert result.clauses == tuple(document["steps"][index]["clauses"])
    assert any("withdraws" in line for line in result.account)
    assert result.steps == index


def test_full_record_divergence_shows_the_public_fields_that_differ(tmp_path: Path) -> None:
    document = _document(FULL)
    step = document["steps"][12]
    step["public"]["seats"][1]["score"] += 3
    step["public"]["display"] = step["public"]["display"][1:]
    result = verify_file(_write(tmp_path / "full.json", document), default_components())
    assert result.outcome is Outcome.DIVERGED
    assert result.field == "public"
    paths = [difference.path for difference in result.differences]
    assert "seats[1].score" in paths
    assert any(path.startswith("display") for path in paths)


def test_illegal_action_is_a_divergence_with_the_reason(tmp_path: Path) -> None:
    document = _document()
    index = next(i for i, s in enumerate(document["steps"]) if s["action"].startswith("play "))
    document["steps"][index]["action"] = "crown Agra"
    del document["steps"][index]["legal_count"], document["steps"][index]["legal_digest"]
    result = verify_file(_write(tmp_path / "x.json", document), default_components())
    assert result.outcome is Outcome.DIVERGED
    assert result.field == "action"
    assert "illegal" in result.mismatches[0].actual
    assert result.clauses == ("TM.TURN.CHOICE",), "the rule forbidding the move"


def test_full_record_legal_mismatch_lists_the_actions_that_differ(tmp_path: Path) -> None:
    document = _document(FULL)
    index = next(i for i, s in enumerate(document["steps"]) if s.get("legal_count", 0) > 3)
    step = document["steps"][index]
    dropped = next(a for a in step["legal"] if a != step["action"])
    step["legal"] = [a for a in step["legal"] if a != dropped]
    step["legal_count"] -= 1
    step["legal_digest"] = legal_digest(step["legal"])
    result = verify_file(_write(tmp_path / "full.json", document), default_components())
    assert [m.field for m in result.mismatches] == ["legal_count", "legal_digest", "legal"]
    lines = text_lines(result)
    assert f"         only in the reference {json.dumps([dropped])}" in lines


@pytest.mark.parametrize("kind", ["json", "junit"])
def test_reports_are_written_whole_to_a_file(
    folder: Path, tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "out" / f"report.{kind}"
    output.parent.mkdir()
    code = main(["verify", str(folder), "--report", kind, "--output", str(output)])
    assert code == 2
    assert not [p for p in output.parent.iterdir() if p.name != output.name], "temporary left"
    text = output.read_text(encoding="utf-8")
    if kind == "json":
        report = json.loads(text)
        assert first_violation("verify-report", report) is None
        assert report["summary"]["files"] == 4
        assert report["summary"]["exit_code"] == 2
        diverged = next(f for f in report["files"] if f["outcome"] == "diverged")
        assert diverged["step"] == 31  # steps[30] is step 31
        assert diverged["mismatches"][0]["field"] == "scores"
    else:
        root = ElementTree.fromstring(text)
        suite = root.find("testsuite")
        assert suite is not None
        assert suite.get("tests") == "4"
        assert suite.get("failures") == "1" and suite.get("errors") == "1"
        assert len(root.findall(".//failure")) == 1
    assert "summary" not in capsys.readouterr().out


def test_report_to_stdout_keeps_progress_on_stderr(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", str(folder / "good.json"), "--report", "json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["summary"]["ok"] == 1
    assert captured.err.startswith("OK ")


def test_json_differences_name_leaf_paths() -> None:
    left = {"a": 1, "b": [{"c": 2}, {"c": 3}], "d": [1, 2]}
    right = {"a": 1, "b": [{"c": 2}, {"c": 4}], "d": [1], "e": True}
    found = {d.path: (d.expected, d.actual) for d in json_differences(left, right)}
    assert found == {"b[1].c": (3, 4), "d": ([1, 2], [1]), "e": (None, True)}


def test_the_conformance_guide_shows_real_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    guide = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    marker = "<!-- divergence-example: seeded-3p-001.json step 8 seat 2 +2 -->"
    block = guide.split(marker, 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    document = _document(CORPUS / "seeded-3p-001.json")
    document["steps"][7]["scores"][2] += 2  # step 8
    _write(tmp_path / "my-games" / "g17.json", document)
    monkeypatch.chdir(tmp_path)
    assert main(["verify", "my-games/g17.json"]) == 1
    assert capsys.readouterr().err == block


def test_play_full_writes_a_record_that_verifies(tmp_path: Path) -> None:
    path = tmp_path / "full.json"
    assert (
        main(["play", "--players", "3", "--seed", "9", "--quiet", "--full", "--trace", str(path)])
        == 0
    )
    document = _document(path)
    decisions = [step for step in document["steps"] if step["actor"] != "chance"]
    assert all(step["action"] in step["legal"] for step in decisions)
    assert all("public" in step for step in document["steps"])
    assert verify_file(path, default_components()).outcome is Outcome.OK


def test_a_folder_without_records_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("no records here", encoding="utf-8")
    assert main(["verify", str(tmp_path)]) == 2
    assert f"error: {tmp_path}: is a folder with no *.json record in it" in capsys.readouterr().err


def test_report_lines_escape_control_characters(tmp_path: Path) -> None:
    path = _write(tmp_path / "x.json", {"format": "tajmahal-trace", "version": "\x1b[2J"})
    result = verify_file(path, default_components())
    assert result.outcome is Outcome.BAD_INPUT
    (line,) = text_lines(result)
    assert "\x1b" not in line
    assert "version" in line


def test_a_file_name_that_is_not_utf8_prints_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = str(tmp_path / "bad-\udcff.json")
    Path(name).write_text("{}", encoding="utf-8")
    assert main(["verify", name]) == 2
    err = capsys.readouterr().err
    assert "bad-\\udcff.json" in err or "bad-\\xff.json" in err


def test_the_library_example_of_the_guide_runs(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The guide's block, run on the small folder of this module (not the whole corpus,
    which the corpus test verifies already)."""
    guide = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    block = guide.split("<!-- verify-library -->", 1)[1].split("```python\n", 1)[1]
    code = block.split("```", 1)[0]
    assert '"specs/traces"' in code
    namespace: dict[str, Any] = {}
    exec(code.replace('"specs/traces"', repr(str(folder))), namespace)
    assert namespace["summary"] == {**namespace["summary"], "files": 4, "diverged": 1}
    printed = capsys.readouterr().out
    assert "diverging.json 31 scores" in printed  # steps[30] is step 31
    assert printed.rstrip().endswith(namespace["report"].summary())
