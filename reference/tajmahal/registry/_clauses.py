"""How code names the clauses of ``specs/clauses`` (and the rulings) it carries out.

A function that implements a rule says so in its docstring, in a paragraph of its own
such as ``Implements: TM.WITHDRAW.MAJORITY.STRICT, RUL.MAJORITY.ZERO_SYMBOLS``.
The paragraph starts with ``Implements:``, lists ids separated by commas (it may wrap over
lines) and ends at a blank line or at the end of the docstring. A docstring rather than a
decorator, because tools that rewrite or inspect functions (mutation testers, coverage,
debuggers) treat decorated functions differently; the marker must change nothing about
the function. ``tools/clause_refs.py`` reads these paragraphs from the syntax tree,
without importing the code, for ``tools/check_specs.py`` and the documentation.
"""

from __future__ import annotations

MARKER = "Implements:"
"""The words that open the paragraph naming a function's clauses."""


def clause_ids(docstring: str | None) -> tuple[str, ...]:
    """The ids named by the ``Implements:`` paragraph of a docstring, in order.

    Returns ``()`` when there is no such paragraph. Leading white space of each line is
    ignored, so both raw and cleaned docstrings (``inspect.cleandoc``) work; empty items
    (a trailing comma) are dropped. The ids are not validated here: the spec checker
    reports ids that name no clause or ruling.
    """
    if not docstring:
        return ()
    collected: list[str] = []
    inside = False
    for line in docstring.splitlines():
        text = line.strip()
        if not inside:
            if text.startswith(MARKER):
                inside = True
                collected.append(text[len(MARKER) :])
            continue
        if not text:
            break
        collected.append(text)
    items = " ".join(collected).split(",")
    return tuple(item.strip() for item in items if item.strip())
