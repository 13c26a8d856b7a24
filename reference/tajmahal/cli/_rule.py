"""``tajmahal rule QUERY``: look a clause or ruling up from the terminal.

``QUERY`` is an id (``TM.REWARD.CROWN.OCCUPIED``, ``RUL.END.TIED_WINNERS``, any case), an
id prefix (``TM.REWARD.CROWN``) or words (``crown bonus``). One match is printed in full:
the statement, how the rulebooks differ, each rulebook's citation and the rulings that
concern it (for a ruling: the question, what each text says, the options and the
resolution). Several matches are listed one a line; none exits with code 1. The registry
is read from the source checkout when there is one, else from the copy packaged with
:mod:`tajmahal.registry`.
"""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from tajmahal.cli._options import plain_description
from tajmahal.registry import RULEBOOKS, Registry, load_registry, search

WIDTH = 88
"""Wrapping width of the printed text."""


def _wrap(text: str, indent: str = "  ") -> list[str]:
    return textwrap.wrap(
        " ".join(text.split()), WIDTH, initial_indent=indent, subsequent_indent=indent
    )


def _book(file: str) -> str:
    return RULEBOOKS.get(file[:3], file)


def _locator(cite: dict[str, Any]) -> str:
    paragraph = f" ¶{cite['paragraph']}" if cite.get("paragraph") is not None else ""
    words = f' "{cite["words"]}"' if cite.get("words") else ""
    section = f" {cite['section']}," if cite.get("section") else ""
    return f"{_book(cite['file'])}:{section}{paragraph}{words}"


def clause_lines(clause: dict[str, Any], registry: Registry) -> list[str]:
    """A clause in full: statement, status, citations, differences, rulings."""
    lines = [f"{clause['id']}  ({clause['area']}, {clause['status']})"]
    lines += _wrap(clause["text"])
    if clause["differs"]:
        lines += ["", "  How the rulebooks differ:", *_wrap(clause["differs"], "    ")]
    if clause["reason"]:
        lines += ["", "  Not modelled:", *_wrap(clause["reason"], "    ")]
    if clause["cite"]:
        lines += ["", "  Citations:"]
        lines += [f"    {_locator(cite)}" for cite in clause["cite"]]
    rulings = {ruling["id"]: ruling for ruling in registry["rulings"]}
    for ruling_id in clause["rulings"]:
        ruling = rulings.get(ruling_id)
        if ruling is not None:
            lines += ["", f"  Ruling {ruling_id}: {ruling['title']}"]
            lines += _wrap(ruling["resolution"], "    ")
    return lines


def ruling_lines(ruling: dict[str, Any]) -> list[str]:
    """A ruling in full: question, what each text says, options, resolution, reasoning."""
    option = f", option {ruling['option']}" if ruling["configurable"] else ""
    lines = [f"{ruling['id']}  ({ruling['category']}{option})", f"  {ruling['title']}", ""]
    lines += ["  Question:", *_wrap(ruling["question"], "    ")]
    lines += ["", "  What the rulebooks say:"]
    for say in ruling["says"]:
        lines += [f"    {_locator(say)}", *_wrap(say["summary"], "      ")]
    lines += ["", "  Options:"]
    for choice in ruling["options"]:
        flag = f" (--rule {ruling['option']}={choice['value']})" if ruling["configurable"] else ""
        mark = "*" if choice["chosen"] else "-"
        lines += _wrap(f"{mark} {choice['value']}{flag}: {choice['description']}", "    ")
    lines += ["", "  Resolution:", *_wrap(ruling["resolution"], "    ")]
    lines += ["", "  Reasoning:", *_wrap(ruling["reasoning"], "    ")]
    lines += ["", f"  Clauses: {', '.join(ruling['clauses'])}"]
    return lines


def _summary(entry: dict[str, Any]) -> str:
    words = entry.get("title") or entry.get("text", "")
    return textwrap.shorten(f"{entry['id']}: {words}", WIDTH, placeholder=" ...")


def _rule(arguments: argparse.Namespace) -> int:
    registry = load_registry()
    found = search(registry, " ".join(arguments.query))
    if not found:
        print(f"no clause or ruling matches {' '.join(arguments.query)!r}")
        return 1
    if len(found) == 1:
        entry = found[0]
        lines = ruling_lines(entry) if "says" in entry else clause_lines(entry, registry)
        print("\n".join(lines))
        return 0
    print(f"{len(found)} matches (give an id for the full text):")
    for entry in found:
        print(f"  {_summary(entry)}")
    return 0


def register(commands: Any) -> None:
    """Add ``rule`` to the subcommands of :func:`tajmahal.cli.build_parser`."""
    rule = commands.add_parser(
        "rule",
        help="look a clause or ruling up by id or words",
        description=plain_description(__doc__),
    )
    rule.add_argument(
        "query", nargs="+", metavar="QUERY", help="an id, an id prefix, or words to look for"
    )
    rule.set_defaults(handler=_rule)
