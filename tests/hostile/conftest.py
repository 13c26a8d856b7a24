"""Fixtures of the hostile-input suite.

Every attack goes through :func:`tajmahal.cli.main` in-process, with ``TAJMAHAL_DEBUG``
set (see ``tests/conftest.py``) so that an unexpected exception fails the test instead
of being turned into one line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hostile.support import Run, check_outcome
from tajmahal.cli import main


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
