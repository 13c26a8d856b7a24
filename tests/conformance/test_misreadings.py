"""The catalogue of misreadings, and what ``diff`` makes of each entry.

Every entry is an engine that reads one rule otherwise; each must name a known clause
or ruling, cite the rulebooks where they say what leads there (the words found in the
paragraph cited), differ from the reference, and be caught by ``diff`` with its rule
named first, in both comparison modes (with state digests, and with the legal actions
and scores only). The games here are played in this process (``LocalEngine``) with a
small shrinking budget; ``make diff`` (``tools/diff_engines.py``) runs every entry in
both modes with the full budget. No clause markers: these tests check the tool.
"""

from __future__ import annotations

import json
import os
import random
import re
import tomllib
import unicodedata
from pathlib import Path
from typing import Any

import attrs
import pytest

from depth import depth
from tajmahal.cli import main
from tajmahal.conformance import (
    MISREADINGS,
    DiffResult,
    LocalEngine,
    Misreading,
    ReferenceEngine,
    catalogue_tester,
    load_cases,
    reproducing_record,
    run_cases,
    run_diff,
)
from tajmahal.conformance._cases import Rejected
from tajmahal.engine import apply, new_game, random_reshuffle, random_setup
from tajmahal.errors import IllegalActionError
from tajmahal.model import RULE_OPTIONS, GameState, default_components, parse_action
from tajmahal.notation import state_to_json
from tajmahal.records import Record, Recorder, write_record
from tajmahal.registry import load_registry

ROOT = Path(__file__).resolve().parents[2]
COMPONENTS = default_components()
FULL = frozenset({"legal", "state_digest", "scores"})
NO_DIGEST = frozenset({"legal", "scores"})


def _diff(
    name: str,
    compare: frozenset[str],
    *,
    budget: int = 20,
    games: int = 20,
    seconds: float = 20,
) -> DiffResult:
    entry = MISREADINGS[name]
    return run_diff(
        "",
        COMPONENTS,
        games=games,
        rules=dict(entry.rules),
        compare=compare,
        shrink_budget=budget,
        shrink_seconds=seconds,
        engine=LocalEngine(entry.engine, COMPONENTS),
        hypotheses=catalogue_tester(COMPONENTS),
    )


def test_the_catalogue_has_at_least_twenty_entries_each_naming_a_known_rule() -> None:
    registry = load_registry()
    known = {entry["id"] for entry in registry["clauses"]} | {
        entry["id"] for entry in registry["rulings"]
    }
    assert len(MISREADINGS) >= 20
    for name, entry in MISREADINGS.items():
        assert entry.name == name and re.fullmatch(r"[a-z]+(-[a-z]+)*", name), name
        assert entry.rule in known, (name, entry.rule)
        assert entry.does and entry.reading and entry.cites, name
        if entry.option is not None:
            option, value = entry.option
            assert value in RULE_OPTIONS[option], name
        for option, value in entry.rules.items():
            assert value in RULE_OPTIONS[option], name


def _rulebooks() -> Path | None:
    configured = os.environ.get("TAJMAHAL_RULEBOOKS")
    folder = Path(configured) if configured else ROOT.parent / "shared" / "rulebooks"
    return folder if folder.is_dir() else None


def _normal(text: str) -> str:
    quotes = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
    return " ".join(unicodedata.normalize("NFC", text).casefold().translate(quotes).split())


@pytest.mark.parametrize("name", list(MISREADINGS))
def test_each_citation_is_found_in_its_paragraph_under_its_section(name: str) -> None:
    """The words cited occur in the paragraph (the n-th non-blank line of the text), and
    the section is the one the paragraph index gives it."""
    folder = _rulebooks()
    for cite in MISREADINGS[name].cites:
        index = tomllib.loads(
            next((ROOT / "specs" / "paragraphs").glob(f"{cite.book}_*.toml")).read_text("utf-8")
        )
        sections = {entry["n"]: entry["section"] for entry in index["p"]}
        assert sections[cite.paragraph] == cite.section, (name, cite)
        if folder is None:
            continue
        text = next(folder.glob(f"{cite.book}_*.txt")).read_text(encoding="utf-8")
        paragraphs = [line for line in text.splitlines() if line.strip()]
        assert _normal(cite.words) in _normal(paragraphs[cite.paragraph - 1]), (name, cite)


