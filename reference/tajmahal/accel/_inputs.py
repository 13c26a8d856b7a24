"""A fast drop-in for parsing JSON text under the limits: the checks the text shows to be
needless are skipped.

:func:`tajmahal.inputs.parse_json_document` checks the structure of the text (a regular
expression blanks the strings, then every bracket is counted), calls a hook for every
integer, and walks every parsed value for strings and keys that break the limits. On a
game record (a few hundred thousand values, none of them bad) the walk alone is most of
the reading. :func:`parse_json_document` here looks at the ASCII text first, with a few
passes in C, and when the text shows that nothing can be refused (the structure within
the limits, no string that can break the string limits, no integer long enough to
matter) it parses the text with the hooks that only note what they meet; whenever the
text does not show that, or the parser or a hook meets anything to refuse, the text goes
to the core's function, which decides and writes every message. So the result is the
core's, and so is every error.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import re
from typing import Any

from tajmahal import inputs
from tajmahal.accel._path import FastPath
from tajmahal.inputs import PLAIN_INT_DIGITS, Limits, Parsed

# ---------------------------------------------------------------------------------------
# What the text shows


_NOT_BRACKET_OR_QUOTE = bytes(code for code in range(256) if chr(code) not in '[]{}"')
"""Every byte but brackets and quotes (deleted by :func:`_within_limits`)."""
_SIGNED_STEPS = bytes(
    1 if chr(code) in "[{" else 255 if chr(code) in "]}" else code for code in range(256)
)
"""Openings to the byte 1 and closings to 255 (-1 as a signed byte)."""
_PAIR_PASSES = 2
"""How many times :func:`_within_limits` deletes the adjacent pairs of brackets."""


def _within_limits(text: str, data: bytes, limits: Limits) -> bool:
    """True when ASCII ``text`` (``data`` encoded) is shown, from a few passes in C, to
    be within both limits :func:`tajmahal.inputs.check_structure` checks; False means:
    ask the core.

    - **Values**: every value counted is one character of the text, so text shorter than
      ``limits.max_values`` characters cannot hold too many.
    - **Depth**: with no backslash, the string literals are what lies between the 1st and
      2nd quote, the 3rd and 4th, and so on. Keeping only the brackets and quotes (one
      byte table), if the quotes come in adjacent pairs (twice as many quotes as
      non-overlapping ``""``), every string is empty there: no string holds a bracket,
      and the brackets kept are those outside the strings. They become the signed steps
      +1 and -1. Deleting every adjacent +1 -1 pair (one ``bytes.replace``,
      :data:`_PAIR_PASSES` times) lowers the highest running sum by at most one each
      time, counting the start's 0 as a running sum, and leaves little of a record (its
      innermost lists and objects go first), so the highest running sum of what is left
      (or 0), plus the passes, bounds the depth from above.
    """
    if len(data) >= limits.max_values or "\\" in text:
        return False
    kept = data.translate(None, _NOT_BRACKET_OR_QUOTE)
    if kept.count(b'"') != 2 * kept.count(b'""'):
        return False
    steps = kept.translate(_SIGNED_STEPS, b'"')
    for _ in range(_PAIR_PASSES):
        steps = steps.replace(b"\x01\xff", b"")
    highest = max(itertools.accumulate(memoryview(steps).cast("b"), initial=0))
    return highest + _PAIR_PASSES <= limits.max_depth


def _strings_within_limits(text: str, limits: Limits) -> bool:
    """True when no string or key of the ASCII JSON ``text`` can break the string
    limits, as seen from the text alone: without a backslash there is no escape, so each
    string is the characters between its quotes; those hold no control character below
    U+0020 (the parser refuses them), no U+007F (searched for), and none runs longer
    than the limit (a quote found in every block of half the limit, or no long run)."""
    if "\\" in text or "\x7f" in text:
        return False
    limit = limits.max_string_chars
    if len(text) <= limit:
        return True
    size = (limit + 2) // 2  # a run longer than the limit covers a whole block
    starts = range(0, len(text) - size + 1, size)
    if all(text.find('"', start, start + size) >= 0 for start in starts):
        return True
    return _long_run(limit).search(text) is None


@functools.cache
def _long_run(limit: int) -> re.Pattern[str]:
    """A quote followed by more than ``limit`` characters that are not quotes."""
    return re.compile(f'"[^"]{{{limit + 1}}}')


_RUN_STARTS = bytes(
    ord("0") if chr(code) in "0123456789" else ord(" ") if chr(code) in " \t\n\r[,:-" else ord("a")
    for code in range(256)
)
"""Turns every ASCII digit into ``0``, every byte that may come just before a number the
parser reads (JSON whitespace, ``[``, ``,``, ``:``, ``-``) into a space, and every other
byte into ``a``."""
_DIGITS = bytes(
    ord("0") if chr(code) in "0123456789" else code if chr(code) == '"' else ord(" ")
    for code in range(256)
)
"""Turns every ASCII digit into ``0``, keeps quotes and turns every other byte into a
space."""


def _no_long_integers(data: bytes, short: int) -> bool:
    """True when the parser, reading the ASCII JSON text ``data``, can meet no integer of
    more than ``short`` digits.

    The parser reads a number only where a value may start: at the start of the text or
    after JSON whitespace, ``[``, ``,``, ``:`` or (its digits) after ``-``. Mapped by
    :data:`_RUN_STARTS`, such a run of more than ``short`` digits is more than ``short``
    zeros at the start of the text or after a space; runs after a letter (inside a
    hexadecimal digest, say) are never read as integers. A run found may still lie
    inside a string (``"sha256:`` followed by digits): without a backslash no string
    holds an escaped quote, so a run lies inside a string when an odd number of quotes
    come before it, and each such run is skipped to its string's closing quote."""
    run = b"0" * (short + 1)
    mapped = data.translate(_RUN_STARTS)
    if not mapped.startswith(run) and mapped.rfind(b" " + run) < 0:
        return True
    digits = data.translate(_DIGITS)
    quotes = 0
    position = 0
    found = digits.find(run)
    while found >= 0:
        quotes += digits.count(b'"', position, found)
        if quotes % 2 == 0:  # outside every string
            return False
        closing = digits.find(b'"', found)
        if closing < 0:  # an unterminated string
            return False
        quotes += 1
        position = closing + 1
        found = digits.find(run, position)
    return True


# ---------------------------------------------------------------------------------------
# Parsing


class _Refusal(Exception):
    """Something the core would refuse: the text goes to the core."""


class _Noting:
    """The parser's hooks for text that can hold nothing to refuse but what they meet:
    they note numbers with a fraction or an exponent, and stop at anything else."""

    __slots__ = ("non_integers",)

    def __init__(self) -> None:
        self.non_integers = False

    def number(self, text: str) -> float:
        self.non_integers = True
        if len(text) > 400:
            raise _Refusal
        value = float(text)
        if not math.isfinite(value):
            raise _Refusal
        return value

    def constant(self, text: str) -> Any:
        raise _Refusal

    def pairs(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        document = dict(pairs)
        if len(document) != len(pairs):  # a key twice
            raise _Refusal
        return document


def parse_json_document(text: str, limits: Limits, source: str) -> Parsed:
    """:func:`tajmahal.inputs.parse_json_document`, skipping the structure's count, the
    integer hook and the walk over every value when the ASCII text shows that none of
    them can refuse anything."""
    if not text.isascii() or not _strings_within_limits(text, limits):
        return inputs.parse_json_document(text, limits, source)
    data = text.encode("ascii")
    if not _within_limits(text, data, limits) or not _no_long_integers(
        data, min(limits.max_int_digits, PLAIN_INT_DIGITS)
    ):
        return inputs.parse_json_document(text, limits, source)
    hooks = _Noting()
    try:
        document = json.loads(
            text,
            parse_float=hooks.number,
            parse_constant=hooks.constant,
            object_pairs_hook=hooks.pairs,
        )
    except (_Refusal, ValueError):  # refused, or not JSON: the core says why
        return inputs.parse_json_document(text, limits, source)
    return Parsed(document, plain_numbers=not hooks.non_integers)


PARSE_JSON_DOCUMENT = FastPath(
    core=inputs.parse_json_document,
    fast=parse_json_document,
    buys="`tajmahal verify` steps/s: 37 % (cachegrind: 694,000 to 506,000 instructions a "
    "verified step)",
)

FAST_PATHS: tuple[FastPath[Any], ...] = (PARSE_JSON_DOCUMENT,)
"""The inputs' fast paths."""
