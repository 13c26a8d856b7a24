"""Numbers on the command line: finite and in range, or refused with one line.

Every numeric option of every subcommand is given what a careless user or an attacker
would type (``nan``, ``inf``, ``1e308``, negative numbers, zero where zero means
nothing, huge integers, digits of other scripts): each is refused by argparse's ``type``
with exit code 2 and one line naming the option, before anything runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostile.support import HOSTILE
from tajmahal.cli import main
from tajmahal.cli._options import MAX_JOBS, MAX_SECONDS, integer, number

ROOT = Path(__file__).resolve().parents[2]

# (command prefix, option, values that must be refused)
BAD_FLOATS = ["nan", "NaN", "inf", "-inf", "Infinity", "1e308", "-1", "", "x", "1e999", "٣"]
OPTIONS: list[tuple[tuple[str, ...], str, list[str]]] = [
    (("diff", "--engine", "x"), "--timeout", [*BAD_FLOATS, "0", "0.0", "-0"]),
    (("diff", "--engine", "x"), "--shrink-seconds", BAD_FLOATS),
    (("diff", "--engine", "x"), "--games", ["0", "-1", "nan", "1e5", "9" * 40, "٣", ""]),
    (("diff", "--engine", "x"), "--shrink-budget", ["-1", "nan", "9" * 40]),
    (("diff", "--engine", "x"), "--seed", ["nan", "1" * 31, "1e5"]),
    (("fuzz",), "--minutes", [*BAD_FLOATS, "0", "1e6"]),
    (("fuzz",), "--engine-timeout", [*BAD_FLOATS, "0"]),
    (("fuzz",), "--games", ["0", "-1", "nan", "9" * 40]),
    (("fuzz",), "--jobs", ["0", "-1", "100000", str(MAX_JOBS + 1), "nan"]),
    (("fuzz",), "--keep", ["-1", "nan"]),
    (("fuzz",), "--deep-every", ["0", "-3"]),
    (("fuzz",), "--max-counterexamples", ["0", "-1"]),
    (("fuzz",), "--seed", ["nan", "1" * 31]),
    (("verify", "x.json"), "--jobs", ["-1", "100000", "nan", "inf"]),
    (("perft", "x.json"), "--depth", ["-1", "nan", "9" * 40]),
]
CASES = [(prefix, option, value) for prefix, option, values in OPTIONS for value in values]


def _refused(argv: list[str], option: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"error: argument {option}"), err
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize(("prefix", "option", "value"), CASES)
def test_a_number_out_of_range_is_refused_with_one_line(
    prefix: tuple[str, ...], option: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _refused([*prefix, f"{option}={value}"], option, capsys)


@HOSTILE
@given(text=st.one_of(st.text(max_size=12), st.floats().map(repr), st.integers().map(str)))
def test_the_number_types_return_a_number_in_range_or_refuse(text: str) -> None:
    import argparse
    import math

    seconds = number(0, MAX_SECONDS, above=True)
    count = integer(1, 1000)
    try:
        value = seconds(text)
    except argparse.ArgumentTypeError as error:
        assert "expected a number above 0" in str(error)
    else:
        assert math.isfinite(value) and 0 < value <= MAX_SECONDS
    try:
        whole = count(text)
    except argparse.ArgumentTypeError as error:
        assert "expected an integer from 1 to 1000" in str(error)
    else:
        assert 1 <= whole <= 1000


def test_a_usage_error_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    line = _refused(["play", "--players", "6"], "--players", capsys)
    assert line.endswith("(see: tajmahal play --help)")
    with pytest.raises(SystemExit):
        main(["play", "--bogus\x1b[2J"])
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "\x1b" not in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["verify", "--help"]])
def test_help_written_to_a_full_device_is_an_error(argv: list[str]) -> None:
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "reference")}
    environment.pop("TAJMAHAL_DEBUG", None)
    with open("/dev/full", "w") as full:
        process = subprocess.run(
            [sys.executable, "-c", "import tajmahal_console; tajmahal_console.run()", *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
            timeout=60,
            check=False,
        )
    assert process.returncode == 2, process.stderr
    assert process.stderr == "error: (standard output): No space left on device\n"
