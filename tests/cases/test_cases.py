"""The position cases in specs/cases: up to date, valid, passed by the engine, and the
runner's failures name case, test, clause and cause."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from tajmahal.conformance import ReferenceEngine, load_cases, run_cases
from tajmahal.conformance._cases import CaseFile, CaseFileError, Rejected
from tajmahal.model import DEFAULT_RULES, RULE_OPTIONS

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "specs" / "cases"
RULINGS = {
    "majority_scope": "RUL.MAJORITY.REMAINING_PLAYERS",
    "colour_change_first_turn": "RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN",
    "withdraw_without_playing": "RUL.WITHDRAW.WITHOUT_PLAYING",
    "crown_beside_own_palace": "RUL.CROWN.BESIDE_OWN_PALACE",
    "own_palace_beside_own_crown": "RUL.CROWN.OWN_PALACE_BESIDE_CROWN",
    "already_held_special": "RUL.SPECIAL.ALREADY_HELD",
}


@pytest.fixture(scope="module")
def files() -> list[CaseFile]:
    return load_cases([CASES])


def all_cases(files: Iterable[CaseFile]) -> list[dict[str, Any]]:
    return [case for file in files for case in file.cases]


def test_the_case_files_are_regenerated_from_their_declarations() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "make_cases.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_at_least_150_cases_with_unique_ids(files: list[CaseFile]) -> None:
    ids = [case["id"] for case in all_cases(files)]
    assert len(ids) >= 150
    assert len(set(ids)) == len(ids)


def test_the_reference_engine_passes_every_case(files: list[CaseFile]) -> None:
    report = run_cases(files, ReferenceEngine())
    assert [str(f) for f in report.failures] == []
    assert report.cases == len(all_cases(files)) and report.tests > report.cases


def test_every_option_of_every_configurable_ruling_has_a_case(files: list[CaseFile]) -> None:
    defaults = DEFAULT_RULES.to_json()
    seen = set()
    for case in all_cases(files):
        for name, ruling in RULINGS.items():
            if ruling in case["rulings"]:
                seen.add((name, case["ruleset"].get(name, defaults[name])))
    assert seen == {(name, value) for name, values in RULE_OPTIONS.items() for value in values}


def test_cases_on_reconstructed_components_are_tagged_and_can_be_skipped(
    files: list[CaseFile],
) -> None:
    cases = all_cases(files)
    tagged = [c for c in cases if "reconstructed-components" in c["tags"]]
    assert tagged and len(tagged) < len(cases)
    for case in cases:
        resting = any(r.startswith("RUL.COMPONENTS.") for r in case["rulings"])
        assert resting == (case in tagged)
    report = run_cases(files, ReferenceEngine(), skip=["RUL.COMPONENTS."])
    assert len(report.skipped) == len(tagged)
    assert report.cases == len(cases) - len(tagged)


class ForbidsCrownBesideOwnPalace(ReferenceEngine):
    """A plausible misreading: the crown palace never joins its owner's palace."""

    def legal_actions(self, position: Any) -> tuple[str, ...]:
        owned = {p.city for p in position.palaces if p.seat == position.to_move}
        return tuple(
            a
            for a in super().legal_actions(position)
            if not (a.startswith("crown ") and a.split()[1] in owned)
        )

    def apply(self, position: Any, action: str) -> Any:
        if action.startswith("crown ") and action not in self.legal_actions(position):
            raise Rejected("RUL.CROWN.BESIDE_OWN_PALACE")
        return super().apply(position, action)


class AcceptsEverything(ReferenceEngine):
    """An engine that never refuses: an illegal action leaves the position unchanged."""

    def apply(self, position: Any, action: str) -> Any:
        try:
            return super().apply(position, action)
        except Rejected:
            return position


class NoPlusTwo(ReferenceEngine):
    """An engine whose +2 card scores nothing."""

    def to_json(self, position: Any) -> dict[str, Any]:
        document = super().to_json(position)
        for seat in document["seats"]:
            if "special-plus-two" in seat["played"]:
                seat["score"] -= 2
        return document


def failures_of(files: list[CaseFile], engine: Any) -> list[str]:
    return [str(f) for f in run_cases(files, engine).failures]


def test_a_crown_misreading_is_caught_naming_the_ruling(files: list[CaseFile]) -> None:
    found = failures_of(files, ForbidsCrownBesideOwnPalace())
    assert any(
        "RUL.CROWN.BESIDE_OWN_PALACE/option-allowed" in f
        and "forbids moves these clauses allow" in f
        and "RUL.CROWN.BESIDE_OWN_PALACE" in f
        for f in found
    )


