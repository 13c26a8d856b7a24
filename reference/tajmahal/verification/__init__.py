"""Verifying game records in bulk: the library behind ``tajmahal verify``.

:func:`verify_paths` checks files and folders of records (in worker processes with
:func:`verify_in_workers`) and returns a :class:`Report` of every file's outcome;
:func:`text_lines`, :func:`report_to_json` and :func:`report_to_junit` render it.
:func:`held_signals`, :func:`start_worker_signals` and :func:`end_with_parent` make
worker processes end with the command that started them, however it ends, and quietly.
"""

from tajmahal.verification._file import MANIFEST_FORMAT, REPORT_FORMAT, collect_paths, verify_file
from tajmahal.verification._jobs import resolve_jobs, verify_in_workers
from tajmahal.verification._processes import end_with_parent, held_signals, start_worker_signals
from tajmahal.verification._render import report_to_json, report_to_junit, text_lines
from tajmahal.verification._report import Difference, FileReport, Outcome, Report, json_differences
from tajmahal.verification._verify import verify_paths

__all__ = [
    "MANIFEST_FORMAT",
    "REPORT_FORMAT",
    "Difference",
    "FileReport",
    "Outcome",
    "Report",
    "collect_paths",
    "end_with_parent",
    "held_signals",
    "json_differences",
    "report_to_json",
    "report_to_junit",
    "resolve_jobs",
    "start_worker_signals",
    "text_lines",
    "verify_file",
    "verify_in_workers",
    "verify_paths",
]
