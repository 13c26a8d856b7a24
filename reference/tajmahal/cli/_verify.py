"""``tajmahal verify PATH...``: replay records against the reference and report.

Every file is checked, even after a bad one; folders are searched for ``*.json``
recursively. Exit code 0 when every record conforms, 1 when one diverges, 2 when one is
bad input (not a readable record). Each divergence is explained: what differs
(expected: the reference's; found: the record's), where the engines parted and the
rules likeliest involved. ``--report json`` or ``--report junit`` writes a
machine-readable report, ``--report html`` a page with the boards before and after each
diverging step, to ``--output FILE`` (whole or not at all, never over an input) or to
stdout.
``--jobs N`` verifies the files in N worker processes (0: one per core) with the same
lines, reports and exit code; only the timings differ, and the summary's rate is then
wall-clock steps per second.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from tajmahal.accel import collect_less, fewer_collections
from tajmahal.cli._options import (
    MAX_JOBS,
    add_components_option,
    chosen_components,
    integer,
    output_file,
    refuse_input,
)
from tajmahal.cli._outputs import component_inputs, refuse_overwriting_inputs
from tajmahal.model import Components
from tajmahal.records import write_text_atomic
from tajmahal.verification import (
    Explanation,
    FileReport,
    Hypothesis,
    HypothesisTester,
    Outcome,
    collect_paths,
    report_to_html,
    report_to_json,
    report_to_junit,
    text_lines,
    verify_paths,
)


def _hypotheses(components: Components) -> HypothesisTester:
    """The catalogue's tester (``docs/misreadings.md``), imported only when a record
    diverges: verifying records that pass never loads the conformance kit."""

    def tester(record: Any, explanation: Explanation) -> Sequence[Hypothesis]:
        from tajmahal.conformance import catalogue_tester

        return catalogue_tester(components)(record, explanation)

    return tester


def _handle(arguments: argparse.Namespace) -> int:
    files = collect_paths(arguments.paths)
    refuse_input(arguments.output, files, "--output")
    refuse_overwriting_inputs(
        [("--output", arguments.output)], [*files, *component_inputs(arguments.components)]
    )
    components = chosen_components(arguments.components)
    report_to_stdout = arguments.report is not None and arguments.output is None
    progress = sys.stderr if report_to_stdout else sys.stdout

    def show(result: FileReport) -> None:
        stream = progress if result.outcome is Outcome.OK else sys.stderr
        print("\n".join(text_lines(result)), file=stream)

    with fewer_collections():
        report = verify_paths(
            files,
            components,
            on_file=show,
            jobs=arguments.jobs,
            worker_setup=collect_less,
            hypotheses=_hypotheses(components),
        )
    print(report.summary(), file=progress)
    if arguments.report is not None:
        text: str
        if arguments.report == "json":
            document: Any = report_to_json(report)
            text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
        elif arguments.report == "html":
            text = report_to_html(report, components)
        else:
            text = report_to_junit(report)
        if arguments.output is None:
            sys.stdout.write(text)
        else:
            write_text_atomic(text, arguments.output)
    return report.exit_code


def register(commands: Any) -> None:
    """Add the ``verify`` subcommand."""
    parser = commands.add_parser(
        "verify",
        help="replay records against the reference: every step, digest and score",
        description="Replay game records against the reference, checking every step's seat "
        "to move, legal actions, scores and state digest. Every file is checked, and each "
        "divergence explained: the step (numbered from 1), the position it is played from, "
        "the action, what differs (expected: the reference's; found: the record's) and the "
        "rules likeliest involved. Exit code 0 when all conform, 1 when one diverges, 2 "
        "when one is not a readable record.",
    )
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="record files (- for standard input), or folders searched for *.json records",
    )
    parser.add_argument(
        "--report",
        choices=("json", "junit", "html"),
        help="also write a report: JSON or JUnit XML for CI, or an HTML page showing each "
        "divergence with the boards before and after its step",
    )
    parser.add_argument(
        "--output",
        type=output_file,
        metavar="FILE",
        help="write the report here, whole, never over an input (default: standard output)",
    )
    parser.add_argument(
        "--jobs",
        type=integer(0, MAX_JOBS),
        default=1,
        metavar="N",
        help="verify the files in N processes (0: one per core; default 1); the same "
        "output but for the timings, and the rate is then wall-clock steps per second",
    )
    add_components_option(parser)
    parser.set_defaults(handler=_handle)
