"""The accelerated layer's drop-in for the OpenSpiel adapter's ``game_config`` (the
configurations of parameter sets differing only in their seed built once) gives what
``game_config`` itself gives: every field, for parameter sets met before and new, seeds
new and met again, absent seeds, and the same errors."""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

import attrs
import pytest

from tajmahal.accel import FastPath


def _extra(module: str) -> ModuleType:
    """An optional extra's module (the test is skipped without it, except under ``make
    check``, which sets ``TAJMAHAL_REQUIRE_EXTRAS=1``)."""
    if os.environ.get("TAJMAHAL_REQUIRE_EXTRAS") == "1":
        return importlib.import_module(module)
    found: ModuleType = pytest.importorskip(module, reason="the [openspiel] extra is absent")
    return found


fast_paths = _extra("tajmahal.ai.openspiel._fast_paths")
openspiel = _extra("tajmahal.ai.openspiel")
GAME_CONFIG: FastPath[Any] = fast_paths.GAME_CONFIG


def _same(found: Any, expected: Any) -> None:
    """Every field of two configurations is equal (the action spaces by their numbering)."""
    assert type(found) is type(expected)
    for field in attrs.fields(type(expected)):
        if field.name == "space":
            assert found.space.components == expected.space.components
            assert found.space.blocks == expected.space.blocks
            assert found.space.actions == expected.space.actions
        else:
            assert getattr(found, field.name) == getattr(expected, field.name), field.name


PARAMETER_SETS: list[dict[str, Any]] = [
    {},
    {"players": 3},
    {"players": 5, "utility": "score"},
    {"setup": "seeded"},
    {"players": 3, "setup": "seeded", "utility": "score"},
    {"players": 4, "setup": "seeded", "majority_scope": "all"},
    {**openspiel.DEFAULT_PARAMETERS, "setup": "seeded"},
]


def test_the_fast_path_pairs_game_config_with_the_shared_configurations() -> None:
    assert fast_paths.FAST_PATHS == (GAME_CONFIG,)
    assert GAME_CONFIG.core is openspiel.game_config


@pytest.mark.pins(GAME_CONFIG)
@pytest.mark.parametrize("params", PARAMETER_SETS)
def test_configurations_for_every_seed_are_the_core_ones(params: dict[str, Any]) -> None:
    """Seeds new, met again and absent, in an order that meets each case after the others."""
    for seed in (101, 102, None, 101, 0, None, 2**40, 7):
        asked = dict(params) if seed is None else {**params, "seed": seed}
        _same(GAME_CONFIG.fast(asked), GAME_CONFIG.core(asked))


@pytest.mark.pins(GAME_CONFIG)
def test_the_same_seed_in_other_types_gives_the_core_parameters() -> None:
    """A seed given as a bool or a float keeps its own value in ``parameters``, as the core
    function keeps it, and another player count is another parameter set."""
    for params in (
        {"setup": "seeded", "seed": 3},
        {"setup": "seeded", "seed": True},
        {"setup": "seeded", "seed": 3.0},
        {"setup": "seeded", "seed": 3, "players": 4.0},
        {"setup": "seeded", "seed": 3, "players": 4},
    ):
        _same(GAME_CONFIG.fast(params), GAME_CONFIG.core(params))


@pytest.mark.pins(GAME_CONFIG)
@pytest.mark.parametrize(
    "params",
    [
        {"players": 6},
        {"setup": "dealt"},
        {"utility": "rank"},
        {"setup": "seeded", "seed": "x"},
        {"majority_scope": "most"},
        {"components": "no,such"},
        {"components": ["unhashable"]},
    ],
)
def test_the_same_errors(params: dict[str, Any]) -> None:
    """Refused parameter sets, also after their valid siblings were met."""
    if "seed" in params:
        GAME_CONFIG.fast({**params, "seed": 1})  # its valid sibling, met first
    for _ in range(2):
        with pytest.raises(Exception) as core:
            GAME_CONFIG.core(params)
        with pytest.raises(core.type) as fast:
            GAME_CONFIG.fast(params)
        assert str(fast.value) == str(core.value)
