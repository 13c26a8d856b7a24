"""The rulings pages: one page per ruling, and the index by category with the options.

The options table is checked against :data:`tajmahal.model.RULE_OPTIONS`, so every
configurable ruling shows the ``--rule`` flags the command line accepts.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from docpages.common import Writer, book, clause_link, locator, one_line, ruling_link
from docpages.index import Index
from tajmahal.model import _options as rules

CATEGORY_WORDS = {
    "gap": "Gaps: all four texts are silent",
    "disagreement": "Disagreements between the texts",
    "translation": "Translations that read differently",
    "reconstruction": "Component reconstructions",
}


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
        "{py:class}`tajmahal.model.RuleSet`; every game record names the rule set it was "
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
