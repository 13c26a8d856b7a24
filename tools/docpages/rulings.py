"""The rulings pages: one page per ruling, titled by its question, and the index by
category with the options.

The options table is checked against :data:`tajmahal.model.RULE_OPTIONS`, so every
configurable ruling shows the ``--rule`` flags the command line accepts.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from docpages.common import Writer, book, id_link, locator, plain
from docpages.index import Index
from docpages.rules import clause_phrase
from docpages.ruling_questions import ruling_phrase, ruling_question
from docpages.sources import dropdown, ruling_sources, source_links
from tajmahal.model import _options as rules

CATEGORY_WORDS = {
    "gap": "Where all four rulebooks are silent",
    "disagreement": "Where the rulebooks disagree",
    "translation": "Where translations read differently",
    "reconstruction": "Components no rulebook shows",
}


def flag(option: str, value: str) -> str:
    return f"`--rule {option}={value}`"


_ID = re.compile(r"\b(?:RUL|TM)\.[A-Z0-9_]+(?:\.[A-Z0-9_]+)*")


def link_ids(text: str, index: Index) -> str:
    """Text with each known clause or ruling id written as a link."""

    def link(match: re.Match[str]) -> str:
        found = match.group(0)
        if found in index.rulings:
            return ruling_phrase(index.rulings[found])
        return id_link(found) if found in index.clauses else found

    return _ID.sub(link, text)


def ruling_page(ruling: dict[str, Any], index: Index) -> str:
    where = f"ruling {ruling['id']}"
    lines = [
        f"# {ruling_question(ruling)}",
        "",
        f"```{{ruling}} {ruling['id']}",
        "```",
        "",
        f'<span id="{ruling["id"]}"></span>',
        "",
        f"**{plain(ruling['title'])}.**",
        "",
        link_ids(plain(ruling["resolution"]), index),
        "",
        "## Why",
        "",
        link_ids(plain(ruling["reasoning"]), index),
        "",
        "## What each rulebook says",
        "",
    ]
    for say in ruling["says"]:
        place = f" ({locator(say)})" if locator(say) else ""
        lines.append(f"- {book(say['file'])}{place}: {plain(say['summary'])}")
    lines.append("")
    if ruling["configurable"]:
        lines += [
            "## Playing it otherwise",
            "",
            "Tables may choose; every game record names the choice. On the command line:",
            "",
        ]
    else:
        lines += ["## The readings weighed", ""]
    for option in ruling["options"]:
        value = (
            flag(ruling["option"], option["value"])
            if ruling["configurable"]
            else f"*{option['value']}*"
        )
        if ruling["configurable"] and option["value"] not in rules.RULE_OPTIONS.get(
            ruling["option"], ()
        ):
            index.problems.add(where, f"option {option['value']} not in RULE_OPTIONS")
        chosen = " (the reference's choice)" if option["chosen"] else ""
        lines.append(f"- {value}{chosen}: {plain(option['description'])}")
    lines.append("")
    known = [c for c in ruling["clauses"] if index.known(c, where)]
    if known:
        lines += ["## The rules it settles", ""]
        lines += [
            f"- {clause_phrase(index.clauses[c], index)}"
            if c in index.clauses
            else f"- {ruling_phrase(index.rulings[c])}"
            for c in known
        ]
        lines.append("")
    sources = ruling_sources(ruling, index)
    option_tests = [t for option in ruling["options"] for t in option["tests"]]
    extra = sorted(set(option_tests) - set(index.tests.get(ruling["id"], [])))
    if extra:
        sources += ["- Tests of the options:"] + [f"  - {index.test(t, where)}" for t in extra]
    lines += source_links([ruling["id"]], link=False) + dropdown(sources)
    return "\n".join(lines) + "\n"


def rulings_pages(writer: Writer, index: Index) -> None:
    rulings = index.registry["rulings"]
    for ruling in rulings:
        writer.write(f"rulings/{ruling['id']}.md", ruling_page(ruling, index))
    lines = [
        "# The rulings",
        "",
        f"{len(rulings)} rulings settle what the rulebooks leave open or tell differently. "
        "Each page answers one question, says why, and what each rulebook says; under "
        "*Sources* are its id and the tests that pin it. `tajmahal rule WORDS` finds one "
        "in a terminal.",
        "",
        "## Options: rulings a table may choose otherwise",
        "",
        "Where reasonable tables settle a point differently, the ruling is an option; "
        "every game record names the options it was played under. Choose one with "
        "`tajmahal play --rule NAME=VALUE` (repeatable).",
        "",
        "| question | values (flag) | default |",
        "|---|---|---|",
    ]
    by_option = {r["option"]: r for r in rulings if r["configurable"]}
    for name, values in rules.RULE_OPTIONS.items():
        configurable = by_option.get(name)
        if configurable is None:
            index.problems.add("rulings", f"option {name} has no configurable ruling")
            continue
        default = next((o["value"] for o in configurable["options"] if o["chosen"]), "")
        flags = "<br>".join(flag(name, value) for value in values)
        lines.append(f"| {ruling_phrase(configurable)} | {flags} | `{default}` |")
    lines.append("")
    by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for ruling in rulings:
        by_category[ruling["category"]].append(ruling)
    for category in sorted(
        by_category, key=lambda c: (list(CATEGORY_WORDS).index(c) if c in CATEGORY_WORDS else 9, c)
    ):
        lines += [f"## {CATEGORY_WORDS.get(category, category)}", ""]
        for ruling in by_category[category]:
            lines.append(f"- {ruling_phrase(ruling)} {plain(ruling['title'])}.")
        lines.append("")
    lines += ["```{toctree}", ":hidden:", "", *[r["id"] for r in rulings], "```", ""]
    writer.write("rulings/index.md", "\n".join(lines))
