"""Shared helper for the framework-API tests: optional extras (their random games are
``scenes.random_game``)."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def extra(module: str, name: str) -> ModuleType:
    """Import an optional extra's module, skipping the test when it is absent; ``make
    check`` sets ``TAJMAHAL_REQUIRE_EXTRAS=1`` so that there an absent extra fails."""
    if os.environ.get("TAJMAHAL_REQUIRE_EXTRAS") == "1":
        return importlib.import_module(module)
    found: ModuleType = pytest.importorskip(module, reason=f"the [{name}] extra is not installed")
    return found