def test_an_over_permissive_engine_is_caught_naming_the_clause(files: list[CaseFile]) -> None:
    found = failures_of(files, AcceptsEverything())
    assert any(
        f.startswith("TM.PLAY.NEVER_ALONE/white-alone: a white card alone [play white-01]")
        and "accepted" in f
        and "allows a move this clause forbids (TM.PLAY.NEVER_ALONE)" in f
        for f in found
    )


def test_a_scoring_error_is_caught_with_the_score_change(files: list[CaseFile]) -> None:
    found = failures_of(files, NoPlusTwo())
    assert any(
        "TM.SPECIAL.PLUS_TWO/scores-at-once" in f and "score change [2, 0, 0]" in f for f in found
    )


def test_a_wrong_clause_for_a_refusal_is_reported(files: list[CaseFile]) -> None:
    class WrongReason(ReferenceEngine):
        def apply(self, position: Any, action: str) -> Any:
            try:
                return super().apply(position, action)
            except Rejected as refusal:
                raise Rejected("TM.TURN.CHOICE", str(refusal)) from None

    found = failures_of(files, WrongReason())
    assert any("refused by TM.PLAY.NEVER_ALONE, got refused by TM.TURN.CHOICE" in f for f in found)


def test_a_malformed_case_file_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "tajmahal-cases", "version": 1}', encoding="utf-8")
    with pytest.raises(CaseFileError, match=r"bad\.json: \(root\): missing field 'area'"):
        load_cases([bad])
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(CaseFileError, match=r"bad\.json: not a readable JSON file"):
        load_cases([bad])


def _first_legal_test(files: list[CaseFile]) -> Mapping[str, Any]:
    return next(t for c in all_cases(files) for t in c["tests"] if t["expect"].get("legal"))


def test_legal_expectations_carry_a_score_change_and_digest(files: list[CaseFile]) -> None:
    expect = _first_legal_test(files)["expect"]
    assert expect["state_digest"].startswith("sha256:") and len(expect["state_digest"]) == 71


def test_every_id_named_by_a_case_is_in_the_registry(files: list[CaseFile]) -> None:
    import tomllib

    known = {
        clause["id"]
        for path in (ROOT / "specs" / "clauses").glob("*.toml")
        for clause in tomllib.loads(path.read_text(encoding="utf-8"))["clause"]
    }
    known |= {path.stem for path in (ROOT / "rulings").glob("RUL.*.toml")}
    named = set()
    for case in all_cases(files):
        named |= {case["id"].split("/")[0], *case["clauses"], *case["rulings"]}
        named |= {t["expect"]["clause"] for t in case["tests"] if "clause" in t["expect"]}
    assert sorted(named - known) == []


def test_a_wrong_hand_worked_value_stops_the_export() -> None:
    from casekit import CaseMismatch, actions, case, export, ok, refused
    from positions import table

    wrong_score = case("TM.SPECIAL.PLUS_TWO/x", "x", table(), ok("withdraw", "x", (1, 0, 0, 0)))
    with pytest.raises(CaseMismatch, match=r"score change \(0, 0, 0, 0\), expected"):
        export(wrong_score)
    wrong_legality = case("TM.PLAY.NEVER_ALONE/x", "x", table(), refused("withdraw", "TM.X", "x"))
    with pytest.raises(CaseMismatch, match="withdraw accepted, expected refused"):
        export(wrong_legality)
    wrong_clause = case(
        "TM.PLAY.NEVER_ALONE/x", "x", table(), refused("play white-06", "TM.TURN.CHOICE", "x")
    )
    with pytest.raises(CaseMismatch, match=r"refused by TM\.PLAY"):
        export(wrong_clause)
    wrong_list = case("TM.TURN.CHOICE/x", "x", table(), actions({"withdraw"}, "x"))
    with pytest.raises(CaseMismatch, match="legal actions differ"):
        export(wrong_list)


def test_the_module_runs_the_cases_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tajmahal.conformance import main

    assert main([str(CASES / "special.json")]) == 0
    assert capsys.readouterr().out.endswith("7 cases, 7 tests, 0 failed, 0 cases skipped\n")
    bad = tmp_path / "bad.json"
    bad.write_text("[]", encoding="utf-8")
    assert main([str(bad)]) == 2
    assert "bad.json: (root): expected object, found []" in capsys.readouterr().err


def test_every_edge_tag_appears_in_some_case(files: list[CaseFile]) -> None:
    from tajmahal.records import TAGS

    seen = {tag for case in all_cases(files) for tag in case["tags"]}
    assert [tag for tag in TAGS if tag not in seen] == []