SAMPLE = [
    "tie-wins",
    "zero-wins",
    "compare-withdrawn",
    "no-empty-withdraw",
    "no-extra-card",
    "last-player-must-withdraw",
    "crown-beside-own",
    "palace-point-per-palace",
    "province-before-bonus",
    "anticlockwise",
]
"""Entries caught within a few games and shrunk quickly; ``make diff`` runs them all."""

CAUGHT = [
    pytest.param(
        name,
        compare,
        id=f"{name}-{label}",
        marks=() if index % 2 == mode else pytest.mark.deep,
    )
    for index, name in enumerate(SAMPLE)
    for mode, (compare, label) in enumerate([(FULL, "digests"), (NO_DIGEST, "legal-scores")])
]
"""Each sampled entry in one mode (the two modes taken in turn) under ``make check``, in
both as deep cases."""


@pytest.mark.parametrize(("name", "compare"), CAUGHT)
def test_diff_catches_a_misreading_and_names_its_rule_first(
    name: str, compare: frozenset[str]
) -> None:
    entry = MISREADINGS[name]
    result = _diff(name, compare, budget=depth(8, 20))
    assert result.shrunk is not None and result.failure is None
    divergence = result.shrunk.shortest.divergence
    assert divergence is not None and divergence.field in compare | {"apply"}
    assert result.shrunk.shortest.steps <= result.shrunk.original.steps
    assert result.hypotheses, "a hypothesis reproduces the engine"
    first = result.hypotheses[0]
    assert first.rule == entry.rule
    if entry.option:
        assert first.option == f"{entry.option[0]}={entry.option[1]}"
    else:
        assert first.option is None and f"(misreading {name}," in first.text
    assert first.text.startswith("your engine plays as if")


OPTIONS_CAUGHT_ELSEWHERE = ("majority_scope", "withdraw_without_playing", "already_held_special")
"""Options whose engine is also caught, and found out as playing its value, by a quick
case of another test (``compare-withdrawn`` and ``no-extra-card`` in :data:`SAMPLE`,
``keep-tiles`` as a position case): deep cases here."""


@pytest.mark.parametrize(
    "option",
    [
        pytest.param(option, marks=pytest.mark.deep if option in OPTIONS_CAUGHT_ELSEWHERE else ())
        for option in RULE_OPTIONS
    ],
)
def test_an_engine_playing_another_option_is_detected_as_that_option(option: str) -> None:
    """For each configurable ruling, the catalogue's engine that hard-codes an option
    value is found out as playing that value (the first game found, not shrunk)."""
    entry = next(m for m in MISREADINGS.values() if m.option and m.option[0] == option)
    result = _diff(entry.name, FULL, budget=0, games=30)
    assert result.hypotheses and entry.option is not None, entry.name
    assert result.hypotheses[0].option == f"{entry.option[0]}={entry.option[1]}"
    ruling = next(r for r in load_registry()["rulings"] if r["option"] == option)
    assert result.hypotheses[0].rule == ruling["id"]


def test_a_disagreement_becomes_a_one_step_position_case(tmp_path: Path) -> None:
    """Loaded at the step where the engines parted, the engine shows the disagreement
    again; the case matches the schema, the reference passes it, the engine fails it."""
    result = _diff("tie-wins", NO_DIGEST)
    case = result.case
    assert case is not None and case.document is not None and result.shrunk is not None, case
    assert case.step is not None and case.step <= result.shrunk.shortest.steps
    (tmp_path / "case.json").write_text(json.dumps(case.document), encoding="utf-8")
    files = load_cases([tmp_path / "case.json"])
    (only,) = files[0].cases
    assert only["id"].startswith("TM.WITHDRAW.MAJORITY.STRICT/")
    assert only["tests"][0]["action"] == "withdraw"
    assert "tie" in only["tags"] and only["tests"][0]["expect"]["after"]
    assert not run_cases(files, ReferenceEngine()).failures
    (failure,) = run_cases(files, _Misread(entry=MISREADINGS["tie-wins"])).failures
    assert failure.case == only["id"]


