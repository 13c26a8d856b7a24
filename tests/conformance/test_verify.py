"""``tajmahal verify``: every file checked, divergences reported field by field, reports
for other projects' CI.

No clause markers: these tests check the verifier and its reports, not a rule.
"""

from __future__ import annotations

import json
import shlex
import sys
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
    assert report.summary().startswith("4 files: 2 conform, 1 diverge, 1 bad input")


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
    assert f"    missing in the record (1): {dropped}" in lines
    assert "    extra in the record (0): none" in lines


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
        mismatch = diverged["mismatches"][0]
        assert mismatch["field"] == "scores"
        assert mismatch["record"][0] == mismatch["reference"][0] + 1
        explanation = diverged["explanation"]
        assert (explanation["kind"], explanation["step"], explanation["position"]) == (
            "scores",
            31,
            30,
        )
        assert explanation["scores"] == {
            "expected": mismatch["reference"],
            "found": mismatch["record"],
        }
        # Seat 0 scores nothing in that step: no rule of the reference's is named.
        assert explanation["rules"] == []
    else:
        root = ElementTree.fromstring(text)
        suite = root.find("testsuite")
        assert suite is not None
        assert suite.get("tests") == "4"
        assert suite.get("failures") == "1" and suite.get("errors") == "1"
        assert len(root.findall(".//failure")) == 1
    assert "summary" not in capsys.readouterr().out


def test_the_html_report_draws_each_divergence_in_one_file(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "out" / "report.html"
    output.parent.mkdir()
    diverging = str(folder / "diverging.json")
    assert main(["verify", diverging, "--report", "html", "--output", str(output)]) == 1
    assert [path.name for path in output.parent.iterdir()] == ["report.html"]
    page = output.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert page.count("<svg") == 2  # the board before step 31 and after it
    assert "before step 31" in page and "after step 31 (the reference)" in page
    assert "expected (the reference)" in page and "found (the record)" in page
    assert "what differs: the scores after the step differ: P0 +1" in page
    # Self-contained: no script, no style sheet, picture or font fetched from elsewhere.
    for outside in ("<script", "<link", "src=", "@import", "url("):
        assert outside not in page
    assert "summary" not in capsys.readouterr().out


@pytest.mark.parametrize("kind", ["json", "junit", "html"])
def test_a_report_is_never_written_over_an_input(
    folder: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    record = folder / "diverging.json"
    before = record.read_bytes()
    for path in (str(record), str(record.parent / "." / record.name)):
        code = main(["verify", str(folder), "--report", kind, "--output", path])
        assert code == 2
        error = capsys.readouterr().err
        assert error == f"error: --output {path}: is an input of this command; name another file\n"
    assert record.read_bytes() == before


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


def _seeded_score(document: dict[str, Any]) -> None:
    document["steps"][7]["scores"][2] += 2


def _seeded_deleted(document: dict[str, Any]) -> None:
    del document["steps"][7]


def _seeded_count(document: dict[str, Any]) -> None:
    document["steps"][10]["legal_count"] += 1


def _full_public(document: dict[str, Any]) -> None:
    document["steps"][11]["public"]["seats"][0]["score"] += 3


GUIDE_EXAMPLES = {
    "g17 seeded-3p-001.json step 8 seat 2 +2": ("g17", "seeded-3p-001.json", _seeded_score),
    "g18 seeded-3p-001.json step 8 deleted": ("g18", "seeded-3p-001.json", _seeded_deleted),
    "g19 seeded-3p-001.json step 11 legal_count +1": (
        "g19",
        "seeded-3p-001.json",
        _seeded_count,
    ),
    "g20 full-3p.json step 12 public seats[0].score +3": ("g20", "full-3p.json", _full_public),
}
"""The guide's examples of divergences: the record each is written from, and how."""


def _guide_block(marker: str) -> str:
    guide = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    return guide.split(marker, 1)[1].split("```text\n", 1)[1].split("```", 1)[0]


@pytest.mark.parametrize("key", sorted(GUIDE_EXAMPLES))
def test_the_conformance_guide_shows_real_output(
    key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    name, source, change = GUIDE_EXAMPLES[key]
    block = _guide_block(f"<!-- divergence-example: {key} -->")
    document = _document(CORPUS / source)
    change(document)
    _write(tmp_path / "my-games" / f"{name}.json", document)
    monkeypatch.chdir(tmp_path)
    assert main(["verify", f"my-games/{name}.json"]) == 1
    assert capsys.readouterr().err == block


def test_the_conformance_guide_shows_real_diff_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = "<!-- diff-example: tie-wins --compare legal,scores --games 3 --seed 1 "
    block = _guide_block(marker)
    monkeypatch.chdir(tmp_path)
    engine = f"{shlex.quote(sys.executable)} -m tajmahal.cli serve --misread tie-wins"
    arguments = ["--engine", engine]
    arguments += ["--compare", "legal,scores", "--games", "3", "--seed", "1"]
    arguments += ["--shrink-budget", "30", "--shrink-seconds", "600", "--out", "found.json"]
    assert main(["diff", *arguments]) == 1
    assert capsys.readouterr().out == block


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
