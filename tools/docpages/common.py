"""Where the pages go, how they are written, and the links every page makes.

Apart from the pages themselves so that each page module needs only this and the index:
the output folder, the problem list that fails the build, the writer that touches only
changed files, and the MyST spellings of clause, ruling and citation links.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tajmahal.registry import RULEBOOKS

ROOT = Path(__file__).resolve().parents[2]
"""The repository."""

OUT = ROOT / "docs" / "_generated"
"""Where the pages go (ignored by git: they are rebuilt from the sources)."""


class Problems:
    """Broken references found while generating; any of them fails the build."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, where: str, message: str) -> None:
        line = f"{where}: {message}"
        if line not in self.lines:
            self.lines.append(line)


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


def one_line(text: str) -> str:
    """Text on one line (TOML strings wrap), with MyST's table separator escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def clause_link(clause_id: str) -> str:
    return f"{{clause}}`{clause_id}`"


def ruling_link(ruling_id: str) -> str:
    return f"{{ruling}}`{ruling_id}`"


def id_link(any_id: str) -> str:
    return ruling_link(any_id) if any_id.startswith("RUL.") else clause_link(any_id)


BOOK_NAMES = {
    "000": "the Italian rulebook (000)",
    "001": "the Giochi Rari edition (001)",
    "002": "the Spanish rulebook (002)",
    "003": "the French summary (003)",
}
"""The rulebooks by what they are, as player pages name them (docs/rules/glossary.md);
the number after the name is the one the citations' file names start with."""

_BOOK_NUMBER = re.compile(r"(?<![\w./(-])(00[0-3])(?!\w)('s)?")
_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+|\(|\n\s*)$")


def book(file: str) -> str:
    """A rulebook file's name for a reader, capitalised: ``The Spanish rulebook (002)``."""
    name = BOOK_NAMES.get(file[:3])
    return name[0].upper() + name[1:] if name else RULEBOOKS.get(file[:3], file)


def name_books(text: str) -> str:
    """Text with every bare rulebook number (``001 says``) named (``the Giochi Rari
    edition (001) says``), capitalised at the start of a sentence."""

    def named(match: re.Match[str]) -> str:
        name = BOOK_NAMES[match.group(1)]
        if match.group(2):
            name = name.replace(" (", "'s (", 1)
        if _SENTENCE_START.search(text[: match.start()]):
            name = name[0].upper() + name[1:]
        return name

    return _BOOK_NUMBER.sub(named, text)


def plain(text: str) -> str:
    """Registry text for a player's page: on one line, the rulebooks named."""
    return name_books(one_line(text))


def locator(cite: dict[str, Any]) -> str:
    paragraph = f" ¶{cite['paragraph']}" if cite.get("paragraph") is not None else ""
    words = f" «{cite['words']}»" if cite.get("words") else ""
    return one_line(f"{cite.get('section', '')}{paragraph}{words}")
