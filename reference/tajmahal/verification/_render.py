"""Rendering verification reports: text lines, the JSON report and JUnit XML.

The text lines are what ``tajmahal verify`` prints (every line one harmless line, with
control characters escaped); the JSON report (``tajmahal-verify-report``, version 2)
and the JUnit XML are what other projects' CI reads. Rendering only reads the report
values (:mod:`tajmahal.verification`) and never verifies, so it lives apart from the
verifier. The names are imported from :mod:`tajmahal.verification`.
"""

from __future__ import annotations

import json
from typing import Any
from xml.etree import ElementTree

from tajmahal.inputs import escape_controls
from tajmahal.verification._file import REPORT_FORMAT
from tajmahal.verification._report import FileReport, Outcome, Report


def _one_line(text: str) -> str:
    """``text`` safe to print as one line: control characters and lone surrogates (from
    file names that are not UTF-8) written as escapes."""
    escaped = escape_controls(text)
    return escaped.encode("utf-8", "backslashreplace").decode("utf-8")


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
    if result.explanation is not None:
        lines.extend(result.explanation.lines())
        number = result.explanation.step
        lines.append(
            f"  to look: tajmahal show {result.path} --step {number - 1} (the position step "
            f"{number} is played from)"
        )
        return [_one_line(line) for line in lines]
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
            {"field": m.field, "record": m.expected, "reference": m.actual}
            for m in result.mismatches
        ]
        document["clauses"] = list(result.clauses)
        document["account"] = list(result.account)
        document["differences"] = [
            {"path": d.path, "record": d.expected, "reference": d.actual}
            for d in result.differences
        ]
        document["explanation"] = (
            None if result.explanation is None else result.explanation.to_json()
        )
    return document


def report_to_json(report: Report) -> dict[str, Any]:
    """The JSON report: a summary and one object per file."""
    return {
        "format": REPORT_FORMAT,
        "version": 2,
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
            classname="tajmahal.verification",
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


# Every name here is documented under tajmahal.verification, which users import it from.
__all__: list[str] = []
