"""Generate the documentation's pages from the registry, the rulings, the components,
a golden trace and the command-line parser.

``python3 tools/make_docs.py [OUT]`` writes MyST pages and SVG pictures into
``docs/_generated/`` (or ``OUT``); ``docs/conf.py`` runs it at the start of every Sphinx
build, so ``make docs`` is enough. A file is rewritten only when its text changes (Sphinx
then re-reads only what changed), and files no longer generated are removed.

Every id a page links to is checked here before Sphinx runs: a clause or ruling id that
is not in the registry, a test id that pytest would not collect, a code object that does
not import, an option flag that ``tajmahal.rules.RULE_OPTIONS`` does not know. Any of
them stops the build with one line per problem (exit 1). Sphinx (``-W``, ``nitpicky``)
then fails on any link the pages make that does not resolve.

Pages (all under ``_generated/``):

- ``rules/<area>.md``: the annotated rules, one page per clause area in the rulebooks'
  order; each clause a ``clause`` target named by its id, with statement, citations side
  by side, differences, status, code, tests, rulings, and the worked examples of
  ``tests/rules/test_examples.py`` on the page of their clauses;
- ``rulings/<id>.md`` and ``rulings/index.md``: one page per ruling, the index by
  category and the rule-set options with their ``--rule`` flags;
- ``components.md`` and ``board.svg``: every card, tile and city with its provenance;
- ``walkthrough.md`` and ``walkthrough/visit-NN.svg``: a golden game visit by visit;
- ``cli.md``: every subcommand from :func:`tajmahal.cli.build_parser`;
- ``schemas.md``: every JSON Schema under ``specs/``;
- ``registry-formats.md``: the READMEs of ``specs/`` and ``rulings/``, included;
- ``api/<module>.md``: one autodoc page per public module of the package.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import os
import pkgutil
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

import attrs

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "reference"), str(ROOT / "tools")]

import clause_refs  # noqa: E402
from tajmahal import cli, rules  # noqa: E402
from tajmahal.account import event_lines, opening_lines  # noqa: E402
from tajmahal.components import Components, default_components  # noqa: E402
from tajmahal.events import EventKind  # noqa: E402
from tajmahal.registry import AREAS, RULEBOOKS, Registry, registry_from_sources  # noqa: E402
from tajmahal.render import board_svg, bonus_label, position_svg  # noqa: E402
from tajmahal.trace import initial_state, read_record, replay_steps  # noqa: E402

OUT = ROOT / "docs" / "_generated"
"""Where the pages go (ignored by git: they are rebuilt from the sources)."""

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
"""Page titles of the clause areas (:data:`tajmahal.registry.AREAS` gives their order)."""

STATUS_WORDS = {
    "implemented": "implemented: code names it and a test checks it",
    "ruling": "settled by a ruling",
    "not-modelled": "not modelled",
}

WALKTHROUGH_TRACES = ("seeded-4p-001.json", "golden-4p-seed2000.json", "full-3p.json")
"""The golden records the walkthrough prefers, first found in ``specs/traces/`` wins."""

EXAMPLES = ROOT / "tests" / "rules" / "test_examples.py"
"""The rulebooks' worked examples, reproduced as tests."""

CATEGORY_WORDS = {
    "gap": "Gaps: all four texts are silent",
    "disagreement": "Disagreements between the texts",
    "translation": "Translations that read differently",
    "reconstruction": "Component reconstructions",
}


class Problems:
    """Broken references found while generating; any of them fails the build."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, where: str, message: str) -> None:
        self.lines.append(f"{where}: {message}")


class Writer:
    """Writes the pages, touching only the files whose text changed."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.written: set[Path] = set()
        self.changed = 0

    def write(self, name: str, text: str) -> None:
        path = self.out / name
        self.written.add(path)
        if path.exists() and path.read_text(encoding="utf-8") == text:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)
        self.changed += 1

    def prune(self) -> int:
        removed = 0
        for path in sorted(self.out.rglob("*"), reverse=True):
            if path.is_file() and path not in self.written:
                path.unlink()
                removed += 1
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
        return removed


