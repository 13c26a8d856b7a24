"""The structure of JSON text, checked before it is parsed: nesting and the number of values.

A document nested a million levels deep would make a recursive parser fail, and one of
millions of tiny values would take memory out of proportion to its bytes; both are
refused from the text alone, in linear time and without recursion, before the parser
sees it (step 3 in :mod:`tajmahal.inputs`). This is text processing with its own short
cuts (strings blanked by splitting at quotes, structure characters kept by a byte
table, and a bound from the brackets alone when no string holds one), apart from the
parser's hooks and the walk over parsed values
(:mod:`tajmahal.inputs`). :func:`check_structure` is imported from
:mod:`tajmahal.inputs`.
"""

from __future__ import annotations

import itertools
import re

from tajmahal.inputs._limits import InputError, Limits

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
"""A JSON string literal (unrolled, so matching is linear in its length)."""
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def check_structure(
    text: str, limits: Limits, source: str, ascii_bytes: bytes | None = None
) -> None:
    """Refuse text nested deeper than ``limits.max_depth`` or with too many values.

    Strings are blanked out first (a bracket inside a string does not nest); the depth
    is the running count of openings minus closings, computed without recursion.
    ``ascii_bytes``: the text encoded as ASCII, when the caller has it already (the
    text is then ASCII).
    """
    if _FAST_STRUCTURE and ascii_bytes is not None and _within_limits(text, ascii_bytes, limits):
        return
    bare = _structure(text, ascii_bytes)
    if _too_deep(bare, limits.max_depth):
        raise InputError(f"nested more than {limits.max_depth} levels deep", source=source)
    values = bare.count(",") + bare.count(":") + bare.count("[") + bare.count("{") + 1
    if values > limits.max_values:
        raise InputError(
            f"about {values} values, more than the limit of {limits.max_values}", source=source
        )


def _blank_strings(text: str) -> str:
    """``text`` with every string literal replaced by ``0`` (an unterminated last string
    is left as it is). Without a backslash in the text no string holds an escaped quote,
    so the literals are what lies between the 1st and 2nd quote, the 3rd and 4th, and so
    on: the text split at its quotes gives the same result as the literal pattern, in a
    fraction of the time."""
    if "\\" in text:
        return _STRING.sub("0", text)
    pieces = text.split('"')
    if len(pieces) % 2:
        return "0".join(pieces[::2])
    return "0".join(pieces[:-1:2]) + '"' + pieces[-1]


_NOT_STRUCTURE = bytes(code for code in range(256) if chr(code) not in '[]{},:"')
"""Every byte but those of brackets, commas, colons and quotes (deleted from ASCII text
encoded as bytes, where deleting runs in C over a table of 256 entries)."""


def _structure(text: str, ascii_bytes: bytes | None = None) -> str:
    """Text holding, in order, the brackets, commas and colons of ``text`` that lie outside
    its string literals (what :func:`check_structure` counts), as :func:`_blank_strings`
    leaves them. For ASCII text with no backslash, everything else is deleted first
    (quotes kept), then every pair of adjacent quotes (an empty string, or the end of a
    string and the start of the next with nothing between: nothing outside a string is
    lost and the quotes still alternate), then what lies between the quotes that remain
    is left out as :func:`_blank_strings` leaves it out. With an odd number of quotes the
    last string is unterminated and :func:`_blank_strings` keeps its content, so removing
    a pair could move text into it (``":""``): such text is blanked as it is.
    ``ascii_bytes``: ``text`` encoded as ASCII, if the caller has it."""
    if "\\" in text or (ascii_bytes is None and not text.isascii()) or text.count('"') % 2:
        return _blank_strings(text)
    data = text.encode("ascii") if ascii_bytes is None else ascii_bytes
    kept = data.translate(None, _NOT_STRUCTURE).replace(b'""', b"")
    return _blank_strings(kept.decode("ascii"))


