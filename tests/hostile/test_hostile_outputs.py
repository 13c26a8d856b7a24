"""Outputs that alias inputs, and inputs that are not plain files.

Every command that writes a file is given, as its output, one of its own inputs spelled
every way a careless user or an attacker would: the same path, ``./`` in front, a
detour through ``..``, the absolute path, a symbolic link to it, a hard link to it, the
path through a symbolic link to its folder. Each is refused with one line naming both
files, and the input is unchanged. Inputs that are not plain files (a named pipe with no
writer, a socket, a device, a dangling link) never block a command and are reported, on
the command line and inside a verified folder.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import tajmahal.inputs._files
from hostile.support import Run
from tajmahal.cli import main
from tajmahal.testing.fuzz import Options
from tajmahal.testing.fuzz._campaign import _processes

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[1] / "reference" / "tajmahal" / "data"

Alias = Callable[[Path, Path], str]
"""Given an input file and a scratch folder, another way to name the same file."""


def _same(target: Path, scratch: Path) -> str:
    return str(target)


def _dotted(target: Path, scratch: Path) -> str:
    return os.path.relpath(target, Path.cwd()) if target.is_absolute() else f"./{target}"


def _detour(target: Path, scratch: Path) -> str:
    return str(target.parent / ".." / target.parent.name / target.name)


def _absolute(target: Path, scratch: Path) -> str:
    return str(target.resolve())


def _symlink(target: Path, scratch: Path) -> str:
    link = scratch / f"link-{target.name}"
    link.symlink_to(target)
    return str(link)


def _hardlink(target: Path, scratch: Path) -> str:
    link = scratch / f"hard-{target.name}"
    os.link(target, link)
    return str(link)


def _folder_link(target: Path, scratch: Path) -> str:
    link = scratch / "folder-link"
    link.symlink_to(target.parent, target_is_directory=True)
    return str(link / target.name)


ALIASES: list[Alias] = [_same, _dotted, _detour, _absolute, _symlink, _hardlink, _folder_link]


@pytest.fixture
def setting(tmp_path: Path, record_path: Path) -> dict[str, Path]:
    """A record, a folder of records, a component folder and an engine script."""
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(record_path, folder / "game.json")
    shutil.copy(record_path, folder / "other.json")
    components = tmp_path / "components"
    components.mkdir()
    shutil.copy(DATA / "cards.json", components / "cards.json")
    engine = tmp_path / "engine.py"
    engine.write_text("print('engine')\n", encoding="utf-8")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    return {
        "record": folder / "game.json",
        "folder": folder,
        "cards": components / "cards.json",
        "components": components,
        "engine": engine,
        "scratch": scratch,
    }


def _commands(paths: dict[str, Path], alias: str) -> list[tuple[list[str], Path]]:
    """Each writing command with ``alias`` as its output, and the input it aliases."""
    record, folder = paths["record"], paths["folder"]
    return [
        (["verify", str(record), "--report", "json", "--output", alias], record),
        (["verify", str(folder), "--report", "junit", "--output", alias], record),
        (
            ["play", "--quiet", "--components", str(paths["components"]), "--trace", alias],
            paths["cards"],
        ),
        (["show", str(record), "--svg", alias], record),
        (
            [
                "diff",
                "--engine",
                shlex.join([sys.executable, str(paths["engine"])]),
                "--out",
                alias,
            ],
            paths["engine"],
        ),
    ]


TARGETS = {0: "record", 1: "record", 2: "cards", 3: "record", 4: "engine"}


@pytest.mark.parametrize(
    "command", range(5), ids=["verify", "verify-folder", "play", "show", "diff"]
)
@pytest.mark.parametrize("alias", ALIASES, ids=lambda alias: alias.__name__.strip("_"))
def test_an_output_that_is_an_input_is_refused_and_the_input_kept(
    command: int,
    alias: Alias,
    setting: dict[str, Path],
    run: Run,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(setting["scratch"].parent)
    target = setting[TARGETS[command]]
    before = target.read_bytes()
    output = alias(target, setting["scratch"])
    argv, _ = _commands(setting, output)[command]
    _, _, err = run(*argv, expect={2})
    assert "the same file as the input" in err or "name another file" in err, err
    assert target.read_bytes() == before


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of a small campaign (copied by each test that may change it)."""
    out = tmp_path_factory.mktemp("campaign") / "shard"
    assert main(["fuzz", "--games", "2", "--quiet", "--out", str(out)]) == 0
    return out


