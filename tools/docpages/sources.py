"""The sources of a rule or an answer: small links after the text, details folded away.

A player reads the statement; whoever wants to check it opens "Sources": the clause or
ruling id, where each rulebook says it, the code that implements it and the tests that
check it. The rules and rulings pages write these blocks directly; hand-written pages
(the questions page) use the ``sources`` directive of ``docs/conf.py``, which reads the
same lines from ``sources.json`` written here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from docpages.common import BOOK_NAMES, Writer, book, id_link, locator, plain
from docpages.index import Index

STATUS_WORDS = {
    "implemented": "implemented: the code names it and a test checks it",
    "ruling": "settled by a ruling",
    "not-modelled": "not modelled: it has no effect on play",
}

SOURCES_FILE = "sources.json"
"""Where the lines of every clause's and ruling's sources go, for the directive."""


def citations(cites: Sequence[dict[str, Any]]) -> list[str]:
    """Where each rulebook says it, one line per rulebook (silent ones too)."""
    by_book: dict[str, list[str]] = {prefix: [] for prefix in BOOK_NAMES}
    for cite in cites:
        by_book.setdefault(cite["file"][:3], []).append(locator(cite) or "(no locator)")
    return [
        f"  - {book(prefix)}: {'; '.join(found) if found else 'silent'}"
        for prefix, found in by_book.items()
    ]


def _code_and_tests(any_id: str, index: Index, where: str) -> list[str]:
    lines = []
    code = index.code.get(any_id, [])
    if code:
        links = sorted({index.code_link(reference, where) for reference in code})
        lines.append("- Code: " + "; ".join(links))
    tests = index.tests.get(any_id, [])
    if tests:
        lines.append("- Tests:")
        lines += [f"  - {index.test(test, where)}" for test in sorted(tests)]
    return lines


def clause_sources(clause: dict[str, Any], index: Index) -> list[str]:
    """The folded details of one clause."""
    where = f"clause {clause['id']}"
    status = STATUS_WORDS.get(clause["status"], clause["status"])
    lines = [f"- Clause {id_link(clause['id'])} ({status})."]
    if clause["reason"]:
        lines.append(f"- Why not modelled: {plain(clause['reason'])}")
    lines += ["- Where the rulebooks say it:", *citations(clause["cite"])]
    return lines + _code_and_tests(clause["id"], index, where)


def ruling_sources(ruling: dict[str, Any], index: Index) -> list[str]:
    """The folded details of one ruling."""
    where = f"ruling {ruling['id']}"
    option = f"; option `{ruling['option']}`" if ruling["configurable"] else ""
    lines = [f"- Ruling {id_link(ruling['id'])} ({ruling['category']}{option})."]
    clauses = [c for c in ruling["clauses"] if index.known(c, where)]
    if clauses:
        lines.append("- Clauses: " + ", ".join(id_link(c) for c in clauses))
    return lines + _code_and_tests(ruling["id"], index, where)


def sources_of(any_id: str, index: Index) -> list[str]:
    if any_id in index.clauses:
        return clause_sources(index.clauses[any_id], index)
    return ruling_sources(index.rulings[any_id], index)


def dropdown(lines: Iterable[str], title: str = "Sources") -> list[str]:
    """A collapsed block (sphinx-design's dropdown) around MyST lines."""
    return [
        f"::::{{dropdown}} {title}",
        ":class-container: sources",
        "",
        *lines,
        "::::",
        "",
    ]


def source_links(ids: Iterable[str], link: bool = True) -> list[str]:
    """The ids, small, after the text: links, or plain ids on the clause's own section."""
    shown = (id_link(i) if link else f"`{i}`" for i in ids)
    return [":::{container} sources", " · ".join(shown), ":::", ""]


def sources_block(ids: Sequence[str], index: Index, where: str) -> list[str]:
    """Small links to ``ids`` and, folded, the sources of each."""
    known = [i for i in ids if index.known(i, where)]
    if not known:
        return []
    body: list[str] = []
    for any_id in known:
        body += sources_of(any_id, index)
    return source_links(known) + dropdown(body)


def write_sources(writer: Writer, index: Index) -> None:
    """Every clause's and ruling's folded details, for the ``sources`` directive."""
    every = {i: sources_of(i, index) for i in [*index.clauses, *index.rulings]}
    writer.write(SOURCES_FILE, json.dumps(every, indent=1, ensure_ascii=False) + "\n")
