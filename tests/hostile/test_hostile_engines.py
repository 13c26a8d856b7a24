"""Foreign engines that attack ``tajmahal diff`` and ``tajmahal fuzz --engine``.

The engines of ``hostile_engine.py`` fork a child that holds their output, flood their
standard error, hang, exit early, write half a line, write lone surrogates and ``NaN``,
and ignore every signal but SIGKILL. Whatever they do, the tool never waits longer than
its timeout (an engine that exits while its child holds the pipe is reported as exited,
at once), reads their standard error bounded, prints no thread traceback, keeps its
report, and kills the engine's process group however it ends: normally, on an error, on
Ctrl-C, SIGTERM or SIGHUP, and (through its guard process) when killed with SIGKILL.
Every test checks that no process it started is left behind.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from hostile.support import CAMPAIGN_ONLY, MARK_VARIABLE, alive, gone_within
from tajmahal.conformance import run_diff
from tajmahal.conformance._foreign import STDERR_LINE_CHARS, STDERR_LINES, _StderrTail
from tajmahal.model import default_components

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
COMPONENTS = default_components()
LAUNCH = [sys.executable, "-c", "import tajmahal_console; tajmahal_console.run()"]


def engine(mode: str, pidfile: Path | None = None) -> str:
    """The ``--engine`` command of a hostile engine."""
    words = [sys.executable, str(HERE / "hostile_engine.py"), mode]
    if pidfile is not None:
        words.append(str(pidfile))
    return shlex.join(words)


@pytest.fixture
def mark(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A mark every process the test starts inherits; none may be left at the end."""
    value = uuid.uuid4().hex
    monkeypatch.setenv(MARK_VARIABLE, value)
    yield value
    left = gone_within(10.0, value)
    for pid in left:  # do not leave them to the next test either
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes left behind: {left}"


def _environment(**extra: str) -> dict[str, str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "reference"), **extra}
    environment.pop("TAJMAHAL_DEBUG", None)
    return environment


@pytest.mark.parametrize(
    ("mode", "kind", "words", "timeout"),
    [
        ("fork-holds-stdout", "hung", "no reply to 'new' within 1 s", 1.0),
        ("fork-then-exit", "crashed", "exited with status 3 instead of answering 'new'", 30.0),
        ("surrogate-action", "garbage", "a lone surrogate", 30.0),
        pytest.param("exit-early", "closed", "exited with status 0", 30.0, marks=CAMPAIGN_ONLY),
        pytest.param("half-line", "hung", "no reply to 'new' within 1 s", 1.0, marks=CAMPAIGN_ONLY),
        pytest.param("surrogate-digest", "garbage", "a lone surrogate", 30.0, marks=CAMPAIGN_ONLY),
        pytest.param("nan-reply", "garbage", "NaN is not a JSON number", 30.0, marks=CAMPAIGN_ONLY),
    ],
)
def test_a_hostile_engine_is_reported_within_its_timeout(
    mode: str, kind: str, words: str, timeout: float, mark: str
) -> None:
    started = time.monotonic()
    result = run_diff(engine(mode), COMPONENTS, games=1, timeout=timeout)
    seconds = time.monotonic() - started
    assert result.failure is not None, result
    assert result.failure.kind == kind
    assert words in str(result.failure)
    # Never longer than the timeout (and an exit is seen at once, not after it): the
    # engine's start and its handshake come first, seconds on a busy machine. (A garbage
    # reply is reported after the game up to it and its explanation: not timed.)
    if kind in ("hung", "crashed"):
        assert seconds < min(timeout, 5.0) + 15.0, seconds


def _run_tool(*arguments: str, **extra: str) -> tuple[int, str, str, int]:
    """Run the command line in a process of its own; its exit code, output, error
    output and peak memory in KiB (the largest of it and the processes it waited for)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            [*LAUNCH, *arguments], stdout=out, stderr=err, env=_environment(**extra)
        )
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return process.returncode, out.read().decode(), err.read().decode(), usage.ru_maxrss


@CAMPAIGN_ONLY
def test_the_stderr_flood_is_read_bounded(tmp_path: Path, mark: str) -> None:
    """64 MiB of standard error without a line feed: the tool's memory stays flat (it
    used to hold the whole line, twice over), and the report quotes its end, cut."""
    out_file = str(tmp_path / "d.json")
    code, out, err, base = _run_tool(
        "diff", "--engine", engine("polite"), "--games", "1", "--out", out_file
    )
    assert code == 0, (out, err)
    code, out, err, peak = _run_tool(
        "diff",
        "--engine",
        engine("flood-stderr"),
        "--games",
        "1",
        "--out",
        out_file,
        FLOOD_MIB="64",
    )
    assert code == 0, (out, err)
    assert "Traceback" not in err and "Exception in thread" not in err, err
    assert peak < base + 32 * 1024, (peak, base)


def _started(pidfile: Path, seconds: float = 60.0) -> int:
    """The engine's process id, once it has written it (it is then running)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if pidfile.exists() and pidfile.read_text(encoding="utf-8"):
            return int(pidfile.read_text(encoding="utf-8"))
        time.sleep(0.02)
    raise AssertionError("the engine did not start")


