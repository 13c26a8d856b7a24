"""What a fast path is (:class:`FastPath`), and the switch that turns them all off."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import attrs

PLAIN_VARIABLE = "TAJMAHAL_PLAIN"
"""The environment variable that switches the accelerated layer off (``1``)."""

ENABLED: bool = os.environ.get(PLAIN_VARIABLE, "") in ("", "0")
"""False when :data:`PLAIN_VARIABLE` asks for the plain core; read once, at import."""

F = TypeVar("F", bound=Callable[..., Any])


@attrs.frozen
class FastPath(Generic[F]):
    """One fast path: the core function it replaces, its drop-in, and what it buys."""

    core: F
    """The core function, the definition (``tajmahal.notation.state_digest``, ...)."""
    fast: F
    """The drop-in: same arguments, same results, same errors."""
    buys: str
    """What it buys, on which published benchmark (``docs/performance.md``)."""

    def chosen(self) -> F:
        """The drop-in, or the core function when the layer is switched off."""
        return self.fast if ENABLED else self.core


# The class is documented under tajmahal.accel, which users import it from; only the
# constants, whose docstrings cannot go with them, are listed here.
__all__ = ["ENABLED", "PLAIN_VARIABLE"]
