"""What several subcommands share: the ``--components`` option and a parser's description.

Kept in one place so that every subcommand loads a component folder the same way (the
shared embedded set when the option is left out) and words its help alike.
"""

from __future__ import annotations

import argparse
import re

from tajmahal.errors import TajMahalError
from tajmahal.model import Components, default_components, load_components

COMPARE_HELP = (
    "what to compare after each step, of legal,state_digest,scores (leave out state_digest "
    "for an engine that does not write the canonical state document)"
)
"""The help of ``--compare`` (``diff``, ``fuzz --engine``)."""

COMPONENTS_HELP = (
    "folder with your own component files (any of cards.json, "
    "specials.json, province_tiles.json, bonus_tiles.json, board.json)"
)
"""The help of ``--components`` where a subcommand says nothing more particular."""


def add_components_option(parser: argparse.ArgumentParser, help: str = COMPONENTS_HELP) -> None:
    """Give ``parser`` the ``--components DIR`` option (read by :func:`chosen_components`)."""
    parser.add_argument("--components", metavar="DIR", help=help)


def chosen_components(folder: str | None) -> Components:
    """The component set of a ``--components`` folder, or the embedded set (loaded once
    and shared) when the option was left out."""
    return load_components(folder) if folder is not None else default_components()


def compared_fields(spec: str) -> frozenset[str]:
    """The fields of a ``--compare`` list; raises :class:`TajMahalError` naming an unknown
    one."""
    from tajmahal.conformance import OPTIONAL_FIELDS  # only the commands that compare need it

    fields = frozenset(name.strip() for name in spec.split(",") if name.strip())
    unknown = sorted(fields - OPTIONAL_FIELDS)
    if unknown:
        raise TajMahalError(
            f"--compare: unknown field(s) {', '.join(unknown)} "
            f"(known: {', '.join(sorted(OPTIONAL_FIELDS))})"
        )
    return fields


def plain_description(docstring: str | None) -> str | None:
    """A command module's docstring after its first paragraph, as terminal text: no reST
    roles or literal quotes (the parser's ``description``)."""
    paragraphs = (docstring or "").split("\n\n", 1)
    if len(paragraphs) < 2:
        return None
    return re.sub(r":\w+:`([^`]*)`", r"\1", paragraphs[1]).replace("``", "")
