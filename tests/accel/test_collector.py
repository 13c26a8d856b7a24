"""The ``verify`` command's collector setting: the youngest generation collected far
less often while it runs, the thresholds of before afterwards, nothing changed under
``TAJMAHAL_PLAIN=1``."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

import pytest

from tajmahal.accel import ENABLED, GENERATION_0_THRESHOLD, PLAIN_VARIABLE, fewer_collections


def test_the_command_raises_the_youngest_threshold_and_gives_it_back() -> None:
    before = gc.get_threshold()
    with fewer_collections():
        inside = gc.get_threshold()
    assert gc.get_threshold() == before
    assert inside == ((GENERATION_0_THRESHOLD, *before[1:]) if ENABLED else before)
    with pytest.raises(KeyError), fewer_collections():
        raise KeyError("stop")
    assert gc.get_threshold() == before


@pytest.mark.parametrize("plain", ["1", "0", ""])
def test_the_switch_decides_the_collector_of_a_fresh_process(plain: str) -> None:
    probe = (
        "import gc\nfrom tajmahal.accel import fewer_collections\n"
        "with fewer_collections():\n    print(gc.get_threshold()[0])"
    )
    environment = {**os.environ, PLAIN_VARIABLE: plain}
    printed = subprocess.run(
        [sys.executable, "-c", probe], env=environment, capture_output=True, text=True, check=True
    ).stdout
    expected = gc.get_threshold()[0] if plain == "1" else GENERATION_0_THRESHOLD
    assert int(printed) == expected
