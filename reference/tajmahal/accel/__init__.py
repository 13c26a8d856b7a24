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
command line) take the functions they need from here. With ``TAJMAHAL_PLAIN=1`` in the
environment every name of this package is the core function itself, so the whole package
runs on the plain core (CI verifies the golden corpus and runs the position cases and
perft that way too).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import attrs

from tajmahal.accel._ai import LazyObservation, PartwiseObserver, lazy_masked_observation

PLAIN_VARIABLE = "TAJMAHAL_PLAIN"
"""The environment variable that switches the accelerated layer off (``1``)."""

ENABLED: bool = os.environ.get(PLAIN_VARIABLE, "") in ("", "0")
"""False when :data:`PLAIN_VARIABLE` asks for the plain core; read once, at import."""


@attrs.frozen
class FastPath:
    """One fast path: the core function it replaces, its drop-in, and what it buys."""

    core: Callable[..., Any]
    """The core function, the definition (``tajmahal.notation.state_digest``, ...)."""
    fast: Callable[..., Any]
    """The drop-in: same arguments, same results, same errors."""
    buys: str
    """What it buys, on which published benchmark (``docs/performance.md``)."""

    def chosen(self) -> Callable[..., Any]:
        """The drop-in, or the core function when the layer is switched off."""
        return self.fast if ENABLED else self.core


FAST_PATHS: tuple[FastPath, ...] = ()
"""Every fast path of the layer, each pinned to its core function by ``tests/accel/``."""

# The drop-ins for functions of the AI interfaces, which stand above this layer: they are
# paired with their functions, and chosen, in tajmahal.ai (tajmahal/ai/_fast_paths.py).
__all__ = [
    "ENABLED",
    "FAST_PATHS",
    "PLAIN_VARIABLE",
    "FastPath",
    "LazyObservation",
    "PartwiseObserver",
    "lazy_masked_observation",
]
