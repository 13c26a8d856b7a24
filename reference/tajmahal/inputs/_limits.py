"""The limits every input is read under, and the error that refuses an input.

What is allowed (sizes, nesting, counts, digits, string lengths, the steps and names of
a record) is stated here once, as constants and :class:`Limits`, apart from the code
that enforces them on the bytes, the text and the parsed values (:mod:`tajmahal.inputs`,
:mod:`tajmahal.inputs`, :mod:`tajmahal.inputs`): the README's table
("Errors and limits") is this module. A refusal is an :class:`InputError` naming the
source and the field. The names are imported from :mod:`tajmahal.inputs`.
"""

from __future__ import annotations

from typing import Any

import attrs

from tajmahal.errors import TajMahalError

MAX_RECORD_BYTES = 16 * 1024 * 1024
"""Largest game record or position read (16 MiB: a plain record of the longest possible
game is under 300 KiB; the limit leaves room for records that store the legal actions
and the public position at every step)."""
MAX_COMPONENT_BYTES = 1024 * 1024
"""Largest component file read (1 MiB; the embedded ``board.json`` is about 10 KiB)."""
MAX_DEPTH = 32
"""Deepest nesting of arrays and objects (records and component files need 4)."""
MAX_VALUES = 1_000_000
"""Most JSON values in one document, object keys included: counted from the text as the
number of commas, colons, ``[`` and ``{`` outside strings, plus one."""
MAX_INT_DIGITS = 40
"""Most digits in one integer (a 128-bit seed has 39); Python's own limit is 4,300."""
MAX_STEPS = 1308
"""Most steps in a game record; no game can have more. In one visit there are at most
84 plays (each play moves one of the 84 coloured cards from the hand of a player still
in the visit to the table, and only withdrawn players receive cards during a visit), 5
withdrawals, 5 placements (the four influence tiles and the crown are each won at most
once), 5 takes (one per withdrawal) and 10 reshuffles (at most one per pending draw,
since a reshuffle empties the discard pile: the display's, one extra card per
withdrawal, one bonus card per normal palace: 1 + 5 + 4). That is 109 steps per visit,
and 12 x 109 = 1,308 in a game."""
MAX_NAME_CHARS = 64
"""Longest player name in a record (names are repeated on every line of the account)."""
MAX_STRING_CHARS = 65_536
"""Longest string or object key, in characters (a reshuffle of every card is the
longest string a record needs)."""


class InputError(TajMahalError):
    """An input is unreadable, too large, badly encoded, malformed or over a limit."""

    def __init__(self, message: str, *, source: str, path: tuple[str | int, ...] = ()) -> None:
        self.source = source
        """The file read (``-`` for standard input)."""
        self.path = path
        """The JSON path of the offending value (keys and indexes), when known."""
        self.detail = message
        """The bare description, without the location prefix."""
        where = [part for part in (source, json_path(path)) if part]
        super().__init__(f"{': '.join(where)}: {message}" if where else message)

    @property
    def field(self) -> str:
        """The JSON path in the ``a.b[3].c`` spelling ("" for the whole document)."""
        return json_path(self.path)


def json_path(path: tuple[str | int, ...]) -> str:
    """``("steps", 3, "action")`` spelled ``steps[3].action``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


@attrs.frozen(slots=True)
class Limits:
    """The limits one kind of input is read under (see the module docstring)."""

    max_bytes: int
    """Largest input accepted, in bytes."""
    max_depth: int = MAX_DEPTH
    """Deepest nesting of arrays and objects."""
    max_values: int = MAX_VALUES
    """Most JSON values in the document."""
    max_int_digits: int = MAX_INT_DIGITS
    """Most digits in one integer."""
    max_string_chars: int = MAX_STRING_CHARS
    """Longest string or key."""


RECORD_LIMITS = Limits(MAX_RECORD_BYTES)
"""Limits for game records and positions."""
COMPONENT_LIMITS = Limits(MAX_COMPONENT_BYTES)
"""Limits for component files."""


def check_record_limits(document: Any, source: str) -> None:
    """Refuse a record with more than :data:`~tajmahal.inputs.MAX_STEPS` steps,
    more than five names or a name longer than
    :data:`~tajmahal.inputs.MAX_NAME_CHARS` (fields of other types are left to the
    record's own checks)."""
    if not isinstance(document, dict):
        return
    steps = document.get("steps")
    if isinstance(steps, list) and len(steps) > MAX_STEPS:
        raise InputError(
            f"{len(steps)} steps; no game has more than {MAX_STEPS} (the limit)",
            source=source,
            path=("steps",),
        )
    names = document.get("names")
    if isinstance(names, list):
        if len(names) > 5:
            raise InputError(
                f"{len(names)} names; a game has at most 5 players", source=source, path=("names",)
            )
        for index, name in enumerate(names):
            if isinstance(name, str) and len(name) > MAX_NAME_CHARS:
                raise InputError(
                    f"a name of {len(name)} characters; the limit is {MAX_NAME_CHARS}",
                    source=source,
                    path=("names", index),
                )


# The functions and classes are documented under tajmahal.inputs, which users import them
# from; only the constants, whose docstrings cannot go with them, are listed here.
__all__ = [
    "COMPONENT_LIMITS",
    "MAX_COMPONENT_BYTES",
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "MAX_NAME_CHARS",
    "MAX_RECORD_BYTES",
    "MAX_STEPS",
    "MAX_STRING_CHARS",
    "MAX_VALUES",
    "RECORD_LIMITS",
]
