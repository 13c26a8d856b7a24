"""Verifying game records in bulk, and explaining a disagreement: the library behind
``tajmahal verify`` (and the explanations of ``tajmahal diff``).

:func:`verify_paths` checks files and folders of records (in worker processes with
:func:`verify_in_workers`) and returns a :class:`Report` of every file's outcome;
:func:`text_lines`, :func:`report_to_json` and :func:`report_to_junit` render it.
An :class:`Explanation` says why the reference and another engine (or a record)
disagree at a step: what differs, where the engines parted, the rules likeliest
involved (:func:`explain_legal`, :func:`explain_after`, :func:`explain_refused`;
:func:`explain_record` for a record), with room for hypotheses found elsewhere
(:data:`HypothesisTester`).
:func:`held_signals`, :func:`start_worker_signals` and :func:`end_with_parent` make
worker processes end with the command that started them, however it ends, and quietly.
"""

from tajmahal.verification._differences import Difference, json_differences
from tajmahal.verification._explain import (
    FIELD_EVENTS,
    MAX_RULES,
    Explanation,
    Hypothesis,
    HypothesisTester,
    LegalView,
    PartedStep,
    RankedRule,
    StepPlayed,
    explain_after,
    explain_legal,
    explain_refused,
    explanation_lines,
    explanation_to_json,
    refusal,
)
from tajmahal.verification._file import MANIFEST_FORMAT, REPORT_FORMAT, collect_paths, verify_file
from tajmahal.verification._html import HtmlDivergence, divergence_html, report_to_html
from tajmahal.verification._inspect import Inspection, inspect_record
from tajmahal.verification._jobs import resolve_jobs, verify_in_workers
from tajmahal.verification._processes import end_with_parent, held_signals, start_worker_signals
from tajmahal.verification._record_explanation import explain_record, headline
from tajmahal.verification._render import report_to_json, report_to_junit, text_lines
from tajmahal.verification._report import FileReport, Outcome, Report
from tajmahal.verification._verify import verify_paths

__all__ = [
    "FIELD_EVENTS",
    "MANIFEST_FORMAT",
    "MAX_RULES",
    "REPORT_FORMAT",
    "Difference",
    "Explanation",
    "FileReport",
    "HtmlDivergence",
    "Hypothesis",
    "HypothesisTester",
    "Inspection",
    "LegalView",
    "Outcome",
    "PartedStep",
    "RankedRule",
    "Report",
    "StepPlayed",
    "collect_paths",
    "divergence_html",
    "end_with_parent",
    "explain_after",
    "explain_legal",
    "explain_record",
    "explain_refused",
    "explanation_lines",
    "explanation_to_json",
    "headline",
    "held_signals",
    "inspect_record",
    "json_differences",
    "refusal",
    "report_to_html",
    "report_to_json",
    "report_to_junit",
    "resolve_jobs",
    "start_worker_signals",
    "text_lines",
    "verify_file",
    "verify_in_workers",
    "verify_paths",
]
