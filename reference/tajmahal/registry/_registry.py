"""The clause registry and the rulings, readable from the package.

The registry lives in the repository as TOML (``specs/clauses/*.toml``,
``rulings/*.toml``); an installed package has no repository beside it, so it carries a
generated copy, ``tajmahal/data/registry.json`` (written by ``tools/make_registry.py``
and checked fresh by the tests). :func:`load_registry` prefers the source checkout the
package was imported from, so edits to the TOML show at once, and falls back to the
packaged copy.

:func:`registry_from_sources` reads the TOML; both give the same JSON-shaped mapping::

    {"clauses": [{"id", "area", "status", "text", "differs", "reason", "rulings",
                  "cite": [{"file", "section", "paragraph", "words"}]}, ...],
     "rulings": [{"id", "title", "category", "clauses", "question", "resolution",
                  "reasoning", "configurable", "option", "tests", "says", "options"}, ...]}
"""

from __future__ import annotations

import json
import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from tajmahal.registry._search import Matches, rank_entries

AREAS = (
    "components",
    "setup",
    "turn",
    "play",
    "withdraw",
    "reward",
    "score",
    "visit",
    "special",
    "end",
)
"""The clause files in the rulebooks' order (a turn is play; withdrawing and the rewards
follow, then scoring, the end of a visit, special cards and the end of the game)."""

RULEBOOKS = {
    "000": "000 (Italian, full rulebook)",
    "001": "001 (Italian, Giochi Rari)",
    "002": "002 (Spanish)",
    "003": "003 (French summary)",
}
"""The four rulebooks by their file prefix, with a short description."""

BOOK_NAMES = {
    "000": "the Italian rulebook (000)",
    "001": "the Giochi Rari edition (001)",
    "002": "the Spanish rulebook (002)",
    "003": "the French summary (003)",
}
"""The four rulebooks by what they are, as a player reads them named (the glossary's
words); the number after the name is the one their files' names start with."""

_BOOK_NUMBER = re.compile(r"(?<![\w./(-])(00[0-3])(?!\w)")
_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+|\(|\n\s*)$")


def name_books(text: str) -> str:
    """``text`` with every bare rulebook number named: "001's example" becomes "the
    Giochi Rari edition (001)'s example", capitalised at the start of a sentence."""

    def named(match: re.Match[str]) -> str:
        name = BOOK_NAMES[match.group(1)]
        if _SENTENCE_START.search(text[: match.start()]):
            name = name[0].upper() + name[1:]
        return name

    return _BOOK_NUMBER.sub(named, text)


Registry = dict[str, list[dict[str, Any]]]
"""``{"clauses": [...], "rulings": [...]}`` as described in the module docstring."""


def source_root() -> Path | None:
    """The repository this package was imported from, if it is a source checkout."""
    root = Path(__file__).resolve().parents[3]
    if (root / "specs" / "clauses").is_dir() and (root / "rulings").is_dir():
        return root
    return None


def _text(value: Any) -> str:
    return str(value).strip() if value is not None else ""


def registry_from_sources(root: Path) -> Registry:
    """Read ``specs/clauses/*.toml`` (in :data:`AREAS` order) and ``rulings/*.toml``."""
    clauses: list[dict[str, Any]] = []
    files = sorted((root / "specs" / "clauses").glob("*.toml"))
    order = {area: index for index, area in enumerate(AREAS)}
    for path in sorted(files, key=lambda p: (order.get(p.stem, len(order)), p.stem)):
        document = tomllib.loads(path.read_text(encoding="utf-8"))
        area = _text(document.get("area", path.stem))
        for clause in document.get("clause", []):
            clauses.append(
                {
                    "id": clause["id"],
                    "area": area,
                    "status": clause.get("status", ""),
                    "text": _text(clause.get("text")),
                    "differs": _text(clause.get("differs")),
                    "reason": _text(clause.get("reason")),
                    "rulings": list(clause.get("rulings", [])),
                    "cite": [
                        {
                            "file": cite.get("file", ""),
                            "section": cite.get("section", ""),
                            "paragraph": cite.get("paragraph"),
                            "words": cite.get("words", ""),
                        }
                        for cite in clause.get("cite", [])
                    ],
                }
            )
    rulings: list[dict[str, Any]] = []
    for path in sorted((root / "rulings").glob("RUL.*.toml")):
        document = tomllib.loads(path.read_text(encoding="utf-8"))
        rulings.append(
            {
                "id": document.get("id", path.stem),
                "title": _text(document.get("title")),
                "category": document.get("category", ""),
                "clauses": list(document.get("clauses", [])),
                "question": _text(document.get("question")),
                "resolution": _text(document.get("resolution")),
                "reasoning": _text(document.get("reasoning")),
                "configurable": bool(document.get("configurable", False)),
                "option": document.get("option", ""),
                "tests": list(document.get("tests", [])),
                "says": [
                    {
                        "file": say.get("file", ""),
                        "section": say.get("section", ""),
                        "paragraph": say.get("paragraph"),
                        "words": say.get("words", ""),
                        "summary": _text(say.get("summary")),
                    }
                    for say in document.get("says", [])
                ],
                "options": [
                    {
                        "value": option.get("value", ""),
                        "description": _text(option.get("description")),
                        "chosen": bool(option.get("chosen", False)),
                        "tests": list(option.get("tests", [])),
                    }
                    for option in document.get("options", [])
                ],
            }
        )
    return {"clauses": clauses, "rulings": rulings}


def dumps_registry(registry: Registry) -> str:
    """The packaged file's exact text: indented, keys in the order above, a final newline."""
    return json.dumps(registry, indent=1, ensure_ascii=False) + "\n"


def packaged_registry() -> Registry:
    """The copy shipped in ``tajmahal/data/registry.json``."""
    text = resources.files("tajmahal").joinpath("data/registry.json").read_text("utf-8")
    document: Registry = json.loads(text)
    return document


def load_registry() -> Registry:
    """The source checkout's registry when there is one, else the packaged copy."""
    root = source_root()
    return registry_from_sources(root) if root is not None else packaged_registry()


def search(registry: Registry, query: str) -> list[dict[str, Any]]:
    """Clauses and rulings matching ``query``, best first (:func:`find` says more)."""
    return find(registry, query).entries


def find(registry: Registry, query: str) -> Matches:
    """Clauses and rulings matching ``query``, strong matches first and each part best
    first, whether they hold every word of it, and how many are strong matches.

    An exact id (any case) gives that entry alone; an id prefix (``TM.REWARD.CROWN``)
    every entry under it (all strong matches); otherwise words, as a player asks (``monk
    tie``, ``draw pile empty``), found with the glossary's words and the general terms
    that cover them and ranked statement first (:mod:`tajmahal.registry._search`).
    """
    entries = [*registry["clauses"], *registry["rulings"]]
    wanted = query.strip().upper()
    exact = [entry for entry in entries if entry["id"] == wanted]
    if exact:
        return Matches(exact, True, 1)
    prefixed = [entry for entry in entries if entry["id"].startswith(wanted + ".")]
    if prefixed:
        return Matches(prefixed, True, len(prefixed))
    return rank_entries(entries, query)
