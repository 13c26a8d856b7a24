"""The ``tajmahal`` console script, kept outside the package so that it runs first.

Importing :mod:`tajmahal` takes a noticeable moment; a Ctrl-C in that moment would
otherwise print a ``KeyboardInterrupt`` traceback before :func:`tajmahal.cli.main` can
catch it. Here Ctrl-C ends the process at once with exit code 130 until the command
line is ready, then :func:`tajmahal.cli.main` handles it (and every other error) itself.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType


def _interrupted(signum: int, frame: FrameType | None) -> None:
    os._exit(130)


def run() -> None:
    """Entry point of the ``tajmahal`` command."""
    signal.signal(signal.SIGINT, _interrupted)
    from tajmahal.cli import main

    signal.signal(signal.SIGINT, signal.default_int_handler)
    code = main()
    signal.signal(signal.SIGINT, _interrupted)
    sys.exit(code)


if __name__ == "__main__":
    run()
