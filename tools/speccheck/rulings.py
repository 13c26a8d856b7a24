"""The rulings registry: ``rulings/*.toml``.

The shape of each file is ``specs/schemas/ruling.schema.json`` (one ``says`` per rulebook,
exactly one option chosen, option tests for a configurable ruling, ...). Checked here: the
id is the file name and unique; the clauses and tests it names exist; its locators are
found in the texts; a configurable ruling's ``option`` is a RuleSet field and its options
are exactly that field's values; some test pins it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from speccheck.common import Findings, is_text, load_toml, rel, str_list, tables
from speccheck.schemas import check_shape
from speccheck.texts import Texts


@dataclass
class Ruling:
    """What the cross-checks need of one ruling."""

    id: str
    file: str
    category: str
    option: str | None
    """The RuleSet field of a configurable ruling."""
    clauses: list[str] = field(default_factory=list)
    says: list[dict[str, Any]] = field(default_factory=list)


def _check_test_ids(
    names: list[str], file: str, where: str, test_ids: set[str], findings: Findings
) -> None:
    for name in names:
        base = name.split("[", 1)[0]
        if base not in test_ids:
            findings.problem(file, where, f"test {name!r} does not exist")


def load_rulings(
    root: Path,
    clause_ids: set[str],
    test_ids: set[str],
    texts: Texts,
    rule_options: dict[str, tuple[str, ...]] | None,
    findings: Findings,
) -> dict[str, Ruling]:
    """The rulings by id (those with a well-formed id)."""
    rulings: dict[str, Ruling] = {}
    folder = root / "rulings"
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
        file = rel(path, root)
        data = load_toml(path, root, findings)
        if data is None:
            continue
        check_shape("ruling", data, file, findings)
        ruling_id = data.get("id")
        if not isinstance(ruling_id, str):
            continue  # reported by the schema
        if ruling_id != path.stem:
            findings.problem(file, "id", f"id {ruling_id!r} differs from the file name")
        if ruling_id in rulings:
            findings.problem(file, "id", f"duplicate ruling id (also in {rulings[ruling_id].file})")
            continue
        named = str_list(data.get("clauses")) or []
        for clause_id in named:
            if clause_id not in clause_ids:
                findings.problem(file, "clauses", f"unknown clause id {clause_id!r}")
        says = tables(data.get("says")) or []
        texts.check_cited(findings, file, "says", says)
        configurable = data.get("configurable") is True
        option_name = data.get("option") if is_text(data.get("option")) else None
        options = tables(data.get("options")) or []
        if configurable and option_name is not None and rule_options is not None:
            if option_name not in rule_options:
                findings.problem(
                    file,
                    "option",
                    f"{option_name!r} is not a RuleSet field "
                    f"(known: {', '.join(sorted(rule_options))})",
                )
            else:
                values = [str(entry.get("value")) for entry in options]
                allowed = rule_options[option_name]
                if sorted(values) != sorted(allowed):
                    findings.problem(
                        file,
                        "options",
                        f"values {values} differ from the allowed values of "
                        f"RuleSet.{option_name}: {list(allowed)}",
                    )
        option_tests: list[str] = []
        for index, entry in enumerate(options):
            names = str_list(entry.get("tests", [])) or []
            _check_test_ids(names, file, f"options[{index}]", test_ids, findings)
            option_tests.extend(names)
        ruling_tests = str_list(data.get("tests", [])) or []
        _check_test_ids(ruling_tests, file, "tests", test_ids, findings)
        if not ruling_tests and not option_tests:
            findings.problem(file, "tests", "ruling has no tests at all")
        rulings[ruling_id] = Ruling(
            ruling_id,
            file,
            str(data.get("category")),
            str(option_name) if configurable and option_name is not None else None,
            named,
            says,
        )
    return rulings
