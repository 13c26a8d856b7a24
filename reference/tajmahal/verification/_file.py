"""Verifying one game record: its file read, its steps replayed, its outcome as a value.

:func:`verify_file` ends in one of three outcomes (:class:`~tajmahal.verification.FileReport`):

- ``ok``: every step replays and every expectation it states holds, the game ends and
  its result matches;
- ``diverged``: the first step where the reference disagrees, with every differing field
  (expected against actual), the clauses that decided the step, the reference's account
  of it and, for full records, the paths where the public positions differ;
- ``bad-input``: the file cannot be read as a record (not JSON, breaks the schema,
  unknown cards, another component set).

:func:`collect_paths` finds the records under files and folders (a corpus manifest is
not a record).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable
from pathlib import Path

import attrs

from tajmahal.accel import REPLAY, read_record
from tajmahal.errors import TajMahalError
from tajmahal.inputs import STDIN, display_name
from tajmahal.model import Components, GameState
from tajmahal.records import (
    Record,
    VerificationError,
    check_result,
    event_lines,
    initial_state,
    public_to_json,
    replay_steps,
    step_clauses,
)
from tajmahal.verification._differences import Difference, json_differences
from tajmahal.verification._explain import Explanation, HypothesisTester
from tajmahal.verification._record_explanation import explain_record, headline
from tajmahal.verification._report import FileReport, Outcome

MANIFEST_FORMAT = "tajmahal-trace-index"
"""The ``format`` of a corpus manifest, which folder walks skip (it is not a record)."""
REPORT_FORMAT = "tajmahal-verify-report"
"""The ``format`` of a JSON report of ``verify``, which folder walks skip too: a folder
verified with its report inside it verifies the same the next time."""

_NOT_RECORDS = re.compile(rf'"format"\s*:\s*"(?:{MANIFEST_FORMAT}|{REPORT_FORMAT})"')


def collect_paths(paths: Iterable[str | Path]) -> list[str | Path]:
    """The files to check: each file as given, each folder's ``*.json`` recursively
    (sorted; corpus manifests and ``verify`` reports left out, folders named ``*.json``
    walked). Anything else named ``*.json`` in a folder (a named pipe, a socket, a device,
    a dangling symbolic link) is kept, so that verifying it reports what it is."""
    found: list[str | Path] = []
    for item in paths:
        if not str(item) or str(item) == STDIN or not Path(item).is_dir():
            found.append(item)
            continue
        path = Path(item)
        children = [
            child
            for child in sorted(path.rglob("*.json"))
            if not child.is_dir() and not _is_manifest(child)
        ]
        found.extend(children if children else [path])
    return found


def _is_manifest(path: Path) -> bool:
    """Whether ``path`` is a regular file that starts as a corpus manifest or a
    ``verify`` report does (only regular files are opened: a named pipe would wait)."""
    if not path.is_file():
        return False
    try:
        with path.open(encoding="utf-8") as stream:
            head = stream.read(200)
    except (OSError, UnicodeDecodeError):
        return False
    return _NOT_RECORDS.search(head) is not None


def verify_file(
    path: str | Path, components: Components, hypotheses: HypothesisTester | None = None
) -> FileReport:
    """Verify one record file; never raises for bad input or a divergence. A divergence
    is explained (:func:`~tajmahal.verification.explain_record`), with the variants of
    the rules ``hypotheses`` finds (given the record and the explanation) first."""
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
        for replayed in replay_steps(record, components, source, functions=REPLAY):
            last = replayed.after
            steps += 1
        state = initial_state(record, components, source) if last is None else last
        check_result(record, state, source)
    except VerificationError as error:
        assert record is not None
        explanation = explain_record(record, components, error, source)
        if explanation is not None and hypotheses is not None:
            explanation = explanation.with_hypotheses(hypotheses(record, explanation))
        return _diverged(error, record, trace_id, steps, time.perf_counter() - started, explanation)
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
        f"{'winner' if len(state.winners()) == 1 else 'winners'} {list(state.winners())}"
        if state.is_over
        else f"{steps} steps replayed, a fragment without result: it stops in visit "
        f"{state.visit}, scores {list(state.scores)}",
        trace_id=trace_id,
        steps=steps,
        seconds=time.perf_counter() - started,
        final_scores=state.scores,
    )


def with_hypotheses(
    result: FileReport, components: Components, hypotheses: HypothesisTester | None
) -> FileReport:
    """``result`` with what ``hypotheses`` finds for its explanation (the record read
    again from its file), for a record verified in a worker process."""
    explanation = result.explanation
    if hypotheses is None or explanation is None or result.path == STDIN:
        return result
    record = read_record(result.path)
    found = explanation.with_hypotheses(hypotheses(record, explanation))
    return attrs.evolve(result, explanation=found)


def _diverged(
    error: VerificationError,
    record: Record,
    trace_id: str | None,
    steps: int,
    seconds: float,
    explanation: Explanation | None,
) -> FileReport:
    action = None
    if error.step is not None:
        action = record.steps[error.step - 1].action
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
        headline(error, explanation),
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
        explanation=explanation,
    )
