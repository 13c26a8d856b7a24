"""Measure the verifier: replay the golden corpus (or other paths) and print steps per
second and a digest of the outcomes (so two runs can be compared).

The digest names each file by its path relative to the argument it was found under (a
file given itself: its name), so it does not depend on the working directory or on how
the argument is written (docs/performance.md gives the recipe).

CPU time, best of N runs: the machine may be shared. ``--without-fast`` validates every
record with jsonschema alone, as when the ``fast`` extra is not installed. The records are
verified with the collector set as ``tajmahal verify`` sets it
(:func:`tajmahal.commands.verify.fewer_collections`); ``--default-collector`` keeps
Python's thresholds.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import time
from pathlib import Path

from tajmahal.commands.verify import fewer_collections
from tajmahal.components import default_components
from tajmahal.schemas import FAST_PATH_VARIABLE, compiled_validator_available
from tajmahal.verify import Report, collect_paths, verify_paths

CORPUS = Path(__file__).resolve().parent.parent / "specs" / "traces"


def _names(paths: list[str]) -> list[str]:
    """Each file :func:`verify_paths` checks, in its order, named by its path relative to
    the argument it was found under (``/`` between folders), or by its own name when the
    argument is the file itself."""
    names = []
    for given in paths:
        root = Path(given)
        for found in collect_paths([given]):
            path = Path(found)
            names.append(path.name if path == root else path.relative_to(root).as_posix())
    return names


def _digest(report: Report, names: list[str]) -> str:
    """The first 16 hex digits of the SHA-256 of one line per file (joined with line
    feeds): its name, outcome, steps and final scores, separated by colons."""
    assert len(names) == len(report.files)
    text = "\n".join(
        f"{name}:{result.outcome.value}:{result.steps}:{result.final_scores}"
        for name, result in zip(names, report.files, strict=True)
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
    parser.add_argument(
        "--default-collector",
        action="store_true",
        help="keep Python's collector thresholds (the command raises the youngest one)",
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
        if arguments.default_collector:
            report = verify_paths(arguments.paths, components)
        else:
            with fewer_collections():
                report = verify_paths(arguments.paths, components)
        best = min(best, time.process_time() - started)
    assert report is not None
    print(
        f"verify: {len(report.files)} records, {report.steps} steps, best of "
        f"{arguments.runs}: {best:.2f} s CPU, {report.steps / best:.0f} steps/s; "
        f"outcomes {report.summary().split(';')[0]}; schema validation: {validator}; "
        f"digest {_digest(report, _names(arguments.paths))}"
    )
    return report.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
