"""What a fast path is (:class:`FastPath`), and the switch that turns them off."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import attrs

PLAIN_VARIABLE = "TAJMAHAL_PLAIN"
"""The environment variable that switches the accelerated layer off: ``1`` switches off
all of it; a comma-separated list of core function names (``state_digest,legal_digest``)
switches off only the fast paths that replace them (and ``collector`` the collector
setting), which is how what one part buys is measured (``docs/performance.md``);
unset, empty or ``0`` leaves everything on."""

_PLAIN = os.environ.get(PLAIN_VARIABLE, "").strip()

ENABLED: bool = _PLAIN not in ("1",)
"""False when :data:`PLAIN_VARIABLE` asks for the whole plain core; read once, at import.
The collector setting (:mod:`tajmahal.accel._collector`) follows it."""

PLAIN_NAMES: frozenset[str] = (
    frozenset()
    if _PLAIN in ("", "0", "1")
    else frozenset(name.strip() for name in _PLAIN.split(",") if name.strip())
)
"""The core functions whose fast paths :data:`PLAIN_VARIABLE` switches off one by one
(a name no fast path replaces changes nothing)."""

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

    @property
    def name(self) -> str:
        """The core function's name, by which :data:`PLAIN_VARIABLE` can switch it off."""
        return str(self.core.__name__)

    def chosen(self) -> F:
        """The drop-in, or the core function when the layer or this path is switched
        off."""
        return self.fast if ENABLED and self.name not in PLAIN_NAMES else self.core


# The class is documented under tajmahal.accel, which users import it from; only the
# constants, whose docstrings cannot go with them, are listed here.
__all__ = ["ENABLED", "PLAIN_NAMES", "PLAIN_VARIABLE"]
