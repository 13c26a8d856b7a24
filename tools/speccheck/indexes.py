"""The paragraph indexes: ``specs/paragraphs/<rulebook stem>.toml``.

The shape of each file is ``specs/schemas/paragraphs.schema.json``. Checked here: the
index is named after its rulebook and is the only one; it lists every paragraph of the
text exactly once and none beyond it; its clause ids exist; its words are found in the
paragraphs; a summary repeats only clauses that another paragraph of the text states. A
paragraph of a worked example (``none = "example"``) lists the clauses it illustrates.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from speccheck.common import RULEBOOKS, Findings, as_int, load_toml, ranges, rel, str_list, tables
from speccheck.schemas import check_shape
from speccheck.texts import Texts


@dataclass
class Entry:
    """One paragraph as the index describes it."""

    section: str
    words: str
    clauses: list[str]
    none: str | None


@dataclass
class Index:
    """One rulebook's paragraph index."""

    book: str
    file: str
    total: int | None
    annotated: int = 0
    to_clauses: int = 0
    none: int = 0
    summaries: int = 0
    examples: int = 0
    listed: dict[int, list[str]] = field(default_factory=dict)
    """Paragraph number -> clause ids it lists (summaries included)."""
    entries: dict[int, Entry] = field(default_factory=dict)
    """Paragraph number -> its entry."""


def load_indexes(
    root: Path, clause_ids: set[str], texts: Texts, findings: Findings
) -> dict[str, Index]:
    """The indexes by rulebook file name."""
    indexes: dict[str, Index] = {}
    folder = root / "specs" / "paragraphs"
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
        file = rel(path, root)
        data = load_toml(path, root, findings)
        if data is None:
            continue
        valid = check_shape("paragraphs", data, file, findings)
        if not valid and data.get("file") not in RULEBOOKS:
            continue
        book = str(data.get("file"))
        if path.stem != Path(book).stem:
            findings.problem(file, "file", f"the index of {book} must be named {Path(book).stem}")
        if book in indexes:
            findings.problem(file, "file", f"second index of {book} (also {indexes[book].file})")
            continue
        index = Index(book, file, texts.count(book))
        indexes[book] = index
        numbers: Counter[int] = Counter()
        summaries: dict[int, list[str]] = {}
        for entry in tables(data.get("p", [])) or []:
            n = as_int(entry.get("n"))
            if n is None or n < 1:
                continue  # reported by the schema
            numbers[n] += 1
            if numbers[n] > 1 or (index.total is not None and n > index.total):
                continue  # reported with the numbering below
            where = f"n={n}"
            index.annotated += 1
            texts.check_locator(findings, file, where, book, n, entry.get("words"))
            ids = str_list(entry.get("clauses")) or []
            reason = entry.get("none")
            for clause_id in ids:
                if clause_id not in clause_ids:
                    findings.problem(file, where, f"unknown clause id {clause_id!r}")
            if reason == "summary" and ids:
                summaries[n] = ids
            if ids and reason not in ("summary", "example"):
                index.to_clauses += 1
            elif reason is not None:
                index.none += 1
                index.summaries += reason == "summary"
                index.examples += reason == "example"
            if ids:
                index.listed[n] = ids
            index.entries[n] = Entry(
                str(entry.get("section", "")),
                str(entry.get("words", "")),
                ids,
                str(reason) if isinstance(reason, str) else None,
            )
        repeated = sorted(n for n, count in numbers.items() if count > 1)
        if repeated:
            findings.problem(file, "p", f"paragraphs listed more than once: {ranges(repeated)}")
        last = index.total if index.total is not None else max(numbers, default=0)
        missing = [n for n in range(1, last + 1) if n not in numbers]
        if missing:
            findings.problem(file, "p", f"paragraphs missing: {ranges(missing)}")
        beyond = sorted(n for n in numbers if n > last)
        if beyond:
            findings.problem(
                file, "p", f"paragraphs beyond the last ({last}) of {book}: {ranges(beyond)}"
            )
        stated = {
            clause_id for n, ids in index.listed.items() if n not in summaries for clause_id in ids
        }
        for n, ids in sorted(summaries.items()):
            for clause_id in ids:
                if clause_id in clause_ids and clause_id not in stated:
                    findings.problem(
                        file,
                        f"n={n}",
                        f"summary repeats {clause_id}, which no other paragraph of {book} lists",
                    )
    for book in RULEBOOKS:
        if book not in indexes:
            findings.problem(
                f"specs/paragraphs/{Path(book).stem}.toml", "file", f"missing index of {book}"
            )
    return indexes
