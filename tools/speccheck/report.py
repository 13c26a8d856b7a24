"""The coverage report printed before the problems: clauses by area and status, rulings by
category, how much of each rulebook the indexes annotate, and the references found."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from speccheck.clauses import Clause
from speccheck.common import CATEGORIES, RULEBOOKS, STATUSES
from speccheck.cross import Named
from speccheck.indexes import Index
from speccheck.rulings import Ruling
from speccheck.texts import Texts


def report(
    clauses: dict[str, Clause],
    rulings: dict[str, Ruling],
    indexes: dict[str, Index],
    texts: Texts,
    code: Sequence[Named],
    tests: Sequence[Named],
    test_ids: set[str],
    traces: Sequence[Named],
    citations: dict[str, int],
    rule_options: dict[str, tuple[str, ...]] | None,
) -> list[str]:
    """The report's lines."""
    lines: list[str] = []
    coded = {reference.clause for reference in code}
    tested = {reference.clause for reference in tests}
    areas = sorted({clause.area for clause in clauses.values()})
    width = max([len("total"), *(len(area) for area in areas)])
    columns = ("impl", "ruling", "not-mod", "total", "code", "tests", "cited")
    lines.append(f"Clauses by area and status ({len(clauses)} clauses)")
    lines.append("  " + "area".ljust(width) + "".join(f" {name:>7}" for name in columns))

    def row(name: str, members: list[Clause]) -> str:
        counts = [sum(1 for c in members if c.status == status) for status in STATUSES]
        counts.append(len(members))
        counts.append(sum(1 for c in members if c.id in coded))
        counts.append(sum(1 for c in members if c.id in tested))
        counts.append(sum(1 for c in members if citations.get(c.id)))
        return "  " + name.ljust(width) + "".join(f" {count:>7}" for count in counts)

    for area in areas:
        lines.append(row(area, [c for c in clauses.values() if c.area == area]))
    lines.append(row("total", list(clauses.values())))
    lines.append("  (code, tests, cited: clauses named by code, a test, a rulebook paragraph)")

    categories = Counter(ruling.category for ruling in rulings.values())
    configurable = sorted(r.option for r in rulings.values() if r.option is not None)
    lines.append(
        f"Rulings: {len(rulings)} ("
        + ", ".join(f"{name} {categories[name]}" for name in CATEGORIES)
        + f"); configurable {len(configurable)}"
        + (f": {', '.join(configurable)}" if configurable else "")
        + (f" (RuleSet has {len(rule_options)} options)" if rule_options is not None else "")
    )
    source = str(texts.folder) if texts.folder is not None else "texts not found"
    lines.append(f"Paragraph indexes (rulebook texts: {source})")
    for book in RULEBOOKS:
        index = indexes.get(book)
        total = texts.count(book)
        total_text = str(total) if total is not None else "?"
        if index is None:
            lines.append(f"  {book}  no index ({total_text} paragraphs)")
            continue
        share = f"{100.0 * index.annotated / total:5.1f}%" if total else "    ?"
        lines.append(
            f"  {book}  {index.annotated:>4}/{total_text:<4} annotated ({share}): "
            f"{index.to_clauses} to clauses, {index.none} none"
            + (
                f" ({', '.join(part for part in marked if part)})"
                if any(
                    marked := (
                        _count(index.summaries, "summary", "summaries"),
                        _count(index.examples, "example", "examples"),
                    )
                )
                else ""
            )
        )
    functions = sum(1 for node in test_ids if node.rsplit("::", 1)[1].startswith("test"))
    lines.append(
        f"References: code {len(code)} to {len(coded)} clauses; "
        f"tests {len(tests)} to {len(tested)} clauses "
        f"({functions} tests found); traces {len(traces)}"
    )
    return lines


def _count(number: int, one: str, many: str) -> str:
    """``number`` with its noun (``2 summaries``), or "" for none."""
    return "" if not number else f"{number} {one if number == 1 else many}"
