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
from pathlib import Path

from tajmahal.actions import Action
from tajmahal.components import default_components
from tajmahal.engine import apply, legal_actions, random_reshuffle
from tajmahal.errors import RecordError
from tajmahal.rules import RuleSet
from tajmahal.serialize import canonical_json
from tajmahal.setup import new_game, random_setup
from tajmahal.state import GameState
from tajmahal.trace import Record, read_record, verify

GOLDEN = Path(__file__).resolve().parent.parent / "specs" / "traces"
"""Where the golden records lie (``golden-*.json``): the default of ``--verify``."""


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


def verify_once(paths: list[Path]) -> tuple[float, float, int, str]:
    """Read and verify the records once, as ``tajmahal verify`` does; returns (CPU seconds
    for reading and verifying, CPU seconds for verifying alone, steps, digest of the final
    states)."""
    components = default_components()
    started = time.process_time()
    records: list[Record] = [read_record(path) for path in paths]
    read = time.process_time() - started
    started = time.process_time()
    finals = [
        verify(record, components, str(path)) for path, record in zip(paths, records, strict=True)
    ]
    replay = time.process_time() - started
    digest = hashlib.sha256()
    for final in finals:
        digest.update(canonical_json(final).encode("utf-8"))
    steps = sum(len(record.steps) for record in records)
    return read + replay, replay, steps, "sha256:" + digest.hexdigest()


def bench_verify(paths: list[Path], repeat: int) -> int:
    """Print the verifier's steps per second (best of ``repeat`` runs) and a digest."""
    runs = [verify_once(paths) for _ in range(max(1, repeat))]
    if len({run[3] for run in runs}) != 1:
        print("error: repeated runs gave different digests")
        return 1
    total, _, steps, digest = min(runs)
    print(f"records:          {len(paths)} ({steps} steps), best of {len(runs)} run(s)")
    print(f"verify:           {steps / total:.0f} steps/second ({total:.2f} s CPU, read + replay)")
    print(f"replay only:      {steps / min(run[1] for run in runs):.0f} steps/second")
    print(f"digest:           {digest}")
    return 0


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
    parser.add_argument(
        "--verify",
        nargs="*",
        type=Path,
        metavar="RECORD",
        help="instead of random games, read and verify trace records as `tajmahal verify` "
        "does and print steps per second (default: the golden records, "
        "specs/traces/golden-*.json)",
    )
    arguments = parser.parse_args(argv)
    if arguments.verify is not None:
        return bench_verify(
            arguments.verify or sorted(GOLDEN.glob("golden-*.json")), arguments.repeat
        )
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
        f"{arguments.seed}..{arguments.seed + games - 1}), best of {len(runs)} run(s)"
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
