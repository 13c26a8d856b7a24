"""Every fast path of the accelerated layer is pinned to its core function by a test.

A pinning test in ``tests/accel/`` compares a fast path's drop-in with the core function
it replaces, and names the fast paths it pins with ``@pytest.mark.pins(...)``; this test
reads those marks from every test module beside it.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from tajmahal.accel import FAST_PATHS, FastPath

HERE = Path(__file__).resolve().parent


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
