"""What every part of the spec checker shares: the rulebooks, findings and small readers."""

from __future__ import annotations

import tomllib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RULEBOOKS = (
    "000_d6560cbc94ab2b46.txt",
    "001_233b7271189f73c5.txt",
    "002_c3720f99097226d8.txt",
    "003_4b3fc361bacfa66a.txt",
)
"""The four rulebooks the registry is annotated against (file names in the shared folder)."""

STATUSES = ("implemented", "ruling", "not-modelled")
"""Clause statuses, in report order."""
CATEGORIES = ("gap", "disagreement", "translation", "reconstruction")
"""Ruling categories, in report order."""
COMPONENT_PREFIX = "TM.COMP."
"""Component facts may come from the component data alone; they need no rulebook paragraph."""

QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


@dataclass
class Findings:
    """Problems (which fail the check), warnings, and review items (which do not).

    A review item is drift a machine can point at but only a reader can settle (a clause
    with no citation from a text that its ``differs`` line does not account for, say)."""

    problems: list[tuple[str, str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    reviews: list[tuple[str, str, str]] = field(default_factory=list)

    def problem(self, file: str, where: str, message: str) -> None:
        self.problems.append((file, where, message))

    def warn(self, message: str) -> None:
        self.warnings.append(message)

    def review(self, file: str, where: str, message: str) -> None:
        self.reviews.append((file, where, message))


def book_code(book: str) -> str:
    """``000`` for ``000_d6560cbc94ab2b46.txt``: how prose names a rulebook."""
    return book.split("_", 1)[0]


def is_text(value: object) -> bool:
    """True for a string with something besides white space."""
    return isinstance(value, str) and value.strip() != ""


def as_int(value: object) -> int | None:
    """The value if it is an integer (not a boolean), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def str_list(value: object) -> list[str] | None:
    """The value as a list of strings, or None when it is not one."""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [str(item) for item in value]
    return None


def tables(value: object) -> list[dict[str, Any]] | None:
    """The value as a list of TOML tables, or None when it is not one."""
    if isinstance(value, list) and all(isinstance(item, dict) for item in value):
        return [dict(item) for item in value]
    return None


def normalise(text: str) -> str:
    """Case, runs of white space and the shape of quotes do not count when matching words."""
    text = unicodedata.normalize("NFC", text).casefold().translate(QUOTES)
    return " ".join(text.split())


def rel(path: Path, root: Path) -> str:
    """``path`` relative to the repository root, with forward slashes."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def load_toml(path: Path, root: Path, findings: Findings) -> dict[str, Any] | None:
    """The TOML document, or None (and a problem) when it cannot be read."""
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        findings.problem(rel(path, root), "file", f"cannot read TOML: {error}")
        return None


def ranges(numbers: Iterable[int]) -> str:
    """``1-3, 7`` for [1, 2, 3, 7]."""
    runs: list[list[int]] = []
    for number in sorted(set(numbers)):
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
