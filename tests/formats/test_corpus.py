"""The golden corpus (specs/traces): every record verifies, and neither the corpus nor
its coverage shrinks.

``tools/make_corpus.py`` regenerates the corpus deliberately; its manifest
(``specs/traces/index.json``) says what each record exercises. These tests compare the
records against the manifest and the manifest against fixed floors, so a change of
behaviour shows up as a failing record, and a regenerated corpus that lost an edge
case, an option or a clause fails here.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from corpusgen.coverage import registry
from tajmahal.inputs import first_violation
from tajmahal.model import RULE_OPTIONS, RuleSet, default_components
from tajmahal.records import TAGS
from tajmahal.verification import Outcome, verify_paths

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "specs" / "traces"


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_corpus", ROOT / "tools" / "make_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_corpus"] = module
    spec.loader.exec_module(module)
    return module


make_corpus = _load_tool()
MANIFEST: dict[str, Any] = json.loads((CORPUS / "index.json").read_text(encoding="utf-8"))

MIN_TRACES = 100
"""The corpus never holds fewer records."""
MIN_PER_OPTION = 3
"""Every option of every configurable ruling is played in at least this many records."""
MIN_MIXED = 5
"""Records mixing at least two non-default options."""
TAGS_WITHOUT_RECORDS = {"placement-refused"}
"""Edge tags no record reaches yet; the coverage report says why for each."""


SHARDS = 2
"""The corpus is verified in this many parts, so that two test processes share it."""


@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_record_of_the_corpus_verifies(shard: int) -> None:
    files = [CORPUS / trace["file"] for trace in MANIFEST["traces"]][shard::SHARDS]
    report = verify_paths(files, default_components())
    failures = [result.message for result in report.files if result.outcome is not Outcome.OK]
    assert not failures, failures[:3]
    assert len(report.files) == len(files)


def test_manifest_lists_exactly_the_records() -> None:
    files = {path.name for path in CORPUS.glob("*.json")} - {"index.json"}
    listed = {trace["file"] for trace in MANIFEST["traces"]}
    assert files == listed
    assert len({trace["id"] for trace in MANIFEST["traces"]}) == len(listed)
    assert MANIFEST["format"] == make_corpus.MANIFEST_FORMAT


def test_manifest_says_what_each_record_exercises() -> None:
    # Plain JSON: the records' shape and contents are checked by the verify test.
    default = RuleSet().to_json()
    for trace in MANIFEST["traces"]:
        record = json.loads((CORPUS / trace["file"]).read_text(encoding="utf-8"))
        steps = record["steps"]
        assert record["id"] == trace["id"]
        assert record["players"] == trace["players"]
        assert len(steps) == trace["steps"]
        non_default = {
            name: value for name, value in record["ruleset"].items() if value != default[name]
        }
        assert non_default == trace["ruleset"]
        ids = {i for step in steps for i in step["clauses"]}
        assert sorted(i for i in ids if i.startswith("TM.")) == trace["clauses"]
        assert sorted(i for i in ids if i.startswith("RUL.")) == trace["rulings"]
        assert sorted({tag for step in steps for tag in step["tags"]}) == trace["tags"]


def test_corpus_size_does_not_shrink() -> None:
    assert len(MANIFEST["traces"]) >= MIN_TRACES


def test_every_option_is_played_in_several_records() -> None:
    coverage = MANIFEST["coverage"]
    for name, values in RULE_OPTIONS.items():
        for value in values:
            assert coverage["option_records"].get(f"{name}={value}", 0) >= MIN_PER_OPTION, (
                name,
                value,
            )
    assert coverage["mixed_option_traces"] >= MIN_MIXED


def test_every_edge_tag_is_reached_or_explained() -> None:
    coverage = MANIFEST["coverage"]
    reached = set(coverage["tag_records"])
    assert reached | TAGS_WITHOUT_RECORDS >= set(TAGS)
    assert set(coverage["missing_tags"]) <= TAGS_WITHOUT_RECORDS
    assert all(coverage["missing_tags"].values())
    targeted = {
        trace["id"] for trace in MANIFEST["traces"] if trace["origin"] in ("edge", "scenario")
    }
    for tag in reached - TAGS_WITHOUT_RECORDS:
        assert any(tag in t["tags"] for t in MANIFEST["traces"] if t["id"] in targeted), tag


def test_coverage_is_what_the_records_give() -> None:
    """The stored coverage is recomputed from the manifest, and every clause and ruling
    of the registry is either exercised or has a reason in the report."""
    recomputed = make_corpus.coverage(MANIFEST)
    assert recomputed == MANIFEST["coverage"]
    clauses, rulings = registry()
    for clause in clauses:
        assert clause in recomputed["clause_records"] or recomputed["missing_clauses"][clause]
    for ruling in rulings:
        assert ruling in recomputed["ruling_records"] or recomputed["missing_rulings"][ruling]


def test_coverage_report_prints_every_gap() -> None:
    lines = make_corpus.coverage_lines(MANIFEST["coverage"])
    text = "\n".join(lines)
    assert lines[0].startswith(f"corpus: {len(MANIFEST['traces'])} records")
    for tag in MANIFEST["coverage"]["missing_tags"]:
        assert f"tag {tag}:" in text


@pytest.mark.parametrize(
    "entry_id", ["seeded-3p-001", "option-majority-scope-all-3p", "scenario-unplaceable-crown-3p"]
)
def test_records_regenerate_identically(entry_id: str) -> None:
    """A sample of the corpus is regenerated byte for byte (``make corpus-check`` does all)."""
    entries = {
        entry.id: entry
        for entry in (
            *make_corpus.seeded_entries(),
            *make_corpus.option_entries(),
            *make_corpus.scenario_entries(),
        )
    }
    expected = (CORPUS / f"{entry_id}.json").read_text(encoding="utf-8")
    record = entries[entry_id].play(default_components())
    assert make_corpus.dumps_record(record) == expected, (
        f"{entry_id} no longer regenerates identically: review the behaviour change and "
        "run tools/make_corpus.py"
    )


@pytest.mark.parametrize(
    ("tag", "option"),
    [
        ("pairs-collide", "already_held_special"),
        ("withdraw-without-playing", "withdraw_without_playing"),
        ("colour-change-first-turn", "colour_change_first_turn"),
    ],
)
def test_edge_cases_that_an_option_changes_appear_under_each_option(tag: str, option: str) -> None:
    default = RuleSet().to_json()
    for value in RULE_OPTIONS[option]:
        records = [
            trace["id"]
            for trace in MANIFEST["traces"]
            if tag in trace["tags"] and trace["ruleset"].get(option, default[option]) == value
        ]
        assert len(records) >= MIN_PER_OPTION, (tag, option, value)


def test_options_forbidding_a_situation_never_show_it() -> None:
    """Records are consistent with their rule sets: under crown_beside_own_palace =
    forbidden no crown palace joins its owner's palace; under majority_scope = all no tie
    is broken by a withdrawal."""
    for trace in MANIFEST["traces"]:
        if trace["ruleset"].get("crown_beside_own_palace") == "forbidden":
            assert "crown-beside-palace" not in trace["tags"], trace["id"]
        if trace["ruleset"].get("majority_scope") == "all":
            assert "tie-broken" not in trace["tags"], trace["id"]


def test_manifest_conforms_to_its_schema() -> None:
    assert first_violation("trace-index", MANIFEST) is None
