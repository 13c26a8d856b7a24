"""Parsing JSON text under the limits: the parser's hooks and the checks of every value.

The text is parsed by :func:`json.loads` with hooks that see every number, constant and
object (refusing ``NaN``, long integers, numbers too large to be finite, a key twice),
and the parsed document is walked, without recursion, for strings and keys that break
the string limits (step 4 in :mod:`tajmahal.inputs`). The walk and the integer hook run
only when the text shows they could find something (:func:`parse_json_document`). What
is known of the numbers (:class:`Parsed`) lets the schema check take its short cut.
This is apart from reading bytes from files and from the text-level structure checks
that run before it (:mod:`tajmahal.inputs`). The names are imported from
:mod:`tajmahal.inputs`.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Iterator
from typing import Any

import attrs

from tajmahal.inputs._limits import InputError, Limits
from tajmahal.inputs._structure import check_structure


@attrs.frozen(slots=True)
class _Refused:
    """Stands in for a number the parser refused, so the walk can name its field."""

    reason: str


PLAIN_INT_DIGITS = 15
"""Most digits of an integer that every JSON reader holds exactly (below 2**53)."""


class _Numbers:
    """The parser's number and object hooks for one document, noting what they met: a
    value refused (which :func:`check_values` then reports with its path), a number with
    a fraction or an exponent, an integer of more than :data:`PLAIN_INT_DIGITS` digits."""

    __slots__ = ("int_limit", "long_ints", "non_integers", "refused", "short")

    def __init__(self, int_limit: int) -> None:
        self.int_limit = int_limit
        self.short = min(int_limit, PLAIN_INT_DIGITS)
        """Integers written with at most this many characters need no look."""
        self.refused = False
        self.non_integers = False
        self.long_ints = False

    def integer(self, text: str) -> int | _Refused:
        if len(text) <= self.short:
            return int(text)
        digits = len(text.lstrip("-"))
        if digits > PLAIN_INT_DIGITS:
            self.long_ints = True
            if digits > self.int_limit:
                self.refused = True
                return _Refused(f"an integer of {digits} digits; the limit is {self.int_limit}")
        return int(text)

    def number(self, text: str) -> float | _Refused:
        self.non_integers = True
        if len(text) > 400:
            self.refused = True
            return _Refused(f"a number written with {len(text)} characters; the limit is 400")
        value = float(text)
        if not math.isfinite(value):
            self.refused = True
            return _Refused(f"the number {text} is too large to be finite")
        return value

    def constant(self, text: str) -> _Refused:
        self.refused = True
        self.non_integers = True
        return _Refused(f"{text} is not a JSON number")

    def pairs(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        document = dict(pairs)
        if len(document) != len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    self.refused = True
                    document[key] = _Refused(f"the key {key[:40]!r} appears twice in one object")
                    break
                seen.add(key)
        return document


_FORBIDDEN = re.compile("[\\x00-\\x1f\\x7f-\\x9f\\ud800-\\udfff]")
"""Control characters (they could rewrite a terminal when printed) and lone surrogates
(not Unicode characters at all: they cannot be written as UTF-8)."""


def _check_string(text: str, limits: Limits) -> str | None:
    if len(text) > limits.max_string_chars:
        return f"a string of {len(text)} characters; the limit is {limits.max_string_chars}"
    match = _FORBIDDEN.search(text)
    if match is not None:
        code = ord(match.group())
        kind = "lone surrogate" if 0xD800 <= code <= 0xDFFF else "control character"
        return f"a {kind} \\u{code:04x} at character {match.start()}"
    return None


def _children(value: Any) -> Iterator[tuple[str | int, Any]]:
    return iter(value.items()) if isinstance(value, dict) else enumerate(value)


def _check_scalar(value: Any, limits: Limits) -> str | None:
    if isinstance(value, _Refused):
        return value.reason
    if isinstance(value, str):
        return _check_string(value, limits)
    return None


def check_values(document: Any, limits: Limits, source: str) -> None:
    """Walk the parsed document depth first without recursion (memory in proportion to
    the depth, not the size); refuse the first bad value, naming its path."""
    problem = _check_scalar(document, limits)
    if problem is not None:
        raise InputError(problem, source=source)
    if not isinstance(document, dict | list):
        return
    stack: list[tuple[tuple[str | int, ...], Iterator[tuple[str | int, Any]]]] = [
        ((), _children(document))
    ]
    while stack:
        path, items = stack[-1]
        for key, value in items:
            if isinstance(key, str):
                problem = _check_string(key, limits)
                if problem is not None:
                    raise InputError(f"key: {problem}", source=source, path=path)
            if isinstance(value, dict | list):
                stack.append(((*path, key), _children(value)))
                break
            problem = _check_scalar(value, limits)
            if problem is not None:
                raise InputError(problem, source=source, path=(*path, key))
        else:
            stack.pop()


def _python_scalar_problem(value: Any, limits: Limits) -> str | None:
    """What keeps a Python scalar from being a JSON value read under ``limits``."""
    if isinstance(value, str):
        return _check_string(value, limits)
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        if abs(value) >= 10**PLAIN_INT_DIGITS and abs(value) >= 10**limits.max_int_digits:
            return f"an integer of more than {limits.max_int_digits} digits (the limit)"
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{value!r} is not a JSON number"
    return f"a {type(value).__name__}, which is not a JSON value"


def check_document(document: Any, limits: Limits, source: str) -> None:
    """Refuse a document built in Python unless JSON text read under ``limits`` could
    have given it: dicts with string keys, lists, strings, integers, finite floats,
    booleans and None, nested at most ``limits.max_depth`` levels, at most
    ``limits.max_values`` values, strings within the string limits.

    A document a program hands to the package (a position for ``position_from_json``,
    a request for the protocol's ``Session.handle``) has not been through the parser,
    so nothing has bounded it: it may be nested a hundred thousand levels deep (and make
    a recursive reader fail), or hold a set, bytes or ``float("nan")``. The walk is
    depth first, without recursion; the first problem is an :class:`InputError` naming
    its path."""
    if not isinstance(document, dict | list):
        problem = _python_scalar_problem(document, limits)
        if problem is not None:
            raise InputError(problem, source=source)
        return
    count = 1
    stack: list[tuple[tuple[str | int, ...], Iterator[tuple[Any, Any]], bool]] = [
        ((), _children(document), isinstance(document, dict))
    ]
    while stack:
        path, items, keyed = stack[-1]
        for key, value in items:
            count += 1
            if count > limits.max_values:
                raise InputError(f"more than {limits.max_values} values", source=source, path=path)
            if keyed:
                if not isinstance(key, str):
                    raise InputError(
                        f"a key of type {type(key).__name__} (JSON keys are strings)",
                        source=source,
                        path=path,
                    )
                problem = _check_string(key, limits)
                if problem is not None:
                    raise InputError(f"key: {problem}", source=source, path=path)
            if isinstance(value, dict | list):
                if len(stack) >= limits.max_depth:
                    raise InputError(
                        f"nested more than {limits.max_depth} levels deep",
                        source=source,
                        path=(*path, key),
                    )
                stack.append(((*path, key), _children(value), isinstance(value, dict)))
                break
            problem = _python_scalar_problem(value, limits)
            if problem is not None:
                raise InputError(problem, source=source, path=(*path, key))
        else:
            stack.pop()


@attrs.frozen(slots=True)
class Parsed:
    """A document read under the limits, and what is known of its numbers."""

    document: Any
    """The JSON value: dicts, lists, strings, integers, floats, booleans and None."""
    plain_numbers: bool
    """Every number is an integer of at most
    :data:`~tajmahal.inputs.PLAIN_INT_DIGITS` digits, written without a fraction
    or an exponent: numbers every JSON reader sees as this one does (a reader that holds
    numbers as doubles, or counts ``4.0`` as an integer, too)."""


def _strings_may_be_refused(text: str, limits: Limits) -> bool:
    """False when no string or key of the JSON ``text`` can break the string limits, as
    seen from the text alone: without a backslash there is no escape, so each string is
    the characters between its quotes; those hold no control character below U+0020
    (the parser refuses them), none from U+007F to U+009F and no surrogate (searched
    for), and none runs longer than the limit (searched for). True means: look."""
    if "\\" in text or "\x7f" in text:
        return True
    if not text.isascii() and _WIDE_FORBIDDEN.search(text) is not None:
        return True
    if len(text) <= limits.max_string_chars:
        return False
    if _FAST_STRINGS and _quote_in_every_block(text, limits.max_string_chars):
        return False
    return _long_run(limits.max_string_chars).search(text) is not None


def _quote_in_every_block(text: str, limit: int) -> bool:
    """True when every run of non-quote characters in ``text`` is at most ``limit`` long,
    shown by finding a quote in each whole block of ``(limit + 2) // 2`` characters from
    the start (one search in C per block): a run of more than ``limit`` characters
    covers a whole block. False means: search for a long run itself."""
    size = (limit + 2) // 2
    return all(
        text.find('"', start, start + size) >= 0 for start in range(0, len(text) - size + 1, size)
    )


_FAST_STRINGS = True
"""False searches every long text for long runs by the pattern (the tests compare)."""


_WIDE_FORBIDDEN = re.compile("[\x80-\x9f\ud800-\udfff]")
"""The forbidden characters beyond ASCII (see :data:`_FORBIDDEN`)."""


@functools.cache
def _long_run(limit: int) -> re.Pattern[str]:
    """A quote followed by more than ``limit`` characters that are not quotes."""
    return re.compile(f'"[^"]{{{limit + 1}}}')


def parse_json_document(text: str, limits: Limits, source: str) -> Parsed:
    """Parse JSON text under ``limits``; :class:`InputError` names the source and field.

    The walk over every value (:func:`check_values`) is made only when something in it
    could be refused: a value the parser's hooks refused, or a string the text shows may
    break the string limits; otherwise it would find nothing.
    """
    # Encoded once for the structure check and the integers' check (both need bytes).
    ascii_bytes = text.encode("ascii") if text.isascii() else None
    check_structure(text, limits, source, ascii_bytes)
    numbers = _Numbers(limits.max_int_digits)
    try:
        document = json.loads(
            text,
            # Without an integer of more than ``short`` digits the hook would only
            # convert each integer, as the parser does itself.
            parse_int=numbers.integer
            if not _HOOK_ONLY_IF_NEEDED
            or _may_parse_long_integers(text, numbers.short, ascii_bytes)
            else None,
            parse_float=numbers.number,
            parse_constant=numbers.constant,
            object_pairs_hook=numbers.pairs,
        )
    except json.JSONDecodeError as error:
        raise InputError(
            f"not valid JSON (line {error.lineno}, column {error.colno}): {error.msg}",
            source=source,
        ) from None
    except RecursionError:  # pragma: no cover - check_structure refuses deep text first
        raise InputError(
            f"nested more than {limits.max_depth} levels deep", source=source
        ) from None
    if numbers.refused or _strings_may_be_refused(text, limits) or not _WALK_ONLY_IF_NEEDED:
        check_values(document, limits, source)
    return Parsed(document, plain_numbers=not (numbers.non_integers or numbers.long_ints))


_WALK_ONLY_IF_NEEDED = True
"""False walks every document (the tests compare both ways)."""
_HOOK_ONLY_IF_NEEDED = True
"""False calls the integer hook for every integer (the tests compare both ways)."""

_DIGITS = bytes(
    ord("0") if chr(code) in "0123456789" else code if chr(code) == '"' else ord(" ")
    for code in range(256)
)
"""Turns every ASCII digit into ``0``, keeps quotes and turns every other byte into a
space."""


def _may_hold_long_integers(text: str, short: int, ascii_bytes: bytes | None = None) -> bool:
    """False when no integer of the JSON ``text`` has more than ``short`` digits, as
    seen from the text alone: it is ASCII and no run of more than ``short`` digits
    occurs in it outside its strings. The integer hook notes or refuses only integers
    of more digits (``short`` is at most both limits), so without one it would convert
    every integer as the parser does. True means: look.

    Runs of digits inside strings are common (the hexadecimal digests), so each run
    found is placed: without a backslash no string holds an escaped quote, so a run
    lies inside a string when an odd number of quotes come before it (the parser reads
    the text the same way up to its first error, and stops there). Each run inside a
    string is skipped to that string's closing quote; counting and searching run in C.
    ``ascii_bytes``: ``text`` encoded as ASCII, if the caller has it."""
    if ascii_bytes is None:
        if not text.isascii():
            return True
        ascii_bytes = text.encode("ascii")
    digits = ascii_bytes.translate(_DIGITS)
    run = b"0" * (short + 1)
    found = digits.find(run)
    if found < 0:
        return False
    if "\\" in text:
        return True
    quotes = 0
    position = 0
    while found >= 0:
        quotes += digits.count(b'"', position, found)
        if quotes % 2 == 0:  # outside every string
            return True
        closing = digits.find(b'"', found)
        if closing < 0:  # an unterminated string: let the hook look
            return True
        quotes += 1
        position = closing + 1
        found = digits.find(run, position)
    return False


_RUN_STARTS = bytes(
    ord("0") if chr(code) in "0123456789" else ord(" ") if chr(code) in " \t\n\r[,:-" else ord("a")
    for code in range(256)
)
"""Turns every ASCII digit into ``0``, every byte that may come just before a number the
parser reads (JSON whitespace, ``[``, ``,``, ``:``, ``-``) into a space, and every other
byte into ``a``."""


def _may_parse_long_integers(text: str, short: int, ascii_bytes: bytes | None = None) -> bool:
    """False when the parser, reading the JSON ``text``, can meet no integer of more than
    ``short`` digits; True means: ask :func:`_may_hold_long_integers`.

    The parser reads a number only where a value may start: at the start of the text or
    after JSON whitespace, ``[``, ``,``, ``:`` or (its digits) after ``-``. So the digits
    of every integer it reads begin a run of digits that starts the text or follows one
    of these bytes. Mapped by :data:`_RUN_STARTS`, such a run of more than ``short``
    digits is more than ``short`` zeros at the start of the text or after a space
    (searched for from the end, as spaces are rarer than zeros there); runs after a
    letter (inside a hexadecimal digest, say) or a dot are never read as integers.
    Without such a run the answer is False; a run found may still lie inside a string
    (``"sha256:`` followed by digits), which :func:`_may_hold_long_integers` places."""
    if ascii_bytes is None or not _FAST_INTEGERS:
        return _may_hold_long_integers(text, short, ascii_bytes)
    mapped = ascii_bytes.translate(_RUN_STARTS)
    run = b"0" * (short + 1)
    if mapped.startswith(run) or mapped.rfind(b" " + run) >= 0:
        return _may_hold_long_integers(text, short, ascii_bytes)
    return False


_FAST_INTEGERS = True
"""False places every run of digits found (the tests compare both ways)."""


def parse_json(text: str, limits: Limits, source: str) -> Any:
    """Parse JSON text under ``limits``; :class:`InputError` names the source and field."""
    return parse_json_document(text, limits, source).document


# The functions and classes are documented under tajmahal.inputs, which users import them
# from; only the constants, whose docstrings cannot go with them, are listed here.
__all__ = [
    "PLAIN_INT_DIGITS",
]
