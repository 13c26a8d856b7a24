"""Fuzzing speed: CPU milliseconds per campaign game, and the campaign's digest.

Plays the games ``--start`` to ``--start + --games - 1`` of a campaign (the default
mix of players, player counts and rule sets, seed 0) in this one process, the way a
campaign's worker plays them, and prints the CPU time per game (``process_time``, the
best of ``--repeat`` runs: the machine's load varies, CPU time much less), the steps per
game, the projection to a ten-minute campaign on two cores, and the campaign digest
(``sum256:...``, see docs/fuzzing.md), which must not depend on how fast the checks are.

``--deep-every K`` is the campaign option; ``--profile`` splits the time by part
(engine and players only, plus the step invariants, plus the tags, plus the deep
invariants) by playing the same games with more and more switched on.
Never used as a timed test.
"""

from __future__ import annotations

import argparse
import time

import attrs

from tajmahal.fuzz.campaign import Options, run_chunk
from tajmahal.fuzz.games import Tagger
from tajmahal.tags import edge_tags

BUDGET_SECONDS = 2 * 10 * 60
"""Two cores for ten minutes."""


def measure(
    options: Options, start: int, games: int, tagger: Tagger | None, repeat: int
) -> tuple[float, int, str]:
    """The best CPU seconds over ``repeat`` runs, the steps, and the campaign digest."""
    best = float("inf")
    steps = 0
    digest = ""
    for _ in range(repeat):
        began = time.process_time()
        result = run_chunk(options, start, start + games, tagger, None)
        spent = time.process_time() - began
        best = min(best, spent)
        found = f"sum256:{result.digest:064x}"
        if digest and found != digest:
            raise SystemExit(f"the digest changed between runs: {digest} then {found}")
        if result.failures:
            raise SystemExit(f"a game failed: {result.failures[0].entry.message}")
        digest, steps = found, result.steps
    return best, steps, digest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="CPU time per fuzzing game.")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--start", type=int, default=0, help="index of the first game")
    parser.add_argument("--seed", type=int, default=0, help="campaign seed")
    parser.add_argument("--deep-every", type=int, default=None, help="default: the campaign's")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the fastest is reported")
    parser.add_argument("--profile", action="store_true", help="split the time by part")
    arguments = parser.parse_args(argv)
    base = Options(games=arguments.games, seed=arguments.seed)
    if arguments.deep_every is not None:
        base = attrs.evolve(base, deep_every=arguments.deep_every)
    runs: list[tuple[str, Options, Tagger | None]] = []
    if arguments.profile:
        never = 10**15  # no index in range is a multiple except 0: start at 1
        runs.append(("engine+players+step invariants", attrs.evolve(base, deep_every=never), None))
        runs.append(("  + tags", attrs.evolve(base, deep_every=never), edge_tags))
    runs.append((f"campaign (deep every {base.deep_every})", base, edge_tags))
    start = arguments.start if not arguments.profile else max(arguments.start, 1)
    print(f"games {start}..{start + arguments.games - 1}, seed {arguments.seed}")
    for label, options, tagger in runs:
        cpu, steps, digest = measure(options, start, arguments.games, tagger, arguments.repeat)
        per_game = cpu / arguments.games * 1000
        projected = int(BUDGET_SECONDS / (cpu / arguments.games))
        print(
            f"{label}: {per_game:.2f} ms CPU/game, {steps / arguments.games:.0f} steps/game, "
            f"{cpu / steps * 1e6:.1f} us/step; projected {projected:,} games per 10 min "
            f"on 2 cores; digest {digest}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
