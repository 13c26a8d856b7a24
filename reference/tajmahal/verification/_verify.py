"""Verifying game records in bulk: the library behind ``tajmahal verify``.

Its main use is checking another engine: that engine writes records of its games (see
``docs/conformance.md``), and :func:`verify_paths` replays each against the reference
(:func:`~tajmahal.verification.verify_file`), file by file, never stopping at a bad one,
in this process or in worker processes. Reports render as text lines, JSON
(:func:`~tajmahal.verification.report_to_json`) and JUnit XML
(:func:`~tajmahal.verification.report_to_junit`) for other projects' CI.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tajmahal.inputs import STDIN
from tajmahal.model import Components
from tajmahal.verification._explain import HypothesisTester
from tajmahal.verification._file import collect_paths, verify_file
from tajmahal.verification._jobs import resolve_jobs, verify_in_workers
from tajmahal.verification._report import Report


def verify_paths(
    paths: Sequence[str | Path],
    components: Components,
    *,
    on_file: Any = None,
    jobs: int = 1,
    worker_setup: Callable[[], object] | None = None,
    hypotheses: HypothesisTester | None = None,
) -> Report:
    """Verify every record under ``paths`` (files, or folders searched for ``*.json``);
    ``on_file(report)`` is called after each file, in the files' order, for progress
    output.

    ``jobs`` above 1 (0: one per core) verifies the files in that many worker processes
    (:mod:`tajmahal.verification`), with the same reports in the same order but for the
    timings; ``worker_setup``, a module-level function, runs once in each worker.
    ``hypotheses`` is given each record that diverges and its explanation, and what it
    finds is printed first (``tajmahal.verification.HypothesisTester``)."""
    files = collect_paths(paths)
    if jobs != 1:
        processes = resolve_jobs(jobs)
        if processes > 1 and sum(1 for path in files if str(path) != STDIN) > 1:
            return verify_in_workers(
                files,
                components,
                processes,
                on_file=on_file,
                setup=worker_setup,
                hypotheses=hypotheses,
            )
    results = []
    for path in files:
        result = verify_file(path, components, hypotheses)
        results.append(result)
        if on_file is not None:
            on_file(result)
    return Report(tuple(results))
