"""Perft (docs/perft.md): counts worked out by hand, the quick vectors of specs/perft, the
command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from positions import game, run, table

from tajmahal.cli import main
from tajmahal.conformance import divide, perft
from tajmahal.conformance._perft import PerftFormatError, read_vector
from tajmahal.model import default_components
from tajmahal.notation import position, state_from_json, state_to_json

ROOT = Path(__file__).resolve().parents[2]
VECTORS = sorted((ROOT / "specs" / "perft").glob("*.perft"))
QUICK = 60_000
"""Counts up to this size are checked here; ``make perft`` checks every count."""


@pytest.mark.parametrize(("players", "display"), [(3, 5), (4, 7), (5, 9)])
def test_start_position_counts_worked_by_hand(players: int, display: int) -> None:
    # Seat 0 holds six green cards and no white or special card: six single plays and
    # withdraw. Depth 2: after each play, seat 1 (six green cards) has seven actions;
    # after withdrawing without playing, seat 0 draws a card, wins nothing and picks two
    # of the display cards.
    state = game(players)
    assert perft(state, 0) == 1
    assert perft(state, 1) == 7
    assert perft(state, 2) == 6 * 7 + display * (display - 1) // 2


def test_mid_withdrawal_counts_worked_by_hand() -> None:
    # Four palaces and the crown palace owed in province A (four cities). Depth 1: four
    # palaces, four crowns. After a palace: three palaces and four crowns (the crown may
    # join the player's palace by default); after the crown: three palaces (not beside
    # the player's own crown by default) and no crown.
    state = run(table(("red-01", "red-03", "red-05"), ("yellow-19",)), "withdraw")
    assert perft(state, 1) == 8
    assert perft(state, 2) == 4 * 7 + 4 * 3
    assert [(str(a), n) for a, n in divide(state, 2)] == [
        *((f"crown A{i}", 3) for i in range(1, 5)),
        *((f"palace A{i}", 7) for i in range(1, 5)),
    ]


def test_a_chance_step_and_the_end_are_leaves() -> None:
    # Seat 0, last in the visit with an empty deck: red-08 or red-09, alone or with
    # white-01, or withdraw (4 + 1). Withdrawing wins the vizier and the province: four
    # cities for the palace, and the palace ends the visit at a reshuffle, a leaf.
    state = position(
        4,
        hands={0: ("red-08", "red-09", "white-01")},
        played={0: ("red-07",)},
        deck=(),
        withdrawn=(1, 2, 3),
    )
    assert perft(state, 1) == 5
    # After a red card alone: the other alone or with white-01, or withdraw (3); after a
    # red card with white-01: the other red card or withdraw (2); after withdrawing: four
    # cities for the palace. Deeper, every path reaches the reshuffle leaf by depth 4.
    assert perft(state, 2) == 3 + 2 + 3 + 2 + 4
    assert perft(state, 3) == 26
    assert perft(state, 4) == perft(state, 5) == perft(state, 6) == 44
    withdrawn = run(state, "withdraw")
    assert perft(withdrawn, 1) == 4
    shuffle = run(withdrawn, "palace A1")
    assert shuffle.is_chance
    assert perft(shuffle, 1) == perft(shuffle, 5) == 1
    assert divide(shuffle, 3) == []


@pytest.mark.parametrize("path", VECTORS, ids=[p.stem for p in VECTORS])
def test_quick_perft_vectors(path: Path) -> None:
    vector = read_vector(path)
    state = state_from_json(json.loads(vector.position.read_text()), default_components())
    checked = [(d, n) for d, n in vector.counts if n <= QUICK]
    assert checked and [(d, perft(state, d)) for d, _ in checked] == checked


def test_the_vectors_are_regenerated_from_their_tool() -> None:
    assert len(VECTORS) >= 6
    names = {p.stem for p in VECTORS}
    assert {"start-3p", "start-4p", "start-5p", "mid-withdrawal", "last-visit"} <= names


def test_a_malformed_vector_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.perft"
    bad.write_text("id x\nposition x.json\nperft two 7\n", encoding="utf-8")
    with pytest.raises(PerftFormatError, match=r"bad\.perft: line 3: expected 'perft DEPTH"):
        read_vector(bad)


def test_command_line_perft_and_divide(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = tmp_path / "start.json"
    position.write_text(json.dumps(state_to_json(game(4))), encoding="utf-8")
    assert main(["perft", str(position), "--depth", "2"]) == 0
    assert capsys.readouterr().out == "63\n"
    assert main(["perft", str(position), "--depth", "1", "--divide"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["play green-01 1", "play green-02 1"] and out[-1] == "total 7"
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert main(["perft", str(broken), "--depth", "1"]) == 2
    assert "broken.json: not valid JSON (line 1, column 2)" in capsys.readouterr().err


def test_perft_tool_checks_the_quick_vectors() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "run_perft.py"), "--max-count", "1000"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "0 wrong" in done.stdout
