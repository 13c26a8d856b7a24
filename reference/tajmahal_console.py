"""The ``tajmahal`` console script, kept outside the package so that it runs first.

Importing :mod:`tajmahal` takes a noticeable moment; a Ctrl-C in that moment would
otherwise print a ``KeyboardInterrupt`` traceback before :func:`tajmahal.cli.main` can
catch it. Importing this module (only the console script does) makes Ctrl-C end the
process at once with exit code 130; :func:`run` then imports the command line and hands
Ctrl-C back to it, and :func:`tajmahal.cli.main` handles it (and every other error)
itself. A Ctrl-C while the interpreter is still starting, before this module runs, is
reported by Python itself.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

EXIT_INTERRUPTED = 130
"""128 + SIGINT, as :data:`tajmahal.cli._main.EXIT_INTERRUPTED`."""


def _interrupted(signum: int, frame: FrameType | None) -> None:
    os._exit(EXIT_INTERRUPTED)


signal.signal(signal.SIGINT, _interrupted)


def run() -> None:
    """Entry point of the ``tajmahal`` command."""
    from tajmahal.cli import main

    signal.signal(signal.SIGINT, signal.default_int_handler)
    code = main()
    signal.signal(signal.SIGINT, _interrupted)  # no traceback while exiting either
    sys.exit(code)


if __name__ == "__main__":
    run()