@pytest.mark.parametrize(
    "name",
    ["reshuffle-between-visits", pytest.param("no-last-exchange", marks=pytest.mark.deep)],
)
def test_a_disagreement_at_the_end_of_the_game_shrinks_to_one_step_from_a_late_position(
    name: str,
) -> None:
    """Compared on the legal actions and scores, these misreadings show only in the
    final scoring of a whole game (well over a hundred steps). Given the position before
    the last step, the engine disagrees in that one step: the shortest game starts
    there, and its last step is the position case. (Ten games of shrinking reach it.)"""
    entry = MISREADINGS[name]
    # Bounded by the budget of games alone.
    result = _diff(name, NO_DIGEST, budget=depth(10, 20), seconds=600)
    assert result.shrunk is not None and result.case is not None
    shortest = result.shrunk.shortest
    divergence = shortest.divergence
    assert divergence is not None and divergence.field == "scores"
    assert shortest.length == 1 and shortest.start == shortest.steps - 1
    assert shortest.start >= 100 and divergence.step == shortest.steps
    assert result.shrunk.setup_steps >= 100
    assert result.case.step == shortest.steps
    assert result.hypotheses and result.hypotheses[0].rule == entry.rule
    # The engine, given that position, scores the last step otherwise than the reference.
    state = new_game(COMPONENTS, shortest.plan.players, shortest.setup, shortest.plan.rules)
    for action in shortest.actions[:-1]:
        state = apply(state, action)
    engine = LocalEngine(entry.engine, COMPONENTS)
    engine.start()
    assert engine.request({"op": "new", "state": state_to_json(state)})["ok"]
    answer = engine.request({"op": "apply", "action": str(shortest.actions[-1])})
    assert answer["ok"] and answer["scores"] != list(apply(state, shortest.actions[-1]).scores)


def test_a_position_case_comes_out_when_the_engines_part_long_before_it_shows(
    tmp_path: Path,
) -> None:
    """An engine that keeps the influence tiles of a special card it already holds
    differs, without state digests, only in legal actions many steps later (more than
    the 16 steps a game shrunk from the setup is searched back). Shrunk from a position,
    the game starts before the parting step, and the case is that step: the reference
    passes it, the engine fails it. (Twenty games of shrinking reach it.)"""
    result = _diff("keep-tiles", NO_DIGEST, budget=depth(20, 60), seconds=600)
    assert result.shrunk is not None and result.case is not None
    shortest = result.shrunk.shortest
    divergence = shortest.divergence
    assert divergence is not None and divergence.field == "legal"
    case = result.case
    assert case.document is not None and case.step is not None, case.note
    assert shortest.start < case.step and divergence.step - case.step > 16
    (tmp_path / "case.json").write_text(json.dumps(case.document), encoding="utf-8")
    files = load_cases([tmp_path / "case.json"])
    (only,) = files[0].cases
    assert only["id"].startswith("RUL.SPECIAL.ALREADY_HELD/")
    assert not run_cases(files, ReferenceEngine()).failures
    (failure,) = run_cases(files, _Misread(entry=MISREADINGS["keep-tiles"])).failures
    assert failure.case == only["id"]


@attrs.frozen
class _Misread(ReferenceEngine):
    """A catalogue entry behind the position cases' runner."""

    entry: Misreading = attrs.field(kw_only=True)

    def legal_actions(self, position: Any) -> tuple[str, ...]:
        return tuple(str(action) for action in self.entry.legal_actions(position))

    def apply(self, position: Any, action: str) -> GameState:
        try:
            return self.entry.apply(position, parse_action(action))
        except IllegalActionError as error:
            raise Rejected(error.clause, str(error)) from None


