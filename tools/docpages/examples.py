"""The rulebooks' worked examples, read from ``tests/rules/test_examples.py``.

Apart from the rules pages because they are read from a test module's comments and
syntax tree, and the palace-connection figure is drawn from that module's own board.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from collections import Counter, defaultdict
from types import MappingProxyType

import attrs

import clause_refs
from docpages.common import ROOT, Writer, clause_link, plain
from docpages.index import Index
from docpages.sources import dropdown
from tajmahal.notation._render import board_svg

EXAMPLES = ROOT / "tests" / "rules" / "test_examples.py"
"""The rulebooks' worked examples, reproduced as tests."""


class Example:
    """One worked example of the rulebooks, as reproduced in ``test_examples.py``."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.tests: list[tuple[str, list[str], list[str]]] = []
        """(node id, clause ids, the test's comment lines)."""

    @property
    def clauses(self) -> list[str]:
        return list(dict.fromkeys(c for _, ids, _ in self.tests for c in ids))


def worked_examples() -> list[Example]:
    """The sections of ``test_examples.py`` (``# N. title (source)``) and their tests."""
    source = EXAMPLES.read_text(encoding="utf-8")
    lines = source.splitlines()
    headers: list[tuple[int, str]] = []
    for number, line in enumerate(lines, start=1):
        match = re.match(r"# (\d+)\. (.*)", line)
        if match:
            title = match.group(2)
            following = number
            while following < len(lines) and re.match(r"#\s{3,}\S", lines[following]):
                title += " " + lines[following].lstrip("# ").strip()
                following += 1
            headers.append((number, title))
    examples = [Example(title) for _, title in headers]
    module = ast.parse(source)
    file = EXAMPLES.relative_to(ROOT).as_posix()
    for node in module.body:
        if not isinstance(node, ast.FunctionDef) or not node.name.startswith("test"):
            continue
        section = [i for i, (line, _) in enumerate(headers) if line < node.lineno]
        if not section:
            continue
        ids: list[str] = []
        for decorator in node.decorator_list:
            if (
                isinstance(decorator, ast.Call)
                and isinstance(decorator.func, ast.Attribute)
                and decorator.func.attr == "clause"
            ):
                ids += [
                    a.value
                    for a in decorator.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
        body = lines[node.lineno : (node.end_lineno or node.lineno)]
        comments = [line.strip()[2:] for line in body if line.strip().startswith("# ")]
        examples[section[-1]].tests.append((f"{file}::{node.name}", ids, comments))
    return examples


def example_area(example: Example) -> str:
    areas = Counter(clause_refs.clause_area(c) for c in example.clauses if c.startswith("TM."))
    return areas.most_common(1)[0][0] if areas else "end"


FIGURE_GRID = {
    "D": (0, 2), "E": (1, 2), "F": (2, 2),
    "G": (0, 1), "A": (1, 1), "I": (2, 1),
    "H": (0, 0), "C": (1, 0), "B": (2, 0),
}  # fmt: skip
"""Where each province of the palace-connection figure is drawn: A, the current one, in
the middle, the others where their roads cross least (two crossings; found by trying
every arrangement). Cities 1 to 4 go round a province's corners in the order of its ring."""

FIGURE_COLOURS = {"red": "#c0392b", "blue": "#2471a3", "brown": "#8b5a2b", "grey": "#7f8c8d"}


def palace_figure(writer: Writer) -> str | None:
    """Draw the palace-connection figure from the test's own board and palaces."""
    sys.path.insert(0, str(EXAMPLES.parent))
    try:
        examples = importlib.import_module(EXAMPLES.stem)
    finally:
        sys.path.remove(str(EXAMPLES.parent))
    board = examples.figure_board()
    corners = {"1": (-0.8, 0.8), "2": (0.8, 0.8), "3": (0.8, -0.8), "4": (-0.8, -0.8)}
    cities = {}
    for city_id, city in board.cities.items():
        column, row = FIGURE_GRID[city.province]
        dx, dy = corners[city_id[1:]]
        cities[city_id] = attrs.evolve(city, x=column * 3.2 + dx, y=row * 3.2 + dy)
    drawn = attrs.evolve(board, cities=MappingProxyType(cities))
    houses: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for player, placed in examples.FIGURE_PALACES.items():
        for city_id in sorted(placed):
            houses[city_id].append((FIGURE_COLOURS[player], f"{city_id}: {player}"))
    writer.write("figures/palace-connections.svg", board_svg(drawn, houses))
    return "figures/palace-connections.svg"


def example_section(example: Example, index: Index, figure: str | None) -> list[str]:
    """The example told by its test's comments; tests and clauses folded under Sources."""
    lines = [f"## Worked example: {plain(example.title)}", ""]
    lines += [
        "The rulebook's figure is missing from the texts; the test builds a position that "
        "agrees with every number the example states and checks the outcome step by step.",
        "",
    ]
    if figure is not None:
        lines += [
            "The figure as the test rebuilds it (the small houses are palaces, in the "
            "players' colours; province A is visited; dashed roads join provinces):",
            "",
            f"```{{image}} ../{figure}",
            ":alt: The palace-connection figure",
            ":class: board",
            "```",
            "",
        ]
    sources: list[str] = []
    for node_id, ids, comments in example.tests:
        lines += [f"- {plain(comment)}" for comment in comments]
        known = [c for c in ids if index.known(c, node_id)]
        sources.append(f"- {index.test(node_id, 'worked examples')}")
        if known:
            sources.append("  checks " + ", ".join(clause_link(c) for c in known))
    lines.append("")
    return lines + dropdown(sources)
