"""Fast drop-ins for reading records: a compiled schema validator that vouches for valid
records before ``jsonschema`` is asked.

``jsonschema`` is the authority on the published schemas and writes every message; it
validates a long record in Python, value by value. ``jsonschema-rs`` (the ``fast``
extra), compiled once from the very schema ``jsonschema`` uses (its references resolved
in advance, :func:`tajmahal.inputs.validator`), checks the same record in a small
fraction of the time. :func:`vouch` asks it; a record it finds valid is valid, and every
other record goes to ``jsonschema``, which decides and writes the message. It is asked
only about records whose numbers are plain (:attr:`tajmahal.inputs.Parsed.plain_numbers`:
integers of at most 15 digits, written without a fraction or an exponent), because on
other numbers the two differ: ``jsonschema-rs`` counts ``4.0`` as an integer, this
package does not. Its regular expressions are stricter than Python's (``$`` does not
match before a final line feed), which only sends more records to ``jsonschema``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tajmahal import records
from tajmahal.accel._inputs import PARSE_JSON_DOCUMENT
from tajmahal.accel._path import FastPath
from tajmahal.inputs import validator


@functools.cache
def _compiled(name: str) -> Callable[[Any], bool] | None:
    """``is_valid`` of a compiled validator for the schema ``name``, built from the
    schema :func:`tajmahal.inputs.validator` uses; None when the ``fast`` extra is not
    installed or cannot compile the schema."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    try:
        compiled = jsonschema_rs.Draft202012Validator(validator(name).schema)
    except Exception:  # a schema it cannot compile: jsonschema alone decides
        return None
    is_valid: Callable[[Any], bool] = compiled.is_valid
    return is_valid


def compiled_available(name: str) -> bool:
    """Whether the compiled validator of schema ``name`` can be asked."""
    return _compiled(name) is not None


def vouch(name: str, document: Any) -> bool:
    """True when the compiled validator finds ``document`` valid against schema ``name``
    (a ``tajmahal.records.SchemaVouch``); False when it finds it invalid, cannot
    read it, or is not installed."""
    is_valid = _compiled(name)
    if is_valid is None:
        return False
    try:
        return is_valid(document)
    except Exception:  # a value it cannot read: jsonschema decides
        return False


def read_record(path: str | Path) -> records.Record:
    """:func:`tajmahal.records.read_record`, the text parsed by the fast
    :func:`~tajmahal.accel.parse_json_document` and :func:`vouch` asked first."""
    return records.read_record(path, parse=_PARSE, vouch=vouch)


_PARSE = PARSE_JSON_DOCUMENT.chosen()
"""The parser the fast :func:`read_record` uses: the fast one unless
``TAJMAHAL_PLAIN=parse_json_document`` switches it off (so that its share is measured)."""

READ_RECORD = FastPath(
    core=records.read_record,
    fast=read_record,
    buys="`tajmahal verify` steps/s: about 3 times (docs/performance.md)",
)

FAST_PATHS: tuple[FastPath[Any], ...] = (READ_RECORD,)
"""The records' fast paths."""
