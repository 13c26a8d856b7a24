"""The accelerated layer: fast drop-ins for named core functions, chosen in one place.

The core (:mod:`tajmahal.model`, :mod:`tajmahal.engine`, :mod:`tajmahal.notation`,
:mod:`tajmahal.records`, :mod:`tajmahal.agents`) is written the plain way: it is what a
reader, a maintainer or a porter reads, and it never imports this package. What runs
faster lives here instead, and every entry of :data:`FAST_PATHS`:

- is a drop-in for one named core function: same arguments, same results, same errors;
- is pinned to that function by the tests in ``tests/accel/``, which compare the two
  directly on many positions;
- earns its place: it buys at least 5% on a published benchmark (``docs/performance.md``),
  and its ``buys`` says what.

The layers above the core (verification, conformance, the AI interfaces, testing, the
command line) take the functions they need from here, each under its core function's
name (:func:`apply` is the fast :func:`tajmahal.engine.apply`). With ``TAJMAHAL_PLAIN=1``
in the environment every such name is the core function itself, so the whole package
runs on the plain core (CI verifies the golden corpus and runs the position cases and
perft that way too).
"""

from __future__ import annotations

from typing import Any

from tajmahal.accel import _engine
from tajmahal.accel._engine import ChoiceTables, action_tables, legal_choices
from tajmahal.accel._path import ENABLED, PLAIN_VARIABLE, FastPath

FAST_PATHS: tuple[FastPath[Any], ...] = (*_engine.FAST_PATHS,)
"""Every fast path of the layer, each pinned to its core function by ``tests/accel/``."""

# The chosen functions, each under its core function's name.
legal_actions = _engine.LEGAL_ACTIONS.chosen()
apply = _engine.APPLY.chosen()

__all__ = [
    "ENABLED",
    "FAST_PATHS",
    "PLAIN_VARIABLE",
    "ChoiceTables",
    "FastPath",
    "action_tables",
    "apply",
    "legal_actions",
    "legal_choices",
]
