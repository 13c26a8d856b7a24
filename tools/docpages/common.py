"""Where the pages go, how they are written, and the links every page makes.

Apart from the pages themselves so that each page module needs only this and the index:
the output folder, the problem list that fails the build, the writer that touches only
changed files, and the MyST spellings of clause, ruling and citation links.
"""

from __future__ import annotations

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