def _recorded_by(entry: Misreading) -> Record:
    """A whole game played and recorded by the entry's engine (its legal actions, scores
    and state digests as it computes them)."""
    setup = random_setup(COMPONENTS, 3, 11)
    state = new_game(COMPONENTS, 3, setup)
    recorder = Recorder(COMPONENTS, 3, setup, state.config.rules)
    rng = random.Random(5)
    while not state.is_over:
        legal = () if state.is_chance else entry.legal_actions(state)
        action = random_reshuffle(state, rng) if state.is_chance else rng.choice(legal)
        after = entry.apply(state, action)
        recorder.add(state, action, after, events=(), legal=legal or None)
        state = after
    return recorder.record(state)


@pytest.mark.parametrize("name", ["no-extra-card", "tie-wins", "anticlockwise"])
def test_a_record_written_by_a_misreading_engine_is_explained_by_it(name: str) -> None:
    """The reference does not replay the engine's whole game, the entry (or its option)
    does, and it is named first."""
    entry = MISREADINGS[name]
    found = reproducing_record(_recorded_by(entry), COMPONENTS)
    assert found, name
    assert found[0].rule == entry.rule
    assert found[0].name == (f"{entry.option[0]}={entry.option[1]}" if entry.option else name)


@pytest.mark.parametrize("name", ["tie-wins", "no-extra-card"])
def test_verify_names_the_misreading_first(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tajmahal verify`` on a record the entry's engine wrote: the first line of the
    explanation says which reading reproduces it, and the JSON report carries it."""
    entry = MISREADINGS[name]
    path, report = tmp_path / "game.json", tmp_path / "report.json"
    record = _recorded_by(entry)  # as another engine writes it: no clauses, no tags
    steps = tuple(attrs.evolve(step, clauses=(), tags=None) for step in record.steps)
    write_record(attrs.evolve(record, steps=steps), path)
    arguments = ["verify", str(path), "--report", "json", "--output", str(report)]
    assert main(arguments) == 1
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("FAIL "), lines
    likely = next(line for line in lines if line.startswith("  ") and "trace:" not in line)
    assert likely.startswith("  likely: your engine plays as if "), lines
    assert likely.endswith(f": {entry.rule}") or f": {entry.rule} (" in likely, likely
    (only,) = json.loads(report.read_text(encoding="utf-8"))["files"]
    assert only["explanation"]["hypotheses"][0]["rule"] == entry.rule


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("tie-wins", "TM.WITHDRAW.MAJORITY.STRICT"),
        ("zero-wins", "RUL.MAJORITY.ZERO_SYMBOLS"),
        ("compare-withdrawn", "RUL.MAJORITY.REMAINING_PLAYERS"),
    ],
)
def test_when_only_digests_differ_the_misread_rule_is_ranked_first(
    name: str, rule: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record carries state digests, not state documents: ``verify`` knows only that
    the position after a withdrawal differs. The rule the reproducing misreading
    concerns heads the ranked rules (not the withdrawal's own clauses, such as
    TM.WITHDRAW.ONCE_PER_VISIT), in the text and in the JSON report."""
    path, report = tmp_path / "game.json", tmp_path / "report.json"
    record = _recorded_by(MISREADINGS[name])
    steps = tuple(attrs.evolve(step, clauses=(), tags=None, legal=None) for step in record.steps)
    write_record(attrs.evolve(record, steps=steps), path)
    arguments = ["verify", str(path), "--report", "json", "--output", str(report)]
    assert main(arguments) == 1
    lines = capsys.readouterr().err.splitlines()
    assert any(line.startswith("  state digest after step ") for line in lines), lines
    heading = lines.index("  rules, likeliest first:")
    assert lines[heading + 1].startswith(f"    {rule}: "), lines[heading:]
    (only,) = json.loads(report.read_text(encoding="utf-8"))["files"]
    explanation = only["explanation"]
    assert explanation["differences"] == [] and explanation["digests"]
    assert explanation["rules"][0]["id"] == rule
    assert "TM.WITHDRAW.ONCE_PER_VISIT" not in [ranked["id"] for ranked in explanation["rules"]]
