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
3. **Structure**, before any parsing: nesting at most
   :data:`~tajmahal.inputs.MAX_DEPTH` levels of arrays and objects, and at most
   :data:`~tajmahal.inputs.MAX_VALUES` values and keys in all (counted from the
   text without recursion, so a document nested a million levels deep is refused in
   linear time).
4. **Values**: JSON with no ``NaN``, ``Infinity`` or ``-Infinity``; integers of at
   most :data:`~tajmahal.inputs.MAX_INT_DIGITS` digits; finite numbers only
   (``1e400`` is refused); strings and keys of at most
   :data:`~tajmahal.inputs.MAX_STRING_CHARS` characters with no control
   character (``"\\u001b"``) and no lone surrogate (``"\\ud800"``); no key twice in
   one object. The parser's hooks see every number and key, and a walk over every
   value finds the first bad one (:func:`parse_json_document`).

Every failure raises :class:`InputError` naming the source and, where there is one,
the field (``steps[12].action``); callers turn it into their own error class.

This module reads the bytes (steps 1 and 2) and gathers the public names; the rest
lives in modules of its own: the limits and :class:`InputError` in
:mod:`tajmahal.inputs`, the structure checks on the text (step 3) in
:mod:`tajmahal.inputs`, parsing and the checks of every value (step 4) in
:mod:`tajmahal.inputs`.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from tajmahal.inputs._limits import (
    COMPONENT_LIMITS,
    MAX_COMPONENT_BYTES,
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_NAME_CHARS,
    MAX_RECORD_BYTES,
    MAX_STEPS,
    MAX_STRING_CHARS,
    MAX_VALUES,
    RECORD_LIMITS,
    InputError,
    Limits,
    check_record_limits,
    json_path,
)
from tajmahal.inputs._parsing import (
    PLAIN_INT_DIGITS,
    Parsed,
    check_document,
    check_values,
    parse_json,
    parse_json_document,
)
from tajmahal.inputs._structure import check_structure

STDIN = "-"
"""The path that means standard input."""
STDIN_NAME = "(standard input)"
"""How messages name standard input."""


def source_name(path: str | Path) -> str:
    """The ``source`` an error about the file at ``path`` names: :data:`STDIN_NAME` for
    ``-``, otherwise the path as given."""
    text = str(path)
    return STDIN_NAME if text == STDIN else text


def display_name(path: str | Path) -> str:
    """How output and reports name a file argument: ``(standard input)`` for ``-``;
    bytes of a name that are not UTF-8 shown as escapes, so printing the name cannot
    fail."""
    text = str(path)
    if text == STDIN:
        return STDIN_NAME
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


_CONTROL = re.compile("[\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029]")
"""Characters that could break an output line or rewrite a terminal: control characters
and the Unicode line and paragraph separators."""


def escape_controls(text: str) -> str:
    """``text`` with every control character and every Unicode line or paragraph
    separator written as its Python escape (``\\x1b``, ``\\u2028``), so that an error
    or report line quoting a value stays one harmless line."""
    return _CONTROL.sub(lambda match: ascii(match.group())[1:-1], text)


CHUNK = 64 * 1024
"""Bytes read at a time from a pipe or a device."""


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


FIFO_WAIT = 1.0
"""Seconds a named pipe given as a file may take to get a writer (a FIFO that none
opens would otherwise block the reader for ever)."""


def _read_fifo(handle: BinaryIO, limit: int, source: str) -> bytes:
    """Read a named pipe: once a writer has it open (within :data:`FIFO_WAIT`), to its
    end, as standard input is read; one that no writer opens in time is refused."""
    fd = handle.fileno()
    deadline = time.monotonic() + FIFO_WAIT
    first = b""
    while True:
        try:
            first = os.read(fd, CHUNK)
        except BlockingIOError:  # a writer has it open, nothing written yet
            break
        if first:
            break
        if time.monotonic() >= deadline:  # no writer (a pipe without one reads as ended)
            raise InputError(
                f"a named pipe (FIFO) that no program writes to (waited {FIFO_WAIT:g} s)",
                source=source,
            )
        time.sleep(0.02)
    os.set_blocking(fd, True)
    if first:
        if len(first) > limit:
            raise InputError(f"larger than the limit of {limit} bytes", source=source)
        try:
            return first + _read_stream(handle, limit - len(first), source)
        except InputError:
            raise InputError(f"larger than the limit of {limit} bytes", source=source) from None
    return _read_stream(handle, limit, source)


def read_bytes(path: str | Path, limit: int) -> bytes:
    """The bytes of ``path`` (``-``: standard input), refused past ``limit`` bytes.

    A regular file is checked by size first; anything else (a pipe, a device) is read
    in chunks up to one byte past the limit. A folder, a missing file, a dangling or
    looping symbolic link, a socket and a named pipe that no program writes to (see
    :func:`_read_fifo`) are each an :class:`InputError` naming the path.
    """
    source = str(path)
    if source == STDIN:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise InputError("standard input is not available", source=source)
        return _read_stream(stream, limit, STDIN_NAME)
    if not source:
        raise InputError("an empty path names no file", source="''")
    try:
        # Opened without blocking: a named pipe (FIFO) opens at once, writer or not.
        handle = os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC), "rb")
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
            if stat.S_ISFIFO(info.st_mode):
                return _read_fifo(handle, limit, source)
            os.set_blocking(handle.fileno(), True)
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


Parse = Callable[[str, Limits, str], Parsed]
"""A parser of JSON text under limits (:func:`parse_json_document` or a drop-in for it)."""


def read_json_document(
    path: str | Path, limits: Limits, *, parse: Parse = parse_json_document
) -> Parsed:
    """Read, decode and parse (by ``parse``) the JSON document at ``path`` (``-``:
    standard input)."""
    source = source_name(path)
    data = read_bytes(path, limits.max_bytes)
    text = decode_utf8(data, source)
    del data  # keep one copy of the input in memory, not two
    return parse(text, limits, source)


def read_json(path: str | Path, limits: Limits) -> Any:
    """Read, decode and parse the JSON document at ``path`` (``-``: standard input)."""
    return read_json_document(path, limits).document


def read_json_text(text: str, limits: Limits, source: str) -> Any:
    """Parse JSON already in memory (the embedded data files) under the same limits."""
    if len(text.encode("utf-8", errors="surrogatepass")) > limits.max_bytes:
        raise InputError(f"larger than the limit of {limits.max_bytes} bytes", source=source)
    return parse_json(text, limits, source)


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
    "STDIN_NAME",
    "InputError",
    "Limits",
    "Parse",
    "Parsed",
    "check_document",
    "check_record_limits",
    "check_structure",
    "check_values",
    "decode_utf8",
    "display_name",
    "escape_controls",
    "json_path",
    "parse_json",
    "parse_json_document",
    "read_bytes",
    "read_json",
    "read_json_document",
    "read_json_text",
    "source_name",
]
