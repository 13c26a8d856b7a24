"""``tajmahal diff`` against real child processes.

The reference behind the protocol (``tajmahal serve``) must agree with itself; engines
of the catalogue of misreadings (``tajmahal serve --misread NAME``) must be caught, at
the field and with the clause their misreading breaks, named first, and the shrunk game
must be a record the reference replays; an engine that crashes, hangs, prints garbage
or closes early must be reported as such, and its process must be gone afterwards. No
clause markers: these tests check the tool, not the rules themselves.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest

from depth import depth
from tajmahal.cli import main
from tajmahal.conformance import ForeignEngine, LockstepEngine, run_diff
from tajmahal.engine import apply, legal_actions, new_game, random_setup
from tajmahal.model import default_components
from tajmahal.records import read_record, replay

TESTS = Path(__file__).resolve().parent
PYTHON = shlex.quote(sys.executable)
REFERENCE = f"{PYTHON} -m tajmahal.cli serve"
COMPONENTS = default_components()


def _wrong(name: str) -> str:
    return f"{PYTHON} -m tajmahal.cli serve --misread {name}"


def _misbehaving(mode: str, pidfile: Path) -> str:
    script = shlex.quote(str(TESTS / "misbehaving_engine.py"))
    return f"{PYTHON} {script} {mode} {shlex.quote(str(pidfile))}"


def test_the_reference_behind_the_protocol_agrees_with_itself(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["diff", "--engine", REFERENCE, "--games", "3", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK tajmahal-reference: 3 games, "), out
    assert "every step agreed with the reference" in out


WRONG = [
    # name, fixed options, seed, first differing field, the clause it breaks
    ("tie-wins", {}, 1, "state_digest", "TM.WITHDRAW.MAJORITY.STRICT"),
    (
        "crown-beside-own",
        {"crown_beside_own_palace": "forbidden"},
        4,
        "legal",
        "RUL.CROWN.BESIDE_OWN_PALACE",
    ),
    ("special-discarded", {}, 4, "state_digest", "TM.SPECIAL.RETURN_TO_HAND"),
    ("forfeit-tile", {}, 4, "state_digest", "RUL.REWARD.NO_LEGAL_CITY"),
    ("anticlockwise", {}, 3, "state_digest", "TM.VISIT.NEXT.START_PLAYER"),
]


@pytest.mark.parametrize(
    ("name", "rules", "seed", "field", "clause"),
    [
        pytest.param(
            *w, id=w[0], marks=() if w[0] in ("tie-wins", "crown-beside-own") else pytest.mark.deep
        )
        for w in WRONG
    ],
)
def test_each_wrong_engine_is_caught_with_the_clause_it_breaks(
    name: str,
    rules: dict[str, str],
    seed: int,
    field: str,
    clause: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``make check`` runs two of the engines: one caught at the state digest, one (under
    a fixed option) at the legal actions; the others are deep cases."""
    out = tmp_path / "found.json"
    options = [f"--rule={option}={value}" for option, value in rules.items()]
    arguments = ["--engine", _wrong(name), "--games", "3", "--seed", str(seed), *options]
    arguments += ["--case", str(tmp_path / "case.json")]
    budget = str(depth(8, 20))
    code = main(["diff", *arguments, "--shrink-budget", budget, "--out", str(out), "--json"])
    assert code == 1
    report = json.loads(capsys.readouterr().out)
    assert report["agreed"] is False and "failure" not in report
    found = report["divergence"]
    assert found["field"] == field
    hypotheses = found["explanation"]["hypotheses"]
    assert hypotheses and hypotheses[0]["rule"] == clause, hypotheses
    assert clause in found["clauses"], found["clauses"]
    # The rule it breaks is named first, among at most three.
    assert found["likely"][0] == clause and len(found["likely"]) <= 3, found["likely"]
    explanation = found["explanation"]
    assert explanation["step"] == found["step"] and explanation["rules"][0]["id"] == clause
    assert found["details"], "the report says what differs"
    assert found["shrunk_steps"] <= found["original_steps"]
    assert found["record"] == str(out)
    # The shrunk game is a record the reference replays, up to the disagreeing step.
    record = read_record(out)
    assert len(record.steps) == found["shrunk_steps"]
    assert record.players == found["players"]
    final = replay(record, COMPONENTS)
    assert not record.steps or final.scores == record.steps[-1].scores


@pytest.mark.parametrize(
    ("name", "rules", "seed", "clause"),
    [
        pytest.param(
            w[0],
            w[1],
            w[2],
            w[4],
            id=w[0],
            marks=() if w[0] in ("tie-wins", "anticlockwise") else pytest.mark.deep,
        )
        for w in WRONG
        if w[0] != "forfeit-tile"
    ],
)
def test_without_state_digests_the_rule_is_still_named_first(
    name: str, rules: dict[str, str], seed: int, clause: str
) -> None:
    """Compared on the legal actions and scores alone, a wrong rule shows a step or more
    after it acted; the explanation goes back to the step where the engines parted.
    (A palace forfeited with its tile shows only visits later, when a pair of tiles
    is not completed: the explanation then names the exchange, not the forfeit.)
    ``make check`` runs two of the engines, the others are deep cases."""
    result = run_diff(
        _wrong(name),
        COMPONENTS,
        games=3,
        seed=seed,
        rules=rules,
        shrink_budget=20,
        compare=frozenset({"legal", "scores"}),
    )
    assert result.shrunk is not None
    divergence = result.shrunk.shortest.divergence
    assert divergence is not None and divergence.explanation is not None
    assert divergence.likely[0] == clause, divergence.likely
    parted = divergence.explanation.parted
    assert parted is not None and parted.step <= divergence.step