ENDINGS = [
    (command, number, code, mark)
    for command in ("diff", "fuzz")
    for number, code in (
        (signal.SIGTERM, 143),
        (signal.SIGHUP, 129),
        (signal.SIGINT, 130),
        (signal.SIGKILL, -9),
    )
    # make check: SIGTERM to diff and SIGKILL to fuzz (its guard); make hostile: all
    for mark in (
        []
        if (command, number) in (("diff", signal.SIGTERM), ("fuzz", signal.SIGKILL))
        else [CAMPAIGN_ONLY]
    )
]


@pytest.mark.parametrize(
    ("command", "number", "code"),
    [
        pytest.param(
            command, number, code, marks=mark, id=f"{command}-{signal.Signals(number).name}"
        )
        for command, number, code, mark in ENDINGS
    ],
)
def test_every_way_the_tool_ends_kills_the_engine(
    command: str, number: int, code: int, tmp_path: Path, mark: str
) -> None:
    """The engine ignores every signal but SIGKILL and the end of its input, and is
    waited for with a long timeout: the tool must end at once, and the engine with it."""
    pidfile = tmp_path / "pid"
    hostile = engine("deaf", pidfile)
    if command == "diff":
        arguments = ["diff", "--engine", hostile, "--timeout", "120", "--out", str(tmp_path / "o")]
    else:
        arguments = [
            "fuzz",
            "--engine",
            hostile,
            "--engine-timeout",
            "120",
            "--games",
            "1",
            "--quiet",
            "--out",
            str(tmp_path / "fuzz"),
        ]
    process = subprocess.Popen(
        [*LAUNCH, *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_environment(),
    )
    pid = _started(pidfile)
    time.sleep(0.3)  # the tool is now waiting for the engine's reply to 'new'
    started = time.monotonic()
    process.send_signal(number)
    out, err = process.communicate(timeout=60)
    assert time.monotonic() - started < 10
    assert process.returncode == code, (out, err)
    assert b"Traceback" not in err and b"Exception in thread" not in err, err
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid), "the engine outlived the tool"


def test_ctrl_c_works_while_an_engine_child_holds_the_pipe(tmp_path: Path, mark: str) -> None:
    process = subprocess.Popen(
        [
            *LAUNCH,
            "diff",
            "--engine",
            engine("fork-holds-stdout", tmp_path / "pid"),
            "--timeout",
            "120",
            "--out",
            str(tmp_path / "o"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_environment(),
    )
    _started(tmp_path / "pid")
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, (out, err)
    assert err == b""


@CAMPAIGN_ONLY
@pytest.mark.parametrize("mode", ["surrogate-action", "surrogate-digest", "nan-reply"])
def test_a_garbage_reply_keeps_the_report(mode: str, tmp_path: Path, mark: str) -> None:
    for extra in ([], ["--json"]):
        code, out, err, _ = _run_tool(
            "diff", "--engine", engine(mode), "--games", "2", "--out", str(tmp_path / "o"), *extra
        )
        assert code == 1, (out, err)
        assert err == "", err
        if extra:
            assert json.loads(out)["failure"]["kind"] == "garbage"
        else:
            assert out.startswith("FAIL hostile") and "garbage" in out


@CAMPAIGN_ONLY
def test_fuzz_with_an_engine_whose_child_holds_the_pipe_ends_in_time(
    tmp_path: Path, mark: str
) -> None:
    started = time.monotonic()
    code, out, err, _ = _run_tool(
        "fuzz",
        "--engine",
        engine("fork-then-exit"),
        "--engine-timeout",
        "60",
        "--games",
        "1",
        "--quiet",
        "--out",
        str(tmp_path / "fuzz"),
    )
    assert time.monotonic() - started < 30
    assert "Traceback" not in err and "Exception in thread" not in err, err
    assert code in (1, 2), (out, err)
    assert "exited with status 3" in out + err


def test_standard_error_without_line_feeds_is_kept_bounded() -> None:
    """The reproducer of the flood, in-process: 64 MiB without a line feed, then short
    lines; what is kept stays under a few kilobytes and quotes the end, cut."""
    tail = _StderrTail()
    block = b"x" * (1 << 20)
    for _ in range(64):
        tail.feed(block)
        assert len(tail.partial) <= 4 * STDERR_LINE_CHARS
    tail.feed(b"\n" + b"".join(b"line %d\n" % number for number in range(100)) + b"last")
    lines = tail.tail()
    assert len(lines) == STDERR_LINES + 1
    assert lines[-2:] == ("line 99", "last")
    assert all(len(line) <= STDERR_LINE_CHARS for line in lines)
