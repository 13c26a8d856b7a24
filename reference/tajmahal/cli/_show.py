"""``tajmahal show FILE [--step N] [--svg OUT]``: look at a position.

``FILE`` is a game record (``tajmahal play --trace``) or a position file (``tajmahal
position``). For a record the position is the one after the first ``--step`` steps (by
default after the last step; steps are numbered from 1, as ``verify`` numbers them); a
position file is shown as it is. A record that does not verify is shown up to and
including the step where it diverges: the reference's position after that step, marked,
with the fields where the record's position differs beside it, and the explanation on
standard error (exit code 1). The text (or, with ``--svg``, the picture written whole
to ``OUT``) shows what every player can see: board, palaces, bonus tiles, court,
display, played cards, tiles, hand sizes and scores.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from tajmahal.cli._inspect import beside_lines, caption, report
from tajmahal.cli._options import (
    add_components_option,
    chosen_components,
    output_file,
    plain_description,
    refuse_input,
)
from tajmahal.cli._outputs import component_inputs, refuse_overwriting_inputs
from tajmahal.errors import StateFormatError, TajMahalError
from tajmahal.inputs import RECORD_LIMITS, check_record_limits, display_name, read_json
from tajmahal.model import Components, GameState
from tajmahal.notation import position_from_json, position_svg, position_text
from tajmahal.records import record_from_json, write_text_atomic
from tajmahal.verification import Inspection, inspect_record

EXIT_OK = 0
EXIT_FAILED = 1


def load_position(
    file: str, step: int | None, components: Components
) -> tuple[GameState, tuple[str, ...] | None, str, Inspection | None]:
    """The position a file shows, the seats' names if known, a caption, and for a record
    how its replay went.

    The file (``-``: standard input) is read once, within the limits of every input
    (:mod:`tajmahal.inputs`). A document with ``steps`` is a record: the position after
    ``step`` steps (all when None), or, when the record diverges at or before that step,
    the reference's position after the diverging step (the position it is played from
    when the reference refuses its action), marked in the caption. Anything else is read
    as a position file, for which ``step`` must be None.
    """
    source = display_name(file)
    document = read_json(file, RECORD_LIMITS)  # bounded; errors name the file and field
    if not (isinstance(document, dict) and "steps" in document):
        if step is not None:
            raise TajMahalError(f"{source}: --step: a position file has no steps")
        try:
            state = position_from_json(document, components)
        except StateFormatError as error:
            raise StateFormatError(f"{source}: {error}") from None
        return state, None, Path(source).name, None
    check_record_limits(document, source)
    record = record_from_json(document, source)
    total = len(record.steps)
    wanted = total if step is None else step
    if not 0 <= wanted <= total:
        raise TajMahalError(f"{source}: --step: the record has {total} steps; choose 0 to {total}")
    inspection = inspect_record(record, components, source, wanted)
    return inspection.state, record.names, caption(Path(source).name, inspection), inspection


def _show(arguments: argparse.Namespace) -> int:
    refuse_input(arguments.svg, [arguments.file], "--svg", "the file shown")
    refuse_overwriting_inputs(
        [("--svg", arguments.svg)], [arguments.file, *component_inputs(arguments.components)]
    )
    components = chosen_components(arguments.components)
    state, names, title, inspection = load_position(arguments.file, arguments.step, components)
    if arguments.svg is not None:
        write_text_atomic(position_svg(state, names, title), arguments.svg)
        print(f"wrote {arguments.svg}")
    else:
        print(title)
        print(position_text(state, names), end="")
    if inspection is None or not inspection.diverged:
        return EXIT_OK
    beside = beside_lines(inspection)
    if beside and arguments.svg is None:
        print()
        print("\n".join(beside))
    report(inspection)
    return EXIT_FAILED


def register(commands: Any) -> None:
    """Add ``show`` to the subcommands of :func:`tajmahal.cli.build_parser`."""
    show = commands.add_parser(
        "show",
        help="show the position at a step of a record, or a position file, as text or SVG",
        description=plain_description(__doc__),
    )
    show.add_argument(
        "file", metavar="FILE", help="a game record or a position file (- for standard input)"
    )
    show.add_argument(
        "--step",
        type=int,
        metavar="N",
        help="for a record: the position after the first N steps (default: after the last)",
    )
    show.add_argument(
        "--svg",
        type=output_file,
        metavar="OUT",
        help="write the position as an SVG picture to OUT (its folder must exist)",
    )
    add_components_option(show)
    show.set_defaults(handler=_show)
