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

from tajmahal.accel import apply, legal_actions
from tajmahal.engine import new_game, random_reshuffle, random_setup
from tajmahal.errors import RecordError
from tajmahal.model import Action, GameState, RuleSet, default_components
from tajmahal.notation import canonical_json


def play_random_game(
    players: int, seed: int, rules: RuleSet | None = None
) -> tuple[GameState, int, int]:
    """One game between uniformly random players; returns (final state, decisions, steps)."""
    components = default_components()
    state = new_game(components, players, random_setup(components, players, seed), rules)
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


def run_once(
    players: int, seed: int, games: int, rules: RuleSet | None = None
) -> tuple[float, float, int, int, str]:
    """Play the games once; returns (wall seconds, CPU seconds, decisions, steps, digest)."""
    digest = hashlib.sha256()
    decisions = steps = 0
    finals = []
    wall, cpu = time.perf_counter(), time.process_time()
    for game in range(games):
        final, game_decisions, game_steps = play_random_game(players, seed + game, rules)
        decisions += game_decisions
        steps += game_steps
        finals.append(final)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    for final in finals:
        digest.update(canonical_json(final).encode("utf-8"))
    return wall, cpu, decisions, steps, "sha256:" + digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark full random games.")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, choices=(3, 4, 5), default=4)
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="run the same games this many times and report the fastest "
        "(the machine's load varies; the digest must not)",
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule-set option other than its default, e.g. majority_scope=all (repeatable)",
    )
    arguments = parser.parse_args(argv)
    try:
        rules = RuleSet.from_json(dict(option.partition("=")[::2] for option in arguments.rule))
    except RecordError as error:
        parser.error(str(error))
    default_components()  # load the data files before timing
    runs = [
        run_once(arguments.players, arguments.seed, arguments.games, rules)
        for _ in range(max(1, arguments.repeat))
    ]
    digests = {run[4] for run in runs}
    if len(digests) != 1:
        print(f"error: repeated runs gave different digests: {sorted(digests)}")
        return 1
    wall, cpu, decisions, steps, digest = min(runs, key=lambda run: run[1])
    games = arguments.games
    print(
        f"games:            {games} ({arguments.players} players, seeds "
        f"{arguments.seed}..{arguments.seed + games - 1}), best of {len(runs)} "
        f"{'run' if len(runs) == 1 else 'runs'}"
    )
    if arguments.rule:
        print(f"rules:            {', '.join(sorted(arguments.rule))}")
    print(f"time:             {cpu:.2f} s CPU ({wall:.2f} s wall)")
    print(f"games/second:     {games / cpu:.1f} (CPU time)")
    print(f"decisions/second: {decisions / cpu:.0f}")
    print(f"steps/second:     {steps / cpu:.0f} ({steps / games:.0f} steps per game)")
    print(f"digest:           {digest}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