@pytest.mark.parametrize("alias", ALIASES, ids=lambda alias: alias.__name__.strip("_"))
def test_merging_a_campaign_into_one_of_its_own_folders_is_refused(
    alias: Alias, campaign: Path, tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    shard = tmp_path / "shard"
    shutil.copytree(campaign, shard)
    summary = shard / "summary.json"
    before = summary.read_bytes()
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    named = Path(alias(summary, scratch))
    if named.name != "summary.json":  # a link to the summary itself: make it its folder's
        folder = scratch / f"as-folder-{alias.__name__}"
        folder.mkdir()
        (folder / "summary.json").symlink_to(summary) if alias is not _hardlink else os.link(
            summary, folder / "summary.json"
        )
        named = folder / "summary.json"
    _, _, err = run("fuzz", "merge", str(shard), "--out", str(named.parent), expect={2})
    assert "the same file as the input" in err
    assert summary.read_bytes() == before


def test_a_folder_verified_with_its_report_inside_verifies_the_same_again(
    setting: dict[str, Path], run: Run
) -> None:
    folder = setting["folder"]
    report = folder / "report.json"
    first = run("verify", str(folder), "--report", "json", "--output", str(report), expect={0})
    second = run("verify", str(folder), "--report", "json", "--output", str(report), expect={0})
    assert "2 files: 2 conform" in first[1] and "2 files: 2 conform" in second[1]
    assert json.loads(report.read_text(encoding="utf-8"))["summary"]["files"] == 2
    run("verify", str(folder), expect={0})


@pytest.fixture
def short_fifo_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """A named pipe is waited for a tenth of the commands' second: the same refusal,
    sooner (the commands run in this process)."""
    monkeypatch.setattr(tajmahal.inputs._files, "FIFO_WAIT", 0.1)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
@pytest.mark.usefixtures("short_fifo_wait")
@pytest.mark.parametrize(
    "argv",
    [
        ["verify"],
        ["replay"],
        ["position"],
        ["show"],
        ["perft", "--depth", "1"],
        ["replay", "--quiet"],
    ],
    ids=" ".join,
)
def test_a_named_pipe_with_no_writer_does_not_block(
    argv: list[str], tmp_path: Path, run: Run
) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    started = time.monotonic()
    if argv[0] == "perft":
        _, _, err = run("perft", str(fifo), *argv[1:], expect={2})
    else:
        _, _, err = run(argv[0], str(fifo), *argv[1:], expect={2})
    assert time.monotonic() - started < 20
    assert "a named pipe (FIFO) that no program writes to" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
@pytest.mark.usefixtures("short_fifo_wait")
def test_special_files_in_a_verified_folder_are_reported(
    setting: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = setting["folder"]
    os.mkfifo(folder / "fifo.json")
    (folder / "dangling.json").symlink_to(folder / "nowhere")
    (folder / "zero.json").symlink_to("/dev/zero")
    (folder / "folder.json").mkdir()
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(folder / "socket.json"))
        started = time.monotonic()
        assert main(["verify", str(folder)]) == 2
    finally:
        server.close()
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    assert time.monotonic() - started < 30
    assert "2 conform" in out
    assert "fifo.json: a named pipe (FIFO) that no program writes to" in err
    assert "dangling.json: dangling symbolic link" in err
    assert "zero.json: larger than the limit" in err
    assert "socket.json: cannot be read" in err
    assert "6 files" in out


def test_fuzz_refuses_an_empty_output_folder(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for argv in (["fuzz", "--games", "1", "--out", ""], ["fuzz", "merge", ".", "--out", ""]):
        with pytest.raises(SystemExit) as stop:
            run(*argv)
        assert stop.value.code == 2
    assert list(tmp_path.iterdir()) == []


def test_fuzz_starts_no_more_processes_than_there_is_work(run: Run, tmp_path: Path) -> None:
    assert _processes(Options(games=2, jobs=100_000), 0) == 1
    assert _processes(Options(games=45, jobs=8), 0) == 3
    assert _processes(Options(games=45, jobs=8), 40) == 1
    assert _processes(Options(games=None, minutes=1.0, jobs=8), 0) == 8
    started = time.monotonic()
    run(
        "fuzz",
        "--games",
        "2",
        "--jobs",
        "1024",
        "--quiet",
        "--out",
        str(tmp_path / "f"),
        expect={0},
    )
    assert time.monotonic() - started < 60
