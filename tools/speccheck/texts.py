"""The rulebook texts, split into paragraphs, and locators checked against them.

Paragraph ``n`` of a text is its ``n``-th non-blank line (a line of only white space,
non-breaking spaces included, is blank). ``words`` must occur in the paragraph, ignoring
case, runs of white space and the shape of quotes and apostrophes. The texts are looked up
in ``$TAJMAHAL_RULEBOOKS``, else ``../shared/rulebooks`` beside the repository; without
them the locators are not verified (a warning, not a problem).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from speccheck.common import RULEBOOKS, Findings, as_int, is_text, normalise


@dataclass
class Texts:
    """The rulebook paragraphs, when the texts are available."""

    folder: Path | None
    paragraphs: dict[str, list[str]] = field(default_factory=dict)

    def count(self, book: str) -> int | None:
        """How many paragraphs ``book`` has, or None without its text."""
        found = self.paragraphs.get(book)
        return None if found is None else len(found)

    def paragraph(self, book: str, number: int) -> str | None:
        """The text of paragraph ``number`` of ``book``, or None."""
        found = self.paragraphs.get(book)
        if found is None or not 1 <= number <= len(found):
            return None
        return found[number - 1]

    def check_cited(
        self, findings: Findings, file: str, where: str, cited: list[dict[str, object]]
    ) -> None:
        """Problems with each locator of a list (a clause's ``cite``, a ruling's ``says``)
        that names one of the rulebooks; ``where`` names the list (``R1: cite``)."""
        for index, entry in enumerate(cited):
            book = entry.get("file")
            if book in RULEBOOKS:
                self.check_locator(
                    findings,
                    file,
                    f"{where}[{index}]",
                    str(book),
                    entry.get("paragraph"),
                    entry.get("words"),
                )

    def check_locator(
        self,
        findings: Findings,
        file: str,
        where: str,
        book: str,
        paragraph: object,
        words: object,
    ) -> None:
        """Problems with a (book, paragraph, words) locator; its shape is already valid."""
        number = as_int(paragraph)
        paragraphs = self.paragraphs.get(book)
        if paragraphs is None:
            return
        if number is not None and number > len(paragraphs):
            findings.problem(
                file,
                where,
                f"paragraph {number} out of range ({book} has {len(paragraphs)} paragraphs)",
            )
            return
        if not is_text(words):
            return
        needle = normalise(str(words))
        if number is not None:
            if needle not in normalise(paragraphs[number - 1]):
                findings.problem(
                    file, where, f"words {words!r} not found in paragraph {number} of {book}"
                )
        elif not any(needle in normalise(text) for text in paragraphs):
            findings.problem(file, where, f"words {words!r} not found anywhere in {book}")


def load_texts(root: Path, findings: Findings) -> Texts:
    """The four texts from ``$TAJMAHAL_RULEBOOKS`` or ``../shared/rulebooks``."""
    configured = os.environ.get("TAJMAHAL_RULEBOOKS")
    folder = Path(configured) if configured else root.parent / "shared" / "rulebooks"
    if not folder.is_dir():
        findings.warn(
            f"rulebook texts not found in {folder}: locators were not verified against the texts"
        )
        return Texts(None)
    texts = Texts(folder)
    for book in RULEBOOKS:
        path = folder / book
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            findings.warn(f"cannot read {path} ({error}): its locators were not verified")
            continue
        texts.paragraphs[book] = [line for line in text.splitlines() if line.strip()]
    return texts
