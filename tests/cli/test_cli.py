"""The ``tajmahal`` command line: output, exit codes and one-line errors.

Run in-process through :func:`tajmahal.cli.main`, plus one end-to-end run of
``python -m tajmahal.cli`` in a subprocess. Exit codes: 0 success, 1 a failed check,
2 bad input or usage. No clause markers: these tests check the tool, not a rule.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tajmahal.cli import main
from tajmahal.model import COMPONENT_FILES, default_components
from tajmahal.notation import canonical_json, state_from_json
from tajmahal.records import read_record, replay_steps

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "reference"
DATA = REFERENCE / "tajmahal" / "data"


@pytest.fixture(scope="module")
def trace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A trace written by ``play --players 3 --seed 1`` (shared, never modified)."""
    path = tmp_path_factory.mktemp("cli") / "game.json"
    assert main(["play", "--players", "3", "--seed", "1", "--quiet", "--trace", str(path)]) == 0
    return path


def _document(trace: Path) -> dict[str, Any]:
    document = json.loads(trace.read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    return document


def _write(path: Path, document: dict[str, Any]) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error:"), err
    assert "Traceback" not in err
    return lines[0]


def test_play_prints_every_visit_and_writes_the_trace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "trace.json"
    code = main(["play", "--players", "3", "--seed", "1", "--trace", str(path)])
    out = capsys.readouterr().out
    assert code == 0
    for visit in range(1, 13):
        assert f"== Visit {visit}:" in out
    assert "== Visit 13" not in out
    assert out.index("== Visit 1:") < out.index("== Visit 12:") < out.index("Final scores")
    assert path.exists()
    assert str(path) in out
    record = read_record(path)
    assert record.players == 3
    assert record.seed == 1
    assert record.final_scores is not None


def test_play_is_reproducible(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["play", "--players", "4", "--seed", "5", "--quiet", "--trace", str(first)]) == 0
    assert main(["play", "--players", "4", "--seed", "5", "--quiet", "--trace", str(second)]) == 0
    capsys.readouterr()
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8")


def test_verify_ok(trace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(trace)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("OK")
    assert str(trace) in captured.out
    assert captured.err == ""


def test_replay_ok(trace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(trace)]) == 0
    out = capsys.readouterr().out
    assert "== Visit 12:" in out
    assert "Final scores" in out


ACCOUNT_WORDS = {
    "play": "plays ",
    "withdraw": "withdraws",
    "palace": "places a palace in ",
    "crown": "places the crown palace in ",
    "take": "takes ",
    "reshuffle": "shuffled into a new deck",
}
"""What the first account line of a step says, by its action's kind."""


def test_replay_numbers_every_step_as_show_counts_them(
    trace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Step N of the account is the record's N-th step (``steps[N-1]``, what ``show
    --step N`` shows after), and a step that scored ends with the totals it recorded (a
    step that ended a visit with every seat's score after the visit)."""
    document = _document(trace)
    assert main(["replay", str(trace)]) == 0
    groups: list[list[str]] = []  # each step's lines, its numbered line first
    for line in capsys.readouterr().out.splitlines():
        if line[:4].strip().isdigit():
            groups.append([line])
        elif groups and line.startswith("      "):
            groups[-1].append(line.strip())
    assert [int(group[0][:4]) for group in groups] == list(range(1, len(document["steps"]) + 1))
    previous = [0] * document["players"]
    for group, step in zip(groups, document["steps"], strict=True):
        kind, _, rest = step["action"].partition(" ")
        assert ACCOUNT_WORDS[kind] in group[0], (step["action"], group[0])
        if kind in ("palace", "crown"):
            assert re.search(rf" in {re.escape(rest)}(?![\w-])", group[0]), group[0]
        totals = [line for line in group if line.startswith("scores now ")]
        visit_end = [line for line in group if line.startswith("Scores after visit ")]
        if visit_end:  # the step ended a visit: its totals, by seat, stand for both
            assert totals == [], group
            by_seat = visit_end[0].partition(": ")[2].split(", ")
            assert [int(entry.rsplit(" ", 1)[1]) for entry in by_seat] == step["scores"]
        elif step["scores"] != previous:
            assert totals == ["scores now " + ", ".join(map(str, step["scores"]))], group
        else:
            assert totals == [], group
        previous = step["scores"]


def test_replay_of_a_truncated_record_says_where_it_stops(
    trace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _document(trace)
    document["steps"] = document["steps"][:40]
    stated = _write(tmp_path / "stated.json", document)
    assert main(["verify", str(stated)]) == 1  # its result says the game ended
    assert "states a result but stops in visit" in capsys.readouterr().err
    del document["result"]
    path = _write(tmp_path / "short.json", document)
    assert main(["replay", "--quiet", str(path)]) == 0
    assert "stops in visit" in capsys.readouterr().out
    assert main(["verify", str(path)]) == 0  # a fragment, checked as far as it goes
    assert "a fragment without result: it stops in visit" in capsys.readouterr().out


@pytest.mark.parametrize("players", ["2", "6"])
def test_play_refuses_other_player_counts(players: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["play", "--players", players])
    assert caught.value.code == 2
    assert "--players" in capsys.readouterr().err


def test_verify_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.json"
    assert main(["verify", str(missing)]) == 2
    captured = capsys.readouterr()
    line = _one_error_line(captured.err)
    assert str(missing) in line
    assert captured.out.startswith("1 file: 0 conform, 0 diverge, 1 bad input")


def test_malformed_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "tajmahal-trace",\n "steps": [}\n', encoding="utf-8")
    assert main(["verify", str(path)]) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert str(path) in line
    assert "line 2" in line


def test_illegal_action_in_a_record(
    trace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _document(trace)
    index = next(
        i
        for i, step in enumerate(document["steps"])
        if step["action"].startswith("play ") and i > 3
    )
    document["steps"][index]["action"] = "crown Agra"
    path = _write(tmp_path / "illegal.json", document)
    # The reference forbids what the recording engine allowed: a divergence (exit 1),
    # reported at the step and field.
    for command in ("replay", "verify"):
        assert main([command, str(path)]) == 1
        first = capsys.readouterr().err.splitlines()[0]
        assert first.startswith(
            f"FAIL {path}: step {index + 1}: action: illegal action 'crown Agra'"
        )


def test_float_player_count_is_bad_input(
    trace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _document(trace)
    document["players"] = 3.0
    path = _write(tmp_path / "float.json", document)
    assert main(["verify", str(path)]) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert "players" in line


def test_tampered_final_result_fails(
    trace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _document(trace)
    document["result"]["scores"][0] += 3
    path = _write(tmp_path / "tampered.json", document)
    assert main(["verify", str(path)]) == 1
    captured = capsys.readouterr()
    assert "FAIL" in captured.err
    assert "result.scores" in captured.err
    assert "Traceback" not in captured.err


def test_verify_several_files_reports_each(
    trace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _document(trace)
    document["steps"][10]["scores"][1] += 1
    bad = _write(tmp_path / "bad-score.json", document)
    assert main(["verify", str(trace), str(bad)]) == 1
    captured = capsys.readouterr()
    assert f"OK {trace}" in captured.out
    assert "FAIL" in captured.err and "step 11" in captured.err and "scores" in captured.err


def test_bad_cards_file_in_components_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = json.loads((DATA / "cards.json").read_text(encoding="utf-8"))
    cards["cards"] = cards["cards"][:95]
    (tmp_path / "cards.json").write_text(json.dumps(cards), encoding="utf-8")
    for argv in (
        ["components", "--components", str(tmp_path)],
        ["play", "--players", "3", "--components", str(tmp_path)],
    ):
        assert main(argv) == 2
        line = _one_error_line(capsys.readouterr().err)
        assert "cards.json" in line
        assert "95" in line


def test_components_folder_that_does_not_exist(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["components", "--components", str(tmp_path / "nope")]) == 2
    _one_error_line(capsys.readouterr().err)


def test_components_copied_verbatim_are_accepted(
    trace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in COMPONENT_FILES:
        (tmp_path / name).write_bytes((DATA / name).read_bytes())
    assert main(["verify", "--components", str(tmp_path), str(trace)]) == 0
    assert capsys.readouterr().out.startswith("OK")


def test_components_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["components"]) == 0
    out = capsys.readouterr().out
    assert "49 cities" in out
    assert "12 provinces" in out
    assert "96 regular cards" in out
    assert "4 special cards" in out


def test_rule_option_is_recorded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "all.json"
    argv = [
        "play",
        "--players",
        "4",
        "--seed",
        "3",
        "--quiet",
        "--trace",
        str(path),
        "--rule",
        "majority_scope=all",
        "--rule",
        "already-held-special=keep-tiles",
    ]
    assert main(argv) == 0
    capsys.readouterr()
    ruleset = _document(path)["ruleset"]
    assert ruleset["majority_scope"] == "all"
    assert ruleset["already_held_special"] == "keep-tiles"
    assert ruleset["withdraw_without_playing"] == "extra-card"
    assert main(["verify", str(path)]) == 0


@pytest.mark.parametrize("option", ["nope=1", "majority_scope=most", "majority_scope"])
def test_unknown_rule_option_is_refused(option: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "3", "--rule", option]) == 2
    _one_error_line(capsys.readouterr().err)


def test_unknown_agent_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "3", "--agents", "greedy,oracle"]) == 2
    assert "oracle" in _one_error_line(capsys.readouterr().err)


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main([])
    assert caught.value.code == 2
    capsys.readouterr()


def test_console_script_end_to_end(tmp_path: Path) -> None:
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(REFERENCE), *filter(None, [environment.get("PYTHONPATH")])]
    )

    def run(*arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tajmahal.cli", *arguments],
            capture_output=True,
            text=True,
            env=environment,
            cwd=tmp_path,
            timeout=120,
            check=False,
        )

    played = run("play", "--players", "5", "--seed", "2", "--quiet", "--trace", "game.json")
    assert played.returncode == 0, played.stderr
    assert "Final scores" in played.stdout
    verified = run("verify", "game.json")
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.startswith("OK game.json")
    missing = run("verify", "missing.json")
    assert missing.returncode == 2
    assert missing.stderr.startswith("error:") and "missing.json" in missing.stderr
    assert "Traceback" not in missing.stderr
    document = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    document["result"]["winners"] = [
        seat for seat in range(5) if seat not in document["result"]["winners"]
    ][:1]
    (tmp_path / "tampered.json").write_text(json.dumps(document), encoding="utf-8")
    tampered = run("verify", "tampered.json")
    assert tampered.returncode == 1
    assert "FAIL" in tampered.stderr
    usage = run("play", "--players", "6")
    assert usage.returncode == 2


def test_position_prints_a_state_that_loads_back(capsys: pytest.CaptureFixture[str]) -> None:
    golden = Path(__file__).resolve().parents[2] / "tests" / "data" / "trace-v1-3p-seed11.json"
    assert main(["position", str(golden), "--step", "40", "--compact"]) == 0
    printed = capsys.readouterr().out.strip()
    components = default_components()
    loaded = state_from_json(json.loads(printed), components)
    record = read_record(golden)
    after_40 = next(s.after for s in replay_steps(record, components) if s.index == 39)
    assert loaded == after_40
    assert canonical_json(loaded) == printed


def test_position_step_out_of_range_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    golden = Path(__file__).resolve().parents[2] / "tests" / "data" / "trace-v1-3p-seed11.json"
    assert main(["position", str(golden), "--step", "-1"]) == 2
    assert "--step" in capsys.readouterr().err


def test_help_shows_every_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "how many players (default: 4)" in text
    assert "(default: 0)" in text
    assert "own_palace_beside_own_crown=allowed|forbidden (default forbidden)" in text


def test_verifying_records_that_pass_never_loads_the_conformance_kit() -> None:
    """The conformance kit (diff, serve, perft, the misreadings) is loaded by the commands
    that use it: ``tajmahal verify`` starts without it, and loads it only to explain a
    record that diverges."""
    probe = (
        "import sys\n"
        "from tajmahal.cli import main\n"
        f"code = main(['verify', {str(ROOT / 'specs' / 'traces' / 'seeded-3p-001.json')!r}])\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('tajmahal.conformance'))\n"
        "print(code, loaded)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=True
    )
    assert done.stdout.splitlines()[-1] == "0 []"
