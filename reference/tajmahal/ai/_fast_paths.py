"""This package's functions paired with their drop-ins in the accelerated layer.

The accelerated layer (:mod:`tajmahal.accel`) stands below this package, so it cannot
name this package's functions; its drop-ins for them (written against the model alone)
are paired with them here, each a :class:`~tajmahal.accel.FastPath` like the layer's
own, chosen here (``TAJMAHAL_PLAIN=1`` chooses the functions of this package) and
pinned to them by ``tests/accel/test_pin_ai.py``. What each buys is measured in
``docs/ai.md`` ("Speed"). The OpenSpiel adapter, an optional extra, pairs its own in
``tajmahal/ai/openspiel/_fast_paths.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from tajmahal.accel import FastPath, PartwiseObserver, lazy_masked_observation, legal_ids
from tajmahal.ai._action_space import ActionSpace
from tajmahal.ai._tensor import TensorLayout, TensorObserver, TensorWriter, masked_observation
from tajmahal.model import GameState

LEGAL_IDS: FastPath[Callable[[ActionSpace, GameState], list[int]]] = FastPath(
    core=ActionSpace.legal_ids,
    fast=legal_ids,
    buys=(
        "the legal ids listed from the engine's tables of ids, no action built or looked "
        "up: 5 to 10 % of every loop of tools/bench/adapter_speed.py (docs/ai.md)"
    ),
)
"""The sorted legal ids of a state, listed from tables of ids."""

MASKED_OBSERVATION = FastPath(
    core=masked_observation,
    fast=lazy_masked_observation,
    buys=(
        "the tensor of PettingZoo's standard loop written only when read: pettingzoo-observe "
        "of tools/bench/adapter_speed.py (docs/ai.md)"
    ),
)
"""PettingZoo's observation dicts, their tensor written when first read."""

TENSOR_OBSERVER: FastPath[Callable[[TensorLayout], TensorWriter]] = FastPath(
    core=TensorObserver,
    fast=PartwiseObserver,
    buys=(
        "the tensor of each state written from the last one, only the parts a step replaced "
        "rewritten: pettingzoo-tensors of tools/bench/adapter_speed.py (docs/ai.md)"
    ),
)
"""The observation tensors of successive states, rewritten part by part (numpy)."""

FAST_PATHS = (LEGAL_IDS, MASKED_OBSERVATION, TENSOR_OBSERVER)
"""Every fast path of this package, each pinned to its function by ``tests/accel/``."""

__all__ = ["FAST_PATHS", "LEGAL_IDS", "MASKED_OBSERVATION", "TENSOR_OBSERVER"]
