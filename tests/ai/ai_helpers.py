"""Shared helpers for the framework-API tests: random games and optional extras."""

from __future__ import annotations

import importlib
import os
import random
from collections.abc import Iterator
from types import ModuleType

import pytest

from tajmahal import (
    Action,
    GameState,
    apply,
    default_components,
    legal_actions,
    new_game,
    random_reshuffle,
    random_setup,
)


def random_game(players: int, seed: int) -> Iterator[tuple[GameState, Action, GameState]]:
    """Every step ``(before, action, after)`` of one seeded random game."""
    components = default_components()
    state = new_game(components, players, random_setup(components, players, seed))
    rng = random.Random(seed)
    while not state.is_over:
        action: Action
        if state.is_chance:
            action = random_reshuffle(state, rng)
        else:
            legal = legal_actions(state)
            action = legal[rng.randrange(len(legal))]
        after = apply(state, action)
        yield state, action, after
        state = after


def extra(module: str, name: str) -> ModuleType:
    """Import an optional extra's module, skipping the test when it is absent; ``make
    check`` sets ``TAJMAHAL_REQUIRE_EXTRAS=1`` so that there an absent extra fails."""
    if os.environ.get("TAJMAHAL_REQUIRE_EXTRAS") == "1":
        return importlib.import_module(module)
    found: ModuleType = pytest.importorskip(module, reason=f"the [{name}] extra is not installed")
    return found