def _too_deep(bare: str, limit: int) -> bool:
    """True if the brackets of ``bare`` (JSON text with its strings blanked) open more
    than ``limit`` levels deep: the running sum of +1 per opening and -1 per closing,
    computed by ``itertools.accumulate`` (linear, no recursion, no copy of the text).

    ASCII text (every record and component file) is turned into bytes holding only its
    brackets, each opening as 1 and each closing as 255, which a ``memoryview`` reads as
    the signed bytes +1 and -1: the running sum is then made in C, where the plain
    recipe (:func:`_plain_too_deep`) looks every bracket up in a dictionary."""
    if not _FAST_DEPTH or not bare.isascii():
        return _plain_too_deep(bare, limit)
    steps = bare.encode("ascii").translate(_SIGNED_STEPS, _NOT_BRACKET)
    return max(itertools.accumulate(memoryview(steps).cast("b")), default=0) > limit


def _plain_too_deep(bare: str, limit: int) -> bool:
    """:func:`_too_deep` by its recipe, for any text."""
    brackets = re.sub(r"[^\[\]{}]+", "", bare)
    steps = map(_STEP.__getitem__, brackets)
    return max(itertools.accumulate(steps), default=0) > limit


_NOT_BRACKET = bytes(code for code in range(128) if chr(code) not in "[]{}")
"""Every ASCII byte but the brackets (deleted before :data:`_SIGNED_STEPS` applies)."""
_SIGNED_STEPS = bytes(
    1 if chr(code) in "[{" else 255 if chr(code) in "]}" else code for code in range(256)
)
"""Openings to the byte 1 and closings to 255 (-1 as a signed byte)."""
_FAST_DEPTH = True
"""False computes every depth by the plain recipe (the tests compare both ways)."""


def _within_limits(text: str, ascii_bytes: bytes, limits: Limits) -> bool:
    """True when ASCII ``text`` (``ascii_bytes`` encoded) is shown, from a few passes in
    C, to be within both limits :func:`check_structure` checks; False means: check it by
    the recipe (which then gives the verdict and the message).

    - **Values**: every value counted is one character of the text, so text shorter than
      ``limits.max_values`` characters cannot hold too many.
    - **Depth**: with no backslash, the string literals are what lies between the 1st and
      2nd quote, the 3rd and 4th, and so on. Keeping only the brackets and quotes (one
      byte table), if the quotes come in adjacent pairs (twice as many quotes as
      non-overlapping ``""``), every string is empty there: no string holds a bracket,
      and the brackets kept are those outside the strings. They become the signed steps
      +1 and -1 of :func:`_too_deep`. Deleting every adjacent +1 -1 pair (one
      ``bytes.replace``, :data:`_PAIR_PASSES` times) lowers the highest running sum by
      at most one each time, counting the start's 0 as a running sum (the sum just
      before a deleted pair stays, or is that 0), and leaves little of a record (its
      innermost lists and objects go first), so the highest running sum of what is left
      (or 0), plus the passes, bounds the depth from above.
    """
    if len(ascii_bytes) >= limits.max_values or "\\" in text:
        return False
    kept = ascii_bytes.translate(None, _NOT_BRACKET_OR_QUOTE)
    if kept.count(b'"') != 2 * kept.count(b'""'):
        return False
    steps = kept.translate(_SIGNED_STEPS, b'"')
    for _ in range(_PAIR_PASSES):
        steps = steps.replace(b"\x01\xff", b"")
    highest = max(itertools.accumulate(memoryview(steps).cast("b"), initial=0))
    return highest + _PAIR_PASSES <= limits.max_depth


_NOT_BRACKET_OR_QUOTE = bytes(code for code in range(256) if chr(code) not in '[]{}"')
"""Every byte but brackets and quotes (deleted by :func:`_within_limits`)."""
_PAIR_PASSES = 2
"""How many times :func:`_within_limits` deletes the adjacent pairs of brackets."""
_FAST_STRUCTURE = True
"""False checks every text by the recipe alone (the tests compare both ways)."""


# Every name here is documented under tajmahal.inputs, which users import it from.
__all__: list[str] = []
