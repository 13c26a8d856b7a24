"""Measure the verifier: replay the golden corpus (or other paths) and print steps per
second and a digest of the outcomes (so two runs can be compared).

The digest names each file by its path relative to the argument it was found under (a
file given itself: its name), so it does not depend on the working directory or on how
the argument is written (docs/performance.md gives the recipe).

CPU time, best of N runs: the machine may be shared. The first run's rate is printed
too: later runs in the same process find the accelerated layer's memos filled by the
first, so the first run is what one ``tajmahal verify`` of the same paths sees. The
records are verified as ``tajmahal verify`` verifies them: with the accelerated layer
(``TAJMAHAL_PLAIN=1`` in the environment: the plain core) and with the collector set as
the command sets it (:func:`tajmahal.accel.fewer_collections`); ``--default-collector``
keeps Python's thresholds.

``--against DIR`` compares with another checkout of the project (its
``reference/tajmahal``, copied under the name ``tajmahal_against`` with its imports
renamed): the two verify the same paths in alternation in this one process, so that
both see the same load, and the rates of both, their best-of ratio and the median of
the per-run ratios are printed with both digests.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from tajmahal.accel import ENABLED, fewer_collections
from tajmahal.model import default_components
from tajmahal.verification import Report, collect_paths, verify_paths

CORPUS = Path(__file__).resolve().parents[2] / "specs" / "traces"


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


def _against(checkout: str, folder: str) -> tuple[ModuleType, ModuleType, ModuleType]:
    """The verification, model and accelerated-layer modules of another checkout's
    package, copied into ``folder`` as ``tajmahal_against`` (data files followed, imports
    renamed)."""
    target = Path(folder) / "tajmahal_against"
    shutil.copytree(Path(checkout) / "reference" / "tajmahal", target, symlinks=False)
    for path in target.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"\btajmahal\.", "tajmahal_against.", text)
        text = re.sub(r"\bfrom tajmahal import\b", "from tajmahal_against import", text)
        path.write_text(text, encoding="utf-8")
    sys.path.insert(0, folder)
    return (
        importlib.import_module("tajmahal_against.verification"),
        importlib.import_module("tajmahal_against.model"),
        importlib.import_module("tajmahal_against.accel"),
    )


def _compare(arguments: argparse.Namespace) -> int:
    """Verify the paths with this package and another checkout's, in alternation."""
    with tempfile.TemporaryDirectory() as folder:
        other_verify, other_components, other_command = _against(arguments.against, folder)
        sides: dict[str, tuple[Any, Any, Any]] = {
            "this": (verify_paths, default_components(), fewer_collections),
            "against": (
                other_verify.verify_paths,
                other_components.default_components(),
                other_command.fewer_collections,
            ),
        }
        best = {"this": float("inf"), "against": float("inf")}
        ratios = []
        reports: dict[str, Any] = {}
        for run in range(arguments.runs):
            seconds = {}
            for name in ("this", "against") if run % 2 else ("against", "this"):
                verify, components, collections = sides[name]
                with contextlib.nullcontext() if arguments.default_collector else collections():
                    started = time.process_time()
                    reports[name] = verify(arguments.paths, components)
                    seconds[name] = time.process_time() - started
                best[name] = min(best[name], seconds[name])
            ratios.append(seconds["against"] / seconds["this"])
        sys.path.remove(folder)
    names = _names(arguments.paths)
    steps = reports["this"].steps
    ratios.sort()
    print(
        f"verify, {arguments.runs} runs each in alternation: this {steps / best['this']:.0f} "
        f"steps/s (digest {_digest(reports['this'], names)}), against "
        f"{reports['against'].steps / best['against']:.0f} steps/s (digest "
        f"{_digest(reports['against'], names)}); best-of ratio "
        f"{best['against'] / best['this']:.3f}, per-run ratios {ratios[0]:.3f} to "
        f"{ratios[-1]:.3f}, median {ratios[len(ratios) // 2]:.3f}"
    )
    return int(reports["this"].exit_code)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("paths", nargs="*", default=[str(CORPUS)])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--default-collector",
        action="store_true",
        help="keep Python's collector thresholds (the command raises the youngest one)",
    )
    parser.add_argument(
        "--against",
        metavar="DIR",
        help="another checkout of the project to compare with, in alternation",
    )
    arguments = parser.parse_args(argv)
    if arguments.against is not None:
        return _compare(arguments)
    components = default_components()
    best = float("inf")
    first = 0.0
    report = None
    for run in range(arguments.runs):
        started = time.process_time()
        if arguments.default_collector:
            report = verify_paths(arguments.paths, components)
        else:
            with fewer_collections():
                report = verify_paths(arguments.paths, components)
        seconds = time.process_time() - started
        best = min(best, seconds)
        if run == 0:
            first = seconds
    assert report is not None
    print(
        f"verify: {len(report.files)} records, {report.steps} steps, best of "
        f"{arguments.runs}: {best:.2f} s CPU, {report.steps / best:.0f} steps/s "
        f"(first run {report.steps / first:.0f}); "
        f"outcomes {report.summary().split(';')[0]}; "
        f"{'accelerated layer' if ENABLED else 'plain core'}; "
        f"digest {_digest(report, _names(arguments.paths))}"
    )
    return report.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
