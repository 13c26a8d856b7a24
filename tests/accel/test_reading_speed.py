"""Reading a record takes short cuts that give exactly what the plain recipes give.

The bounded reader (``tajmahal.inputs``) looks at the text before it parses it: the
nesting depth and the number of values (``input_structure``), whether an integer may be
long enough for the parser's hook to matter, and whether a string may break the string
limits (``input_parsing``). Each has a short cut that answers "nothing to look at" from a
few passes in C and otherwise hands the text to the recipe (docs/performance.md, "Tenth
round"). Here each short cut is checked against its recipe on generated texts, on every
record of the golden corpus and on every hostile text of ``tests/hostile``: the same
document, or the same error, either way.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hostile.test_hostile_files import BAD_BYTES, DEEP_TEXTS, VALUE_TEXTS
from tajmahal.errors import RecordError
from tajmahal.inputs import RECORD_LIMITS, InputError, Limits, check_structure, parse_json_document
from tajmahal.inputs import _parsing as input_parsing
from tajmahal.inputs import _structure as input_structure
from tajmahal.records import Record, read_record
from tajmahal.verification import collect_paths

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "specs" / "traces"
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SHORT_CUTS = (
    (input_structure, "_FAST_STRUCTURE"),
    (input_parsing, "_FAST_INTEGERS"),
    (input_parsing, "_FAST_STRINGS"),
)
"""The switches that turn each short cut of this round off."""


@contextlib.contextmanager
def short_cuts(on: bool) -> Iterator[None]:
    """Every short cut of this round on, or (``on`` False) off, for the ``with`` block."""
    with pytest.MonkeyPatch.context() as patch:
        for module, name in SHORT_CUTS:
            patch.setattr(module, name, on)
        yield


def structure_verdict(text: str, limits: Limits, fast: bool) -> str | None:
    """The error :func:`check_structure` raises for ``text`` (None: none), with or
    without the short cut."""
    data = text.encode("ascii") if text.isascii() else None
    with short_cuts(fast):
        try:
            check_structure(text, limits, "x", data)
        except InputError as error:
            return str(error)
    return None


def parsed(text: str, limits: Limits, fast: bool) -> Any:
    """The document and what is known of its numbers, or the error message."""
    with short_cuts(fast):
        try:
            return parse_json_document(text, limits, "x.json")
        except InputError as error:
            return str(error)


def record_or_error(path: Path, fast: bool) -> Record | str:
    with short_cuts(fast):
        try:
            return read_record(path)
        except RecordError as error:
            return str(error)


# ---------------------------------------------------------------------------------------
# The structure: depth and the number of values


@SETTINGS
@given(
    text=st.text(alphabet='[]{}",:\\ab0é', max_size=80),
    depth=st.integers(min_value=0, max_value=6),
    values=st.integers(min_value=1, max_value=90),
)
@example(text="[[[]]]", depth=2, values=100)
@example(text="[[[]]]", depth=3, values=100)
@example(text='["]]]]", [[[]]]]', depth=3, values=100)
@example(text='["[[[[", []]', depth=2, values=100)
@example(text="[],[],[]]]][[[[", depth=3, values=100)
@example(text='"[""]"', depth=0, values=100)
@example(text="[,,,,]", depth=4, values=5)
def test_the_structure_short_cut_gives_the_recipes_verdict(
    text: str, depth: int, values: int
) -> None:
    limits = Limits(RECORD_LIMITS.max_bytes, max_depth=depth, max_values=values)
    assert structure_verdict(text, limits, True) == structure_verdict(text, limits, False)


@SETTINGS
@given(
    text=st.text(alphabet='[]{}",:ab0', max_size=80),
    depth=st.integers(min_value=0, max_value=6),
)
def test_the_structure_short_cut_never_passes_text_the_recipe_refuses(
    text: str, depth: int
) -> None:
    limits = Limits(RECORD_LIMITS.max_bytes, max_depth=depth)
    if input_structure._within_limits(text, text.encode("ascii"), limits):
        assert structure_verdict(text, limits, False) is None


@pytest.mark.parametrize("depth", [1, 2, 3, 30, 31, 32, 33, 34, 40])
def test_nesting_around_the_limit_is_judged_as_the_recipe_judges_it(depth: int) -> None:
    for text in (
        "[" * depth + "]" * depth,
        '{"a":' * depth + "1" + "}" * depth,
        "[" * depth + "1" + "]" * depth + ",[]",
        "[" + "[]," * 5 + "[" * depth + "]" * depth + "]",
        '["[",' + "[" * depth + "]" * depth + "]",
    ):
        assert structure_verdict(text, RECORD_LIMITS, True) == structure_verdict(
            text, RECORD_LIMITS, False
        )


# ---------------------------------------------------------------------------------------
# Integers: the parser's hook only where it may meet a long one


def integers_read(text: str) -> list[str]:
    """Every integer the parser reads in ``text``, as written, up to its first error."""
    seen: list[str] = []

    def note(literal: str) -> int:
        seen.append(literal)
        return 0

    with contextlib.suppress(json.JSONDecodeError, ValueError, RecursionError):
        json.loads(text, parse_int=note)
    return seen


NUMBER_PIECES = st.sampled_from(
    [
        *["[", "]", "{", "}", ",", ":", " ", "\n", "-", ".", "e", '"', "a", "1", "0"],
        *["1234567890123456", "123456789012345", "-1234567890123456", '"k":'],
        *['"sha256:1234567890123456"', "sha256:", "true", "null", "1.5", "2e1234567890123456"],
    ]
)


@SETTINGS
@given(pieces=st.lists(NUMBER_PIECES, max_size=30))
@example(pieces=["1234567890123456"])
@example(pieces=["[", "-1234567890123456", "]"])
@example(pieces=['"k":', "1234567890123456"])
@example(pieces=["[", '"sha256:1234567890123456"', ",", "1", "]"])
def test_without_a_run_after_a_value_start_no_long_integer_is_read(pieces: list[str]) -> None:
    text = "".join(pieces)
    if not input_parsing._may_parse_long_integers(text, 15, text.encode("ascii")):
        assert all(len(literal.lstrip("-")) <= 15 for literal in integers_read(text))
    for candidate in (text, f"[{text}]", '{"a": [' + text + "]}"):
        assert parsed(candidate, RECORD_LIMITS, True) == parsed(candidate, RECORD_LIMITS, False)


def test_digests_in_strings_need_no_hook_and_numbers_outside_do() -> None:
    short = input_parsing.PLAIN_INT_DIGITS

    def needs(text: str) -> bool:
        return input_parsing._may_parse_long_integers(text, short, text.encode("ascii"))

    assert not needs('{"d": "sha256:ab1234567890123456789", "n": [123456789012345]}')
    assert not needs('{"x": 1.1234567890123456789, "y": "a1234567890123456789"}')
    assert needs('{"n": 1234567890123456}')
    assert needs('{"n":[-1234567890123456]}')
    assert needs("1234567890123456")
    # A run after "sha256:" is placed by the quotes: inside a string, no hook.
    assert not needs('{"d": "sha256:1234567890123456"}')


# ---------------------------------------------------------------------------------------
# Strings: the long-run search only where a run may be long


@SETTINGS
@given(text=st.text(alphabet='"ab', max_size=60), limit=st.integers(min_value=0, max_value=12))
@example(text='"' + "a" * 11, limit=10)
@example(text="a" * 10 + '"' + "a" * 10, limit=10)
def test_a_quote_in_every_block_means_no_long_run(text: str, limit: int) -> None:
    if input_parsing._quote_in_every_block(text, limit):
        assert re.search(f'[^"]{{{limit + 1}}}', text) is None


@SETTINGS
@given(
    pieces=st.lists(st.sampled_from(['"', "a", "b" * 7, ", ", "[", "]", "é", "\x85"]), max_size=30),
    limit=st.integers(min_value=0, max_value=12),
)
def test_the_string_short_cut_gives_the_recipes_outcome(pieces: list[str], limit: int) -> None:
    text = "".join(pieces)
    limits = Limits(RECORD_LIMITS.max_bytes, max_string_chars=limit)
    for candidate in (text, f"[{text}]", f'["{text}"]'):
        assert parsed(candidate, limits, True) == parsed(candidate, limits, False)


# ---------------------------------------------------------------------------------------
# Whole records: the corpus and every hostile text


def test_every_corpus_record_takes_the_short_cuts() -> None:
    """The golden corpus is what the short cuts are for: each file's structure is
    judged from the short cut, and no file needs the integer hook."""
    for path in collect_paths([CORPUS]):
        text = Path(path).read_text(encoding="utf-8")
        data = text.encode("ascii")
        assert input_structure._within_limits(text, data, RECORD_LIMITS), path
        assert not input_parsing._may_parse_long_integers(text, 15, data), path


def test_every_corpus_record_reads_the_same_either_way() -> None:
    for path in collect_paths([CORPUS]):
        found = record_or_error(Path(path), True)
        assert isinstance(found, Record)
        assert found == record_or_error(Path(path), False)


HOSTILE_TEXTS: dict[str, bytes] = {
    **DEEP_TEXTS,
    **BAD_BYTES,
    **{name: text.encode("utf-8") for name, text in VALUE_TEXTS.items()},
}


@pytest.mark.parametrize("name", sorted(HOSTILE_TEXTS))
def test_every_hostile_text_is_refused_the_same_either_way(name: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.json"
    path.write_bytes(HOSTILE_TEXTS[name])
    found = record_or_error(path, True)
    assert isinstance(found, str)
    assert found == record_or_error(path, False)


def test_a_damaged_corpus_record_is_refused_the_same_either_way(tmp_path: Path) -> None:
    """Records one edit away from a golden one: each reads to the same record or error."""
    text = (CORPUS / "edge-tie-1.json").read_text(encoding="utf-8")
    edits = [
        ('"version": 2', '"version": 12345678901234567'),
        ('"version": 2', '"version": ' + "[" * 33 + "2" + "]" * 33),
        ('"version": 2', '"version": 2, "version": 2'),
        ('"version": 2', '"version": 2.0'),
        ('"format"', '"form\\u0061t"'),
        ('"format"', '"form[at"'),
        ("tajmahal-trace", "tajmahal-trace\x7f"),
    ]
    for index, (old, new) in enumerate(edits):
        assert old in text
        path = tmp_path / f"edit-{index}.json"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        assert record_or_error(path, True) == record_or_error(path, False)


# ---------------------------------------------------------------------------------------
# The steps, built in one loop: what a schema cannot say is refused at the first step


def _steps_damaged(tmp_path: Path, damage: dict[int, dict[str, Any]]) -> str:
    """The error reading ``edge-tie-1.json`` (3 players) with some steps' fields
    replaced (keys are indices into ``steps``: index I is step I + 1)."""
    document = json.loads((CORPUS / "edge-tie-1.json").read_text(encoding="utf-8"))
    for index, fields in damage.items():
        document["steps"][index].update(fields)
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    found = record_or_error(path, True)
    assert isinstance(found, str)
    return found


def test_a_seat_beyond_the_players_is_refused_at_its_step(tmp_path: Path) -> None:
    found = _steps_damaged(tmp_path, {7: {"actor": 3}, 9: {"scores": [0, 0, 0, 0, 0]}})
    assert found.endswith("expected a seat from 0 to 2 or 'chance', found 3")
    assert "step 8" in found and "actor" in found


def test_scores_of_the_wrong_length_are_refused_at_their_step(tmp_path: Path) -> None:
    found = _steps_damaged(tmp_path, {9: {"scores": [0, 0, 0, 0]}, 12: {"actor": 4}})
    assert found.endswith("expected 3 scores, found 4")
    assert "step 10" in found and "scores" in found


def test_listed_legal_actions_must_match_their_count_and_digest(tmp_path: Path) -> None:
    found = _steps_damaged(tmp_path, {2: {"legal": ["withdraw"], "legal_count": 1}})
    assert found.endswith("the legal actions listed do not match legal_count and legal_digest")
    assert "step 3" in found and "legal" in found
