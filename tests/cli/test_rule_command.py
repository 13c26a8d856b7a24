"""``tajmahal rule``: clauses and rulings from the terminal, and the packaged registry.

Expected text is read from the TOML files directly, never from the code under test. No
clause markers: these tests check the tool, not a rule.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tajmahal.cli import main
from tajmahal.registry import _registry as registry

ROOT = Path(__file__).resolve().parents[2]


def _clause(clause_id: str) -> dict[str, Any]:
    for path in (ROOT / "specs" / "clauses").glob("*.toml"):
        for clause in tomllib.loads(path.read_text(encoding="utf-8"))["clause"]:
            if clause["id"] == clause_id:
                assert isinstance(clause, dict)
                return clause
    raise AssertionError(clause_id)


def _ruling(ruling_id: str) -> dict[str, Any]:
    return tomllib.loads((ROOT / "rulings" / f"{ruling_id}.toml").read_text(encoding="utf-8"))


def _rule(capsys: pytest.CaptureFixture[str], *query: str, code: int = 0) -> str:
    assert main(["rule", *query]) == code
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("query", ["TM.REWARD.CROWN.OCCUPIED", "tm.reward.crown.occupied"])
def test_a_clause_by_id(query: str, capsys: pytest.CaptureFixture[str]) -> None:
    clause = _clause("TM.REWARD.CROWN.OCCUPIED")
    out = _rule(capsys, query)
    assert " ".join(clause["text"].split()) in out
    for cite in clause["cite"]:
        assert f'¶{cite["paragraph"]} "{cite["words"]}"' in out
    for ruling_id in clause.get("rulings", []):
        assert f"Ruling {ruling_id}: {_ruling(ruling_id)['title']}" in out


def test_a_configurable_ruling_names_its_flags(capsys: pytest.CaptureFixture[str]) -> None:
    ruling = _ruling("RUL.CROWN.BESIDE_OWN_PALACE")
    out = _rule(capsys, "RUL.CROWN.BESIDE_OWN_PALACE")
    assert " ".join(ruling["question"].split()) in out
    for option in ruling["options"]:
        assert f"--rule crown_beside_own_palace={option['value']}" in out
    for say in ruling["says"]:
        assert " ".join(say["summary"].split()) in out


def test_a_prefix_lists_every_clause_under_it(capsys: pytest.CaptureFixture[str]) -> None:
    out = _rule(capsys, "TM.REWARD.CROWN")
    ids = [
        clause["id"]
        for clause in tomllib.loads(
            (ROOT / "specs" / "clauses" / "reward.toml").read_text(encoding="utf-8")
        )["clause"]
        if clause["id"].startswith("TM.REWARD.CROWN.")
    ]
    assert f"{len(ids)} matches" in out
    assert all(clause_id in out for clause_id in ids)


def test_words_find_a_ruling(capsys: pytest.CaptureFixture[str]) -> None:
    out = _rule(capsys, "tied", "top", "scores")
    assert "RUL.END.TIED_WINNERS" in out


def _named(text: str) -> str:
    """Output with the rulebooks' names taken back to their numbers ("The Giochi Rari
    edition (001)'s example" is "001's example"), as the TOML files write them."""
    return re.sub(r"\b[Tt]he [A-Z][A-Za-z ]+ \((00[0-3])\)", r"\1", text)


