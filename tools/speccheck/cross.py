"""Cross-references between the registries, the code, the tests and the traces.

- every id named by code, a test or a trace is a clause (``TM.``) or a ruling (``RUL.``)
  that exists;
- a clause's rulings exist and name the clause back, and a ruling's clauses name it back;
- an implemented clause is named by code and by a test, and (unless it is a component
  fact, ``TM.COMP.``) by a rulebook paragraph;
- a clause's citations are exactly the paragraphs whose index entry lists it, with the
  index entry's section and words (``tools/sync_citations.py`` writes them);
- every RuleSet field is named by exactly one configurable ruling.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Protocol

from speccheck.clauses import Clause
from speccheck.common import COMPONENT_PREFIX, Findings, as_int
from speccheck.indexes import Index
from speccheck.rulings import Ruling

RULING_ID = re.compile(r"^RUL(\.[A-Z0-9_]+)+$")


class Named(Protocol):
    """One place that names a clause or ruling id: ``file: where`` (the code-marker
    reader's ``Reference``)."""

    @property
    def file(self) -> str: ...

    @property
    def where(self) -> str: ...

    @property
    def clause(self) -> str: ...


def _check_references(
    kind: str,
    references: Sequence[Named],
    clauses: dict[str, Clause],
    rulings: dict[str, Ruling],
    findings: Findings,
) -> None:
    for reference in references:
        if RULING_ID.match(reference.clause):
            if reference.clause not in rulings:
                findings.problem(
                    reference.file,
                    reference.where,
                    f"unknown ruling id {reference.clause!r} ({kind} reference)",
                )
        elif reference.clause not in clauses:
            findings.problem(
                reference.file,
                reference.where,
                f"unknown clause id {reference.clause!r} ({kind} reference)",
            )


def _check_citations(clause: Clause, indexes: dict[str, Index], findings: Findings) -> None:
    """The clause's ``[[clause.cite]]`` tables against the paragraph indexes."""
    cited: set[tuple[str, int]] = set()
    for cite in clause.cites:
        book = str(cite.get("file"))
        n = as_int(cite.get("paragraph"))
        index = indexes.get(book)
        if index is None or n is None:
            continue
        cited.add((book, n))
        entry = index.entries.get(n)
        if entry is None:
            continue
        if clause.id not in entry.clauses:
            findings.problem(
                clause.file,
                clause.id,
                f"cites paragraph {n} of {book}, but {index.file} does not list it "
                "(run tools/sync_citations.py)",
            )
        elif (cite.get("section"), cite.get("words"), cite.get("example") is True) != (
            entry.section,
            entry.words,
            entry.none == "example",
        ):
            findings.problem(
                clause.file,
                clause.id,
                f"citation of paragraph {n} of {book} differs from {index.file} in section, "
                "words or example mark (run tools/sync_citations.py)",
            )
    for book, index in indexes.items():
        for n, ids in sorted(index.listed.items()):
            if clause.id in ids and (book, n) not in cited:
                findings.problem(
                    clause.file,
                    clause.id,
                    f"{index.file} lists it at paragraph {n}, but the clause does not cite it "
                    "(run tools/sync_citations.py)",
                )


def cross_check(
    clauses: dict[str, Clause],
    rulings: dict[str, Ruling],
    indexes: dict[str, Index],
    code: Sequence[Named],
    tests: Sequence[Named],
    traces: Sequence[Named],
    rule_options: dict[str, tuple[str, ...]] | None,
    findings: Findings,
) -> dict[str, int]:
    """Problems between the parts; returns the number of citations of each clause."""
    for kind, references in (("code", code), ("test", tests), ("trace", traces)):
        _check_references(kind, references, clauses, rulings, findings)
    coded = {reference.clause for reference in code}
    tested = {reference.clause for reference in tests}
    citations: Counter[str] = Counter()
    for index in indexes.values():
        for ids in index.listed.values():
            citations.update(set(ids))
    for clause in clauses.values():
        for ruling_id in clause.rulings:
            ruling = rulings.get(ruling_id)
            if ruling is None:
                findings.problem(clause.file, clause.id, f"ruling {ruling_id!r} does not exist")
            elif clause.id not in ruling.clauses:
                findings.problem(
                    clause.file,
                    clause.id,
                    f"lists ruling {ruling_id}, which does not name the clause back",
                )
        if clause.status == "implemented":
            if clause.id not in coded:
                findings.problem(clause.file, clause.id, "implemented clause has no code reference")
            if clause.id not in tested:
                findings.problem(clause.file, clause.id, "implemented clause has no test reference")
            if not citations[clause.id] and not clause.id.startswith(COMPONENT_PREFIX):
                findings.problem(clause.file, clause.id, "no rulebook paragraph states this clause")
        _check_citations(clause, indexes, findings)
    for ruling in rulings.values():
        for clause_id in ruling.clauses:
            named = clauses.get(clause_id)
            if named is not None and ruling.id not in named.rulings:
                findings.problem(
                    ruling.file,
                    "clauses",
                    f"{clause_id} does not list this ruling in its rulings",
                )
    by_option: dict[str, list[str]] = defaultdict(list)
    for ruling in rulings.values():
        if ruling.option is not None:
            by_option[ruling.option].append(ruling.id)
    for option in rule_options or {}:
        if not by_option.get(option):
            findings.problem(
                "reference/tajmahal/rules.py",
                f"RuleSet.{option}",
                "no configurable ruling names this option",
            )
        elif len(by_option[option]) > 1:
            findings.problem(
                "reference/tajmahal/rules.py",
                f"RuleSet.{option}",
                f"named by several rulings: {', '.join(by_option[option])}",
            )
    return dict(citations)
