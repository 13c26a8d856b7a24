"""What ``show``, ``position`` and ``replay`` print about a record that does not verify.

They display the record up to and including the step where it diverges
(:func:`tajmahal.verification.inspect_record`); this module words the rest: the caption
that marks the step, the fields where the record's position differs from the
reference's (side by side), and the ``FAIL`` line with the explanation, on standard
error as ``verify`` prints it, before the command exits 1.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from tajmahal.inputs import escape_controls
from tajmahal.verification import Inspection, headline

COLUMN = 30
"""Width of the field column of the side-by-side table."""
VALUE = 40
"""Widest value printed in the side-by-side table (longer ones are cut)."""


def caption(name: str, inspection: Inspection) -> str:
    """``name, after step N of T``, and for a diverging record which step is marked."""
    total = len(inspection.record.steps)
    text = f"{name}, after step {inspection.shown} of {total}"
    marked = inspection.marked
    if marked is None:
        return text
    if inspection.asked > marked:
        text += f" (asked: after step {inspection.asked}; the record diverges before)"
    if inspection.shown == marked:
        return f"{text}: step {marked} does not verify; the reference's position after it"
    action = inspection.record.steps[marked - 1].action
    return f"{text}: step {marked} ({action}) does not verify; the position it is played from"


def _cell(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= VALUE else text[: VALUE - 3] + "..."


def beside_lines(inspection: Inspection) -> list[str]:
    """Where the record's position after the marked step differs from the reference's
    (shown): a table of fields with both values, or what the record gives instead."""
    explanation = inspection.explanation
    marked = inspection.marked
    if explanation is None or marked is None:
        return []
    if inspection.shown != marked:
        return _legal_beside(inspection)
    rows: list[tuple[str, Any, Any]] = []
    if explanation.scores is not None:
        rows.append(("scores", list(explanation.scores[0]), list(explanation.scores[1])))
    for difference in explanation.differences:
        found = difference.actual if difference.kind != "missing" else "(none)"
        expected = difference.expected if difference.kind != "unexpected" else "(none)"
        rows.append((difference.path, expected, found))
    if explanation.digests is not None and not rows:
        expected, found = explanation.digests
        rows.append(("state_digest", expected, found))
    if not rows:
        return []
    lines = [
        f"The record's position after step {marked}, where it differs from the reference's:",
        f"  {'field':<{COLUMN}} {'the reference':<{VALUE}} the record",
    ]
    lines.extend(
        f"  {path:<{COLUMN}} {_cell(expected):<{VALUE}} {_cell(found)}"
        for path, expected, found in rows
    )
    if explanation.digest_only:
        lines.append(
            "  (the record gives only a digest of its position: its fields cannot be shown)"
        )
    return lines


def marked_lines(inspection: Inspection) -> list[str]:
    """The line that marks the diverging step at the end of ``replay``'s account (after
    the step's own lines when the reference could play it)."""
    marked = inspection.marked
    explanation = inspection.explanation
    if marked is None:
        return []
    what = explanation.summary if explanation is not None else str(inspection.divergence)
    if inspection.shown == marked:
        return [f"{'>>':>4}  step {marked} does not verify: {what}"]
    action = inspection.record.steps[marked - 1].action
    return [f"{marked:>4}  >> the record's {action} does not verify: {what}"]


def _legal_beside(inspection: Inspection) -> list[str]:
    """At the start of the marked step: the seat to move and the legal actions of the
    reference (in the position shown) and of the record."""
    explanation = inspection.explanation
    marked = inspection.marked
    if explanation is None or explanation.legal is None:
        return []
    reference, record = explanation.legal
    rows: list[tuple[str, Any, Any]] = [
        ("step kind", reference.step_kind, record.step_kind or "(not known)"),
        (
            "to move",
            _seat(reference.to_move),
            "(not known)" if record.to_move is None else _seat(record.to_move),
        ),
        ("legal actions", reference.count, "(not known)" if record.count is None else record.count),
    ]
    rows.extend(("missing in the record", text, "") for text in explanation.missing)
    rows.extend(("extra in the record", "", text) for text in explanation.extra)
    return [
        f"At the start of step {marked}, the record against the reference:",
        f"  {'':<{COLUMN}} {'the reference':<{VALUE}} the record",
        *(
            f"  {name:<{COLUMN}} {_cell(expected):<{VALUE}} {_cell(found)}"
            for name, expected, found in rows
        ),
    ]


def _seat(seat: int | None) -> str:
    return "chance" if seat is None else f"P{seat}"


def report(inspection: Inspection) -> None:
    """Print the ``FAIL`` line and the explanation on standard error."""
    divergence = inspection.divergence
    if divergence is None:
        return
    lines = [f"FAIL {headline(divergence, inspection.explanation)}"]
    if inspection.explanation is not None:
        lines.extend(inspection.explanation.lines())
    print("\n".join(escape_controls(line) for line in lines), file=sys.stderr)


__all__ = ["COLUMN", "VALUE", "beside_lines", "caption", "marked_lines", "report"]
