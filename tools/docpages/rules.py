"""The rules clause by clause: one page per clause area and the overview of every clause.

Each clause is a section headed by its statement in plain words, with its anchor (its
id), how the rulebooks differ and the rulings that settle it; its id, status, citations,
code and tests are folded under "Sources" (:mod:`docpages.sources`). The worked
examples (:mod:`docpages.examples`) follow on the page of their area.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from docpages.common import BOOK_NAMES, Writer, plain
from docpages.examples import Example, example_area, example_section, palace_figure, worked_examples
from docpages.figures import rules_figures
from docpages.index import Index
from docpages.ruling_questions import ruling_phrase
from docpages.sources import clause_sources, dropdown, source_links, write_sources
from tajmahal.registry._registry import AREAS

AREA_TITLES = {
    "components": "Components",
    "setup": "Setup",
    "turn": "A turn",
    "play": "Playing cards",
    "withdraw": "Withdrawing",
    "reward": "The rewards of withdrawing",
    "score": "Scoring",
    "visit": "The end of a visit",
    "special": "Special cards",
    "end": "The end of the game",
}
"""Page titles of the clause areas (:data:`tajmahal.registry._registry.AREAS` gives their order)."""

AREA_INTROS = {
    "components": "What is in the box, as far as the rules need it.",
    "setup": "How the board, the tiles and the cards are laid out before the first visit.",
    "turn": "How a visit runs: who plays when, and when it ends.",
    "play": "What a player may put on the table in one turn.",
    "withdraw": "What happens when a player leaves the visit: comparing symbols, winning "
    "forces, discarding and taking cards from the display.",
    "reward": "What each force won brings: influence tiles and palaces, the crown, the "
    "province tile, and the bonus tiles of fortresses.",
    "score": "How a withdrawal scores: bonus tiles, the province tile, then palaces and "
    "their chains.",
    "visit": "What is tidied up between two visits.",
    "special": "How special cards are earned, played and passed on.",
    "end": "How the game ends and who wins.",
}
"""One plain sentence at the top of each area's page."""

LONG_HEADING = 120
"""A statement longer than this is cut for its heading and given whole below it."""


def heading(clause: dict[str, Any], index: Index) -> tuple[str, str | None]:
    """The clause as a plain statement for its heading, and its whole text if cut.

    A clause that only names an open question ("Whether the crown palace may ...") is
    headed by the answer of its ruling.
    """
    text = plain(clause["text"])
    rulings = [r for r in clause["rulings"] if r in index.rulings]
    if text.startswith("Whether") and rulings:
        return plain(index.rulings[rulings[0]]["title"]), None
    if len(text) <= LONG_HEADING:
        return text.rstrip("."), None
    cuts = [text.find(mark) for mark in ("; ", ": ", " (", ", and ")]
    cut = min((at for at in cuts if at >= 30), default=-1)
    if cut < 0:
        return text.rstrip("."), None
    return text[:cut], text


def clause_section(clause: dict[str, Any], index: Index) -> list[str]:
    clause_id = clause["id"]
    where = f"clause {clause_id}"
    title, whole = heading(clause, index)
    lines = [
        f"## {title}",
        "",
        f"```{{clause}} {clause_id}",
        "```",
        "",
        f'<span id="{clause_id}"></span>',
        "",
    ]
    if whole:
        lines += [whole, ""]
    if clause["differs"]:
        lines += [f"How the rulebooks differ: {plain(clause['differs'])}", ""]
    for ruling_id in [r for r in clause["rulings"] if index.known(r, where)]:
        ruling = index.rulings[ruling_id]
        lines += [
            f"Settled by a ruling, {ruling_phrase(ruling)}: {plain(ruling['title'])}.",
            "",
        ]
    return lines + source_links([clause_id], link=False) + dropdown(clause_sources(clause, index))


def clause_phrase(clause: dict[str, Any], index: Index) -> str:
    """A link to the clause, its statement (as in its heading) as the text."""
    title, whole = heading(clause, index)
    text = (whole or title).replace("<", "\\<").replace("`", "'")
    return f"{{clause}}`{text} <{clause['id']}>`"


def rules_pages(writer: Writer, index: Index) -> None:
    by_area: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for clause in index.registry["clauses"]:
        by_area[clause["area"]].append(clause)
    examples: dict[str, list[Example]] = defaultdict(list)
    for example in worked_examples():
        examples[example_area(example)].append(example)
    areas = [area for area in AREAS if area in by_area] + sorted(set(by_area) - set(AREAS))
    toc = []
    for area in areas:
        title = AREA_TITLES.get(area, area.title())
        lines = [
            f"# {title}",
            "",
            AREA_INTROS.get(area, ""),
            "",
            "Each rule is stated once, in the rulebooks' order; where the rulebooks differ or "
            "leave a point open, the ruling that settles it follows. Under *Sources*: the "
            "rule's id, where each rulebook says it, the code and the tests.",
            "",
        ]
        for clause in by_area[area]:
            lines += clause_section(clause, index)
        for example in examples.get(area, []):
            figure = palace_figure(writer) if "figure" in example.title else None
            lines += example_section(example, index, figure)
        writer.write(f"rules/{area}.md", "\n".join(lines))
        toc.append(f"{area}")
    overview = [
        "# The rules, one statement at a time",
        "",
        "Every rule of the four rulebooks ("
        + ", ".join(BOOK_NAMES.values())
        + ") as one short statement, grouped as the rulebooks group them. Where the "
        "rulebooks differ or leave a point open, a ruling settles it. The "
        "{doc}`../../rules/rules` tell the same rules as a story; in a terminal, "
        "`tajmahal rule WORDS` finds a rule by its words.",
        "",
    ]
    overview += ["```{toctree}", ":maxdepth: 1", "", *toc, "```", ""]
    for area in areas:
        overview += [f"## {AREA_TITLES.get(area, area)}", ""]
        overview += [f"- {clause_phrase(clause, index)}" for clause in by_area[area]]
        overview.append("")
    writer.write("rules/index.md", "\n".join(overview))
    write_sources(writer, index)
    rules_figures(writer)
