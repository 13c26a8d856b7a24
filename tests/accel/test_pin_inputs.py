"""Parsing JSON text with the fast drop-in gives exactly what the core's parser gives: the
same document and numbers, or the same error.

``accel._inputs.parse_json_document`` skips the structure's count, the integer hook and
the walk over every value when the text shows that none of them can refuse anything.
It is compared with :func:`tajmahal.inputs.parse_json_document` on generated texts (made
of the pieces that matter: quotes, backslashes, brackets, long integers, digests,
constants, repeated keys), on any JSON value, on nesting around the limit, on every
record of the golden corpus and on every hostile text of ``tests/hostile``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from depth import depth
from hostile.test_hostile_files import BAD_BYTES, DEEP_TEXTS, VALUE_TEXTS
from tajmahal.accel import _inputs
from tajmahal.inputs import MAX_STRING_CHARS, RECORD_LIMITS, InputError, Limits, Parsed

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "specs" / "traces"
PARSE = _inputs.PARSE_JSON_DOCUMENT
SETTINGS = settings(
    max_examples=depth(30, 80),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
pins = pytest.mark.pins(PARSE)


def outcome(parse: Any, text: str, limits: Limits = RECORD_LIMITS) -> Parsed | str:
    """The parsed document, or the error message."""
    try:
        return parse(text, limits, "x.json")  # type: ignore[no-any-return]
    except InputError as error:
        return str(error)


def same(text: str, limits: Limits = RECORD_LIMITS) -> Parsed | str:
    found = outcome(PARSE.fast, text, limits)
    assert found == outcome(PARSE.core, text, limits)
    return found


JSON_PIECES = st.sampled_from(
    [
        *['"', "\\", "\\u0000", "\\ud800", "\\n", "\x7f", "\x85", "é", "[", "]", "{", "}", ","],
        *[":", "1", "1.5", "1e400", "NaN", "12345678901234567890", "9" * 41, "true", "null"],
        *[" ", '"a"', '"k":', '{"a":1,"a":2}', "-0", "4.0", "\x01", "1" + "0" * 399 + ".5"],
        *["123456789012345", "-123456789012345", "1234567890123456", '"1234567890123456"'],
        *['"sha256:1234567890123456"', '"a12345678901234567"', "12345678901234567"],
    ]
)


@pins
@SETTINGS
@given(pieces=st.lists(JSON_PIECES, max_size=40))
def test_generated_texts_parse_as_the_core_parses_them(pieces: list[str]) -> None:
    text = "".join(pieces)
    for candidate in (text, f"[{text}]", '{"a": [' + text + "]}"):
        same(candidate)


@pins
@SETTINGS
@given(
    value=st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
        lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    )
)
def test_any_json_value_parses_as_the_core_parses_it(value: Any) -> None:
    same(json.dumps(value, ensure_ascii=False, allow_nan=True))
    same(json.dumps(value, allow_nan=True))


@pins
@SETTINGS
@given(
    text=st.text(alphabet='[]{}",:\\ab0123', max_size=80),
    depth=st.integers(min_value=0, max_value=6),
    values=st.integers(min_value=1, max_value=90),
    strings=st.integers(min_value=1, max_value=8),
    digits=st.integers(min_value=1, max_value=4),
)
@example(text="[[[]]]", depth=2, values=100, strings=8, digits=4)
@example(text="[[[]]]", depth=3, values=100, strings=8, digits=4)
@example(text='["]]]]", [[[]]]]', depth=3, values=100, strings=8, digits=4)
@example(text='["[[[[", []]', depth=2, values=100, strings=8, digits=4)
@example(text='"[""]"', depth=0, values=100, strings=8, digits=4)
@example(text="[,,,,]", depth=4, values=5, strings=8, digits=4)
@example(text='["aaaaaaaaa"]', depth=4, values=50, strings=8, digits=4)
@example(text="[12345]", depth=4, values=50, strings=8, digits=4)
@example(text='["12345"]', depth=4, values=50, strings=8, digits=4)
def test_texts_near_every_limit_parse_as_the_core_parses_them(
    text: str, depth: int, values: int, strings: int, digits: int
) -> None:
    limits = Limits(
        RECORD_LIMITS.max_bytes,
        max_depth=depth,
        max_values=values,
        max_int_digits=digits,
        max_string_chars=strings,
    )
    same(text, limits)


@pins
@pytest.mark.parametrize("depth", [1, 2, 30, 31, 32, 33, 34, 40])
def test_nesting_around_the_limit_is_judged_as_the_core_judges_it(depth: int) -> None:
    for text in (
        "[" * depth + "]" * depth,
        '{"a":' * depth + "1" + "}" * depth,
        "[" * depth + "1" + "]" * depth + ",[]",
        "[" + "[]," * 5 + "[" * depth + "]" * depth + "]",
        '["[",' + "[" * depth + "]" * depth + "]",
    ):
        same(text)


@pins
def test_long_strings_and_integers_are_refused_with_their_path() -> None:
    long = "x" * (MAX_STRING_CHARS + 1)
    found = same(json.dumps({"steps": [{"action": long}], "pad": "y" * 10}))
    assert isinstance(found, str)
    assert found.startswith(f"x.json: steps[0].action: a string of {MAX_STRING_CHARS + 1}")
    assert isinstance(same('{"n": [1, 2, 1234567890123456]}'), Parsed)
    assert isinstance(same('{"d": "sha256:1234567890123456", "n": 12345678901234567}'), Parsed)


@pins
def test_every_corpus_record_parses_as_the_core_parses_it() -> None:
    for path in sorted(CORPUS.glob("*.json")):
        parsed = same(path.read_text(encoding="utf-8"))
        assert isinstance(parsed, Parsed) and parsed.plain_numbers


HOSTILE_TEXTS: dict[str, str] = {
    **{name: text.decode("utf-8", "replace") for name, text in DEEP_TEXTS.items()},
    **{name: text.decode("utf-8", "replace") for name, text in BAD_BYTES.items()},
    **VALUE_TEXTS,
}


@pins
@pytest.mark.parametrize("name", sorted(HOSTILE_TEXTS))
def test_every_hostile_text_parses_or_is_refused_as_the_core_does_it(name: str) -> None:
    same(HOSTILE_TEXTS[name])


@pins
def test_a_damaged_corpus_record_parses_as_the_core_parses_it() -> None:
    """Records one edit away from a golden one."""
    text = (CORPUS / "edge-tie-1.json").read_text(encoding="utf-8")
    edits = [
        ('"version": 2', '"version": 12345678901234567'),
        ('"version": 2', '"version": ' + "[" * 33 + "2" + "]" * 33),
        ('"version": 2', '"version": 2, "version": 2'),
        ('"version": 2', '"version": 2.0'),
        ('"version": 2', '"version": NaN'),
        ('"format"', '"form\\u0061t"'),
        ('"format"', '"form[at"'),
        ("tajmahal-trace", "tajmahal-trace\x7f"),
        ("tajmahal-trace", "tajmahal-trace\x01"),
    ]
    for old, new in edits:
        assert old in text
        same(text.replace(old, new, 1))
