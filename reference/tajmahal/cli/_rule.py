"""``tajmahal rule QUERY``: look a clause or ruling up from the terminal.

``QUERY`` is an id (``TM.REWARD.CROWN.OCCUPIED``, ``RUL.END.TIED_WINNERS``, any case), an
id prefix (``TM.REWARD.CROWN``) or words as a player asks (``monk tie``, ``draw pile
empty``, ``crown next to my own palace``): the names of symbols, tiles and cards find the
statements that use the general terms, and the words the glossary avoids find its words
(:func:`tajmahal.registry.find`). One match is printed in full, the answer first: the
statement and the rulings that settle it (for a ruling: its question, the answer, the
options), then how the rulebooks differ and each rulebook's citation. Several matches
are printed best first with their whole statements, the first few with their answers;
weaker matches, holding some words only in their background (how the rulebooks differ,
the reasoning), are named by id after them. None exits with code 1. The registry is read
from the source checkout when there is one, else from the copy packaged with
:mod:`tajmahal.registry`.
"""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from tajmahal.cli._options import plain_description
from tajmahal.registry import BOOK_NAMES, Registry, find, load_registry, name_books

WIDTH = 88
"""Wrapping width of the printed text."""
SHOWN_WITH_ANSWER = 3
"""How many of several matches are printed with their answer (a ruling's resolution, the
titles of a clause's rulings); the next ones with their statement alone."""
LISTED = 12
"""How many of several matches are printed; the rest are named by id."""


def _wrap(text: str, indent: str = "  ") -> list[str]:
    return textwrap.wrap(
        name_books(" ".join(text.split())),
        WIDTH,
        initial_indent=indent,
        subsequent_indent=indent,
        break_on_hyphens=False,
    )


def _book(file: str) -> str:
    name = BOOK_NAMES.get(file[:3], file)
    return name[0].upper() + name[1:]


def _locator(cite: dict[str, Any]) -> str:
    paragraph = f" ¶{cite['paragraph']}" if cite.get("paragraph") is not None else ""
    words = f' "{cite["words"]}"' if cite.get("words") else ""
    section = f" {cite['section']}," if cite.get("section") else ""
    return f"{_book(cite['file'])}:{section}{paragraph}{words}"


def statement(entry: dict[str, Any]) -> str:
    """An entry's statement as one sentence: a clause's text, a ruling's title."""
    text = " ".join((entry.get("title") or entry.get("text", "")).split())
    return text if text.endswith((".", "?", "!")) else text + "."


def clause_lines(clause: dict[str, Any], registry: Registry) -> list[str]:
    """A clause in full: statement, the rulings that settle it, how the rulebooks differ,
    what is not modelled, citations."""
    lines = [f"{clause['id']}  ({clause['area']}, {clause['status']})"]
    lines += _wrap(clause["text"])
    rulings = {ruling["id"]: ruling for ruling in registry["rulings"]}
    for ruling_id in clause["rulings"]:
        ruling = rulings.get(ruling_id)
        if ruling is not None:
            lines += ["", *_wrap(f"Ruling {ruling_id}: {statement(ruling)}")]
            lines += _wrap(ruling["resolution"], "    ")
    if clause["differs"]:
        lines += ["", "  How the rulebooks differ:", *_wrap(clause["differs"], "    ")]
    if clause["reason"]:
        lines += ["", "  Not modelled:", *_wrap(clause["reason"], "    ")]
    if clause["cite"]:
        lines += ["", "  Citations:"]
        lines += [f"    {_locator(cite)}" for cite in clause["cite"]]
    return lines


def ruling_lines(ruling: dict[str, Any]) -> list[str]:
    """A ruling in full: its statement, question and answer, the options, what each
    rulebook says, the reasoning."""
    option = f", option {ruling['option']}" if ruling["configurable"] else ""
    lines = [f"{ruling['id']}  ({ruling['category']}{option})", *_wrap(statement(ruling)), ""]
    lines += ["  Question:", *_wrap(ruling["question"], "    ")]
    lines += ["", "  Answer:", *_wrap(ruling["resolution"], "    ")]
    lines += ["", "  Options:"]
    for choice in ruling["options"]:
        flag = f" (--rule {ruling['option']}={choice['value']})" if ruling["configurable"] else ""
        mark = "*" if choice["chosen"] else "-"
        lines += _wrap(f"{mark} {choice['value']}{flag}: {choice['description']}", "    ")
    lines += ["", "  What the rulebooks say:"]
    for say in ruling["says"]:
        lines += [f"    {_locator(say)}", *_wrap(say["summary"], "      ")]
    lines += ["", "  Reasoning:", *_wrap(ruling["reasoning"], "    ")]
    lines += ["", f"  Clauses: {', '.join(ruling['clauses'])}"]
    return lines


def match_lines(entry: dict[str, Any], registry: Registry, answer: bool) -> list[str]:
    """One of several matches: its id and kind, and its whole statement; with ``answer``,
    a ruling's resolution or the titles of a clause's rulings follow."""
    kind = "ruling" if "says" in entry else "clause"
    lines = [f"{entry['id']}  ({kind})", *_wrap(statement(entry))]
    if not answer:
        return lines
    if kind == "ruling":
        return lines + _wrap(entry["resolution"], "    ")
    titles = {ruling["id"]: statement(ruling) for ruling in registry["rulings"]}
    for ruling_id in entry["rulings"]:
        if ruling_id in titles:
            lines += _wrap(f"Ruling {ruling_id}: {titles[ruling_id]}", "    ")
    return lines


def _rule(arguments: argparse.Namespace) -> int:
    registry = load_registry()
    query = " ".join(arguments.query)
    matches = find(registry, query)
    if not matches.entries:
        print(f"no clause or ruling matches {query!r}")
        return 1
    # Weak matches (words only in the background) are named after the strong ones, if any.
    strong = matches.strong or len(matches.entries)
    found, weaker = matches.entries[:strong], matches.entries[strong:]
    if len(found) == 1 and matches.every_word:
        entry = found[0]
        lines = ruling_lines(entry) if "says" in entry else clause_lines(entry, registry)
        print("\n".join(lines))
    else:
        count = f"{len(found)} {'match' if len(found) == 1 else 'matches'}"
        if matches.every_word:
            print(f"{count}, best first (give an id for everything about one):")
        else:
            print(f"nothing holds every word of {query!r}; {count} with the most of them:")
        for rank, entry in enumerate(found[:LISTED]):
            print()
            print("\n".join(match_lines(entry, registry, rank < SHOWN_WITH_ANSWER)))
        rest = found[LISTED:]
        if rest:
            print()
            print("\n".join(_wrap(f"{len(rest)} more: {', '.join(e['id'] for e in rest)}", "")))
    if weaker:
        count = f"{len(weaker)} weaker {'match' if len(weaker) == 1 else 'matches'}"
        ids = ", ".join(entry["id"] for entry in weaker)
        print()
        print("\n".join(_wrap(f"{count}, some words only in the background: {ids}", "")))
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
