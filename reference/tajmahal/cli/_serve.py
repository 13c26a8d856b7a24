"""``tajmahal serve``: the reference engine behind the JSON-lines engine protocol.

Reads requests from standard input and writes one reply per request to standard
output (``docs/protocol.md``), so an engine in any language can use this one as an
oracle. With ``--misread NAME`` it serves an entry of the catalogue of misreadings
instead (``docs/misreadings.md``): an engine that reads one rule otherwise, for trying
``tajmahal diff``. Ends at ``quit``, at the end of input, or when the client closes the
output, with exit code 0.
"""

from __future__ import annotations

import argparse
import os
import sys

from tajmahal.cli._options import add_components_option, chosen_components
from tajmahal.errors import TajMahalError


def _serve(arguments: argparse.Namespace) -> int:
    # The conformance kit is loaded by the commands that use it, not by every command.
    from tajmahal.conformance import MISREADINGS, Session, serve

    components = chosen_components(arguments.components)
    engine = None
    if arguments.misread is not None:
        entry = MISREADINGS.get(arguments.misread)
        if entry is None:
            raise TajMahalError(
                f"--misread: no misreading {arguments.misread!r} (known: {', '.join(MISREADINGS)})"
            )
        engine = entry.engine
    try:
        return serve(sys.stdin.buffer, sys.stdout.buffer, Session(components, engine))
    except BrokenPipeError:  # the client went away: nothing left to answer
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes stdout
        return 0


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` subcommand."""
    parser = commands.add_parser(
        "serve", help="answer the JSON-lines engine protocol on stdin/stdout (an oracle)"
    )
    add_components_option(parser, "folder with your own component files (as for play)")
    parser.add_argument(
        "--misread",
        metavar="NAME",
        help="serve an engine that misreads one rule: NAME is an entry of the catalogue of "
        "misreadings (docs/misreadings.md; an unknown NAME is refused with the list)",
    )
    parser.set_defaults(handler=_serve)
