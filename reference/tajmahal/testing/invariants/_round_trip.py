"""The state invariant that a state survives being written as JSON and read back."""

from __future__ import annotations

from collections.abc import Iterable

from tajmahal.model import GameState
from tajmahal.notation import reads_back, state_from_json, state_to_json


def serialization_round_trip(state: GameState) -> Iterable[str]:
    """Writing a state as JSON and loading it back gives the same state (the position
    format of ``docs/trace-format.md``; no rulebook clause).

    The whole state is written every time. :func:`tajmahal.notation.reads_back` reads
    it back part by part, leaving out the parts of ``state`` that are the very objects
    it found read back equal before (consecutive states of a game share most of their
    parts), and checks the whole state as the reader does; when it cannot vouch for the
    state, :func:`tajmahal.notation.state_from_json` reads the whole document and its
    answer is the verdict."""
    document = state_to_json(state)
    if reads_back(state, document):
        return
    try:
        loaded = state_from_json(document, state.config.components)
    except Exception as error:  # any failure to reload is the finding
        yield f"the state does not load back: {type(error).__name__}: {error}"
        return
    if loaded != state:
        yield "the state loaded back differs from the state written"
