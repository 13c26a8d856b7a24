"""``tajmahal fuzz`` on the command line: figures, exit codes, shards, bad usage."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

import tajmahal.accel
from tajmahal.cli import main
from tajmahal.model import Action, Event, GameState, Take
from tajmahal.records import TAGS


def test_a_quiet_campaign_prints_its_figures_and_writes_a_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fuzz", "--games", "4", "--seed", "3", "--quiet", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("games 4 steps ")
    assert "last-player-alone=4" in out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["games"] == 4 and summary["campaign"]["seed"] == 3
    assert "cards-conserved" in summary["invariants"]


def test_the_table_display_lists_the_tags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fuzz", "--games", "2", "--players", "3", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "edge tags" in out and "last-player-alone" in out and "games/s" in out


def test_shards_run_and_merge_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for shard in ("0/2", "1/2"):
        folder = tmp_path / shard.replace("/", "-")
        assert (
            main(["fuzz", "--games", "4", "--shard", shard, "--quiet", "--out", str(folder)]) == 0
        )
    capsys.readouterr()
    merged = tmp_path / "merged"
    code = main(
        [
            "fuzz",
            "merge",
            str(tmp_path / "0-2"),
            str(tmp_path / "1-2"),
            "--out",
            str(merged),
            "--quiet",
        ]
    )
    assert code == 0
    assert capsys.readouterr().out.startswith("games 4 steps ")
    assert json.loads((merged / "summary.json").read_text())["ranges"] == [[0, 4]]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--agents", "nobody"], "--agents: unknown player type nobody"),
        (["--find", "nothing"], "--find: unknown tag nothing"),
        (["--players", "2"], "--players: choose among 3, 4 and 5"),
        (["--rules", "colour_change_first_turn=never"], "unknown value 'never'"),
    ],
)
def test_bad_options_give_a_one_line_error_and_exit_code_2(
    arguments: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fuzz", "--games", "1", "--out", str(tmp_path), *arguments]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


def test_a_bad_shard_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["fuzz", "--shard", "2/2"])
    assert stop.value.code == 2
    assert "0 <= I < N" in capsys.readouterr().err


def test_merging_a_folder_without_a_summary_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "summary.json").write_text('{"format": "something-else"}')
    assert main(["fuzz", "merge", str(tmp_path)]) == 2
    assert "not a tajmahal-fuzz-summary document" in capsys.readouterr().err


def test_a_counterexample_exits_1_and_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = tajmahal.accel.apply_with_events

    def loses_taken_cards(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
        after, events = real(state, action)
        if isinstance(action, Take) and state.to_move is not None:
            seat = state.to_move
            player = attrs.evolve(after.players[seat], hand=after.players[seat].hand[1:])
            after = attrs.evolve(
                after, players=(*after.players[:seat], player, *after.players[seat + 1 :])
            )
        return after, events

    monkeypatch.setattr(tajmahal.accel, "apply_with_events", loses_taken_cards)
    code = main(
        ["fuzz", "--games", "3", "--quiet", "--max-counterexamples", "1", "--out", str(tmp_path)]
    )
    assert code == 1
    out = capsys.readouterr().out
    assert "COUNTEREXAMPLE cards-conserved game 0" in out and "shrunk to" in out
    [why] = (tmp_path / "counterexamples").glob("*-shrunk.why.json")
    assert main(["fuzz", "reproduce", str(why)]) == 1
    assert capsys.readouterr().out.startswith(f"STILL FAILS {why}: step ")
    monkeypatch.undo()
    assert main(["fuzz", "reproduce", str(why)]) == 0
    assert "every invariant holds" in capsys.readouterr().out


def _engine_command(*arguments: str) -> str:
    import shlex
    import sys

    return " ".join(shlex.quote(part) for part in (sys.executable, *arguments))


def _fuzz_three_players(games: int, out: Path, engine: str, *arguments: str) -> int:
    """``tajmahal fuzz`` over ``games`` quiet 3-player games checked against ``engine``."""
    command = ["fuzz", "--games", str(games), "--players", "3", "--quiet", "--out", str(out)]
    return main([*command, "--engine", engine, *arguments])


def test_the_reference_behind_the_protocol_follows_every_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = _engine_command("-m", "tajmahal.cli", "serve")
    code = _fuzz_three_players(2, tmp_path, engine)
    assert code == 0, capsys.readouterr()
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["games"] == 2
    assert summary["counterexamples"] == []


def test_an_engine_without_the_state_document_is_followed_on_legal_actions_and_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Compared on everything, it fails at the start of the first game (its digests are
    its own); with ``--compare legal,scores`` every game agrees."""
    engine = _engine_command(str(Path(__file__).resolve().parent / "stateless_engine.py"))
    assert _fuzz_three_players(2, tmp_path / "all", engine, "--max-counterexamples", "1") == 1
    assert "COUNTEREXAMPLE engine-state_digest game 0" in capsys.readouterr().out
    code = _fuzz_three_players(2, tmp_path / "some", engine, "--compare", "legal,scores")
    assert code == 0, capsys.readouterr()


def test_a_counterexample_of_an_engine_is_reproduced_with_the_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The engine that gives ties to the first player disagrees within a few games: the
    counterexample is named after what broke and shrunk; ``fuzz reproduce --engine``
    replays it through the engine again: the wrong engine still fails, the reference
    passes. Every
    counterexample's message, the shrunk one's included, leads with the misreading
    that reproduces the engine. (Seed 7: the engine parts in game 1, after 9 steps,
    shrunk to 4; seed 0 finds a 68-step game, twice as long to shrink through it.)"""
    wrong = _engine_command("-m", "tajmahal.cli", "serve", "--misread", "tie-wins")
    code = _fuzz_three_players(6, tmp_path, wrong, "--max-counterexamples", "1", "--seed", "7")
    out = capsys.readouterr().out
    assert code == 1, out
    line = next(line for line in out.splitlines() if line.startswith("COUNTEREXAMPLE"))
    assert line.startswith("COUNTEREXAMPLE engine-state_digest game ") and "shrunk to" in line
    summary = json.loads((tmp_path / "summary.json").read_text())
    lead = "your engine plays as if a withdrawing player wins every force of which they "
    rule = ": TM.WITHDRAW.MAJORITY.STRICT; step "
    for entry in [*summary["counterexamples"], *summary["shrunk"]]:
        assert entry["message"].startswith(lead) and rule in entry["message"], entry
    assert summary["shrunk"] and summary["shrunk"][0]["file"].endswith("-shrunk.json")
    (why,) = sorted((tmp_path / "counterexamples").glob("*-shrunk.why.json"))
    assert main(["fuzz", "reproduce", str(why), "--engine", wrong]) == 1
    reproduced = capsys.readouterr().out
    assert reproduced.startswith(f"STILL FAILS {why}: step "), reproduced
    assert f": engine-state_digest: {lead}" in reproduced and rule in reproduced
    reference = _engine_command("-m", "tajmahal.cli", "serve")
    assert main(["fuzz", "reproduce", str(why), "--engine", reference]) == 0
    assert "the engine agrees at every step" in capsys.readouterr().out


def test_fuzz_help_lists_the_tags(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["fuzz", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert all(tag in text for tag in TAGS)


def test_an_engine_that_cannot_start_is_bad_usage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["fuzz", "--games", "1", "--quiet", "--out", str(tmp_path), "--engine", ""])
    assert code == 2
    assert "--engine" in capsys.readouterr().err
