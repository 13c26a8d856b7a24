"""The deeper differential run (``make diff``): the reference and every wrong engine.

Plays ``--games`` games through ``tajmahal serve`` (which must agree at every step), then
runs each deliberately wrong engine of ``tests/conformance/wrong_engines.py`` with the full
shrinking budget and prints what caught it: the first differing field, the step where it
was found and where the shrunk game ends, the players, and whether the expected clause
was named. Ends with steps per second and a digest of the findings (the same arguments
give the same digest). Exit code 1 if the reference disagrees or a wrong engine escapes.
"""

from __future__ import annotations

import argparse
import hashlib
import shlex
import sys
from pathlib import Path

from tajmahal.conformance import run_diff
from tajmahal.model import default_components

ROOT = Path(__file__).resolve().parent.parent
PYTHON = shlex.quote(sys.executable)
WRONG_ENGINES = shlex.quote(str(ROOT / "tests" / "conformance" / "wrong_engines.py"))

EXPECTED = {
    "tie-wins": ({}, "TM.WITHDRAW.MAJORITY.STRICT"),
    "crown-beside-own": ({"crown_beside_own_palace": "forbidden"}, "RUL.CROWN.BESIDE_OWN_PALACE"),
    "special-discarded": ({}, "TM.SPECIAL.RETURN_TO_HAND"),
    "forfeit-tile": ({}, "RUL.REWARD.NO_LEGAL_CITY"),
    "anticlockwise": ({}, "TM.VISIT.NEXT.START_PLAYER"),
}
"""Each wrong engine: the options it needs fixed, and the clause its wrong rule breaks."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games against the reference")
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args()
    components = default_components()
    findings: list[str] = []
    failed = False
    reference = run_diff(
        f"{PYTHON} -m tajmahal.cli serve",
        components,
        games=arguments.games,
        seed=arguments.seed,
    )
    rate = reference.steps / reference.seconds
    print(
        f"reference: {'agreed' if reference.agreed else 'DISAGREED'} over {reference.games} "
        f"games, {reference.steps} steps in {reference.seconds:.1f} s ({rate:.0f} steps/s)"
    )
    failed |= not reference.agreed
    print(
        f"{'engine':18} {'field':13} {'game':>4} {'step':>5} {'shrunk':>6} {'players':>7} "
        f"{'s':>5}  clause"
    )
    for name, (rules, clause) in EXPECTED.items():
        command = f"{PYTHON} {WRONG_ENGINES} {name}"
        result = run_diff(command, components, games=50, seed=arguments.seed, rules=rules)
        if result.shrunk is None or result.shrunk.shortest.divergence is None:
            print(f"{name:18} ESCAPED after {result.games} games")
            failed = True
            continue
        shortest = result.shrunk.shortest
        divergence = shortest.divergence
        assert divergence is not None
        named = clause in divergence.clauses
        failed |= not named
        found = result.shrunk.original.divergence
        assert found is not None
        line = (
            f"{name:18} {divergence.field:13} {result.game_index:>4} {found.step:>5} "
            f"{shortest.steps:>6} "
            f"{shortest.plan.players:>7} {result.seconds:>5.1f}  "
            f"{clause if named else 'NOT NAMED: ' + clause}"
        )
        print(line)
        findings.append(f"{name} {divergence.field} {found.step} {shortest.steps} {named}")
    digest = hashlib.sha256("\n".join(findings).encode("utf-8")).hexdigest()[:16]
    print(f"findings digest {digest}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
