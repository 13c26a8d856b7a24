"""Parsing JSON text under the limits: the parser's hooks and the checks of every value.

The text is parsed by :func:`json.loads` with hooks that see every number, constant and
object (refusing ``NaN``, long integers, numbers too large to be finite, a key twice),
and the parsed document is walked, without recursion, for the values the hooks refused
and for strings and keys that break the string limits (step 4 in
:mod:`tajmahal.inputs`). What the hooks saw of the numbers is kept beside the document
(:class:`Parsed`). This is apart from reading bytes from files and from the text-level
structure checks that run before it. The names are imported from :mod:`tajmahal.inputs`.
"""

from __future__ import annotations

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
    """The parser's number and object hooks for one document. A value they refuse
    becomes a :class:`_Refused` in its place, which :func:`check_values` then reports
    with its path; they note whether they met a number with a fraction or an exponent,
    or an integer of more than :data:`PLAIN_INT_DIGITS` digits."""

    __slots__ = ("int_limit", "long_ints", "non_integers")

    def __init__(self, int_limit: int) -> None:
        self.int_limit = int_limit
        self.non_integers = False
        self.long_ints = False

    def integer(self, text: str) -> int | _Refused:
        digits = len(text.lstrip("-"))
        if digits > PLAIN_INT_DIGITS:
            self.long_ints = True
            if digits > self.int_limit:
                return _Refused(f"an integer of {digits} digits; the limit is {self.int_limit}")
        return int(text)

    def number(self, text: str) -> float | _Refused:
        self.non_integers = True
        if len(text) > 400:
            return _Refused(f"a number written with {len(text)} characters; the limit is 400")
        value = float(text)
        if not math.isfinite(value):
            return _Refused(f"the number {text} is too large to be finite")
        return value

    def constant(self, text: str) -> _Refused:
        self.non_integers = True
        return _Refused(f"{text} is not a JSON number")

    def pairs(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        document = dict(pairs)
        if len(document) != len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
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


def parse_json_document(text: str, limits: Limits, source: str) -> Parsed:
    """Parse JSON text under ``limits``; :class:`InputError` names the source and field."""
    check_structure(text, limits, source)
    numbers = _Numbers(limits.max_int_digits)
    try:
        document = json.loads(
            text,
            parse_int=numbers.integer,
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
    check_values(document, limits, source)
    return Parsed(document, plain_numbers=not (numbers.non_integers or numbers.long_ints))


def parse_json(text: str, limits: Limits, source: str) -> Any:
    """Parse JSON text under ``limits``; :class:`InputError` names the source and field."""
    return parse_json_document(text, limits, source).document


# The functions and classes are documented under tajmahal.inputs, which users import them
# from; only the constants, whose docstrings cannot go with them, are listed here.
__all__ = [
    "PLAIN_INT_DIGITS",
]
