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
"""

from __future__ import annotations

import enum
import json
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from tajmahal.account import event_lines
from tajmahal.components import Components
from tajmahal.errors import TajMahalError
from tajmahal.inputs import STDIN, display_name, escape_controls
from tajmahal.state import GameState
from tajmahal.tags import step_clauses
from tajmahal.trace import (
    Mismatch,
    Record,
    VerificationError,
    check_result,
    initial_state,
    public_to_json,
    read_record,
    replayed_states,
)

MANIFEST_FORMAT = "tajmahal-trace-index"
"""The ``format`` of a corpus manifest, which folder walks skip (it is not a record)."""


def _one_line(text: str) -> str:
    """``text`` safe to print as one line: control characters and lone surrogates (from
    file names that are not UTF-8) written as escapes."""
    escaped = escape_controls(text)
    return escaped.encode("utf-8", "backslashreplace").decode("utf-8")


class Outcome(enum.Enum):
    """How verifying one file ended."""

    OK = "ok"
    """The record replays and every expectation holds."""
    DIVERGED = "diverged"
    """The reference disagrees with the record (exit code 1)."""
    BAD_INPUT = "bad-input"
    """The file is not a readable record for these components (exit code 2)."""


@attrs.frozen(slots=True)
class Difference:
    """One place where two JSON documents differ."""

    path: str
    """The field path (``seats[2].score``)."""
    expected: Any
    """The record's value (absent: None)."""
    actual: Any
    """The reference's value (absent: None)."""
    kind: str = "changed"
    """``changed``, or ``missing`` (only ``expected`` has the field) or ``unexpected``
    (only ``actual`` has it): what None alone cannot tell apart from a null value."""


@attrs.frozen(slots=True)
class FileReport:
    """The outcome of verifying one file."""

    path: str
    """The file as named on the command line or found in a folder."""
    outcome: Outcome
    """ok, diverged or bad-input."""
    message: str
    """One line: what went wrong, or a summary of the game."""
    trace_id: str | None = None
    """The record's ``id``, when it has one."""
    steps: int = 0
    """Steps replayed (up to the divergence)."""
    seconds: float = 0.0
    """Time spent on this file."""
    step: int | None = None
    """The diverging step (0-based), if any."""
    action: str | None = None
    """Its action string."""
    field: str | None = None
    """The first field that differs (or that is malformed, for bad input)."""
    mismatches: tuple[Mismatch, ...] = ()
    """Every expectation that differs, expected against actual."""
    clauses: tuple[str, ...] = ()
    """The clauses and rulings behind the step, as the reference replays it (for an
    illegal action: the rule that forbids it, when known)."""
    account: tuple[str, ...] = ()
    """The reference's account of the diverging step."""
    differences: tuple[Difference, ...] = ()
    """Where the public positions after the step differ (full records only)."""
    final_scores: tuple[int, ...] | None = None
    """Final scores, for a record that conforms."""


@attrs.frozen(slots=True)
class Report:
    """The outcome of verifying many files."""

    files: tuple[FileReport, ...]
    """One entry per file, in the order checked."""
    wall_seconds: float | None = None
    """Wall-clock time of the whole run, when the files were verified in worker
    processes (the files' times then add up to more than the time taken)."""
    jobs: int = 1
    """How many worker processes verified the files (1: this process alone)."""

    def count(self, outcome: Outcome) -> int:
        """How many files ended with ``outcome``."""
        return sum(1 for item in self.files if item.outcome is outcome)

    @property
    def steps(self) -> int:
        """Steps replayed over all files."""
        return sum(item.steps for item in self.files)

    @property
    def seconds(self) -> float:
        """Time spent over all files."""
        return sum(item.seconds for item in self.files)

    @property
    def exit_code(self) -> int:
        """2 if any file is bad input, else 1 if any diverged, else 0."""
        if self.count(Outcome.BAD_INPUT):
            return 2
        return 1 if self.count(Outcome.DIVERGED) else 0

    def summary(self) -> str:
        """One line: counts per outcome and the speed.

        One process: the steps over the files' times added up (wall-clock time spent on
        the files, without starting up and finding them). Worker processes: the steps
        over the wall-clock time of the whole run, said so in the line, since the files'
        times, spent side by side, add up to more than the time taken."""
        counts = (
            f"{len(self.files)} file(s): {self.count(Outcome.OK)} conform, "
            f"{self.count(Outcome.DIVERGED)} diverge, {self.count(Outcome.BAD_INPUT)} bad "
            f"input; "
        )
        if self.wall_seconds is not None:
            wall = self.wall_seconds
            rate = self.steps / wall if wall > 0 else 0.0
            return counts + (
                f"{self.steps} steps in {wall:.2f} s wall-clock with {self.jobs} processes "
                f"({rate:.0f} steps/s wall-clock)"
            )
        rate = self.steps / self.seconds if self.seconds > 0 else 0.0
        return counts + f"{self.steps} steps in {self.seconds:.2f} s ({rate:.0f} steps/s)"


