"""Measure the verifier: replay the golden corpus (or other paths) and print steps per
second and a digest of the outcomes (so two runs can be compared).

CPU time, best of N runs: the machine may be shared. ``--without-fast`` validates every
record with jsonschema alone, as when the ``fast`` extra is not installed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import time
from pathlib import Path

from tajmahal.components import default_components
from tajmahal.schemas import FAST_PATH_VARIABLE, compiled_validator_available
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
    parser.add_argument(
        "--without-fast",
        action="store_true",
        help="validate with jsonschema alone (as without the fast extra)",
    )
    arguments = parser.parse_args(argv)
    if arguments.without_fast:
        os.environ[FAST_PATH_VARIABLE] = "0"
    validator = (
        "compiled, then jsonschema" if compiled_validator_available("trace") else "jsonschema"
    )
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
        f"outcomes {report.summary().split(';')[0]}; schema validation: {validator}; "
        f"digest {_digest(report)}"
    )
    return report.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
