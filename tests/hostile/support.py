"""Shared pieces of the hostile-input suite: Hypothesis profiles and the outcome check.

Two Hypothesis profiles: ``hostile-quick`` (run by ``make check``) and ``hostile-deep``
(many more generated records and positions), chosen by the suite's depth
(``TAJMAHAL_DEEP=1``: ``make hostile``, ``make test-deep``; ``tests/depth.py``), or
named with the ``HYPOTHESIS_PROFILE`` environment variable, and applied per test.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, settings

import depth

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
DEEP = depth.DEEP
"""True under ``TAJMAHAL_DEEP=1`` (``make hostile``, ``make test-deep``)."""
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "hostile-deep" if DEEP else "hostile-quick")
"""The profile the generated attacks run under (applied per test, never globally)."""
HOSTILE = settings(parent=settings.get_profile(PROFILE))
"""Decorator: run a property test under :data:`PROFILE`."""
CAMPAIGN_ONLY = pytest.mark.deep
"""Decorator: a test that starts processes for seconds (signals at random moments,
floods, campaigns killed and resumed) is a deep case, run by ``make hostile`` and
``make test-deep``, not ``make check``, which keeps a fast reproducer of the same class."""

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


MARK_VARIABLE = "TAJMAHAL_HOSTILE_MARK"
"""Environment variable a test gives the processes it starts (they pass it on to theirs),
so that every process left behind can be found afterwards."""


def _state(pid: int) -> str | None:
    """The state letter of process ``pid`` (``Z`` for a zombie), or None when gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stream:
            return stream.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie has ended)."""
    return _state(pid) not in (None, "Z")


def marked_processes(mark: str) -> list[int]:
    """The running processes whose environment holds ``MARK_VARIABLE=mark`` (Linux)."""
    found = []
    needle = f"{MARK_VARIABLE}={mark}".encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as stream:
                environment = stream.read().split(b"\0")
        except OSError:
            continue
        if needle in environment and alive(int(entry)):
            found.append(int(entry))
    return found


def gone_within(seconds: float, mark: str) -> list[int]:
    """Wait up to ``seconds`` for every process marked ``mark`` to end; those left."""
    deadline = time.monotonic() + seconds
    while True:
        left = marked_processes(mark)
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.05)
