"""The command line's last line of defence, its exit codes, and ``--trace`` writing.

Ctrl-C (130), a closed standard output (141), an unexpected exception (one line, 2, or a
traceback when ``TAJMAHAL_DEBUG`` is set), a record contradicting its own scores (1),
and ``--trace`` targets that are not regular files.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from hostile.support import Run
from tajmahal.cli import _main as cli
from tajmahal.cli import main
from tajmahal.cli._main import DEBUG_VARIABLE, EXIT_BROKEN_PIPE, EXIT_INTERRUPTED
from tajmahal.inputs import MAX_NAME_CHARS

ROOT = Path(__file__).resolve().parents[2]
ENVIRONMENT = {**os.environ, "PYTHONPATH": str(ROOT / "reference")}
ENVIRONMENT.pop(DEBUG_VARIABLE, None)
LAUNCH = [sys.executable, "-c", "import tajmahal_console; tajmahal_console.run()"]
"""The console script, as installed (``tajmahal = tajmahal_console:run``)."""


def _raising(exception: BaseException) -> Any:
    def handler(arguments: argparse.Namespace) -> int:
        raise exception

    return handler


def _patch_handler(monkeypatch: pytest.MonkeyPatch, exception: BaseException) -> None:
    """Make ``tajmahal components`` raise ``exception`` (build_parser looks it up by name)."""
    monkeypatch.setattr(cli, "_show_components", _raising(exception))


@pytest.mark.parametrize(
    "exception",
    [ValueError("boom"), KeyError("x"), RecursionError(), MemoryError(), AssertionError("a\nb")],
)
def test_an_unexpected_exception_is_one_line_and_exit_2(
    exception: BaseException,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _patch_handler(monkeypatch, exception)
    monkeypatch.delenv(DEBUG_VARIABLE, raising=False)
    assert main(["components"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("error: internal error (")
    monkeypatch.setenv(DEBUG_VARIABLE, "1")
    with pytest.raises(type(exception)):
        main(["components"])


def test_ctrl_c_in_a_command_exits_130_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _patch_handler(monkeypatch, KeyboardInterrupt())
    assert main(["components"]) == EXIT_INTERRUPTED
    assert capsys.readouterr().err == ""


def test_ctrl_c_during_start_up_exits_130_without_traceback() -> None:
    # SIGINT at several moments of start-up (imports, parsing, running), counted from the
    # moment the console module is loaded: a Ctrl-C while Python is still starting is
    # reported by the interpreter, before any program code can run.
    code = (
        "import sys, tajmahal_console; sys.stderr.write('ready\\n'); sys.stderr.flush(); "
        "tajmahal_console.run()"
    )
    for delay in (0.0, 0.01, 0.03, 0.06, 0.1, 0.2, 0.4):
        process = subprocess.Popen(
            [sys.executable, "-c", code, "play", "--players", "5", "--seed", "3"],
            env=ENVIRONMENT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert process.stderr is not None
        assert process.stderr.readline() == "ready\n"
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        assert "Traceback" not in err, (delay, err)
        assert err == "", (delay, err)
        # 0: the game was over first; -SIGINT: the signal came while the interpreter was
        # shutting down and had restored the default action (no output either way).
        assert process.returncode in (0, EXIT_INTERRUPTED, -signal.SIGINT), delay


def test_a_closed_pipe_ends_quietly(record_path: Path) -> None:
    process = subprocess.Popen(
        [*LAUNCH, "replay", str(record_path)],
        env=ENVIRONMENT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # at once: the command starts writing only after its imports
    err = process.stderr.read().decode()
    process.stderr.close()
    assert process.wait(timeout=60) == EXIT_BROKEN_PIPE
    assert err == ""


def _record(record_document: dict[str, Any], tmp_path: Path, **changes: Any) -> Path:
    document: dict[str, Any] = json.loads(json.dumps(record_document))
    document.update(changes)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_a_record_contradicting_its_scores_exits_1(
    record_document: dict[str, Any], tmp_path: Path, run: Run
) -> None:
    document: dict[str, Any] = json.loads(json.dumps(record_document))
    document["steps"][10]["scores"][0] += 1
    path = _record(document, tmp_path)
    for command in (("verify",), ("replay",), ("replay", "--quiet"), ("position", "--step", "20")):
        _, _, err = run(*command, str(path), expect={1})
        assert f"{path}: step 11: scores:" in err
    document = json.loads(json.dumps(record_document))
    document["result"]["scores"][1] += 5
    path = _record(document, tmp_path)
    for command in (("verify",), ("replay",), ("replay", "--quiet")):
        _, _, err = run(*command, str(path), expect={1})
        assert f"{path}: result.scores:" in err


def test_long_names_are_refused_and_quiet_builds_no_account(
    record_document: dict[str, Any], tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _record(record_document, tmp_path, names=["x" * (MAX_NAME_CHARS + 1), "b", "c"])
    _, _, err = run("replay", "--quiet", str(path))
    assert "names[0]: a name of" in err
    path = _record(record_document, tmp_path, names=["x" * MAX_NAME_CHARS, "b", "c"])

    def no_account(*args: Any) -> list[str]:
        raise AssertionError("the account is built under --quiet")

    monkeypatch.setattr(cli, "step_account", no_account)
    monkeypatch.setattr(cli, "opening_lines", no_account)
    _code, out, _ = run("replay", "--quiet", str(path), expect={0})
    assert "x" * MAX_NAME_CHARS in out  # the closing lines name the players


def _play(run: Run, target: str, expect: set[int]) -> str:
    _, _, err = run(
        "play", "--players", "3", "--seed", "2", "--quiet", "--trace", target, expect=expect
    )
    return err


def test_trace_refuses_devices_folders_and_empty_paths(tmp_path: Path, run: Run) -> None:
    if Path("/dev/null").exists():
        err = _play(run, "/dev/null", {2})
        assert "/dev/null: not a regular file" in err
        assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    err = _play(run, str(tmp_path), {2})
    assert f"{tmp_path}: a folder" in err
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    err = _play(run, "", {2})
    assert "empty path" in err


def test_trace_keeps_permissions_and_follows_links(tmp_path: Path, run: Run) -> None:
    target = tmp_path / "private.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o600)
    _play(run, str(target), {0})
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert json.loads(target.read_text(encoding="utf-8"))["players"] == 3
    link = tmp_path / "link.json"
    link.symlink_to(target)
    target.write_text("old", encoding="utf-8")
    _play(run, str(link), {0})
    assert link.is_symlink()
    assert json.loads(target.read_text(encoding="utf-8"))["players"] == 3


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_trace_in_an_unwritable_folder_names_the_target(tmp_path: Path, run: Run) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        err = _play(run, str(folder / "game.json"), {2})
        assert f"{folder / 'game.json'}: cannot be written" in err
    finally:
        folder.chmod(0o700)


def test_control_characters_never_reach_the_terminal(
    record_document: dict[str, Any], tmp_path: Path, run: Run
) -> None:
    path = _record(record_document, tmp_path, names=["\x1b[2J", "b", "c"])
    _, _, err = run("replay", str(path))
    assert "names[0]: a control character \\u001b" in err
    assert "\x1b" not in err
    document: dict[str, Any] = json.loads(json.dumps(record_document))
    document["steps"][3]["action"] = "play red-01\nFAKE LINE\x1b[31m"
    path = _record(document, tmp_path)
    _, _, err = run("verify", str(path))
    assert "step 4: action: a control character \\u000a" in err


def test_an_error_quoting_anything_stays_one_printable_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tajmahal.errors import TajMahalError

    _patch_handler(monkeypatch, TajMahalError("bad\nvalue\x1b[2J\u2028" + "x" * 5000))
    assert main(["components"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert "\x1b" not in err
    assert "bad\\nvalue\\x1b[2J" in err
    assert len(err) < 2100


@pytest.mark.parametrize("seed", ["1" * 31, "1e5", "0x10", "", "٣"])
def test_seeds_are_short_integers(seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["play", "--seed", seed, "--quiet"])
    assert caught.value.code == 2
    assert "--seed" in capsys.readouterr().err


def test_a_file_name_that_is_not_utf8_is_printed_escaped(record_path: Path, run: Run) -> None:
    strange = record_path.parent / os.fsdecode(b"game-\xff.json")
    strange.write_bytes(record_path.read_bytes())
    _, out, _ = run("verify", str(strange), expect={0})
    assert "OK " in out
    assert "game-\\xff.json" in out
