"""The annotated rules: one page per clause area and the overview of every clause.

Each clause gets its anchor, statement, citations side by side, status, code, tests and
rulings; the worked examples (:mod:`docpages.examples`) follow on the page of their area.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from docpages.common import Writer, clause_link, locator, one_line, ruling_link
from docpages.examples import Example, example_area, example_section, palace_figure, worked_examples
from docpages.index import Index
from tajmahal.registry import RULEBOOKS
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

STATUS_WORDS = {
    "implemented": "implemented: code names it and a test checks it",
    "ruling": "settled by a ruling",
    "not-modelled": "not modelled",
}


def citations_table(cites: Sequence[dict[str, Any]]) -> list[str]:
    by_book: dict[str, list[str]] = {prefix: [] for prefix in RULEBOOKS}
    for cite in cites:
        by_book.setdefault(cite["file"][:3], []).append(locator(cite))
    header = " | ".join(RULEBOOKS[prefix] for prefix in RULEBOOKS)
    cells = " | ".join("<br>".join(by_book[prefix]) or "(silent)" for prefix in RULEBOOKS)
    return [f"| {header} |", "|" + "---|" * len(RULEBOOKS), f"| {cells} |", ""]


def clause_section(clause: dict[str, Any], index: Index) -> list[str]:
    clause_id = clause["id"]
    where = f"clause {clause_id}"
    lines = [
        f"## {clause_id}",
        "",
        f"```{{clause}} {clause_id}",
        "```",
        "",
        f'<span id="{clause_id}"></span>',
        "",
        f"**{one_line(clause['text'])}**",
        "",
        f"*Status:* {STATUS_WORDS.get(clause['status'], clause['status'])}.",
        "",
    ]
    if clause["reason"]:
        lines += [f"*Why not modelled:* {one_line(clause['reason'])}", ""]
    if clause["cite"]:
        lines += ["*Citations:*", "", *citations_table(clause["cite"])]
    if clause["differs"]:
        lines += [f"*How the rulebooks differ:* {one_line(clause['differs'])}", ""]
    rulings = [r for r in clause["rulings"] if index.known(r, where)]
    if rulings:
        lines.append("*Rulings:*")
        lines.append("")
        for ruling_id in rulings:
            lines.append(
                f"- {ruling_link(ruling_id)}: {one_line(index.rulings[ruling_id]['title'])}"
            )
        lines.append("")
    code = index.code.get(clause_id, [])
    if code:
        links = sorted({index.code_link(reference, where) for reference in code})
        lines += ["*Code:* " + "; ".join(links), ""]
    tests = index.tests.get(clause_id, [])
    if tests:
        lines += ["*Tests:*", ""]
        lines += [f"- {index.test(test, where)}" for test in sorted(tests)]
        lines.append("")
    return lines


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
        counts = Counter(clause["status"] for clause in by_area[area])
        summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        lines = [
            f"# {title}",
            "",
            f"The clauses of area `{area}` ({len(by_area[area])}: {summary}), in the order "
            "of `specs/clauses/" + area + ".toml`. Each heading is the clause's id; the "
            "citations give section, paragraph (¶) and a few identifying words of each "
            "rulebook.",
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
        "# The annotated rules",
        "",
        "Every rule statement of the four rulebooks is a clause with a stable id. The pages "
        "follow the rulebooks' order. Rulebooks: "
        + "; ".join(RULEBOOKS.values())
        + ". `tajmahal rule ID` prints any clause in the terminal.",
        "",
        "| area | clauses |",
        "|---|---|",
    ]
    for area in areas:
        overview.append(f"| [{AREA_TITLES.get(area, area)}]({area}.md) | {len(by_area[area])} |")
    overview += ["", "```{toctree}", ":maxdepth: 1", "", *toc, "```", ""]
    overview += [
        "## Every clause",
        "",
        "Every statement on one page, to find a rule by its words (Ctrl-F).",
        "",
    ]
    for area in areas:
        overview += [f"### {AREA_TITLES.get(area, area)}", ""]
        overview += [
            f"- {clause_link(clause['id'])}: {one_line(clause['text'])}" for clause in by_area[area]
        ]
        overview.append("")
    writer.write("rules/index.md", "\n".join(overview))
