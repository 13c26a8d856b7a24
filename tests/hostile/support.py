"""Shared pieces of the hostile-input suite: Hypothesis profiles and the outcome check.

Two Hypothesis profiles: ``hostile-quick`` (the default, run by ``make check``) and
``hostile-deep`` (``make hostile``: many more generated records and positions), chosen
with the ``HYPOTHESIS_PROFILE`` environment variable and applied per test.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

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


def _install_many_more() -> None:
    """Let ``hypothesis-jsonschema`` 0.23 (its latest release) run on current Hypothesis.

    It drives ``hypothesis.internal.conjecture.utils.many`` through the old
    ``while elements.more():`` protocol, which recent Hypothesis replaced by a context
    manager and iteration. This adds ``more()`` back, built from the same steps the new
    iteration takes (finish the element, decide whether to continue, start the next).
    """
    from hypothesis.internal.conjecture import utils

    many: Any = utils.many
    if hasattr(many, "more"):
        return

    def more(self: Any) -> bool:
        if self._depth is None:
            self._depth = self.data.depth
        if self._in_element:
            self._finish_element()
        if self._done or not self._decide():
            return False
        self.count += 1
        self._in_element = True
        self._rejected = False
        return True

    many.more = more


_install_many_more()
