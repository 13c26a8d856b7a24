"""The OpenSpiel adapter's functions paired with their drop-ins in the accelerated layer.

Paired here rather than in :mod:`tajmahal.ai` (``tajmahal/ai/_fast_paths.py``) because
the adapter is an optional extra that needs ``pyspiel``; chosen here (``TAJMAHAL_PLAIN=1``
chooses the adapter's own functions) and pinned by ``tests/accel/test_pin_ai.py``. What
each buys is measured in ``docs/ai.md`` ("Speed").
"""

from __future__ import annotations

from tajmahal.accel import FastPath, shared_across_seeds
from tajmahal.ai.openspiel._config import game_config

GAME_CONFIG = FastPath(
    core=game_config,
    fast=shared_across_seeds(game_config),
    buys=(
        "the configuration of parameter sets that differ only in their seed built once: "
        "openspiel-seeded of tools/bench/adapter_speed.py loads a game per seed, and a "
        "configuration numbers the action space (docs/ai.md)"
    ),
)
"""The configuration of a parameter set, shared with the parameter set's other seeds."""

FAST_PATHS = (GAME_CONFIG,)
"""Every fast path of the OpenSpiel adapter, each pinned to its function by ``tests/accel/``."""

__all__ = ["FAST_PATHS", "GAME_CONFIG"]
