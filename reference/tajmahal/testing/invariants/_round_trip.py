"""The state invariant that a state survives being written as JSON and read back."""

from __future__ import annotations

from collections.abc import Iterable

from tajmahal.model import GameState
from tajmahal.notation import state_from_json, state_to_json


def serialization_round_trip(state: GameState) -> Iterable[str]:
    """Writing a state as JSON and loading it back gives the same state (the position
    format of ``docs/trace-format.md``; no rulebook clause)."""
    try:
        loaded = state_from_json(state_to_json(state), state.config.components)
    except Exception as error:  # any failure to reload is the finding
        yield f"the state does not load back: {type(error).__name__}: {error}"
        return
    if loaded != state:
        yield "the state loaded back differs from the state written"
