"""Every fast path of the accelerated layer is pinned to its core function by a test.

A pinning test in ``tests/accel/`` compares a fast path's drop-in with the core function
it replaces, and names the fast paths it pins with ``@pytest.mark.pins(...)``; this test
reads those marks from every test module beside it. The fast paths are the layer's own
(``tajmahal.accel.FAST_PATHS``) and those of the AI interfaces, which stand above the
layer and pair their functions with its drop-ins themselves (``tajmahal.ai.FAST_PATHS``;
``tajmahal.ai.openspiel.FAST_PATHS`` and ``tajmahal.ai.pettingzoo.FAST_PATHS`` when
those extras are installed), and those of the fuzzer's invariants
(``tajmahal.testing.invariants.FAST_PATHS``).
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any

from tajmahal import accel, ai
from tajmahal.accel import FastPath
from tajmahal.testing import invariants

HERE = Path(__file__).resolve().parent


def _adapter_paths(module: str) -> tuple[FastPath[Any], ...]:
    """An adapter's fast paths (none without its extra, except under ``make check``,
    which sets ``TAJMAHAL_REQUIRE_EXTRAS=1``)."""
    try:
        found: tuple[FastPath[Any], ...] = importlib.import_module(module).FAST_PATHS
    except ImportError:
        if os.environ.get("TAJMAHAL_REQUIRE_EXTRAS") == "1":
            raise
        return ()
    return found


FAST_PATHS: tuple[FastPath[Any], ...] = (
    *accel.FAST_PATHS,
    *ai.FAST_PATHS,
    *invariants.FAST_PATHS,
    *_adapter_paths("tajmahal.ai.openspiel"),
    *_adapter_paths("tajmahal.ai.pettingzoo"),
)
"""Every fast path: the layer's, then the AI interfaces', then the invariants'."""


def pinned() -> list[FastPath[Any]]:
    """Every fast path named by a ``pins`` mark of a test function beside this one."""
    found: list[FastPath[Any]] = []
    for path in sorted(HERE.glob("test_*.py")):
        module = importlib.import_module(path.stem)
        for name, value in vars(module).items():
            if name.startswith("test_") and callable(value):
                for mark in getattr(value, "pytestmark", []):
                    if mark.name == "pins":
                        found.extend(mark.args)
    return found


def test_every_fast_path_is_pinned_by_a_test() -> None:
    marked = pinned()
    assert all(isinstance(path, FastPath) for path in marked)
    missing = [path for path in FAST_PATHS if not any(path is mark for mark in marked)]
    assert missing == [], [f"{path.core.__module__}.{path.core.__name__}" for path in missing]


def test_every_fast_path_replaces_a_core_function_by_another_function() -> None:
    for path in FAST_PATHS:
        assert path.fast is not path.core
        assert not path.core.__module__.startswith("tajmahal.accel")
        assert path.fast.__module__.startswith("tajmahal.accel")
        assert path.buys


def test_the_ai_fast_paths_are_seen() -> None:
    assert set(ai.FAST_PATHS) <= set(FAST_PATHS)
    assert len(set(FAST_PATHS)) == len(FAST_PATHS)
