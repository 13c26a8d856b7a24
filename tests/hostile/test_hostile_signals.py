"""Workers, campaigns and signals: the tool stopped at any moment loses nothing.

- ``verify --jobs``: a worker killed (as by the out-of-memory killer) marks the file it
  was verifying, every other file is reported and the report written; the workers end
  with their parent, even when the parent is killed with SIGKILL.
- ``fuzz --out DIR`` killed at a random moment (SIGKILL, SIGTERM, Ctrl-C) leaves a folder
  that ``fuzz merge`` reads and ``fuzz --resume`` completes: the resumed campaign has
  played exactly the games of an uninterrupted one (the same digest) and kept the same
  records.
- ``diff`` and ``verify --jobs`` signalled at random moments leave no process behind.

The moments are drawn from a seeded generator; ``make hostile`` draws many more.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from hostile.support import CAMPAIGN_ONLY, DEEP, MARK_VARIABLE, gone_within
from tajmahal.cli import main
from tajmahal.model import default_components
from tajmahal.testing.fuzz import Options, run_campaign
from tajmahal.testing.fuzz._campaign import CHUNK
from tajmahal.verification import Outcome, verify_file, verify_paths
from tajmahal.verification import _jobs as jobs

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CORPUS = ROOT / "specs" / "traces"
LAUNCH = [
    sys.executable,
    "-c",
    "import sys, tajmahal_console; sys.stderr.write('ready\\n'); sys.stderr.flush(); "
    "tajmahal_console.run()",
]
"""The console script, saying on standard error when the interpreter has started (a
signal before that reaches Python itself, not the program)."""


def _started(process: subprocess.Popen[bytes]) -> None:
    """Wait until the command's interpreter has started (see :data:`LAUNCH`)."""
    assert process.stderr is not None
    assert process.stderr.readline() == b"ready\n"


MOMENTS = 12 if DEEP else 2
"""Random moments tried per scenario."""
SIGNALS = [signal.SIGKILL, signal.SIGTERM, signal.SIGINT]


