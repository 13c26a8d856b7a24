"""``tajmahal play --agents human,...``: a seat played at the terminal, fed on standard input.

What the seat must be shown is read from the game's own record and from the engine (the
hands dealt, the clause a refusal names), never from the code under test. No clause
markers: these tests check the tool, not a rule.
"""

from __future__ import annotations

import io
import json
import re
import sys
import tomllib
from pathlib import Path

import pytest

from tajmahal.cli import main
from tajmahal.cli._human import typed_action
from tajmahal.cli._main import seat_types
from tajmahal.engine import apply
from tajmahal.errors import IllegalActionError
from tajmahal.model import default_components, parse_action
from tajmahal.records import read_record, replay_steps

ROOT = Path(__file__).resolve().parents[2]
GAME = ["play", "--players", "3", "--seed", "4", "--agents", "human,greedy,random"]
"""A 3-player game whose seat 0 is played here."""


def _play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    answers: list[str],
    *options: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{a}\n" for a in answers)))
    code = main([*GAME, *options])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _statement(rule_id: str) -> str:
    """A clause's text or a ruling's title, read from the TOML files."""
    if rule_id.startswith("RUL."):
        text = tomllib.loads((ROOT / "rulings" / f"{rule_id}.toml").read_text("utf-8"))["title"]
        return str(text)
    for path in (ROOT / "specs" / "clauses").glob("*.toml"):
        for clause in tomllib.loads(path.read_text("utf-8"))["clause"]:
            if clause["id"] == rule_id:
                return " ".join(str(clause["text"]).split())
    raise AssertionError(rule_id)


def test_a_human_seat_plays_a_whole_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    trace = tmp_path / "game.json"
    code, out, err = _play(monkeypatch, capsys, ["1"] * 600, "--trace", str(trace))
    assert (code, err) == (0, "")
    record = json.loads(trace.read_text(encoding="utf-8"))
    assert record["names"] == ["human", "greedy", "random"]
    human_steps = [step for step in record["steps"] if step.get("actor") == 0]
    assert out.count("P0, your choice") == len(human_steps)
    assert "Final scores" in out
    # the account is told as the game goes, every step numbered once
    numbers = [int(n) for n in re.findall(r"^ {0,3}(\d+)  ", out, re.MULTILINE)]
    assert numbers == list(range(1, len(record["steps"]) + 1))


def test_the_seat_sees_its_own_hand_and_no_other(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    trace = tmp_path / "game.json"
    _play(monkeypatch, capsys, ["1"] * 600, "--trace", str(trace))
    record = read_record(trace)
    components = default_components()
    for replayed in replay_steps(record, components, "game"):
        if replayed.before.to_move == 0 and not replayed.before.is_chance:
            first = replayed.before
            break
    _code, out, _ = _play(monkeypatch, capsys, [])
    view = out.split("Your actions (P0)", 1)[0]
    own = view.split("your hand: ", 1)[1].split("\n", 1)[0]
    assert re.findall(r"[\w-]+(?= \()", own) == list(first.players[0].hand)
    assert view.count("your hand: ") == 1
    for seat in (1, 2):
        for card in first.players[seat].hand:
            if card not in components.specials:
                assert not re.search(rf"\b{card}\b", view)


def test_a_refused_action_is_explained_by_its_rule(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    trace = tmp_path / "game.json"
    _play(monkeypatch, capsys, ["1"] * 600, "--trace", str(trace))
    record = read_record(trace)
    before = next(
        replayed.before
        for replayed in replay_steps(record, default_components(), "game")
        if replayed.before.to_move == 0
    )
    wrong = "palace A1"  # a palace while the seat must play or withdraw
    with pytest.raises(IllegalActionError) as refusal:
        apply(before, parse_action(wrong))
    clause = refusal.value.clause
    assert clause is not None
    _code, out, _ = _play(monkeypatch, capsys, [wrong, "1", *["1"] * 600])
    answer = out.split("P0, your choice (1-", 1)[1].split("P0, your choice", 1)[0]
    assert f"refused: {refusal.value}" in answer
    assert f"the rule, {clause}: {_statement(clause)}" in " ".join(answer.split())


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        ("99", "no action 99: give a number from 1 to"),
        ("0", "no action 0: give a number from 1 to"),
        ("dance", "not an action:"),
        ("play", "not an action:"),
    ],
)
def test_an_answer_that_is_no_action_is_asked_again(
    answer: str, words: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _play(monkeypatch, capsys, [answer, *["1"] * 600], "--quiet")
    assert code == 0
    refused = out.split(words, 1)[1].split("\n", 1)[1]  # what follows the refusal
    if words.startswith("not an action"):
        refused = refused.split("\n", 1)[1]  # after the line that says how to answer
    assert refused.startswith("P0, your choice")  # asked again, nothing played meanwhile
    assert "Final scores" in out


def test_help_and_board_show_the_actions_and_the_position_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _code, out, _ = _play(monkeypatch, capsys, ["?", "board", *["1"] * 600], "--quiet")
    first_turn = out.split("P0, your choice", 4)
    assert "Your actions (P0)" in first_turn[1]
    assert "your hand: " in first_turn[2]


def test_the_end_of_input_abandons_the_game_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = _play(monkeypatch, capsys, ["1"])
    assert code == 2
    assert err.count("\n") == 1
    assert re.fullmatch(
        r"error: standard input ended while P0 chose step \d+; the game is abandoned\n", err
    )


def test_ctrl_c_at_the_prompt_abandons_the_game_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Interrupted:
        """Standard input at which Ctrl-C is pressed."""

        def readline(self) -> str:
            raise KeyboardInterrupt

        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Interrupted())
    code = main(GAME)
    err = capsys.readouterr().err
    assert code == 130
    assert re.fullmatch(r"interrupted while P0 chose step \d+; the game is abandoned\n", err)


@pytest.mark.parametrize(
    ("spec", "players", "seats"),
    [
        ("human,greedy,random", 4, ["human", "greedy", "random", "greedy"]),
        ("human", 3, ["human", "greedy", "greedy"]),
        ("random,human", 5, ["random", "human", "random", "random", "random"]),
        ("greedy,random", 4, ["greedy", "random", "greedy", "random"]),
        ("human,human,random", 3, ["human", "human", "random"]),
    ],
)
def test_a_human_seat_is_never_repeated_round_the_table(
    spec: str, players: int, seats: list[str]
) -> None:
    assert seat_types(spec, players) == seats


@pytest.mark.parametrize(
    ("answer", "action"),
    [
        ("take violet-15 green-04", "take green-04 violet-15"),
        ("  play   red-02  white-09 ", "play red-02 white-09"),
        ("withdraw", "withdraw"),
    ],
)
def test_an_answer_is_read_as_an_action_string(answer: str, action: str) -> None:
    assert typed_action(answer) == action
