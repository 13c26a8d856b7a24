"""The catalogue of misreadings page: every entry of ``tajmahal.conformance.MISREADINGS``.

One section per entry, in the catalogue's order: the rule it misreads (a link), what the
engine does, why a reader might read it so, the rulebooks' paragraphs, and the rule-set
options under which it differs at all. ``docs/misreadings.md`` says how the entries are
used and links the page.
"""

from __future__ import annotations

from docpages.common import Writer, book, id_link, locator, one_line
from docpages.index import Index
from tajmahal.conformance import MISREADINGS


def misreadings_page(writer: Writer, index: Index) -> None:
    """Write ``misreadings.md`` (linked from ``docs/misreadings.md``)."""
    lines = [
        "# The catalogue of misreadings",
        "",
        "Every entry of `tajmahal.conformance.MISREADINGS`: an engine that reads one rule "
        "otherwise (`tajmahal serve --misread NAME`). {doc}`../misreadings` says how `diff` "
        "and `verify` use them.",
        "",
        "| entry | misreads | what the engine does |",
        "|---|---|---|",
    ]
    for entry in MISREADINGS.values():
        index.known(entry.rule, f"misreading {entry.name}")
        lines.append(
            f"| {{ref}}`{entry.name} <misreading-{entry.name}>` | {id_link(entry.rule)} | "
            f"{one_line(entry.does)} |"
        )
    lines.append("")
    for entry in MISREADINGS.values():
        lines += [f"(misreading-{entry.name})=", f"## `{entry.name}`", ""]
        lines.append(f"**Misreads** {id_link(entry.rule)}. {one_line(entry.does)}")
        lines.append("")
        lines.append(f"**Why a reader might read it so.** {one_line(entry.reading)}")
        lines.append("")
        for cite in entry.cites:
            place = locator(
                {"section": cite.section, "paragraph": cite.paragraph, "words": cite.words}
            )
            lines.append(f"- {book(cite.book)}: {place}")
        lines.append("")
        if entry.option is not None:
            option, value = entry.option
            lines.append(
                f"Plays every game as if `--rule {option}={value}`, whatever the game's rule set."
            )
            lines.append("")
        if entry.rules:
            shown = ", ".join(f"`{name}={value}`" for name, value in entry.rules.items())
            lines.append(f"Differs from the reference only in games played with {shown}.")
            lines.append("")
    writer.write("misreadings.md", "\n".join(lines))
