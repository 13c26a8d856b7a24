"""Benchmark: full random games per second, decisions per second, and a result digest.

Plays ``--games`` random games (uniformly random players, seeded), timing only the
engine loop (legal_actions, the players' choices, apply). Prints the figures and a
digest of every final state (sha256 over their canonical JSON), so that a speed-up can
be shown to change nothing: the digest must stay the same for the same arguments.
Never used as a timed test.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time

from tajmahal.actions import Action
from tajmahal.components import default_components
from tajmahal.engine import apply, legal_actions, random_reshuffle
from tajmahal.serialize import canonical_json
from tajmahal.setup import new_game, random_setup
from tajmahal.state import GameState


def play_random_game(players: int, seed: int) -> tuple[GameState, int, int]:
    """One game between uniformly random players; returns (final state, decisions, steps)."""
    components = default_components()
    state = new_game(components, players, random_setup(components, players, seed))
    rng = random.Random(seed)
    decisions = steps = 0
    while not state.is_over:
        action: Action
        if state.is_chance:
            action = random_reshuffle(state, rng)
        else:
            legal = legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            decisions += 1
        state = apply(state, action)
        steps += 1
    return state, decisions, steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark full random games.")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, choices=(3, 4, 5), default=4)
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    arguments = parser.parse_args(argv)
    default_components()  # load the data files before timing
    digest = hashlib.sha256()
    decisions = steps = 0
    started = time.perf_counter()
    finals = []
    for game in range(arguments.games):
        final, game_decisions, game_steps = play_random_game(
            arguments.players, arguments.seed + game
        )
        decisions += game_decisions
        steps += game_steps
        finals.append(final)
    elapsed = time.perf_counter() - started
    for final in finals:
        digest.update(canonical_json(final).encode("utf-8"))
    print(
        f"games:            {arguments.games} ({arguments.players} players, seeds "
        f"{arguments.seed}..{arguments.seed + arguments.games - 1})"
    )
    print(f"time:             {elapsed:.2f} s")
    print(f"games/second:     {arguments.games / elapsed:.1f}")
    print(f"decisions/second: {decisions / elapsed:.0f}")
    print(f"steps/second:     {steps / elapsed:.0f} ({steps / arguments.games:.0f} steps per game)")
    print(f"digest:           sha256:{digest.hexdigest()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