# -- links -------------------------------------------------------------------------------


def one_line(text: str) -> str:
    """Text on one line (TOML strings wrap), with MyST's table separator escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def clause_link(clause_id: str) -> str:
    return f"{{clause}}`{clause_id}`"


def ruling_link(ruling_id: str) -> str:
    return f"{{ruling}}`{ruling_id}`"


def id_link(any_id: str) -> str:
    return ruling_link(any_id) if any_id.startswith("RUL.") else clause_link(any_id)


def book(file: str) -> str:
    return RULEBOOKS.get(file[:3], file)


def locator(cite: dict[str, Any]) -> str:
    paragraph = f" ¶{cite['paragraph']}" if cite.get("paragraph") is not None else ""
    words = f" «{cite['words']}»" if cite.get("words") else ""
    return one_line(f"{cite.get('section', '')}{paragraph}{words}")


class Index:
    """Everything a page may link to, and the checks that each link exists."""

    def __init__(self, registry: Registry, problems: Problems) -> None:
        self.registry = registry
        self.problems = problems
        self.clauses = {clause["id"]: clause for clause in registry["clauses"]}
        self.rulings = {ruling["id"]: ruling for ruling in registry["rulings"]}
        self.code: dict[str, list[clause_refs.CodeReference]] = defaultdict(list)
        for reference in clause_refs.code_references(ROOT):
            self.code[reference.clause].append(reference)
        scanned = clause_refs.test_references(ROOT)
        self.test_ids = {node_id for node_id in scanned.node_ids}
        self.tests: dict[str, list[str]] = defaultdict(list)
        for test in scanned.references:
            node = f"{test.file}::{test.where}"
            if node not in self.tests[test.clause]:
                self.tests[test.clause].append(node)
        for ruling in registry["rulings"]:
            for test in ruling["tests"]:
                if ruling["id"] not in self.tests or test not in self.tests[ruling["id"]]:
                    self.tests[ruling["id"]].append(test)

    def known(self, any_id: str, where: str) -> bool:
        if any_id in self.clauses or any_id in self.rulings:
            return True
        self.problems.add(where, f"unknown clause or ruling {any_id}")
        return False

    def test(self, node_id: str, where: str) -> str:
        base = node_id.split("[", 1)[0]
        if base not in self.test_ids:
            self.problems.add(where, f"unknown test {node_id}")
        return f"`{node_id}`"

    def code_link(self, reference: clause_refs.CodeReference, where: str) -> str:
        """A link to the API page of the object, checked by importing it."""
        if not reference.file.startswith("reference/"):
            return f"`{reference.file}` `{reference.qualname}`"
        module_name = reference.file.removeprefix("reference/").removesuffix(".py")
        module_name = module_name.replace("/", ".").removesuffix(".__init__")
        try:
            target: Any = importlib.import_module(module_name)
            if reference.qualname != "<module>":
                for part in reference.qualname.split("."):
                    target = getattr(target, part)
        except (ImportError, AttributeError) as error:
            self.problems.add(where, f"code object {module_name}:{reference.qualname}: {error}")
            return f"`{module_name}.{reference.qualname}`"
        if reference.qualname == "<module>":
            return f"{{py:mod}}`{module_name}`"
        if any(part.startswith("_") for part in module_name.split(".")):
            return (
                f"`{module_name}.{reference.qualname}` (`{reference.file}`, line {reference.line})"
            )
        if any(part.startswith("_") for part in reference.qualname.split(".")):
            return f"{{py:mod}}`{module_name}` (`{reference.qualname}`, line {reference.line})"
        role = "py:class" if isinstance(target, type) else "py:obj"
        return f"{{{role}}}`{module_name}.{reference.qualname}`"


# -- the annotated rules -----------------------------------------------------------------


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
    lines = [f"## Worked example: {one_line(example.title)}", ""]
    lines += [
        "The figure is missing from the texts; the test builds a position that agrees with "
        "every number the example states and checks the outcome step by step.",
        "",
    ]
    if figure is not None:
        lines += [
            "The figure as the test rebuilds it (houses are palaces, in the players' "
            "colours; province A is visited; dashed roads join provinces):",
            "",
            f"```{{image}} ../{figure}",
            ":alt: The palace-connection figure",
            ":class: board",
            "```",
            "",
        ]
    for node_id, ids, comments in example.tests:
        lines.append(f"- {index.test(node_id, 'worked examples')}")
        for comment in comments:
            lines.append(f"  - {one_line(comment)}")
        known = [c for c in ids if index.known(c, node_id)]
        if known:
            lines.append("  - checks " + ", ".join(clause_link(c) for c in known))
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


# -- rulings -----------------------------------------------------------------------------


def flag(option: str, value: str) -> str:
    return f"`--rule {option}={value}`"


def ruling_page(ruling: dict[str, Any], index: Index) -> str:
    where = f"ruling {ruling['id']}"
    lines = [
        f"# {ruling['id']}",
        "",
        f"```{{ruling}} {ruling['id']}",
        "```",
        "",
        f'<span id="{ruling["id"]}"></span>',
        "",
        f"**{one_line(ruling['title'])}**",
        "",
        f"*Category:* {ruling['category']}."
        + (
            f" *Configurable:* rule-set option `{ruling['option']}`."
            if ruling["configurable"]
            else ""
        ),
        "",
        "## Question",
        "",
        one_line(ruling["question"]),
        "",
        "## What each text says",
        "",
        "| rulebook | where | what it says |",
        "|---|---|---|",
    ]
    for say in ruling["says"]:
        lines.append(
            f"| {book(say['file'])} | {locator(say) or '-'} | {one_line(say['summary'])} |"
        )
    lines += [
        "",
        "## Options",
        "",
        "| option | chosen | description | tests |",
        "|---|---|---|---|",
    ]
    for option in ruling["options"]:
        value = (
            flag(ruling["option"], option["value"]) if ruling["configurable"] else option["value"]
        )
        if ruling["configurable"] and option["value"] not in rules.RULE_OPTIONS.get(
            ruling["option"], ()
        ):
            index.problems.add(where, f"option {option['value']} not in RULE_OPTIONS")
        tests = "<br>".join(index.test(t, where) for t in option["tests"])
        chosen = "**default**" if option["chosen"] else ""
        lines.append(f"| {value} | {chosen} | {one_line(option['description'])} | {tests} |")
    lines += ["", "## Resolution", "", one_line(ruling["resolution"]), ""]
    lines += ["## Reasoning", "", one_line(ruling["reasoning"]), ""]
    if ruling["tests"]:
        lines += ["## Tests", ""] + [f"- {index.test(t, where)}" for t in ruling["tests"]] + [""]
    known = [c for c in ruling["clauses"] if index.known(c, where)]
    lines += ["## Clauses", ""] + [
        f"- {clause_link(c)}: {one_line(index.clauses[c]['text'])}"
        if c in index.clauses
        else f"- {ruling_link(c)}"
        for c in known
    ]
    code = index.code.get(ruling["id"], [])
    if code:
        links = sorted({index.code_link(reference, where) for reference in code})
        lines += ["", "## Code", "", "; ".join(links)]
    return "\n".join(lines) + "\n"


def rulings_pages(writer: Writer, index: Index) -> None:
    rulings = index.registry["rulings"]
    for ruling in rulings:
        writer.write(f"rulings/{ruling['id']}.md", ruling_page(ruling, index))
    lines = [
        "# The rulings registry",
        "",
        f"{len(rulings)} rulings settle what the rulebooks leave open or disagree on. Each "
        "page gives the question, what each rulebook says, the options, the resolution "
        "and its reasoning, and the tests that pin it. `tajmahal rule RUL.…` prints one "
        "in the terminal.",
        "",
        "## Rule-set options",
        "",
        "Where reasonable tables settle a point differently, the ruling is an option of "
        "{py:class}`tajmahal.rules.RuleSet`; every game record names the rule set it was "
        "played under. Choose one with `tajmahal play --rule NAME=VALUE` (repeatable).",
        "",
        "| option | ruling | values (flag) | default |",
        "|---|---|---|---|",
    ]
    by_option = {r["option"]: r for r in rulings if r["configurable"]}
    for name, values in rules.RULE_OPTIONS.items():
        configurable = by_option.get(name)
        if configurable is None:
            index.problems.add("rulings", f"option {name} has no configurable ruling")
            continue
        default = next((o["value"] for o in configurable["options"] if o["chosen"]), "")
        flags = "<br>".join(flag(name, value) for value in values)
        lines.append(f"| `{name}` | {ruling_link(configurable['id'])} | {flags} | `{default}` |")
    lines.append("")
    by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for ruling in rulings:
        by_category[ruling["category"]].append(ruling)
    for category in sorted(
        by_category, key=lambda c: (list(CATEGORY_WORDS).index(c) if c in CATEGORY_WORDS else 9, c)
    ):
        lines += [f"## {CATEGORY_WORDS.get(category, category)}", ""]
        for ruling in by_category[category]:
            lines.append(f"- {ruling_link(ruling['id'])}: {one_line(ruling['title'])}")
        lines.append("")
    lines += ["```{toctree}", ":hidden:", "", *[r["id"] for r in rulings], "```", ""]
    writer.write("rulings/index.md", "\n".join(lines))


# -- components --------------------------------------------------------------------------


def card_provenance(card_id: str, colour: str) -> str:
    number = int(card_id.rsplit("-", 1)[1])
    if colour == "white":
        return "secondary source, " + ruling_link("RUL.COMPONENTS.WHITE_CARDS")
    if number <= 4:
        return "reconstruction, " + ruling_link("RUL.COMPONENTS.TWO_CHARACTER_CARDS")
    if number == 21:
        return "reconstruction, " + ruling_link("RUL.COMPONENTS.TWENTY_FIRST_CARD")
    return "secondary source (one rules translation)"


SPECIAL_PROVENANCE = {
    "elephant": "rulebooks",
    "plus-two": "secondary source, " + ruling_link("RUL.COMPONENTS.SPECIAL_EARNERS"),
    "mogul": "reconstruction, " + ruling_link("RUL.COMPONENTS.SPECIAL_EARNERS"),
    "colour-change": "reconstruction, " + ruling_link("RUL.COMPONENTS.SPECIAL_EARNERS"),
}


def components_page(writer: Writer, components: Components) -> None:
    board = components.board
    writer.write("board.svg", board_svg(board))
    lines = [
        "# The components",
        "",
        "The rulebooks do not print the board, every card's symbols or the mix of bonus "
        "tiles. Each fact below says where it comes from: **rulebooks** (stated in the "
        "texts), **secondary source** (one published translation or review), or "
        "**reconstruction** (no source found; chosen to agree with every confirmed fact "
        "and written up as a ruling). Own the game? Supply the real data with "
        "`--components DIR` (same format as `reference/tajmahal/data/`).",
        "",
        f"Component set `{components.name}`, digest `{components.digest}`.",
        "",
        "## The board",
        "",
        f"{len(board.provinces)} provinces, {len(board.cities)} cities, "
        f"{len(board.fortresses)} fortresses (squares; Agra in red), {len(board.roads)} roads "
        "(dashed between provinces). Counts and Agra: rulebooks. Which cities are "
        "fortresses: reconstruction, "
        + ruling_link("RUL.COMPONENTS.FORTRESSES")
        + "; roads and layout: reconstruction, "
        + ruling_link("RUL.COMPONENTS.BOARD")
        + ".",
        "",
        "```{image} board.svg",
        ":alt: The board: provinces, cities, fortresses and roads",
        ":class: board",
        "```",
        "",
        "| province | cities (# fortress) | neighbouring provinces |",
        "|---|---|---|",
    ]
    neighbours: dict[str, set[str]] = defaultdict(set)
    for road in board.roads:
        a, b = sorted(road)
        pa, pb = board.cities[a].province, board.cities[b].province
        if pa != pb:
            neighbours[pa].add(pb)
            neighbours[pb].add(pa)
    for province in sorted(board.provinces.values(), key=lambda p: p.id):
        cities = ", ".join(
            f"{board.cities[c].name or c}{'#' if board.cities[c].fortress else ''}"
            for c in province.cities
        )
        lines.append(f"| {province.id} | {cities} | {', '.join(sorted(neighbours[province.id]))} |")
    lines += [
        "",
        "## Cards",
        "",
        f"{len(components.cards)} regular cards: 21 of each of four colours and 12 white "
        "(rulebooks). Symbols per card:",
        "",
        "| card | colour | symbols | provenance |",
        "|---|---|---|---|",
    ]
    for card in components.cards.values():
        symbols = " + ".join(symbol.value for symbol in card.symbols)
        provenance = card_provenance(card.id, card.colour.value)
        lines.append(f"| `{card.id}` | {card.colour.value} | {symbols} | {provenance} |")
    lines += [
        "",
        "## Special cards",
        "",
        "| card | effect | earned with two influence tiles of | provenance |",
        "|---|---|---|---|",
    ]
    for special in components.specials.values():
        lines.append(
            f"| `{special.id}` | {special.kind.value} | {special.earned_by.value} | "
            f"{SPECIAL_PROVENANCE.get(special.kind.value, 'reconstruction')} |"
        )
    lines += [
        "",
        "## Province tiles",
        "",
        "Tile 1 shows one good, the others two (rulebooks); the goods of each tile: "
        "secondary source, " + ruling_link("RUL.COMPONENTS.PROVINCE_TILES") + ".",
        "",
        "| tile | number | goods |",
        "|---|---|---|",
    ]
    for tile in components.province_tiles.values():
        goods = ", ".join(good.value for good in tile.goods)
        lines.append(f"| `{tile.id}` | {tile.number} | {goods} |")
    lines += [
        "",
        "## Bonus tiles",
        "",
        "The Taj Mahal tile (4 points, on Agra) and 15 square tiles of three kinds: rulebooks. "
        "How many of each kind: reconstruction, " + ruling_link("RUL.COMPONENTS.BONUS_MIX") + ".",
        "",
        "| tile | kind | gives |",
        "|---|---|---|",
    ]
    for bonus in components.bonus_tiles.values():
        lines.append(f"| `{bonus.id}` | {bonus.kind.value} | {bonus_label(components, bonus.id)} |")
    lines.append("")
    writer.write("components.md", "\n".join(lines))


# -- the walkthrough ---------------------------------------------------------------------


def walkthrough_trace() -> Path:
    folder = ROOT / "specs" / "traces"
    for name in WALKTHROUGH_TRACES:
        if (folder / name).is_file():
            return folder / name
    return sorted(folder.glob("*.json"))[0]


POINT_COLUMNS = {
    "palaces": "palaces",
    "province-tile": "province tile",
    "bonus-points": "bonus points",
    "bonus-good": "bonus goods",
    "plus-two": "+2 card",
    "hand": "hand",
}
"""The sources of points (:class:`tajmahal.events.PointSource`) as table columns."""


def points_table(
    points: Counter[tuple[int, str]], scores: Sequence[int], names: Sequence[str] | None
) -> list[str]:
    """Points scored in one visit by player and source, and the scores after it."""
    sources = [source for source in POINT_COLUMNS if any(s == source for _, s in points)]
    header = ["player", *(POINT_COLUMNS[s] for s in sources), "this visit", "score"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for seat, score in enumerate(scores):
        row = [points.get((seat, source), 0) for source in sources]
        label = f"P{seat} ({names[seat]})" if names and seat < len(names) else f"P{seat}"
        cells = [label, *(str(n) if n else "" for n in row), str(sum(row)), str(score)]
        lines.append("| " + " | ".join(cells) + " |")
    return [*lines, ""]


def walkthrough_page(writer: Writer, index: Index, components: Components) -> None:
    path = walkthrough_trace()
    record = read_record(path)
    names = record.names
    relative = path.relative_to(ROOT).as_posix()
    state = initial_state(record, components, relative)
    lines = [
        "# A game, visit by visit",
        "",
        f"The golden record `{relative}` ({record.players} players, "
        f"{len(record.steps)} steps), replayed by the reference engine. For each visit: what "
        "happened, from the engine's events (the same text as `tajmahal replay`), and the "
        "clauses and rulings that decided each event; the points of the visit by source; "
        "then the board after the visit "
        "(`tajmahal show " + relative + " --step N`). Palaces are houses in the seat's "
        "colour, the crown palace outlined in gold; the current province is outlined in red.",
        "",
        "Rule set: " + ", ".join(f"`{k}={v}`" for k, v in record.rules.to_json().items()) + ".",
        "",
    ]
    description = getattr(record, "description", None)
    if description:
        lines[2:2] = [f"*The record's description:* {one_line(str(description))}.", ""]
    visit_number = 1
    header = opening_lines(state, names)[-1].strip("\n= ")
    visit_lines: list[str] = ["## Visit 1", "", header + ".", ""]
    points: Counter[tuple[int, str]] = Counter()

    def close_visit(after: Any, step: int) -> None:
        nonlocal visit_lines
        if not visit_lines:
            return
        picture = f"walkthrough/visit-{visit_number:02d}.svg"
        caption = f"After visit {visit_number} (step {step})"
        if not after.is_over:
            caption += f"; next: province {after.current_province}"
        writer.write(picture, position_svg(after, names, caption))
        lines.extend(visit_lines)
        lines.extend(["", *points_table(points, after.scores, names)])
        points.clear()
        lines.extend(
            [
                f"```{{image}} {picture}",
                f":alt: {caption}",
                ":class: board",
                "```",
                "",
            ]
        )
        visit_lines = []

    previous = state
    for replayed in replay_steps(record, components, relative):
        for event in replayed.events:
            if event.kind is EventKind.VISIT:
                close_visit(replayed.after, replayed.index + 1)
                visit_number = event.counts[0] if event.counts else visit_number + 1
                header = event_lines([event], names, replayed.after)[0].strip("\n= ")
                visit_lines = [f"## Visit {visit_number}", "", header + ".", ""]
                continue
            if event.points and event.seat is not None:
                points[(event.seat, str(event.source or "bonus-card"))] += event.points
            texts = event_lines([event], names, replayed.after)
            if not texts:
                continue
            why = [c for c in event.clauses if index.known(c, f"{relative} step {replayed.index}")]
            because = " — " + ", ".join(id_link(c) for c in why) if why else ""
            visit_lines.append(f"- {one_line(texts[0].strip())}{because}")
        previous = replayed.after
    close_visit(previous, len(record.steps))
    final = previous
    winners = " and ".join(f"P{seat}" for seat in final.winners())
    lines += ["## The result", "", f"Final scores {list(final.scores)}; winner(s): {winners}.", ""]
    writer.write("walkthrough.md", "\n".join(lines))


# -- command line and API ----------------------------------------------------------------


def cli_page(writer: Writer) -> None:
    # argparse wraps help to the terminal's width: fix it so the page is the same anywhere.
    width = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"
    try:
        _cli_page(writer)
    finally:
        if width is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = width


def _cli_page(writer: Writer) -> None:
    parser = cli.build_parser()
    lines = [
        "# The command line",
        "",
        "Generated from {py:func}`tajmahal.cli.build_parser`. "
        + one_line((cli.__doc__ or "").split("\n\n", 1)[-1]),
        "",
        "```text",
        parser.format_usage().strip(),
        "```",
        "",
    ]
    subparsers = [
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    ]
    helps = {choice.dest: choice.help for choice in subparsers[0]._choices_actions}
    for name, sub in subparsers[0].choices.items():
        lines += [f"## tajmahal {name}", "", (helps.get(name) or "").capitalize() + ".", ""]
        lines += ["```text", sub.format_help().strip(), "```", ""]
    writer.write("cli.md", "\n".join(lines))


def public_modules() -> list[str]:
    import tajmahal

    names = ["tajmahal"]
    for info in pkgutil.walk_packages(tajmahal.__path__, "tajmahal."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return sorted(names)


def api_pages(writer: Writer) -> None:
    modules = public_modules()
    for module in modules:
        lines = [
            f"# {module}",
            "",
            "```{eval-rst}",
            f".. automodule:: {module}",
            "   :members:",
            "   :show-inheritance:",
            "```",
            "",
        ]
        if module == "tajmahal":
            lines[4] = "   :no-members:"
        # A package that re-exports a function named like one of its submodules
        # (``tajmahal.fuzz.shrink``): the name belongs to the submodule's page.
        clashes = sorted(
            name
            for name in getattr(importlib.import_module(module), "__all__", ())
            if f"{module}.{name}" in modules
        )
        if clashes:
            lines.insert(6, f"   :exclude-members: {', '.join(clashes)}")
        writer.write(f"api/{module}.md", "\n".join(lines))
    index = [
        "# API reference",
        "",
        "One page per public module, from the typed docstrings.",
        "",
        "```{toctree}",
        ":maxdepth: 1",
        "",
        *modules,
        "```",
        "",
    ]
    writer.write("api/index.md", "\n".join(index))


# -- the registry's own documentation ---------------------------------------------------


def registry_formats_page(writer: Writer) -> None:
    """The registry's READMEs (clause and ruling formats, checks), included as they are."""
    lines = ["# The registry formats", ""]
    lines += [
        "How clauses, paragraph indexes and rulings are written and checked: the READMEs of "
        "`specs/` and `rulings/`, included here unchanged.",
        "",
    ]
    for relative in ("specs/README.md", "rulings/README.md"):
        if (ROOT / relative).is_file():
            lines += [
                f"```{{include}} ../../{relative}",
                ":heading-offset: 1",
                "```",
                "",
            ]
    writer.write("registry-formats.md", "\n".join(lines))


