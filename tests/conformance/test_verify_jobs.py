"""``tajmahal verify --jobs N``: worker processes change the speed, never the result.

Each test runs the command with ``--jobs 1`` and ``--jobs 2`` on the same files and
compares what it prints, the reports and the exit codes, the timings left out (the only
thing allowed to differ). No clause markers: these tests check the verifier, not a rule.
"""

from __future__ import annotations

import gc
import io
import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tajmahal.accel import ENABLED, GENERATION_0_THRESHOLD, collect_less
from tajmahal.cli import main
from tajmahal.model import default_components
from tajmahal.verification import Outcome, resolve_jobs
from tajmahal.verification._jobs import _start_worker, _verify_in_worker

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "specs" / "traces"
RECORDS = ("seeded-3p-001.json", "full-3p.json", "seeded-4p-002.json", "seeded-5p-003.json")
_TIMING = re.compile(r"(; \d+ steps) in .*$", re.MULTILINE)


def _without_timing(text: str) -> str:
    """The printed lines with the summary's time and rate cut off."""
    return _TIMING.sub(r"\1", text)


def _without_seconds(value: Any) -> Any:
    """A JSON report without its ``seconds`` fields."""
    if isinstance(value, dict):
        return {k: _without_seconds(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_without_seconds(item) for item in value]
    return value


def _junit_without_time(text: str) -> str:
    root = ElementTree.fromstring(text)
    for element in root.iter():
        element.attrib.pop("time", None)
    return ElementTree.tostring(root, encoding="unicode")


@pytest.fixture
def mixed(tmp_path: Path) -> list[str]:
    """Corpus records, one diverging at step 30, one that is not JSON, in this order."""
    diverging = json.loads((CORPUS / RECORDS[0]).read_text(encoding="utf-8"))
    diverging["steps"][30]["scores"][0] += 1
    (tmp_path / "diverging.json").write_text(json.dumps(diverging), encoding="utf-8")
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    return [
        str(CORPUS / RECORDS[0]),
        str(tmp_path / "diverging.json"),
        str(CORPUS / RECORDS[1]),
        str(tmp_path / "bad.json"),
        *(str(CORPUS / name) for name in RECORDS[2:]),
    ]


def _run(
    arguments: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str, list[str]]:
    """Exit code, standard output and error without timings, and the summary line."""
    code = main(["verify", *arguments])
    captured = capsys.readouterr()
    summaries = [line for line in captured.out.splitlines() if re.search(r" files?: ", line)]
    return code, _without_timing(captured.out), _without_timing(captured.err), summaries


def test_two_jobs_print_the_same_lines_in_the_same_order(
    mixed: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    one = _run([*mixed, "--jobs", "1"], capsys)
    two = _run([*mixed, "--jobs", "2"], capsys)
    assert one[:3] == two[:3]
    assert one[0] == 2, "a bad input wins over a divergence"
    err = one[2].splitlines()
    assert err[0].startswith("FAIL ") and "diverging.json" in err[0]
    assert sum(line.startswith("error: ") and "bad.json" in line for line in err) == 1
    assert "Traceback" not in one[2] + two[2]
    assert "6 files: 4 conform, 1 diverge, 1 bad input; " in one[1]
    printed = [line[3:].split(": ", 1)[0] for line in one[1].splitlines() if line[:3] == "OK "]
    assert printed == [path for path in mixed if path.startswith(str(CORPUS))]
    # 150 + 151 + 201 + 252 steps of the four records, 30 before the divergence
    assert re.search(r"; 784 steps in [\d.]+ s \(\d+ steps/s\)$", one[3][0])
    wall = r"; 784 steps in [\d.]+ s wall-clock with 2 processes \(\d+ steps/s wall-clock\)$"
    assert re.search(wall, two[3][0])


@pytest.mark.parametrize("kind", ["json", "junit"])
def test_two_jobs_write_the_same_report(
    mixed: list[str], tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    texts = []
    for jobs in ("1", "2"):
        output = tmp_path / f"report-{jobs}.{kind}"
        code = main(["verify", *mixed, "--jobs", jobs, "--report", kind, "--output", str(output)])
        assert code == 2
        texts.append(output.read_text(encoding="utf-8"))
    capsys.readouterr()
    if kind == "json":
        one, two = (_without_seconds(json.loads(text)) for text in texts)
        assert [item["outcome"] for item in one["files"]] == [
            "ok",
            "diverged",
            "ok",
            "bad-input",
            "ok",
            "ok",
        ]
    else:
        one, two = (_junit_without_time(text) for text in texts)
    assert one == two


def test_a_folder_verifies_the_same_with_two_jobs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for index, name in enumerate(RECORDS):
        target = tmp_path / ("sub" if index % 2 else "") / name
        target.parent.mkdir(exist_ok=True)
        target.write_bytes((CORPUS / name).read_bytes())
    diverging = json.loads((CORPUS / RECORDS[0]).read_text(encoding="utf-8"))
    diverging["steps"][12]["state_digest"] = "sha256:" + "0" * 64
    (tmp_path / "sub" / "zz.json").write_text(json.dumps(diverging), encoding="utf-8")
    one = _run([str(tmp_path), "--jobs", "1"], capsys)
    two = _run([str(tmp_path), "--jobs", "2"], capsys)
    assert one[:3] == two[:3]
    assert one[0] == two[0] == 1
    assert "5 files: 4 conform, 1 diverge, 0 bad input" in one[1]
    assert "state_digest" in one[2]


def test_standard_input_is_verified_in_its_place(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = (CORPUS / RECORDS[1]).read_bytes()
    arguments = [str(CORPUS / RECORDS[0]), "-", str(CORPUS / RECORDS[2])]
    results = []
    for jobs in ("1", "2"):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        results.append(_run([*arguments, "--jobs", jobs], capsys))
    assert results[0][:3] == results[1][:3]
    lines = results[1][1].splitlines()
    assert lines[1].startswith("OK (standard input): ")
    assert results[1][0] == 0


def test_jobs_zero_is_one_process_per_core(
    mixed: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert resolve_jobs(0) == (os.cpu_count() or 1)
    assert resolve_jobs(3) == 3
    one = _run([*mixed, "--jobs", "1"], capsys)
    every = _run([*mixed, "--jobs", "0"], capsys)
    assert one[:3] == every[:3]


def test_a_negative_number_of_jobs_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["verify", str(CORPUS / RECORDS[0]), "--jobs", "-1"])
    assert caught.value.code == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: argument --jobs: ")
    assert "found -1" in lines[0]
    assert captured.out == ""
    with pytest.raises(ValueError, match="found -2"):
        resolve_jobs(-2)


def test_workers_start_spawn_safe_with_the_commands_collector() -> None:
    """The entry points work with ``spawn`` (nothing inherited from this process): the
    worker gets the command's collector setting, ignores Ctrl-C and verifies."""
    assert gc.get_threshold()[0] != GENERATION_0_THRESHOLD
    with ProcessPoolExecutor(
        1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(default_components(), collect_less),
    ) as executor:
        threshold = executor.submit(gc.get_threshold).result()
        handler = executor.submit(signal.getsignal, signal.SIGINT).result()
        result = executor.submit(_verify_in_worker, CORPUS / RECORDS[0]).result()
    assert (threshold[0] == GENERATION_0_THRESHOLD) is ENABLED
    assert handler == signal.SIG_IGN
    assert result.outcome is Outcome.OK
    assert result.steps == 150


def test_ctrl_c_exits_130_and_leaves_no_worker(tmp_path: Path) -> None:
    """Ctrl-C reaches the whole process group, as from a terminal.

    The folder holds far more work than is done before the interruption (links to the
    corpus, twenty times over), so that a loaded machine cannot finish it first.
    """
    for copy in range(20):
        (tmp_path / str(copy)).mkdir()
        for record in sorted(CORPUS.glob("*.json")):
            (tmp_path / str(copy) / record.name).symlink_to(record)
    process = subprocess.Popen(
        [sys.executable, "-m", "tajmahal.cli", "verify", "--jobs", "2", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    assert first.startswith("OK ")
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err == ""
    assert not re.search(r" files?: ", out), "interrupted before the end"
    with pytest.raises(ProcessLookupError):
        os.killpg(process.pid, 0)
