"""``tajmahal show``: the position at a step of a record, as text and as SVG.

Expected values are read from the record's own action strings (how many palaces were
placed, which seat placed them), not from the renderer. No clause markers: these tests
check the tool, not a rule.
"""

from __future__ import annotations

import io
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tajmahal.cli import main

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished 3-player game written by ``play`` (shared, never modified)."""
    path = tmp_path_factory.mktemp("show") / "game.json"
    assert main(["play", "--players", "3", "--seed", "11", "--quiet", "--trace", str(path)]) == 0
    return path


def _palaces_after(record: Path, count: int) -> list[tuple[int, str, bool]]:
    """(seat, city, crowned) of every palace placed in the first ``count`` steps."""
    placed = []
    for step in json.loads(record.read_text(encoding="utf-8"))["steps"][:count]:
        words = str(step["action"]).split()
        if words[0] in ("palace", "crown"):
            placed.append((int(str(step["actor"])), words[1], words[0] == "crown"))
    return placed


def _show(capsys: pytest.CaptureFixture[str], *arguments: str) -> str:
    assert main(["show", *arguments]) == 0
    return capsys.readouterr().out


def test_after_setup_the_board_is_empty(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _show(capsys, str(record), "--step", "0")
    assert "after step 0 of" in out
    assert "Visit 1 of 12" in out
    board = out.split("Board (", 1)[1].split("\n", 1)[1]
    assert ":P" not in board  # no palace yet
    assert len(re.findall(r"\[[^\]]+\]", board)) == 16  # 16 bonus tiles
    assert "Agra#[Taj Mahal]" in board
    assert out.count(": 0 points") == 3


@pytest.mark.parametrize("step", [40, 100])
def test_palaces_shown_are_those_placed(
    record: Path, step: int, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _show(capsys, str(record), "--step", str(step))
    board = out.split("Board (", 1)[1].split("\n", 1)[1]
    shown = re.findall(r"(\w+)#?:([P0-9*+]+)", board)
    cities = {city: owners.split("+") for city, owners in shown}
    placed = _palaces_after(record, step)
    assert sum(len(owners) for owners in cities.values()) == len(placed)
    for seat, city, crowned in placed:
        assert f"P{seat}{'*' if crowned else ''}" in cities[city]


def test_default_is_the_end_of_the_record(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = json.loads(record.read_text(encoding="utf-8"))
    out = _show(capsys, str(record))
    assert f"after step {len(document['steps'])} of {len(document['steps'])}" in out
    assert "the game is over" in out
    for seat, score in enumerate(document["result"]["scores"]):
        assert re.search(rf"^P{seat}\b.*: {score} points?\b", out, re.MULTILINE)


def test_svg_draws_every_palace(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "pictures" / "after-100.svg"
    target.parent.mkdir()
    out = _show(capsys, str(record), "--step", "100", "--svg", str(target))
    assert str(target) in out
    root = ET.fromstring(target.read_text(encoding="utf-8"))
    assert root.tag == f"{SVG}svg"
    palaces = [node for node in root.iter(f"{SVG}path") if "palace" in node.get("class", "")]
    placed = _palaces_after(record, 100)
    assert len(palaces) == len(placed)
    seats = sorted(int(node.get("class", "").split("seat-")[1]) for node in palaces)
    assert seats == sorted(seat for seat, _, _ in placed)
    circles = list(root.iter(f"{SVG}circle")) + list(root.iter(f"{SVG}rect"))
    assert len(circles) >= 49  # every city (plus the background and the seat keys)
    assert not list(tmp_path.glob("pictures/.*"))  # no temporary file left


@pytest.mark.parametrize(
    "command",
    [
        ["show", "{record}", "--svg", "{target}"],
        ["play", "--players", "3", "--quiet", "--trace", "{target}"],
        ["verify", "{record}", "--report", "json", "--output", "{target}"],
    ],
)
def test_an_output_into_a_missing_folder_is_refused(
    record: Path, tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "missing" / "out.file"
    arguments = [word.format(record=record, target=target) for word in command]
    with pytest.raises(SystemExit) as usage:  # a usage error, as argparse reports them
        main(arguments)
    assert usage.value.code == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1
    assert f"the folder '{target.parent}' does not exist" in captured.err
    assert captured.out == ""  # refused before any work
    assert not target.parent.exists()


def test_a_picture_over_the_file_shown_is_refused(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "game.json"
    copy.write_bytes(record.read_bytes())
    for written in (str(copy), f"{tmp_path}/./game.json"):
        assert main(["show", str(copy), "--svg", written]) == 2
        captured = capsys.readouterr()
        assert captured.err == f"error: --svg {written}: is the file shown; name another file\n"
        assert captured.out == ""
    assert copy.read_bytes() == record.read_bytes()


def _position_file(
    record: Path, step: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> Path:
    """The position after the first ``step`` steps of ``record``, as ``tajmahal position``
    writes it."""
    assert main(["position", str(record), "--step", str(step)]) == 0
    position = tmp_path / "position.json"
    position.write_text(capsys.readouterr().out, encoding="utf-8")
    return position


def test_a_position_file_shows_as_the_record_step(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = _position_file(record, 60, tmp_path, capsys)
    from_file = _show(capsys, str(position)).split("\n", 1)[1]
    from_record = _show(capsys, str(record), "--step", "60").split("\n", 1)[1]
    # The record knows the players' names, the position file does not.
    assert re.sub(r" \(\w+\):", ":", from_record) == from_file


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["--step", "100000"], "--step"),
        (["--step", "-1"], "--step"),
    ],
)
def test_bad_step_is_bad_input(
    record: Path, arguments: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["show", str(record), *arguments]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and words in error and str(record) in error


def test_step_of_a_position_file_is_bad_input(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = _position_file(record, 3, tmp_path, capsys)
    assert main(["show", str(position), "--step", "1"]) == 2
    assert "no steps" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"sky": "blue"}, "sky: unknown field (not in the schema)"),
        ({"visit": "three"}, 'visit: expected integer, found "three"'),
    ],
)
def test_a_position_file_outside_its_schema_is_refused_by_field(
    record: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: dict[str, str],
    words: str,
) -> None:
    assert main(["position", str(record), "--step", "3"]) == 0
    document = {**json.loads(capsys.readouterr().out), **change}
    position = tmp_path / "position.json"
    position.write_text(json.dumps(document), encoding="utf-8")
    for command in (["show"], ["perft", "--depth", "1"]):
        assert main([*command, str(position)]) == 2
        error = capsys.readouterr().err
        assert error == f"error: {position}: {words}\n"


def test_not_json_is_bad_input(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert main(["show", str(broken)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "broken.json" in error


def test_a_record_on_standard_input(
    record: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from_file = _show(capsys, str(record), "--step", "30").split("\n", 1)[1]
    stream = io.TextIOWrapper(io.BytesIO(record.read_bytes()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stream)
    out = _show(capsys, "-", "--step", "30")
    assert out.startswith("(standard input), after step 30")
    assert out.split("\n", 1)[1] == from_file
