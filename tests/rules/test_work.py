"""The working copy gives back exactly the state it was made from when nothing changes.

``Work.freeze`` builds states and players positionally; a field out of order would show
here as a state that differs from the original.
"""

from __future__ import annotations

from scenes import random_game

from tajmahal.engine._work import Work
from tajmahal.model import GameState
from tajmahal.notation import canonical_json


def _states(players: int, seed: int) -> list[GameState]:
    """Every state of one seeded random game, the first and the last included."""
    steps = list(random_game(players, seed))
    return [steps[0][0], *(after for _, _, after in steps)]


def test_untouched_working_copy_freezes_to_the_same_state() -> None:
    for players, seed in ((3, 1), (4, 2), (5, 3)):
        for state in _states(players, seed):
            frozen = Work(state, recording=False).freeze()
            assert frozen == state
            assert hash(frozen) == hash(state)


def test_every_seat_edited_and_nothing_changed_freezes_to_the_same_state() -> None:
    for state in _states(4, 7)[::5]:
        work = Work(state, recording=False)
        for seat in range(len(state.players)):
            assert work.edit(seat) is work.edit(seat)  # one working copy per seat
        frozen = work.freeze()
        assert frozen == state
        assert canonical_json(frozen) == canonical_json(state)
