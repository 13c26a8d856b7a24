"""``tajmahal perft POSITION --depth N [--divide]``: count move paths from a position.

POSITION is a ``tajmahal-state`` document, ``-`` for standard input (``tajmahal
position`` writes one; the vectors in ``specs/perft/`` come with theirs). The count is
defined in ``docs/perft.md``. With ``--divide`` each legal action is listed with its
count at ``depth - 1``, sorted by the action's string, then the total: the quickest way
to find where two engines differ.
"""

from __future__ import annotations

import argparse
from typing import Any

from tajmahal.cli._options import add_components_option, integer
from tajmahal.errors import StateFormatError
from tajmahal.model import default_components, load_components
from tajmahal.notation import read_position


def _handle(arguments: argparse.Namespace) -> int:
    # The conformance kit is loaded by the commands that use it, not by every command.
    from tajmahal.conformance import divide, perft

    if arguments.depth < 0 or (arguments.divide and arguments.depth < 1):
        raise StateFormatError(f"--depth: expected at least {1 if arguments.divide else 0}")
    components = (
        load_components(arguments.components) if arguments.components else default_components()
    )
    state = read_position(arguments.position, components)
    if arguments.divide:
        total = 0
        for action, count in divide(state, arguments.depth):
            print(f"{action} {count}")
            total += count
        print(f"\ntotal {total}")
    else:
        print(perft(state, arguments.depth))
    return 0


def register(commands: Any) -> None:
    """Add the ``perft`` subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "perft", help="count the move paths of a given depth from a position (docs/perft.md)"
    )
    parser.add_argument(
        "position", metavar="POSITION", help="a position JSON file (-: standard input)"
    )
    parser.add_argument(
        "--depth", type=integer(0), required=True, metavar="N", help="the length of the move paths"
    )
    parser.add_argument(
        "--divide", action="store_true", help="one count per legal action, then the total"
    )
    add_components_option(
        parser, "folder with your own component files (default: the embedded set)"
    )
    parser.set_defaults(handler=_handle)
