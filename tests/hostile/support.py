"""Shared pieces of the hostile-input suite: Hypothesis profiles and the outcome check.

Two Hypothesis profiles: ``hostile-quick`` (the default, run by ``make check``) and
``hostile-deep`` (``make hostile``: many more generated records and positions), chosen
with the ``HYPOTHESIS_PROFILE`` environment variable and applied per test.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from hypothesis import HealthCheck, settings

settings.register_profile(
    "hostile-quick",
    max_examples=25,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
settings.register_profile(
    "hostile-deep",
    max_examples=1500,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "hostile-quick")
"""The profile the generated attacks run under (applied per test, never globally)."""
HOSTILE = settings(parent=settings.get_profile(PROFILE))
"""Decorator: run a property test under :data:`PROFILE`."""
DEEP = PROFILE == "hostile-deep"
"""True under ``make hostile``."""

Run = Callable[..., tuple[int, str, str]]
"""``run(*argv, expect=...)``: run the command line, return (exit code, stdout, stderr)."""


def check_outcome(code: int, err: str, expect: set[int]) -> None:
    """An attack ends with an expected exit code and, on failure, exactly one line on
    stderr and never a traceback."""
    assert "Traceback" not in err
    assert code in expect, (code, err)
    if code != 0:
        lines = [line for line in err.splitlines() if line]
        assert len(lines) >= 1
        if code == 2:
            assert len(lines) == 1, err
            assert lines[0].startswith("error: ")
            assert "internal error" not in lines[0], lines[0]