# -- schemas ---------------------------------------------------------------------------


def schemas_page(writer: Writer) -> None:
    """Every published JSON Schema, shown whole from its file."""
    paths = sorted((ROOT / "specs").glob("*.schema.json"))
    paths += sorted((ROOT / "specs" / "schemas").glob("*.schema.json"))
    lines = [
        "# JSON Schemas",
        "",
        "The schemas of the files this project publishes and reads, shown whole from "
        "`specs/`. Records and positions are validated against them when they are read.",
        "",
    ]
    for path in paths:
        relative = path.relative_to(ROOT).as_posix()
        document = json.loads(path.read_text(encoding="utf-8"))
        title = document.get("title", path.name) if isinstance(document, dict) else path.name
        lines += [f"## {path.name}", "", f"{one_line(str(title))} (`{relative}`)", ""]
        lines += [f"```{{literalinclude}} ../../{relative}", ":language: json", "```", ""]
    writer.write("schemas.md", "\n".join(lines))


# -- main --------------------------------------------------------------------------------


def generate(out: Path = OUT) -> tuple[Writer, Problems]:
    problems = Problems()
    writer = Writer(out)
    registry = registry_from_sources(ROOT)
    index = Index(registry, problems)
    components = default_components()
    rules_pages(writer, index)
    rulings_pages(writer, index)
    components_page(writer, components)
    walkthrough_page(writer, index, components)
    cli_page(writer)
    schemas_page(writer)
    registry_formats_page(writer)
    api_pages(writer)
    writer.prune()
    return writer, problems


def main(argv: Iterable[str]) -> int:
    arguments = list(argv)
    out = Path(arguments[0]) if arguments else OUT
    writer, problems = generate(out)
    for line in problems.lines:
        print(f"make_docs: {line}", file=sys.stderr)
    print(f"make_docs: {len(writer.written)} files, {writer.changed} changed, in {out}")
    return 1 if problems.lines else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
