"""The ``tajmahal`` command line: one private module per subcommand.

:func:`main` runs it (the ``tajmahal`` console script and ``python -m tajmahal.cli``);
:func:`build_parser` builds its argument parser (the documentation's command-line page).
"""

from tajmahal.cli._main import build_parser, main

__all__ = [
    "build_parser",
    "main",
]