def json_differences(expected: Any, actual: Any, path: str = "") -> list[Difference]:
    """Every leaf path where two JSON values differ (lists compared item by item)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        found: list[Difference] = []
        for key in sorted(set(expected) | set(actual)):
            where = f"{path}.{key}" if path else key
            if key not in expected:
                found.append(Difference(where, None, actual[key], "unexpected"))
            elif key not in actual:
                found.append(Difference(where, expected[key], None, "missing"))
            else:
                found.extend(json_differences(expected[key], actual[key], where))
        return found
    if (
        isinstance(expected, list)
        and isinstance(actual, list)
        and len(expected) == len(actual)
        and any(isinstance(item, dict | list) for item in expected)
    ):
        found = []
        for index, (left, right) in enumerate(zip(expected, actual, strict=True)):
            found.extend(json_differences(left, right, f"{path}[{index}]"))
        return found
    return [] if expected == actual else [Difference(path or "(root)", expected, actual)]


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


# ---------------------------------------------------------------------------------------
# Rendering


def _value(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 300 else text[:297] + "..."


def text_lines(result: FileReport) -> list[str]:
    """The human-readable lines for one file (first line: ``OK``, ``FAIL`` or ``error:``)."""
    if result.outcome is Outcome.OK:
        return [_one_line(f"OK {result.path}: {result.message}")]
    if result.outcome is Outcome.BAD_INPUT:
        return [f"error: {_one_line(result.message)}"]
    lines = [f"FAIL {_one_line(result.message)}"]
    if result.trace_id is not None:
        lines.append(f"  trace: {result.trace_id}")
    if result.step is not None:
        lines.append(f"  step {result.step}: {result.action}")
    for mismatch in result.mismatches:
        if mismatch.field == "legal":
            recorded, replayed = set(mismatch.expected), set(mismatch.actual)
            lines.append(f"  legal: only in the record {_value(sorted(recorded - replayed))}")
            lines.append(f"         only in the reference {_value(sorted(replayed - recorded))}")
            continue
        lines.append(f"  {mismatch.field}: expected {_value(mismatch.expected)}")
        lines.append(f"  {' ' * len(mismatch.field)}  actual   {_value(mismatch.actual)}")
    if result.clauses:
        lines.append(f"  clauses: {', '.join(result.clauses)}")
    if result.account:
        lines.append("  the reference's account of the step:")
        lines.extend(f"    {line.strip()}" for line in result.account if line.strip())
    if result.differences:
        lines.append("  public position after the step, record against reference:")
        for difference in result.differences[:40]:
            lines.append(
                f"    {difference.path}: {_value(difference.expected)} -> "
                f"{_value(difference.actual)}"
            )
        if len(result.differences) > 40:
            lines.append(f"    ... and {len(result.differences) - 40} more")
    return [_one_line(line) for line in lines]


def _file_json(result: FileReport) -> dict[str, Any]:
    document: dict[str, Any] = {
        "path": result.path,
        "outcome": result.outcome.value,
        "message": result.message,
        "id": result.trace_id,
        "steps": result.steps,
        "seconds": round(result.seconds, 4),
    }
    if result.outcome is Outcome.OK:
        document["final_scores"] = list(result.final_scores or ())
    else:
        document["step"] = result.step
        document["field"] = result.field
    if result.outcome is Outcome.DIVERGED:
        document["action"] = result.action
        document["mismatches"] = [
            {"field": m.field, "expected": m.expected, "actual": m.actual}
            for m in result.mismatches
        ]
        document["clauses"] = list(result.clauses)
        document["account"] = list(result.account)
        document["differences"] = [
            {"path": d.path, "expected": d.expected, "actual": d.actual} for d in result.differences
        ]
    return document


def report_to_json(report: Report) -> dict[str, Any]:
    """The JSON report: a summary and one object per file."""
    return {
        "format": "tajmahal-verify-report",
        "version": 1,
        "summary": {
            "files": len(report.files),
            "ok": report.count(Outcome.OK),
            "diverged": report.count(Outcome.DIVERGED),
            "bad_input": report.count(Outcome.BAD_INPUT),
            "steps": report.steps,
            "seconds": round(report.seconds, 4),
            "exit_code": report.exit_code,
        },
        "files": [_file_json(result) for result in report.files],
    }


def report_to_junit(report: Report) -> str:
    """The JUnit XML report: one test case per file; a divergence is a ``failure``, bad
    input an ``error``."""
    suites = ElementTree.Element("testsuites")
    suite = ElementTree.SubElement(
        suites,
        "testsuite",
        name="tajmahal verify",
        tests=str(len(report.files)),
        failures=str(report.count(Outcome.DIVERGED)),
        errors=str(report.count(Outcome.BAD_INPUT)),
        time=f"{report.seconds:.3f}",
    )
    for result in report.files:
        case = ElementTree.SubElement(
            suite,
            "testcase",
            classname="tajmahal.verify",
            name=result.trace_id or result.path,
            file=result.path,
            time=f"{result.seconds:.3f}",
        )
        if result.outcome is Outcome.DIVERGED:
            failure = ElementTree.SubElement(
                case, "failure", message=result.message, type=result.field or "divergence"
            )
            failure.text = "\n".join(text_lines(result))
        elif result.outcome is Outcome.BAD_INPUT:
            error = ElementTree.SubElement(case, "error", message=result.message, type="bad-input")
            error.text = result.message
    ElementTree.indent(suites)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        + ElementTree.tostring(suites, encoding="unicode")
        + "\n"
    )


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
