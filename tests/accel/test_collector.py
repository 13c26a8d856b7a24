"""The collector setting of the ``verify`` command: the youngest generation collected far
less often while it runs, the thresholds of before afterwards, nothing changed under
``TAJMAHAL_PLAIN=1``."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

import pytest

from tajmahal.accel import (
    ENABLED,
    GENERATION_0_THRESHOLD,
    PLAIN_VARIABLE,
    fewer_collections,
)


def test_the_command_raises_the_youngest_threshold_and_gives_it_back() -> None:
    before = gc.get_threshold()
    with fewer_collections():
        inside = gc.get_threshold()
    assert gc.get_threshold() == before
    assert inside == ((GENERATION_0_THRESHOLD, *before[1:]) if ENABLED else before)
    with pytest.raises(KeyError), fewer_collections():
        raise KeyError("stop")
    assert gc.get_threshold() == before


@pytest.mark.parametrize(
    "plain",
    # "1" and "0": deep cases; make check meets them in the next test's "1" and "0".
    [pytest.param("1", marks=pytest.mark.deep), pytest.param("0", marks=pytest.mark.deep), ""],
)
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


@pytest.mark.parametrize(
    ("plain", "expected"),
    [
        ("state_digest", (False, True, True)),
        ("state_digest,legal_digest", (False, True, False)),
        (" legal_digest , collector", (True, False, False)),
        ("1", (False, False, False)),
        ("0", (True, True, True)),
    ],
)
def test_the_switch_names_the_fast_paths_it_turns_off(
    plain: str, expected: tuple[bool, bool, bool]
) -> None:
    """``TAJMAHAL_PLAIN`` as a list of core function names turns off those fast paths (and
    ``collector`` the collector setting) and leaves every other part on."""
    probe = (
        "import gc\nfrom tajmahal import accel, notation\n"
        "with accel.fewer_collections():\n    threshold = gc.get_threshold()[0]\n"
        "print(accel.state_digest is not notation.state_digest,"
        f" threshold == {GENERATION_0_THRESHOLD},"
        " accel.legal_digest is not notation.legal_digest)"
    )
    environment = {**os.environ, PLAIN_VARIABLE: plain}
    printed = subprocess.run(
        [sys.executable, "-c", probe], env=environment, capture_output=True, text=True, check=True
    ).stdout.split()
    assert tuple(word == "True" for word in printed) == expected
