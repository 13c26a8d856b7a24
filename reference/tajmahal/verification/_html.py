"""A divergence as one self-contained HTML page: the boards, expected and found, the why.

``tajmahal verify --report html`` and ``tajmahal diff --html`` write it for a reader
who would rather look than read: for each divergence, the board before the step and
after it (the reference's, drawn by :func:`tajmahal.notation.position_svg`, inline), the
values that differ (expected: the reference's; found: the other side's) and the
:class:`~tajmahal.verification.Explanation`'s lines. The page has no script, no
external style sheet, image or font, so it can be attached to a bug report as it is.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

import attrs

from tajmahal.inputs import STDIN
from tajmahal.model import Components, GameState
from tajmahal.notation import position_svg
from tajmahal.records import read_record
from tajmahal.verification._explain import Explanation
from tajmahal.verification._inspect import inspect_record
from tajmahal.verification._report import Outcome, Report

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1rem auto; max-width: 72rem;
  padding: 0 1rem; line-height: 1.4; color: #222; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
.fail { color: #a40000; } .ok { color: #1f6f1f; }
pre { white-space: pre-wrap; background: #f6f6f6; padding: .6rem; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: .5rem 0; }
td, th { border: 1px solid #ccc; padding: .2rem .5rem; text-align: left;
  vertical-align: top; overflow-wrap: anywhere; }
.boards { display: flex; flex-wrap: wrap; gap: 1rem; }
.boards figure { flex: 1 1 24rem; margin: 0; min-width: 0; }
.boards svg { width: 100%; height: auto; border: 1px solid #ddd; }
figcaption { font-weight: bold; margin-bottom: .3rem; }
"""
"""The page's own style: readable at a phone's width, boards side by side when there is
room."""


@attrs.frozen
class HtmlDivergence:
    """One divergence to draw."""

    title: str
    """What diverged (a file, or a game of a diff run)."""
    headline: str
    """The one-line message (``FAIL ...``)."""
    explanation: Explanation | None
    """Why (None: only the headline is known)."""
    before: GameState | None
    """The reference's position the step is played from."""
    after: GameState | None
    """The reference's position after the step (None: the step cannot be played)."""
    names: Sequence[str] | None = None
    """The seats' names, when known."""


def _escape(text: Any) -> str:
    return html.escape(text if isinstance(text, str) else json.dumps(text, ensure_ascii=False))


def _board(state: GameState | None, names: Sequence[str] | None, caption: str) -> str:
    if state is None:
        return ""
    svg = position_svg(state, names, caption)
    if svg.startswith("<?xml"):
        svg = svg.split("?>", 1)[1]
    return f"<figure><figcaption>{_escape(caption)}</figcaption>{svg.strip()}</figure>"


def _values_table(explanation: Explanation) -> str:
    rows: list[tuple[str, Any, Any]] = []
    if explanation.scores is not None:
        rows.append(("scores", list(explanation.scores[0]), list(explanation.scores[1])))
    for difference in explanation.differences:
        expected = "(none)" if difference.kind == "unexpected" else difference.expected
        found = "(none)" if difference.kind == "missing" else difference.actual
        rows.append((difference.path, expected, found))
    if explanation.digests is not None:
        rows.append(("state digest", explanation.digests[0], explanation.digests[1]))
    if explanation.legal is not None:
        reference, other = explanation.legal
        rows.append(("step kind", reference.step_kind, other.step_kind or "(not known)"))
        rows.append(("to move", reference.to_move, other.to_move))
        rows.append(("legal actions", reference.count, other.count))
        if explanation.missing:
            rows.append(("missing", ", ".join(explanation.missing), ""))
        if explanation.extra:
            rows.append(("extra", "", ", ".join(explanation.extra)))
    if not rows:
        return ""
    body = "".join(
        f"<tr><td><code>{_escape(path)}</code></td><td>{_escape(expected)}</td>"
        f"<td>{_escape(found)}</td></tr>"
        for path, expected, found in rows
    )
    return (
        f"<table><tr><th>what</th><th>expected (the reference)</th>"
        f"<th>found ({_escape(explanation.other)})</th></tr>{body}</table>"
    )


def _section(item: HtmlDivergence) -> str:
    explanation = item.explanation
    parts = [f"<h2>{_escape(item.title)}</h2>", f'<p class="fail">{_escape(item.headline)}</p>']
    if explanation is not None:
        number = explanation.step
        if explanation.hypotheses:
            parts.append(
                "<ul>"
                + "".join(
                    f"<li><strong>likely:</strong> {_escape(h.text)}: <code>{_escape(h.rule)}"
                    f"</code></li>"
                    for h in explanation.hypotheses
                )
                + "</ul>"
            )
        boards = _board(item.before, item.names, f"before step {number}")
        if item.after is not None:
            boards += _board(item.after, item.names, f"after step {number} (the reference)")
        if boards:
            parts.append(f'<div class="boards">{boards}</div>')
        parts.append(_values_table(explanation))
        if explanation.rules:
            parts.append(
                "<p>Rules, likeliest first:</p><ol>"
                + "".join(
                    f"<li><code>{_escape(rule.id)}</code>: {_escape(rule.reason)}</li>"
                    for rule in explanation.rules
                )
                + "</ol>"
            )
        parts.append(f"<pre>{_escape(chr(10).join(explanation.lines()))}</pre>")
    return "\n".join(part for part in parts if part)


def divergence_html(divergences: Sequence[HtmlDivergence], title: str, summary: str = "") -> str:
    """The page: a title, a summary line, and one section per divergence."""
    sections = "\n".join(_section(item) for item in divergences)
    if not divergences:
        sections = '<p class="ok">No divergence.</p>'
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_escape(title)}</title><style>{STYLE}</style></head><body>\n"
        f"<h1>{_escape(title)}</h1>\n"
        + (f"<p>{_escape(summary)}</p>\n" if summary else "")
        + sections
        + "\n</body></html>\n"
    )


def report_to_html(report: Report, components: Components) -> str:
    """The page for a verification report: one section per record that diverges, its
    boards drawn from the record read again (a record read from standard input is
    described without boards)."""
    sections = []
    for result in report.files:
        if result.outcome is not Outcome.DIVERGED:
            continue
        explanation = result.explanation
        before = after = None
        names = None
        if explanation is not None and result.path != STDIN:
            record = read_record(result.path)
            names = record.names
            before = inspect_record(record, components, result.path, explanation.step - 1).state
            shown = inspect_record(record, components, result.path, explanation.step)
            after = shown.state if shown.shown == explanation.step else None
        sections.append(
            HtmlDivergence(result.path, f"FAIL {result.message}", explanation, before, after, names)
        )
    return divergence_html(sections, "tajmahal verify: divergences", report.summary())


__all__ = ["STYLE"]
