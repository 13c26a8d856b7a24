"""Measure the verifier: replay the golden corpus (or other paths) and print steps per
second and a digest of the outcomes (so two runs can be compared).

CPU time, best of N runs: the machine may be shared.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from pathlib import Path

from tajmahal.components import default_components
from tajmahal.verify import Report, verify_paths

CORPUS = Path(__file__).resolve().parent.parent / "specs" / "traces"


def _digest(report: Report) -> str:
    text = "\n".join(
        f"{result.path}:{result.outcome.value}:{result.steps}:{result.final_scores}"
        for result in report.files
    )
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("paths", nargs="*", default=[str(CORPUS)])
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args(argv)
    components = default_components()
    best = float("inf")
    report = None
    for _ in range(arguments.runs):
        started = time.process_time()
        report = verify_paths(arguments.paths, components)
        best = min(best, time.process_time() - started)
    assert report is not None
    print(
        f"verify: {len(report.files)} records, {report.steps} steps, best of "
        f"{arguments.runs}: {best:.2f} s CPU, {report.steps / best:.0f} steps/s; "
        f"outcomes {report.summary().split(';')[0]}; digest {_digest(report)}"
    )
    return report.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
