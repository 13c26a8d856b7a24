"""Fuzzing positions: a damaged state document is refused clearly, or loads into a state
the engine can work with (every legal action applies or is refused with a package error).
"""

from __future__ import annotations

import contextlib
import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from depth import depth
from tajmahal.agents import RandomPlayer, play_match
from tajmahal.engine import apply, legal_actions
from tajmahal.errors import StateFormatError, TajMahalError
from tajmahal.model import default_components
from tajmahal.notation import state_from_json, state_to_json
from tajmahal.records import replay_steps

COMPONENTS = default_components()
RECORD = play_match(COMPONENTS, [RandomPlayer(seat) for seat in range(4)], seed=77).record
POSITIONS = [
    state_to_json(step.after)
    for step in replay_steps(RECORD, COMPONENTS)
    if step.index % 7 == 0 and not step.after.is_over
]

VALUES = (
    st.none()
    | st.booleans()
    | st.integers(-2, 60)
    | st.text(max_size=10)
    | st.sampled_from(
        [
            "red-01",
            "special-mogul",
            "Agra",
            "C3",
            "place",
            "take",
            "shuffle",
            "play",
            "vizier",
            "province-03",
            "bonus-10",
        ]
    )
    | st.lists(st.sampled_from(["red-01", "white-02", "A1", "monk"]), max_size=3)
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index in range(min(len(value), 3)):
            found.extend(_paths(value[index], (*prefix, index)))
    return found


@settings(max_examples=depth(100, 300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=st.integers(0, len(POSITIONS) - 1), data=st.data(), value=VALUES)
def test_damaged_positions_are_refused_or_usable(
    position: int, data: st.DataObject, value: Any
) -> None:
    document = copy.deepcopy(POSITIONS[position])
    path = data.draw(st.sampled_from(_paths(document)))
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    try:
        state = state_from_json(document, COMPONENTS)
    except StateFormatError:
        return
    for action in legal_actions(state):
        with contextlib.suppress(TajMahalError):
            apply(state, action)
