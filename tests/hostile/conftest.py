"""Shared pieces of the hostile-input suite.

Two Hypothesis profiles: ``hostile-quick`` (the default, run by ``make check``) and
``hostile-deep`` (``make hostile``: many more generated records and positions). Every
attack goes through :func:`tajmahal.cli.main` in-process, with ``TAJMAHAL_DEBUG`` set
(see ``tests/conftest.py``) so that an unexpected exception fails the test instead of
being turned into one line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tajmahal.cli import main

settings.register_profile(
    "hostile-quick",
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "hostile-deep",
    max_examples=1500,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
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


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    """Run the command line in-process and check the outcome's shape."""

    def runner(*argv: str, expect: set[int] | None = None) -> tuple[int, str, str]:
        code = main(list(argv))
        captured = capsys.readouterr()
        check_outcome(code, captured.err, expect if expect is not None else {2})
        return code, captured.out, captured.err

    return runner


@pytest.fixture(scope="session")
def record_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished 3-player game record (never modified)."""
    path = tmp_path_factory.mktemp("hostile") / "game.json"
    assert main(["play", "--players", "3", "--seed", "4", "--quiet", "--trace", str(path)]) == 0
    return path


@pytest.fixture(scope="session")
def record_document(record_path: Path) -> dict[str, Any]:
    """The parsed record (copy before changing)."""
    document: dict[str, Any] = json.loads(record_path.read_text(encoding="utf-8"))
    return document
