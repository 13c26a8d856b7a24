"""Regenerate the golden game records in specs/traces/.

Each golden record is a full game between the built-in players from a fixed seed. The
test suite replays every record (it must verify) and regenerates each one in memory (it
must come out byte for byte the same), so any change of behaviour shows up as a diff of
these files, to be reviewed and committed deliberately with this tool.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tajmahal.components import default_components
from tajmahal.match import play_match
from tajmahal.players import GreedyPlayer, Player, RandomPlayer
from tajmahal.trace import dumps_record, write_record

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "specs" / "traces"

GOLDEN_GAMES: tuple[tuple[str, int, int], ...] = (
    ("golden-3p-seed11.json", 3, 11),
    ("golden-4p-seed2000.json", 4, 2000),
    ("golden-5p-seed5.json", 5, 5),
)
"""(file name, players, seed) of every golden record."""


def golden_players(players: int, seed: int) -> list[Player]:
    """Greedy and random players alternating round the table, seeded from the game seed."""
    return [
        GreedyPlayer(seed * 10 + seat) if seat % 2 == 0 else RandomPlayer(seed * 10 + seat)
        for seat in range(players)
    ]


def golden_text(players: int, seed: int) -> str:
    """The exact text of the golden record for (players, seed)."""
    result = play_match(default_components(), golden_players(players, seed), seed)
    return dumps_record(result.record)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate the golden records.")
    parser.add_argument("--out", type=Path, default=GOLDEN_DIR)
    arguments = parser.parse_args(argv)
    for name, players, seed in GOLDEN_GAMES:
        result = play_match(default_components(), golden_players(players, seed), seed)
        write_record(result.record, arguments.out / name)
        print(
            f"{arguments.out / name}: {len(result.record.steps)} steps, scores "
            f"{list(result.final.scores)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