def test_without_state_digests_a_wrong_rule_shows_in_the_legal_actions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "found.json"
    arguments = ["--engine", _wrong("tie-wins"), "--games", "3", "--compare", "legal,scores"]
    arguments += ["--case", str(tmp_path / "case.json")]
    assert main(["diff", *arguments, "--shrink-budget", "5", "--out", str(out)]) == 1
    text = capsys.readouterr().out
    assert text.startswith("FAIL misread: tie-wins: disagrees at step "), text
    first, second = text.splitlines()[:2]
    assert ": legal differ" in first and "\n    missing in misread: tie-wins (" in text
    assert second.startswith("  likely: your engine plays as if a withdrawing player wins "), text
    assert second.endswith(": TM.WITHDRAW.MAJORITY.STRICT"), second
    assert "\n  rules, likeliest first:\n    TM.WITHDRAW.MAJORITY.STRICT: " in text
    assert f"record written to {out}" in text
    assert f"position case written to {tmp_path / 'case.json'}" in text


def test_the_html_page_shows_the_boards_around_the_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, page = tmp_path / "found.json", tmp_path / "found.html"
    arguments = ["--engine", _wrong("anticlockwise"), "--games", "2", "--seed", "3"]
    arguments += ["--shrink-budget", "5", "--out", str(out), "--html", str(page)]
    arguments += ["--case", str(tmp_path / "case.json")]
    assert main(["diff", *arguments]) == 1
    text = page.read_text(encoding="utf-8")
    step = len(read_record(out).steps)  # the record ends with the step that disagrees
    assert f"before step {step}" in text and f"after step {step} (the reference)" in text
    assert text.count("<svg") == 2
    assert "TM.VISIT.NEXT.START_PLAYER" in text and "<script" not in text
    assert f"record written to {out}" in capsys.readouterr().out


def test_the_html_page_is_never_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "found.json"
    arguments = ["--engine", _wrong("anticlockwise"), "--out", str(out), "--html", str(out)]
    assert main(["diff", *arguments]) == 2
    assert capsys.readouterr().err == (
        f"error: --html {out}: is the record --out writes; name another file\n"
    )
    assert not out.exists()


def test_an_engine_refusing_a_legal_action_is_reported_with_its_reason(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "found.json"
    arguments = ["--engine", _wrong("no-empty-withdraw"), "--compare", "state_digest,scores"]
    arguments += ["--case", str(tmp_path / "case.json")]
    assert main(["diff", *arguments, "--shrink-budget", "5", "--out", str(out), "--json"]) == 1
    found = json.loads(capsys.readouterr().out)["divergence"]
    assert found["field"] == "apply" and found["action"] == "withdraw"
    assert found["actual"].startswith("illegal-action: play a card before withdrawing")
    assert found["engine_clause"] == "TM.WITHDRAW.EMPTY_HANDED"


@pytest.mark.parametrize(
    ("mode", "kind", "words"),
    [
        ("crash", "crashed", "exited with status 3"),
        ("hang", "hung", "no reply to 'new' within 0.5 s"),
        ("garbage", "garbage", "not JSON"),
        ("shapeless", "garbage", "not an object"),
        ("close", "closed", "exited with status 0"),
        ("refuse", "protocol", "refused the handshake"),
        ("components", "protocol", "plays with component set sha256:0000"),
        ("chatty", "protocol", "answered 'new' with a reply to 'hello'"),
    ],
)
def test_a_misbehaving_engine_is_reported_and_killed(
    mode: str, kind: str, words: str, tmp_path: Path
) -> None:
    pidfile = tmp_path / "pid"
    # Only the hanging engine waits for the timeout; the others answer (or end) at once,
    # so a generous timeout keeps them from being taken for hung on a loaded machine.
    timeout = 0.5 if mode == "hang" else 30.0
    result = run_diff(_misbehaving(mode, pidfile), COMPONENTS, games=1, timeout=timeout)
    assert result.failure is not None and not result.agreed
    assert result.failure.kind == kind
    assert words in str(result.failure)
    if mode == "crash":
        assert "engine panic" in str(result.failure)
    pid = int(pidfile.read_text(encoding="utf-8"))
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


@pytest.mark.parametrize(
    "arguments",
    [
        ["--engine", "/no/such/engine"],
        ["--engine", ""],
        ["--engine", "x", "--rule", "majority_scope=most"],
        ["--engine", "x", "--compare", "legal,digest"],
    ],
)
def test_bad_usage_is_one_line_and_exit_2(
    arguments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["diff", *arguments]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --")


def test_a_lockstep_engine_agrees_step_by_step_until_the_wrong_rule() -> None:
    components = COMPONENTS
    setup = random_setup(components, 3, 8)
    state = new_game(components, 3, setup)
    with ForeignEngine(_wrong("anticlockwise"), timeout=10) as engine:
        follower = LockstepEngine(engine, components)
        assert follower.start(3, state.config.rules, setup) is None
        found = None
        while found is None and state.visit == 1:
            action = legal_actions(state)[-1]  # withdraw, then the last take: a short visit
            state = apply(state, action)
            found = follower.step(action, state)
    assert state.visit == 2 and found is not None
    assert "state_digest differs" in found and "start_player: expected" in found
    assert "TM.VISIT.NEXT.START_PLAYER" in found
