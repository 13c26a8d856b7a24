"""Verifying game records in bulk: the library behind ``tajmahal verify``.

Its main use is checking another engine: that engine writes records of its games (see
``docs/conformance.md``), and :func:`verify_paths` replays each against the reference,
file by file, never stopping at a bad one. Each file ends in one of three outcomes:

- ``ok``: every step replays and every expectation it states holds, the game ends and
  its result matches;
- ``diverged``: the first step where the reference disagrees, with every differing field
  (expected against actual), the clauses that decided the step, the reference's account
  of it and, for full records, the paths where the public positions differ;
- ``bad-input``: the file cannot be read as a record (not JSON, breaks the schema,
  unknown cards, another component set).

Reports render as text lines, JSON (:func:`report_to_json`) and JUnit XML
(:func:`report_to_junit`) for other projects' CI.

This module finds the files and verifies them; the report values live in
:mod:`tajmahal.verify_report` and their renderings in :mod:`tajmahal.verify_render`
(their names are imported from here, as before).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from tajmahal.account import event_lines
from tajmahal.components import Components
from tajmahal.errors import TajMahalError
from tajmahal.inputs import STDIN, display_name
from tajmahal.state import GameState
from tajmahal.tags import step_clauses
from tajmahal.trace import (
    Record,
    VerificationError,
    check_result,
    initial_state,
    public_to_json,
    read_record,
    replayed_states,
)
from tajmahal.verify_render import report_to_json, report_to_junit, text_lines
from tajmahal.verify_report import (
    Difference,
    FileReport,
    Outcome,
    Report,
    json_differences,
)

MANIFEST_FORMAT = "tajmahal-trace-index"
"""The ``format`` of a corpus manifest, which folder walks skip (it is not a record)."""


def collect_paths(paths: Iterable[str | Path]) -> list[str | Path]:
    """The files to check: each file as given, each folder's ``*.json`` recursively
    (sorted, corpus manifests left out)."""
    found: list[str | Path] = []
    for item in paths:
        if not str(item) or str(item) == STDIN or not Path(item).is_dir():
            found.append(item)
            continue
        path = Path(item)
        children = [
            child
            for child in sorted(path.rglob("*.json"))
            if child.is_file() and not _is_manifest(child)
        ]
        found.extend(children if children else [path])
    return found


def _is_manifest(path: Path) -> bool:
    try:
        with path.open(encoding="utf-8") as stream:
            head = stream.read(200)
    except (OSError, UnicodeDecodeError):
        return False
    return f'"format": "{MANIFEST_FORMAT}"' in head


def verify_file(path: str | Path, components: Components) -> FileReport:
    """Verify one record file; never raises for bad input or a divergence."""
    source = display_name(path)
    started = time.perf_counter()
    if str(path) and str(path) != STDIN and Path(path).is_dir():
        return FileReport(
            source, Outcome.BAD_INPUT, f"{source}: is a folder with no *.json record in it"
        )
    steps = 0
    trace_id: str | None = None
    record: Record | None = None
    try:
        record = read_record(path)
        trace_id = record.id
        last: GameState | None = None
        for after in replayed_states(record, components, source):
            last = after
            steps += 1
        state = initial_state(record, components, source) if last is None else last
        check_result(record, state, source)
    except VerificationError as error:
        assert record is not None
        return _diverged(error, record, trace_id, steps, time.perf_counter() - started)
    except TajMahalError as error:
        return FileReport(
            source,
            Outcome.BAD_INPUT,
            str(error),
            trace_id=trace_id,
            steps=steps,
            seconds=time.perf_counter() - started,
            step=getattr(error, "step", None),
            field=getattr(error, "field", None) or None,
        )
    return FileReport(
        source,
        Outcome.OK,
        f"{steps} steps replayed, final scores {list(state.scores)}, "
        f"winner(s) {list(state.winners())}",
        trace_id=trace_id,
        steps=steps,
        seconds=time.perf_counter() - started,
        final_scores=state.scores,
    )


def _diverged(
    error: VerificationError, record: Record, trace_id: str | None, steps: int, seconds: float
) -> FileReport:
    action = None
    if error.step is not None:
        action = record.steps[error.step].action
    replayed = error.replayed
    clauses: tuple[str, ...] = ()
    account: tuple[str, ...] = ()
    differences: tuple[Difference, ...] = ()
    if replayed is not None:
        clauses = step_clauses(replayed.action, replayed.events)
        account = tuple(event_lines(replayed.events, record.names, replayed.after))
        expected_public = record.steps[replayed.index].public
        if expected_public is not None:
            differences = tuple(
                json_differences(
                    json.loads(json.dumps(expected_public)), public_to_json(replayed.after)
                )
            )
    elif error.clause is not None:
        clauses = (error.clause,)
    return FileReport(
        error.source,
        Outcome.DIVERGED,
        str(error),
        trace_id=trace_id,
        steps=steps,
        seconds=seconds,
        step=error.step,
        action=action,
        field=error.field,
        mismatches=error.mismatches,
        clauses=clauses,
        account=account,
        differences=differences,
    )


def verify_paths(
    paths: Sequence[str | Path],
    components: Components,
    *,
    on_file: Any = None,
    jobs: int = 1,
    worker_setup: Callable[[], object] | None = None,
) -> Report:
    """Verify every record under ``paths`` (files, or folders searched for ``*.json``);
    ``on_file(report)`` is called after each file, in the files' order, for progress
    output.

    ``jobs`` above 1 (0: one per core) verifies the files in that many worker processes
    (:mod:`tajmahal.verify_jobs`), with the same reports in the same order but for the
    timings; ``worker_setup``, a module-level function, runs once in each worker."""
    files = collect_paths(paths)
    if jobs != 1:
        # Imported here: tajmahal.verify_jobs builds on this module.
        from tajmahal.verify_jobs import resolve_jobs, verify_in_workers

        processes = resolve_jobs(jobs)
        if processes > 1 and sum(1 for path in files if str(path) != STDIN) > 1:
            return verify_in_workers(
                files, components, processes, on_file=on_file, setup=worker_setup
            )
    results = []
    for path in files:
        result = verify_file(path, components)
        results.append(result)
        if on_file is not None:
            on_file(result)
    return Report(tuple(results))


__all__ = [
    "MANIFEST_FORMAT",
    "Difference",
    "FileReport",
    "Outcome",
    "Report",
    "collect_paths",
    "json_differences",
    "report_to_json",
    "report_to_junit",
    "text_lines",
    "verify_file",
    "verify_paths",
]
