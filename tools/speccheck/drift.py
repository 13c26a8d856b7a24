"""Drift a machine can catch between what the registries say and what they record.

Problems (the data contradicts itself):

- a ruling of category ``disagreement`` needs at least two texts that speak to the
  question (``says`` entries without ``silent = true``), since texts can only disagree if
  they speak; a ``translation`` ruling needs at least one.

Review items (pointed at for a reader; they do not fail the check):

- ``uncited``: a clause that some rulebook cites but another does not, while its
  ``differs`` line does not name that other text (so nobody has said how it treats the
  clause);
- ``silent-but-cited``: a ``differs`` line that calls a text silent on the clause
  ("003 is silent", "000 does not mention it") although that text's index cites it;
- ``lead-in``: a short paragraph (at most :data:`LEAD_IN_WORDS` words) that ends with a
  colon, the shape of a sentence announcing a list, cites a clause that the next
  paragraph (the list's first item) cites too: the lead-in may be cited for what only
  its list states (if so, mark it ``none = "lead-in"``).
"""

from __future__ import annotations

import re

from speccheck.clauses import Clause
from speccheck.common import COMPONENT_PREFIX, RULEBOOKS, Findings, book_code
from speccheck.indexes import Index
from speccheck.rulings import Ruling
from speccheck.texts import Texts

LEAD_IN_WORDS = 20
"""Longer paragraphs ending with a colon state something of their own before it."""

SPEAKERS_NEEDED = {"disagreement": 2, "translation": 1}
"""Texts that must speak to a ruling's question, by category."""

CODES = r"\d{3}(?:(?:,| and| or)\s+\d{3})*"
SILENT = re.compile(
    rf"(?P<codes>{CODES})\s+(?:is|are)\s+silent\b(?!\s+on)"
    rf"|(?P<codes2>{CODES})\s+(?:does|do)\s+not\s+(?:mention|state|say)\s+it\b"
)
"""Where a ``differs`` line says texts are silent on the clause itself ("003 is silent",
"000 and 003 do not mention it"; not "003 is silent on ties", which is about a detail)."""


def speakers(ruling: Ruling) -> list[str]:
    """The rulebooks whose ``says`` entry speaks to the ruling's question."""
    return [str(entry.get("file")) for entry in ruling.says if entry.get("silent") is not True]


def check_categories(rulings: dict[str, Ruling], findings: Findings) -> None:
    """A category that the ``says`` entries contradict is a problem."""
    for ruling in rulings.values():
        needed = SPEAKERS_NEEDED.get(ruling.category)
        if needed is None:
            continue
        speaking = speakers(ruling)
        if len(speaking) < needed:
            who = ", ".join(book_code(book) for book in speaking) or "none"
            findings.problem(
                ruling.file,
                "category",
                f"a {ruling.category} ruling needs at least {needed} texts that speak to the "
                f"question; texts not marked silent: {who}",
            )


def _silent_codes(differs: str) -> set[str]:
    codes: set[str] = set()
    for match in SILENT.finditer(differs):
        found = match.group("codes") or match.group("codes2") or ""
        codes.update(re.findall(r"\d{3}", found))
    return codes


def review_clauses(
    clauses: dict[str, Clause], indexes: dict[str, Index], findings: Findings
) -> None:
    """Clauses whose citations and ``differs`` line are out of step."""
    cited_by: dict[str, set[str]] = {}
    for book, index in indexes.items():
        for ids in index.listed.values():
            for clause_id in ids:
                cited_by.setdefault(clause_id, set()).add(book_code(book))
    codes = [book_code(book) for book in RULEBOOKS if book in indexes]
    for clause in clauses.values():
        citing = cited_by.get(clause.id, set())
        if not citing or clause.id.startswith(COMPONENT_PREFIX):
            continue
        differs = clause.differs or ""
        named = set(re.findall(r"\b\d{3}\b", differs))
        missing = [code for code in codes if code not in citing and code not in named]
        if missing:
            findings.review(
                clause.file,
                clause.id,
                f"uncited: not cited by {', '.join(missing)}, and differs does not say how "
                f"{'it treats' if len(missing) == 1 else 'they treat'} the clause",
            )
        contradicted = sorted(_silent_codes(differs) & citing)
        if contradicted:
            findings.review(
                clause.file,
                clause.id,
                f"silent-but-cited: differs calls {', '.join(contradicted)} silent, "
                "but the index cites it there",
            )


def review_lead_ins(
    clauses: dict[str, Clause], indexes: dict[str, Index], texts: Texts, findings: Findings
) -> None:
    """Lead-in paragraphs (ending with a colon) cited for what the list after them says."""
    for book, index in indexes.items():
        for n, ids in sorted(index.listed.items()):
            text = texts.paragraph(book, n)
            if text is None or not text.rstrip().endswith(":"):
                continue
            if len(text.split()) > LEAD_IN_WORDS:
                continue
            following = set(index.listed.get(n + 1, ()))
            for clause_id in ids:
                clause = clauses.get(clause_id)
                if clause is not None and clause_id in following:
                    findings.review(
                        clause.file,
                        clause_id,
                        f"lead-in: paragraph {n} of {book_code(book)} ends with a colon and "
                        f"cites it, as does paragraph {n + 1}: is the rule stated before the "
                        "colon, or only in the list?",
                    )


def check_drift(
    clauses: dict[str, Clause],
    rulings: dict[str, Ruling],
    indexes: dict[str, Index],
    texts: Texts,
    findings: Findings,
) -> None:
    """Every drift check: problems for contradictions, review items for the rest."""
    check_categories(rulings, findings)
    review_clauses(clauses, indexes, findings)
    review_lead_ins(clauses, indexes, texts, findings)
