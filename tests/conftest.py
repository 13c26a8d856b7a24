"""Settings shared by every test."""

import os

import pytest

from tajmahal.engine import _majority as majority

# A bug must fail the test that meets it, not hide behind the command line's last line
# of defence (tajmahal.cli.main turns unexpected exceptions into one line otherwise).
os.environ.setdefault("TAJMAHAL_DEBUG", "1")


@pytest.fixture(autouse=True)
def fresh_majority_events() -> None:
    """Every test starts with the engine's memo of majority events empty, so the events a
    test checks are built in that test: a memo filled by earlier tests would hide a fault
    in the code that builds them (mutation testing runs each mutant's tests in a process
    forked after the whole selection ran once, memo included)."""
    majority._MAJORITY_EVENTS.clear()
