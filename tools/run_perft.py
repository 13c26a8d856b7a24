"""Check the perft vectors of ``specs/perft/`` and print figures (counts, seconds, nodes
per second); exit 1 if any count differs. ``--max-count N`` skips the larger counts
(the quick profile that ``tests/conformance/test_perft.py`` also runs)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tajmahal.conformance import perft
from tajmahal.conformance._perft import read_vector
from tajmahal.model import default_components
from tajmahal.notation import state_from_json

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-count", type=int, default=None, metavar="N")
    parser.add_argument("folder", nargs="?", default=str(ROOT / "specs" / "perft"))
    arguments = parser.parse_args(argv)
    import json

    components = default_components()
    wrong = 0
    total_nodes = 0
    total_time = 0.0
    for path in sorted(Path(arguments.folder).glob("*.perft")):
        vector = read_vector(path)
        document = json.loads(vector.position.read_text(encoding="utf-8"))
        state = state_from_json(document, components)
        for depth, expected in vector.counts:
            if arguments.max_count is not None and expected > arguments.max_count:
                continue
            started = time.process_time()
            found = perft(state, depth)
            spent = time.process_time() - started
            total_nodes += found
            total_time += spent
            verdict = "ok" if found == expected else f"WRONG (expected {expected})"
            wrong += found != expected
            rate = f"{found / spent:,.0f}/s" if spent > 0 else "-"
            print(f"{vector.id:18} perft {depth} {found:>9} {spent:7.2f} s {rate:>12}  {verdict}")
    print(f"total {total_nodes} leaves in {total_time:.2f} s CPU; {wrong} wrong")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