def _listed(out: str) -> list[str]:
    """The ids of several matches, in the order printed."""
    return re.findall(r"(?:^|\s)((?:TM|RUL)\.[A-Z0-9_.]+[A-Z0-9])\s+\((?:clause|ruling)\)", out)


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("monk tie", ["RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL", "TM.WITHDRAW.MAJORITY.STRICT"]),
        ("princess tie", ["RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL", "TM.WITHDRAW.MAJORITY.STRICT"]),
        ("draw pile empty", ["RUL.DECK.EXHAUSTED", "TM.VISIT.NEXT.RESHUFFLE"]),
        ("crown next to my own palace", ["RUL.CROWN.BESIDE_OWN_PALACE"]),
        ("can I pass", ["RUL.WITHDRAW.DISPLAY_PICKS"]),
    ],
)
def test_player_words_lead_to_the_answer(
    query: str, first: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rule", *query.split()]) == 0
    out = capsys.readouterr().out
    assert _listed(out)[: len(first)] == first


@pytest.mark.parametrize("query", ["monk tie", "draw pile empty", "crown next to my own palace"])
def test_several_matches_print_whole_statements(
    query: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _named(_rule(capsys, *query.split()))
    listed = _listed(out)
    assert len(listed) > 1
    for rule_id in listed:
        entry = _ruling(rule_id) if rule_id.startswith("RUL.") else _clause(rule_id)
        words = " ".join(str(entry.get("title") or entry["text"]).split())
        assert words.rstrip(".") in out
    for rule_id in listed[:3]:  # the first ones with their answer
        if rule_id.startswith("RUL."):
            assert " ".join(_ruling(rule_id)["resolution"].split()) in out
    assert "..." not in out


def _weaker(out: str) -> list[str]:
    """The ids named on the line of weaker matches, in the order printed."""
    line = out.split("weaker match", 1)[1] if "weaker match" in out else ""
    return re.findall(r"(?:TM|RUL)\.[A-Z0-9_.]+[A-Z0-9]", line)


def test_weak_matches_come_last_named_by_id(capsys: pytest.CaptureFixture[str]) -> None:
    """For "monk tie", a ruling holding "tie" only in its reasoning, and a ruling about the
    order of a rulebook's paragraphs, come after the answers, by id only."""
    no_city = _ruling("RUL.REWARD.NO_LEGAL_CITY")
    assert "tie" not in " ".join(str(no_city[key]) for key in ("title", "question", "resolution"))
    assert "tie" in no_city["reasoning"]
    order = _ruling("RUL.TEXT.WITHDRAWAL_EXAMPLE_ORDER")
    assert order["category"] == "translation"
    assert not re.search(r"\b(monk|tie)", order["title"])
    out = _rule(capsys, "monk", "tie")
    listed, weaker = _listed(out), _weaker(out)
    assert listed == ["RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL", "TM.WITHDRAW.MAJORITY.STRICT"]
    assert {"RUL.REWARD.NO_LEGAL_CITY", "RUL.TEXT.WITHDRAWAL_EXAMPLE_ORDER"} <= set(weaker)
    assert out.index("TM.WITHDRAW.MAJORITY.STRICT") < out.index("weaker match")


def test_a_phrase_is_not_found_in_a_longer_word(capsys: pytest.CaptureFixture[str]) -> None:
    """The words "same city" are also looked for as "beside", never as "besides" (a ruling asks
    what a player draws "besides the display picks")."""
    assert "besides" in _ruling("RUL.WITHDRAW.WITHOUT_PLAYING")["question"]
    out = _rule(capsys, "two", "palaces", "same", "city")
    listed = _listed(out)
    assert listed[0] == "RUL.REWARD.TWO_PALACES_PER_CITY"
    assert "TM.REWARD.TWO_PALACES_PER_CITY" in listed[:3]
    assert "RUL.WITHDRAW.WITHOUT_PLAYING" not in out


def test_a_symbol_finds_the_statement_in_general_terms(
    capsys: pytest.CaptureFixture[str],
) -> None:
    strict = _clause("TM.WITHDRAW.MAJORITY.STRICT")
    assert "monk" not in strict["text"] and "symbol" in strict["text"]
    assert "TM.WITHDRAW.MAJORITY.STRICT" in _listed(_rule(capsys, "monk", "tie"))


def test_the_rulebooks_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    out = _rule(capsys, "RUL.TEXT.WITHDRAWAL_EXAMPLE_ORDER")
    assert "The Giochi Rari edition (001)'s withdrawal example" in out
    assert "The Italian rulebook (000):" in out
    assert not re.search(r"(?<![(\w])00[0-3](?![)\w])", out.split("Clauses:")[0])


def test_words_of_which_none_holds_all_give_the_closest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = _rule(capsys, "crown", "xylophone")
    assert out.startswith("nothing holds every word of 'crown xylophone'")
    assert "RUL.CROWN." in out


def test_nothing_found_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    out = _rule(capsys, "xylophone", code=1)
    assert "no clause or ruling matches" in out


def test_the_packaged_copy_is_up_to_date() -> None:
    packaged = (ROOT / "reference" / "tajmahal" / "data" / "registry.json").read_text("utf-8")
    fresh = registry.dumps_registry(registry.registry_from_sources(ROOT))
    assert packaged == fresh, "run python3 tools/make_registry.py"


def test_without_a_checkout_the_packaged_copy_answers(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from_sources = _rule(capsys, "RUL.END.TIED_WINNERS")
    monkeypatch.setattr(registry, "source_root", lambda: None)
    assert _rule(capsys, "RUL.END.TIED_WINNERS") == from_sources
