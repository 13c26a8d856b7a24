"""This package's functions paired with their drop-ins in the accelerated layer.

The accelerated layer (:mod:`tajmahal.accel`) stands below this package, so it cannot
name this package's functions; its drop-ins for them (written against the model alone)
are paired with them here, each a :class:`~tajmahal.accel.FastPath` like the layer's
own, chosen where they are used (``TAJMAHAL_PLAIN=1`` chooses the functions of this
package) and pinned to them by ``tests/accel/test_pin_secrets.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from tajmahal import accel
from tajmahal.accel import FastPath
from tajmahal.model import GameState
from tajmahal.testing.invariants._hidden import hidden_cards_shown

HIDDEN_CARDS_SHOWN: FastPath[Callable[[GameState, int, object], list[str]]] = FastPath(
    core=hidden_cards_shown,
    fast=accel.hidden_cards_shown,
    buys=(
        "with the fast view, the views-hide-secrets invariant of the fuzz campaign's deep "
        "games: see docs/performance.md"
    ),
)
"""The hidden cards a view shows, the strings inside each frozen part remembered while
consecutive states show it."""

FAST_PATHS = (HIDDEN_CARDS_SHOWN,)
"""Every fast path of this package, each pinned to its function by ``tests/accel/``."""

__all__ = ["FAST_PATHS", "HIDDEN_CARDS_SHOWN"]
