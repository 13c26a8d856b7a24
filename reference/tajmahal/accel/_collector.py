"""The collector's setting while records are verified: the youngest generation collected
far less often.

A replay makes many short-lived frozen values (states, events, actions) that form no
cycles and are freed by reference counting. What lives longer is the record being
verified (until its file is done) and the layer's memos, and a young collection walks
all of it while freeing nothing. At :data:`GENERATION_0_THRESHOLD` new objects (Python's
default is 700) the golden corpus is verified without a single young collection. The
collector still runs (cycles from elsewhere are still collected), and the thresholds in
force before come back afterwards: this is the ``verify`` command's setting only, never
the library's. Under ``TAJMAHAL_PLAIN=1`` both functions leave the collector alone.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

from tajmahal.accel._path import ENABLED, PLAIN_NAMES

_ON = ENABLED and "collector" not in PLAIN_NAMES
"""The settings apply unless ``TAJMAHAL_PLAIN`` is ``1`` or names ``collector``."""

GENERATION_0_THRESHOLD = 100_000
"""New container objects between two collections of the youngest generation while the
``verify`` command runs."""


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect the youngest generation after :data:`GENERATION_0_THRESHOLD` new objects
    inside the block; the thresholds of before afterwards."""
    if not _ON:
        yield
        return
    before = gc.get_threshold()
    gc.set_threshold(GENERATION_0_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def collect_less() -> None:
    """The setting of :func:`fewer_collections` for the rest of a worker process's life
    (a worker only verifies files and then ends), so that files verified in workers get
    the same collector as in the command's own process, whatever the start method."""
    if _ON:
        gc.set_threshold(GENERATION_0_THRESHOLD, *gc.get_threshold()[1:])


# The functions are documented under tajmahal.accel, which users import them from; only
# the constant, whose docstring cannot go with it, is listed here.
__all__ = ["GENERATION_0_THRESHOLD"]
