"""``tajmahal diff`` against real child processes.

The reference behind the protocol (``tajmahal serve``) must agree with itself; each
deliberately wrong engine of ``tests/wrong_engines.py`` must be caught, at the field and
with the clause its wrong rule breaks; an engine that crashes, hangs, prints garbage or
closes early must be reported as such, and its process must be gone afterwards. No
clause markers: these tests check the tool, not the rules themselves.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest

from tajmahal.cli import main
from tajmahal.components import default_components
from tajmahal.differential import divergence_record, run_diff
from tajmahal.trace import read_record, replay

TESTS = Path(__file__).resolve().parent
PYTHON = shlex.quote(sys.executable)
REFERENCE = f"{PYTHON} -m tajmahal.cli serve"
COMPONENTS = default_components()


def _wrong(name: str) -> str:
    return f"{PYTHON} {shlex.quote(str(TESTS / 'wrong_engines.py'))} {name}"


def _misbehaving(mode: str, pidfile: Path) -> str:
    script = shlex.quote(str(TESTS / "misbehaving_engine.py"))
    return f"{PYTHON} {script} {mode} {shlex.quote(str(pidfile))}"


def test_the_reference_behind_the_protocol_agrees_with_itself() -> None:
    result = run_diff(REFERENCE, COMPONENTS, games=3, seed=5)
    assert result.agreed, result
    assert result.engine == "tajmahal-reference"
    assert result.games == 3 and result.steps > 3 * 50


WRONG = [
    # name, fixed options, seed, first differing field, the clause it breaks
    ("tie-wins", {}, 1, "state_digest", "TM.WITHDRAW.MAJORITY.STRICT"),
    (
        "crown-beside-own",
        {"crown_beside_own_palace": "forbidden"},
        4,
        "legal",
        "TM.REWARD.CROWN.BESIDE_OWN",
    ),
    ("special-discarded", {}, 4, "state_digest", "TM.SPECIAL.RETURN_TO_HAND"),
    ("forfeit-tile", {}, 4, "state_digest", "RUL.REWARD.NO_LEGAL_CITY"),
    ("anticlockwise", {}, 3, "state_digest", "TM.VISIT.NEXT.START_PLAYER"),
]


@pytest.mark.parametrize(
    ("name", "rules", "seed", "field", "clause"), WRONG, ids=[w[0] for w in WRONG]
)
def test_each_wrong_engine_is_caught_with_the_clause_it_breaks(
    name: str, rules: dict[str, str], seed: int, field: str, clause: str
) -> None:
    result = run_diff(_wrong(name), COMPONENTS, games=3, seed=seed, rules=rules, shrink_budget=30)
    assert not result.agreed and result.failure is None
    assert result.shrunk is not None
    divergence = result.shrunk.shortest.divergence
    assert divergence is not None
    assert divergence.field == field
    assert clause in divergence.clauses, divergence.clauses
    assert divergence.details, "the report says what differs"
    assert result.shrunk.shortest.steps <= result.shrunk.original.steps
    # The shrunk game is a record the reference replays, ending at the disagreement.
    record = divergence_record(result.shrunk.shortest, COMPONENTS)
    assert len(record.steps) == result.shrunk.shortest.steps
    assert replay(record, COMPONENTS).scores == tuple(record.steps[-1].scores or ()) or (
        not record.steps
    )


@pytest.mark.parametrize(
    ("mode", "kind", "words"),
    [
        ("crash", "crashed", "exited with status 3"),
        ("hang", "hung", "no reply to 'new' within 0.5 s"),
        ("garbage", "garbage", "not JSON"),
        ("shapeless", "garbage", "not an object"),
        ("close", "closed", "exited with status 0"),
        ("refuse", "protocol", "refused the handshake"),
    ],
)
def test_a_misbehaving_engine_is_reported_and_killed(
    mode: str, kind: str, words: str, tmp_path: Path
) -> None:
    pidfile = tmp_path / "pid"
    result = run_diff(_misbehaving(mode, pidfile), COMPONENTS, games=1, timeout=0.5)
    assert result.failure is not None and not result.agreed
    assert result.failure.kind == kind
    assert words in str(result.failure)
    if mode == "crash":
        assert "engine panic" in str(result.failure)
    pid = int(pidfile.read_text(encoding="utf-8"))
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_the_command_line_writes_the_shrunk_record_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "found.json"
    arguments = ["--engine", _wrong("anticlockwise"), "--games", "2", "--seed", "3"]
    code = main(["diff", *arguments, "--shrink-budget", "10", "--out", str(out), "--json"])
    assert code == 1
    report = json.loads(capsys.readouterr().out)
    assert report["agreed"] is False and report["divergence"]["record"] == str(out)
    assert "TM.VISIT.NEXT.START_PLAYER" in report["divergence"]["clauses"]
    assert any(line.startswith("start_player:") for line in report["divergence"]["details"])
    record = read_record(out)
    assert len(record.steps) == report["divergence"]["shrunk_steps"]


def test_the_command_line_says_ok_for_an_agreeing_engine(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["diff", "--engine", REFERENCE, "--games", "1", "--players", "3"]) == 0
    assert capsys.readouterr().out.startswith("OK tajmahal-reference: 1 games")


@pytest.mark.parametrize(
    "arguments",
    [
        ["--engine", "/no/such/engine"],
        ["--engine", ""],
        ["--engine", "x", "--rule", "majority_scope=most"],
    ],
)
def test_bad_usage_is_one_line_and_exit_2(
    arguments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["diff", *arguments]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --")
