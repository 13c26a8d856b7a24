"""What several subcommands share: the ``--components`` option and a parser's description.

Kept in one place so that every subcommand loads a component folder the same way (the
shared embedded set when the option is left out), words its help alike, and refuses an
output named like one of its inputs.
"""

from __future__ import annotations

import argparse
import math
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path

from tajmahal.errors import TajMahalError
from tajmahal.inputs import STDIN
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
            f"--compare: unknown {'field' if len(unknown) == 1 else 'fields'} {', '.join(unknown)} "
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


SEED_DIGITS = 30
"""Most digits in a ``--seed`` (a record or summary stores it; readers refuse longer
integers)."""


def seed(text: str) -> int:
    """An argparse ``type``: a ``--seed``, an integer short enough to be read back from
    the record or summary it is written into (see :data:`tajmahal.inputs.MAX_INT_DIGITS`)."""
    digits = text.strip().lstrip("+-")
    if not digits.isdigit() or not digits.isascii() or len(digits) > SEED_DIGITS:
        raise argparse.ArgumentTypeError(f"expected an integer of at most {SEED_DIGITS} digits")
    return int(text)


MAX_SECONDS = 7 * 24 * 3600.0
"""The longest time any option gives (a week): a timeout or a budget beyond it is a
slip of the finger, and a number of that size is still exact in every unit used."""
MAX_COUNT = 10**9
"""The largest count any option takes (games, replays, records kept)."""
MAX_JOBS = 1024
"""The most processes ``--jobs`` may ask for (fewer start when there is less work)."""


def _shown(text: str) -> str:
    return repr(text[:40] + ("..." if len(text) > 40 else ""))


def integer(low: int, high: int = MAX_COUNT) -> Callable[[str], int]:
    """An argparse ``type``: an integer written with ASCII digits (and an optional sign),
    from ``low`` to ``high``; anything else is refused naming the range."""

    def convert(text: str) -> int:
        digits = text.strip()
        body = digits[1:] if digits[:1] in "+-" else digits
        if not (body.isascii() and body.isdigit()) or len(body) > len(str(high)) + 1:
            raise argparse.ArgumentTypeError(
                f"expected an integer from {low} to {high}, found {_shown(text)}"
            )
        value = int(digits)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"expected an integer from {low} to {high}, found {value}"
            )
        return value

    convert.__name__ = "integer"
    return convert


def number(low: float, high: float = MAX_SECONDS, *, above: bool = False) -> Callable[[str], float]:
    """An argparse ``type``: a finite decimal number from ``low`` (excluded when
    ``above``) to ``high``; ``nan``, ``inf``, ``1e308`` and the like are refused."""
    lowest = f"above {low:g}" if above else f"from {low:g}"

    def convert(text: str) -> float:
        try:
            value = float(text) if text.strip().isascii() else math.nan
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value > high or value < low or (above and value == low):
            raise argparse.ArgumentTypeError(
                f"expected a number {lowest} to {high:g}, found {_shown(text)}"
            )
        return value

    convert.__name__ = "number"
    return convert


def output_file(text: str) -> str:
    """An argparse ``type``: a file a command writes (``--trace``, ``--svg``, ``--output``).

    Its folder must exist: a missing folder is refused, not created, so that a slip in
    the path is caught before any work is done instead of scattering new folders. What
    the path itself may be (a regular file or nothing yet; never a folder, a device or an
    empty path) is checked when the file is written
    (:func:`tajmahal.records.write_text_atomic`).
    """
    folder = os.path.dirname(text) or "."
    if "\0" not in text and not os.path.isdir(folder):
        if os.path.exists(folder):
            raise argparse.ArgumentTypeError(f"{folder!r} is not a folder")
        raise argparse.ArgumentTypeError(f"the folder {folder!r} does not exist (create it first)")
    return text


def refuse_input(
    output: str | None,
    inputs: Iterable[str | Path],
    option: str,
    what: str = "an input of this command",
) -> None:
    """Refuse an ``output`` path that names one of ``inputs`` (the same file, however
    its path is written): an output is never written over an input (``what`` says what
    the file is)."""
    if output is None or output == STDIN:
        return
    target = Path(output)
    for item in inputs:
        if not str(item) or str(item) == STDIN:
            continue
        same = str(item) == output
        if not same and target.exists():
            try:
                same = target.samefile(item)
            except OSError:
                same = False
        if same:
            raise TajMahalError(f"{option} {output}: is {what}; name another file")
