"""Fuzzing game records: any damaged record gets a clear error, never a traceback.

A real record is damaged at random places (a value replaced by arbitrary JSON, a key
deleted, an action string rewritten, steps dropped or swapped). Reading and verifying it
must then either succeed or raise one of the package's own errors, whose message names
where the problem is.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tajmahal.components import default_components
from tajmahal.errors import TajMahalError
from tajmahal.trace import record_from_json, verify

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = json.loads((ROOT / "specs" / "traces" / "seeded-3p-001.json").read_text())
# Only the sampled steps (see _paths) keep their digests, clauses and tags: replaying the
# others then costs no digest, so each example stays cheap.
_KEPT = {0, 1, len(GOLDEN["steps"]) // 2, len(GOLDEN["steps"]) - 1}
for _index, _step in enumerate(GOLDEN["steps"]):
    if _index not in _KEPT:
        for _field in ("legal_count", "legal_digest", "state_digest", "clauses", "tags"):
            _step.pop(_field, None)
COMPONENTS = default_components()

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 200)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["red-01", "white-03", "Agra", "chance", "withdraw"]),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON document (steps sampled to keep it small)."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        indexes = range(len(value)) if len(value) <= 12 else (0, 1, len(value) // 2, len(value) - 1)
        for index in indexes:
            found.extend(_paths(value[index], (*prefix, index)))
    return found


PATHS = _paths(GOLDEN)


def _set(document: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        document = document[key]
    document[path[-1]] = value


def _delete(document: Any, path: tuple[Any, ...]) -> None:
    for key in path[:-1]:
        document = document[key]
    del document[path[-1]]


def _check(document: Any) -> None:
    try:
        record = record_from_json(document, "fuzzed.json")
        verify(record, COMPONENTS, "fuzzed.json")
    except TajMahalError as error:
        assert str(error).startswith("fuzzed.json")


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(path=st.sampled_from(PATHS), value=JSON_VALUES)
def test_replacing_any_value_gives_a_clear_error(path: tuple[Any, ...], value: Any) -> None:
    document = copy.deepcopy(GOLDEN)
    _set(document, path, value)
    _check(document)


@FUZZ
@given(path=st.sampled_from(PATHS))
def test_deleting_any_field_gives_a_clear_error(path: tuple[Any, ...]) -> None:
    document = copy.deepcopy(GOLDEN)
    _delete(document, path)
    _check(document)


@FUZZ
@given(
    index=st.integers(0, len(GOLDEN["steps"]) - 1),
    action=st.text(max_size=30)
    | st.sampled_from(
        [
            "withdraw",
            "play red-01",
            "take red-01 red-02",
            "crown Agra",
            "palace A1",
            "reshuffle red-01",
            "play  red-01",
            "take b a",
        ]
    ),
)
def test_rewriting_an_action_gives_a_clear_error(index: int, action: str) -> None:
    document = copy.deepcopy(GOLDEN)
    document["steps"][index]["action"] = action
    _check(document)


@FUZZ
@given(
    first=st.integers(0, len(GOLDEN["steps"]) - 1),
    second=st.integers(0, len(GOLDEN["steps"]) - 1),
    keep=st.integers(0, len(GOLDEN["steps"])),
)
def test_swapping_and_dropping_steps_gives_a_clear_error(
    first: int, second: int, keep: int
) -> None:
    document = copy.deepcopy(GOLDEN)
    steps = document["steps"]
    steps[first], steps[second] = steps[second], steps[first]
    document["steps"] = steps[:keep]
    _check(document)
