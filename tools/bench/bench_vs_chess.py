"""Side-by-side benchmark: random Taj Mahal games against random chess games (python-chess).

A yardstick other people can reproduce: python-chess is a well-known, carefully optimised
pure-Python rules engine, so the ratio of the two playout rates, measured in the same
process on the same machine, says more than a games-per-second figure that depends on
the machine and its load.

Both sides play uniformly random full games:

- Taj Mahal: ``--players`` players, every decision a uniformly random legal action,
  every chance step a uniformly random reshuffle, seeds ``--seed`` onwards, exactly as
  ``tools/bench/bench.py`` plays them (its result digest is printed and must not change);
- chess: from the initial position, a uniformly random legal move until
  ``Board.is_game_over()`` (checkmate, stalemate, insufficient material, the 75-move
  rule or fivefold repetition), one seeded generator per game.

Each round times one batch of each (CPU time, ``time.process_time``), alternating, so
that both see the same load; the figures are the best round of each, the spread is the
slowest to the fastest round. Needs the ``bench`` extra (``make bench`` installs it).
Never used as a timed test.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time

try:
    import chess
except ModuleNotFoundError:  # an optional extra: say how to get it rather than fail
    sys.exit(
        "bench_vs_chess: python-chess is not installed; run `make bench` or "
        "`pip install -e '.[bench]'`"
    )

from bench import play_random_game
from tajmahal.model import default_components
from tajmahal.notation import canonical_json


def taj_mahal_round(players: int, seed: int, games: int) -> tuple[float, int, str]:
    """Play the Taj Mahal games once; returns (CPU seconds, decisions, result digest).

    The digest is the one ``tools/bench/bench.py`` prints for the same games.
    """
    finals = []
    decisions = 0
    started = time.process_time()
    for game in range(games):
        final, game_decisions, _ = play_random_game(players, seed + game)
        finals.append(final)
        decisions += game_decisions
    seconds = time.process_time() - started
    digest = hashlib.sha256()
    for final in finals:
        digest.update(canonical_json(final).encode("utf-8"))
    return seconds, decisions, "sha256:" + digest.hexdigest()


def chess_round(seed: int, games: int) -> tuple[float, int, str]:
    """Play the chess games once; returns (CPU seconds, moves, digest of the results).

    The digest covers each game's result and length, so that two runs can be compared.
    """
    results = []
    moves = 0
    started = time.process_time()
    for game in range(games):
        rng = random.Random(seed + game)
        board = chess.Board()
        while not board.is_game_over():
            legal = list(board.legal_moves)
            board.push(legal[rng.randrange(len(legal))])
        moves += len(board.move_stack)
        results.append(f"{board.result()} {len(board.move_stack)}")
    seconds = time.process_time() - started
    digest = hashlib.sha256("\n".join(results).encode("utf-8")).hexdigest()
    return seconds, moves, "sha256:" + digest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Random Taj Mahal games against random chess.")
    parser.add_argument("--games", type=int, default=200, help="Taj Mahal games per round")
    parser.add_argument("--chess-games", type=int, default=100, help="chess games per round")
    parser.add_argument("--players", type=int, choices=(3, 4, 5), default=4)
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the best one counts")
    arguments = parser.parse_args(argv)
    default_components()  # load the data files before timing
    ours: list[tuple[float, int, str]] = []
    theirs: list[tuple[float, int, str]] = []
    for _ in range(max(1, arguments.rounds)):
        ours.append(taj_mahal_round(arguments.players, arguments.seed, arguments.games))
        theirs.append(chess_round(arguments.seed, arguments.chess_games))
    for name, runs in (("Taj Mahal", ours), ("chess", theirs)):
        if len({run[2] for run in runs}) != 1:
            print(f"error: repeated {name} rounds gave different digests")
            return 1
    our_rates = sorted(arguments.games / run[0] for run in ours)
    their_rates = sorted(arguments.chess_games / run[0] for run in theirs)
    best_ours, best_theirs = min(ours), min(theirs)
    print(
        f"rounds:           {len(ours)} (alternating; CPU time; best round counts, "
        "spread is slowest..fastest)"
    )
    print(
        f"Taj Mahal:        {our_rates[-1]:.1f} games/s "
        f"(spread {our_rates[0]:.1f}..{our_rates[-1]:.1f}), "
        f"{best_ours[1] / best_ours[0]:.0f} decisions/s; {arguments.games} games, "
        f"{arguments.players} players, seeds {arguments.seed}.."
        f"{arguments.seed + arguments.games - 1}"
    )
    print(
        f"python-chess {chess.__version__}: {their_rates[-1]:.1f} games/s "
        f"(spread {their_rates[0]:.1f}..{their_rates[-1]:.1f}), "
        f"{best_theirs[1] / best_theirs[0]:.0f} moves/s; {arguments.chess_games} games"
    )
    ratios = sorted(
        (arguments.games / our[0]) / (arguments.chess_games / their[0])
        for our, their in zip(ours, theirs, strict=True)
    )
    print(
        f"ratio:            {our_rates[-1] / their_rates[-1]:.2f} "
        f"(best against best; per round {ratios[0]:.2f}..{ratios[-1]:.2f})"
    )
    print(f"digest:           {best_ours[2]} (Taj Mahal, as tools/bench/bench.py prints it)")
    print(f"chess digest:     {best_theirs[2]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