@pytest.fixture
def mark(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A mark every process the test starts inherits; none may be left at the end."""
    value = uuid.uuid4().hex
    monkeypatch.setenv(MARK_VARIABLE, value)
    yield value
    left = gone_within(10.0, value)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes left behind: {left}"


def _environment() -> dict[str, str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "reference")}
    environment.pop("TAJMAHAL_DEBUG", None)
    return environment


def _records(folder: Path, copies: int = 1) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for copy in range(copies):
        for record in sorted(CORPUS.glob("*.json")):
            if record.name == "index.json":
                continue
            target = folder / f"{copy}-{record.name}"
            target.write_bytes(record.read_bytes())
            made.append(target)
    return made


# -- verify --jobs -----------------------------------------------------------------------


def test_a_killed_worker_marks_its_file_and_the_rest_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _records(tmp_path)[:6]
    victim = files[2]
    real = verify_file

    def dies_on_the_victim(path: str | Path, components: Any) -> Any:
        if Path(path).name == victim.name:
            os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would
        return real(path, components)

    monkeypatch.setattr(jobs, "verify_file", dies_on_the_victim)  # inherited by fork
    report = verify_paths([str(path) for path in files], default_components(), jobs=2)
    outcomes = [result.outcome for result in report.files]
    assert outcomes[2] is Outcome.BAD_INPUT
    assert "the process verifying it ended abruptly (killed by signal 9" in report.files[2].message
    assert outcomes[:2] + outcomes[3:] == [Outcome.OK] * 5
    output = tmp_path / "report.json"
    assert (
        main(
            ["verify", *map(str, files), "--jobs", "2", "--report", "json", "--output", str(output)]
        )
        == 2
    )
    document = json.loads(output.read_text(encoding="utf-8"))
    assert document["summary"]["files"] == 6 and document["summary"]["ok"] == 5
    assert "ended abruptly" in capsys.readouterr().err


@CAMPAIGN_ONLY
def test_workers_end_when_verify_is_killed(tmp_path: Path, mark: str) -> None:
    files = _records(tmp_path / "records", copies=3)
    rng = random.Random(29)
    for _ in range(MOMENTS):
        number = rng.choice(SIGNALS)
        process = subprocess.Popen(
            [*LAUNCH, "verify", "--jobs", "2", str(tmp_path / "records")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_environment(),
        )
        assert process.stdout is not None
        _started(process)
        process.stdout.readline()  # the first file is done: the workers are running
        time.sleep(rng.uniform(0, 0.5))
        process.send_signal(number)
        _, err = process.communicate(timeout=60)
        assert b"Traceback" not in err, err
        assert process.returncode in (0, -signal.SIGKILL, -signal.SIGTERM, 130, 143), (number, err)
        assert not gone_within(10.0, mark), f"workers outlived verify ({number!r})"
    assert len(files) > 20


# -- fuzz --out killed, merged, resumed ------------------------------------------------

CAMPAIGN = [
    "--games",
    "60",
    "--jobs",
    "2",
    "--find",
    "tie,deck-exhausted,short-display",
    "--keep",
    "2",
    "--quiet",
]


@pytest.fixture(scope="module")
def whole_campaign(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The summary of the campaign run without interruption."""
    out = tmp_path_factory.mktemp("whole") / "fuzz"
    assert main(["fuzz", *CAMPAIGN, "--out", str(out)]) == 0
    summary: dict[str, Any] = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return summary


@CAMPAIGN_ONLY
def test_a_campaign_killed_at_any_moment_is_merged_and_resumed(
    tmp_path: Path, whole_campaign: dict[str, Any], mark: str
) -> None:
    rng = random.Random(11)
    stopped_midway = 0
    for attempt in range(MOMENTS):
        out = tmp_path / f"fuzz-{attempt}"
        number = rng.choice(SIGNALS)
        process = subprocess.Popen(
            [*LAUNCH, "fuzz", *CAMPAIGN, "--out", str(out)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=_environment(),
        )
        _started(process)
        if attempt % 2:  # a moment of the campaign itself, not of the command's start
            deadline = time.monotonic() + 120
            while not (out / "summary.json").exists() and time.monotonic() < deadline:
                time.sleep(0.01)
        time.sleep(rng.uniform(0.0, 3.0))
        process.send_signal(number)
        _, err = process.communicate(timeout=120)
        assert b"Traceback" not in err, err
        assert not gone_within(10.0, mark), "campaign processes outlived the campaign"
        if not (out / "summary.json").exists():
            # stopped before the folder was made: nothing was found, nothing to merge
            assert not (out / "found").exists() and not (out / "counterexamples").exists()
            continue
        before = json.loads((out / "summary.json").read_text(encoding="utf-8"))
        stopped_midway += before["games"] < whole_campaign["games"]
        merged = tmp_path / f"merged-{attempt}"
        assert main(["fuzz", "merge", str(out), "--out", str(merged), "--quiet"]) == 0
        assert main(["fuzz", *CAMPAIGN, "--out", str(out), "--resume"]) == 0
        resumed = json.loads((out / "summary.json").read_text(encoding="utf-8"))
        for field in ("games", "steps", "decisions", "ranges", "digest", "tags", "found"):
            assert resumed[field] == whole_campaign[field], (number, field)
    assert stopped_midway or not DEEP, "no campaign was stopped before its end"


def test_a_folder_holding_a_campaign_is_not_written_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "fuzz"
    assert main(["fuzz", "--games", "2", "--quiet", "--out", str(out)]) == 0
    before = (out / "summary.json").read_bytes()
    assert main(["fuzz", "--games", "3", "--quiet", "--out", str(out)]) == 2
    assert "holds a campaign already" in capsys.readouterr().err
    assert (
        main(["fuzz", "--games", "3", "--seed", "1", "--quiet", "--out", str(out), "--resume"]) == 2
    )
    assert "another campaign" in capsys.readouterr().err
    assert (out / "summary.json").read_bytes() == before


@CAMPAIGN_ONLY
def test_files_written_before_the_summary_caught_up_are_merged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "fuzz"
    assert main(["fuzz", *CAMPAIGN, "--out", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    kept = summary["found"]
    assert kept
    summary["found"] = {}  # as if killed after writing the records, before the summary
    (out / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    merged = tmp_path / "merged"
    assert main(["fuzz", "merge", str(out), "--out", str(merged), "--quiet"]) == 0
    again = json.loads((merged / "summary.json").read_text(encoding="utf-8"))
    assert {tag: sorted(files) for tag, files in again["found"].items()} == {
        tag: sorted(f"{out}/{file}" for file in files) for tag, files in kept.items()
    }


def test_a_campaign_stopped_after_its_first_chunk_is_merged_and_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The reproducer of a campaign stopped at once, in-process (``make hostile`` kills
    real ones at random moments): the summary is on disk from the start, so the folder
    merges, and ``--resume`` ends with the games of an uninterrupted campaign."""
    options = Options(games=CHUNK + 2, seed=3, players=(3,), find=("tie",), keep=2)
    whole = run_campaign(attrs.evolve(options, out=tmp_path / "whole"))
    out = tmp_path / "stopped"

    def stop(summary: object, done: bool) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_campaign(attrs.evolve(options, out=out), progress=stop)
    assert (out / "summary.json").is_file()
    assert main(["fuzz", "merge", str(out), "--out", str(tmp_path / "merged"), "--quiet"]) == 0
    resumed = run_campaign(attrs.evolve(options, out=out), resume=True)
    assert resumed.ranges == whole.ranges and resumed.digest == whole.digest
    assert resumed.found == tuple((tag, files) for tag, files in whole.found), (
        "a record kept before the stop is kept once"
    )
    capsys.readouterr()


# -- diff signalled at random moments --------------------------------------------------


@CAMPAIGN_ONLY
def test_diff_signalled_at_any_moment_leaves_no_engine(tmp_path: Path, mark: str) -> None:
    rng = random.Random(7)
    engine = f"{sys.executable} {HERE / 'hostile_engine.py'} slow"
    for _ in range(MOMENTS):
        number = rng.choice(SIGNALS)
        process = subprocess.Popen(
            [
                *LAUNCH,
                "diff",
                "--engine",
                engine,
                "--games",
                "3",
                "--out",
                str(tmp_path / "d.json"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=_environment(),
        )
        _started(process)
        time.sleep(rng.uniform(0.0, 3.0))
        process.send_signal(number)
        _, err = process.communicate(timeout=60)
        assert b"Traceback" not in err and b"Exception in thread" not in err, err
        assert process.returncode in (0, 1, -signal.SIGKILL, -signal.SIGTERM, 130, 143), (
            number,
            err,
        )
        assert not gone_within(10.0, mark), f"the engine outlived diff ({number!r})"
