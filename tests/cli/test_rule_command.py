"""``tajmahal rule``: clauses and rulings from the terminal, and the packaged registry.

Expected text is read from the TOML files directly, never from the code under test. No
clause markers: these tests check the tool, not a rule.
"""

from __future__ import annotations

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
