"""The ``Implements:`` docstring paragraph and its static reader (tools/clause_refs.py)."""

from __future__ import annotations

from pathlib import Path

from clause_refs import AREA_EXCEPTIONS, code_references, misplaced_clauses
from tajmahal.registry._clauses import clause_ids

ROOT = Path(__file__).resolve().parents[2]


def test_clause_ids_reads_one_wrapped_paragraph() -> None:
    docstring = """Do a thing.

    Implements: TM.A.B, TM.C,
        RUL.D.E,

    Implements: TM.LATER is another paragraph and not read.
    """
    assert clause_ids(docstring) == ("TM.A.B", "TM.C", "RUL.D.E")


def test_clause_ids_without_a_paragraph() -> None:
    assert clause_ids(None) == ()
    assert clause_ids("Mentions ``Implements:`` inside a line only.") == ()
    assert clause_ids("Implements:") == ()


def test_the_engine_names_its_clauses_where_the_rulebook_puts_them() -> None:
    references = code_references(ROOT)
    where = {(r.file, r.qualname) for r in references if r.clause == "TM.WITHDRAW.FINAL"}
    assert where == {("reference/tajmahal/engine/_withdraw.py", "withdraw")}
    assert misplaced_clauses(references) == []
    used = {(r.clause, r.file.rsplit("/", 1)[1][:-3].removeprefix("_")) for r in references}
    assert set(AREA_EXCEPTIONS) <= used  # no stale exception
