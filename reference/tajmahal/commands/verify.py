"""``tajmahal verify PATH...``: replay records against the reference and report.

Every file is checked, even after a bad one; folders are searched for ``*.json``
recursively. Exit code 0 when every record conforms, 1 when one diverges, 2 when one is
bad input (not a readable record). ``--report json`` or ``--report junit`` writes a
machine-readable report to ``--output FILE`` (whole or not at all) or to stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tajmahal.components import default_components, load_components
from tajmahal.trace import write_text_atomic
from tajmahal.verify import (
    FileReport,
    Outcome,
    report_to_json,
    report_to_junit,
    text_lines,
    verify_paths,
)


def _handle(arguments: argparse.Namespace) -> int:
    components = (
        load_components(arguments.components)
        if arguments.components is not None
        else default_components()
    )
    report_to_stdout = arguments.report is not None and arguments.output is None
    progress = sys.stderr if report_to_stdout else sys.stdout

    def show(result: FileReport) -> None:
        stream = progress if result.outcome is Outcome.OK else sys.stderr
        print("\n".join(text_lines(result)), file=stream)

    report = verify_paths(arguments.paths, components, on_file=show)
    print(report.summary(), file=progress)
    if arguments.report is not None:
        text: str
        if arguments.report == "json":
            document: Any = report_to_json(report)
            text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
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
        "to move, legal actions, scores and state digest. Every file is checked; exit code 0 "
        "when all conform, 1 when one diverges, 2 when one is not a readable record.",
    )
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="record files (- for standard input), or folders searched for *.json records",
    )
    parser.add_argument(
        "--report", choices=("json", "junit"), help="also write a machine-readable report"
    )
    parser.add_argument(
        "--output", metavar="FILE", help="write the report here (default: standard output)"
    )
    parser.add_argument(
        "--components",
        metavar="DIR",
        help="folder with your own component files (any of cards.json, "
        "specials.json, province_tiles.json, bonus_tiles.json, board.json)",
    )
    parser.set_defaults(handler=_handle)
