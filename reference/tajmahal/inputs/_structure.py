"""The structure of JSON text, checked before it is parsed: nesting and the number of values.

A document nested a million levels deep would make a recursive parser fail, and one of
millions of tiny values would take memory out of proportion to its bytes; both are
refused from the text alone, in linear time and without recursion, before the parser
sees it (step 3 in :mod:`tajmahal.inputs`). :func:`check_structure` is imported from
:mod:`tajmahal.inputs`.
"""

from __future__ import annotations

import itertools
import re

from tajmahal.inputs._limits import InputError, Limits

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
"""A JSON string literal (unrolled, so matching is linear in its length)."""
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
"""Everything but brackets."""
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
"""How each bracket changes the depth."""


def check_structure(text: str, limits: Limits, source: str) -> None:
    """Refuse text nested deeper than ``limits.max_depth`` or with too many values.

    Strings are blanked out first (a bracket inside a string does not nest; an
    unterminated last string is left as it is); the depth is the running sum of +1 per
    opening and -1 per closing bracket, computed without recursion; every value is
    counted by the comma, colon or opening bracket before it, plus one.
    """
    bare = _STRING.sub("0", text)
    steps = map(_STEP.__getitem__, _NOT_BRACKET.sub("", bare))
    if max(itertools.accumulate(steps), default=0) > limits.max_depth:
        raise InputError(f"nested more than {limits.max_depth} levels deep", source=source)
    values = bare.count(",") + bare.count(":") + bare.count("[") + bare.count("{") + 1
    if values > limits.max_values:
        raise InputError(
            f"about {values} values, more than the limit of {limits.max_values}", source=source
        )


# Every name here is documented under tajmahal.inputs, which users import it from.
__all__: list[str] = []
