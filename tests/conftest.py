"""Settings shared by every test."""

import os
import signal

import pytest

from depth import DEEP, VARIABLE

# A bug must fail the test that meets it, not hide behind the command line's last line
# of defence (tajmahal.cli.main turns unexpected exceptions into one line otherwise).
os.environ.setdefault("TAJMAHAL_DEBUG", "1")

# The tests that press Ctrl-C (SIGINT to a command's process group) need commands that
# hear it. A shell without job control starts background jobs with SIGINT ignored, and
# an ignored signal stays ignored in every program started below (the commands rightly
# keep it so); give the tests, and so the commands they start, the usual handler.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the cases marked ``deep`` unless ``TAJMAHAL_DEEP=1`` (``tests/depth.py``)."""
    if DEEP:
        return
    skip = pytest.mark.skip(reason=f"a deep case: make test-deep runs it ({VARIABLE}=1)")
    for item in items:
        if item.get_closest_marker("deep") is not None:
            item.add_marker(skip)
