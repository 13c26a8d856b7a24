"""Subcommands of the ``tajmahal`` command line, one module each.

Each module defines ``register(commands)``, which adds its parser to the subparsers of
:func:`tajmahal.cli.build_parser` and sets its handler; ``cli.py`` only calls them.
"""
