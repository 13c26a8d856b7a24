"""Bounded, safe reading of the files and standard input the package is given.

Every file a user hands to the package (a game record, a position, a component file)
is read here, so that no input, however hostile, can exhaust memory, recurse without
bound or escape as a traceback. The limits are documented in the README ("Errors and
limits") and checked in this order:

1. **Size**: at most ``limits.max_bytes`` bytes. A regular file is refused from its
   size before anything is read; a pipe, standard input (``-``) or a device is read in
   chunks and refused as soon as one byte more than the limit arrives (``/dev/zero``
   is refused at the limit, not read forever).
2. **Encoding**: strict UTF-8 (a byte-order mark is refused too); the error names the
   byte offset of the first bad byte.
3. **Structure**, before any parsing: nesting at most :data:`MAX_DEPTH` levels of
   arrays and objects, and at most :data:`MAX_VALUES` values and keys in all (counted
   from the text without recursion, so a document nested a million levels deep is refused in
   linear time).
4. **Values**: JSON with no ``NaN``, ``Infinity`` or ``-Infinity``; integers of at
   most :data:`MAX_INT_DIGITS` digits; finite numbers only (``1e400`` is refused);
   strings and keys of at most :data:`MAX_STRING_CHARS` characters with no control
   character (``"\\u001b"``) and no lone surrogate (``"\\ud800"``); no key twice in
   one object. The parser's hooks see every number and key; the strings are looked at
   in a walk over every value only when the text shows one may break these limits
   (:func:`parse_json_document`), so the first bad value is reported either way.

Every failure raises :class:`InputError` naming the source and, where there is one,
the field (``steps[12].action``); callers turn it into their own error class.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import os
import re
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import attrs

from tajmahal.errors import TajMahalError

STDIN = "-"
"""The path that means standard input."""


def display_name(path: str | Path) -> str:
    """How output and reports name a file argument: ``(standard input)`` for ``-``;
    bytes of a name that are not UTF-8 shown as escapes, so printing the name cannot
    fail."""
    text = str(path)
    if text == STDIN:
        return "(standard input)"
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


_CONTROL = re.compile("[\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029]")
"""Characters that could break an output line or rewrite a terminal: control characters
and the Unicode line and paragraph separators."""


def escape_controls(text: str) -> str:
    """``text`` with every character of :data:`_CONTROL` written as its Python escape
    (``\\x1b``, ``\\u2028``), so that an error or report line quoting a value stays one
    harmless line."""
    return _CONTROL.sub(lambda match: ascii(match.group())[1:-1], text)


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
CHUNK = 64 * 1024
"""Bytes read at a time from a pipe or a device."""


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


# ---------------------------------------------------------------------------------------
# Bytes


def _read_stream(stream: BinaryIO, limit: int, source: str) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = stream.read(min(CHUNK, limit + 1 - total))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise InputError(f"larger than the limit of {limit} bytes", source=source)


def read_bytes(path: str | Path, limit: int) -> bytes:
    """The bytes of ``path`` (``-``: standard input), refused past ``limit`` bytes.

    A regular file is checked by size first; anything else (a pipe, a device) is read
    in chunks up to one byte past the limit. A folder, a missing file, a dangling or
    looping symbolic link is an :class:`InputError` naming the path.
    """
    source = str(path)
    if source == STDIN:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise InputError("standard input is not available", source=source)
        return _read_stream(stream, limit, "(standard input)")
    if not source:
        raise InputError("an empty path names no file", source="''")
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below; fstat needs the handle
    except FileNotFoundError:
        dangling = os.path.islink(path)
        raise InputError(
            "dangling symbolic link (its target does not exist)" if dangling else "no such file",
            source=source,
        ) from None
    except IsADirectoryError:
        raise InputError("is a folder, not a file", source=source) from None
    except OSError as error:
        raise InputError(f"cannot be read: {error.strerror or error}", source=source) from None
    except ValueError as error:  # a path with a NUL character, which no file has
        raise InputError(f"cannot be read: {error}", source=repr(source)) from None
    with handle:
        try:
            info = os.fstat(handle.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise InputError("is a folder, not a file", source=source)
            if stat.S_ISREG(info.st_mode) and info.st_size > limit:
                raise InputError(
                    f"{info.st_size} bytes, larger than the limit of {limit} bytes",
                    source=source,
                )
            return _read_stream(handle, limit, source)
        except OSError as error:
            raise InputError(f"cannot be read: {error.strerror or error}", source=source) from None


def decode_utf8(data: bytes, source: str) -> str:
    """Strict UTF-8; the error names the byte offset of the first invalid byte."""
    if data.startswith(b"\xef\xbb\xbf"):
        raise InputError("starts with a byte-order mark (expected plain UTF-8)", source=source)
    try:
        return data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as error:
        raise InputError(
            f"not valid UTF-8: byte offset {error.start} ({error.reason})", source=source
        ) from None


# ---------------------------------------------------------------------------------------
# Structure, checked on the text before parsing


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
"""A JSON string literal (unrolled, so matching is linear in its length)."""
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def check_structure(text: str, limits: Limits, source: str) -> None:
    """Refuse text nested deeper than ``limits.max_depth`` or with too many values.

    Strings are blanked out first (a bracket inside a string does not nest); the depth
    is the running count of openings minus closings, computed without recursion.
    """
    bare = _structure(text)
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


def _structure(text: str) -> str:
    """Text holding, in order, the brackets, commas and colons of ``text`` that lie outside
    its string literals (what :func:`check_structure` counts), as :func:`_blank_strings`
    leaves them. For ASCII text with no backslash, everything else is deleted first
    (quotes kept), then every pair of adjacent quotes (an empty string, or the end of a
    string and the start of the next with nothing between: nothing outside a string is
    lost and the quotes still alternate), then what lies between the quotes that remain
    is left out as :func:`_blank_strings` leaves it out. With an odd number of quotes the
    last string is unterminated and :func:`_blank_strings` keeps its content, so removing
    a pair could move text into it (``":""``): such text is blanked as it is."""
    if "\\" in text or not text.isascii() or text.count('"') % 2:
        return _blank_strings(text)
    kept = text.encode("ascii").translate(None, _NOT_STRUCTURE).replace(b'""', b"")
    return _blank_strings(kept.decode("ascii"))


def _too_deep(bare: str, limit: int) -> bool:
    """True if the brackets of ``bare`` (JSON text with its strings blanked) open more
    than ``limit`` levels deep: the running sum of +1 per opening and -1 per closing,
    computed by ``itertools.accumulate`` (linear, no recursion, no copy of the text)."""
    brackets = re.sub(r"[^\[\]{}]+", "", bare)
    steps = map(_STEP.__getitem__, brackets)
    return max(itertools.accumulate(steps), default=0) > limit


# ---------------------------------------------------------------------------------------
# Values


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


@attrs.frozen(slots=True)
class Parsed:
    """A document read under the limits, and what is known of its numbers."""

    document: Any
    """The JSON value: dicts, lists, strings, integers, floats, booleans and None."""
    plain_numbers: bool
    """Every number is an integer of at most :data:`PLAIN_INT_DIGITS` digits, written
    without a fraction or an exponent: numbers every JSON reader sees as this one does
    (a reader that holds numbers as doubles, or counts ``4.0`` as an integer, too)."""


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
    return _long_run(limits.max_string_chars).search(text) is not None


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
    check_structure(text, limits, source)
    numbers = _Numbers(limits.max_int_digits)
    try:
        document = json.loads(
            text,
            # Without an integer of more than ``short`` digits the hook would only
            # convert each integer, as the parser does itself.
            parse_int=numbers.integer
            if not _HOOK_ONLY_IF_NEEDED or _may_hold_long_integers(text, numbers.short)
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

_DIGITS = bytes(ord("0") if chr(code) in "0123456789" else ord(" ") for code in range(256))
"""Turns every ASCII digit into ``0`` and every other byte into a space."""


def _may_hold_long_integers(text: str, short: int) -> bool:
    """False when no integer of the JSON ``text`` has more than ``short`` digits, as
    seen from the text alone: it is ASCII and no run of more than ``short`` digits
    occurs anywhere in it. The integer hook notes or refuses only integers of more
    digits (``short`` is at most both limits), so without one it would convert every
    integer as the parser does. True means: look."""
    if not text.isascii():
        return True
    return b"0" * (short + 1) in text.encode("ascii").translate(_DIGITS)


def parse_json(text: str, limits: Limits, source: str) -> Any:
    """Parse JSON text under ``limits``; :class:`InputError` names the source and field."""
    return parse_json_document(text, limits, source).document


def read_json_document(path: str | Path, limits: Limits) -> Parsed:
    """Read, decode and parse the JSON document at ``path`` (``-``: standard input)."""
    source = "(standard input)" if str(path) == STDIN else str(path)
    data = read_bytes(path, limits.max_bytes)
    text = decode_utf8(data, source)
    del data  # keep one copy of the input in memory, not two
    return parse_json_document(text, limits, source)


def read_json(path: str | Path, limits: Limits) -> Any:
    """Read, decode and parse the JSON document at ``path`` (``-``: standard input)."""
    return read_json_document(path, limits).document


def read_json_text(text: str, limits: Limits, source: str) -> Any:
    """Parse JSON already in memory (the embedded data files) under the same limits."""
    if len(text.encode("utf-8", errors="surrogatepass")) > limits.max_bytes:
        raise InputError(f"larger than the limit of {limits.max_bytes} bytes", source=source)
    return parse_json(text, limits, source)


def check_record_limits(document: Any, source: str) -> None:
    """Refuse a record with more than :data:`MAX_STEPS` steps, more than five names or a
    name longer than :data:`MAX_NAME_CHARS` (fields of other types are left to the
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
    "PLAIN_INT_DIGITS",
    "RECORD_LIMITS",
    "STDIN",
    "InputError",
    "Limits",
    "Parsed",
    "check_record_limits",
    "check_structure",
    "check_values",
    "decode_utf8",
    "display_name",
    "json_path",
    "parse_json",
    "parse_json_document",
    "read_bytes",
    "read_json",
    "read_json_document",
    "read_json_text",
]
