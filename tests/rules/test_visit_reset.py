"""What the end of a visit resets, as values: the next visit starts from a clean slate."""

from __future__ import annotations

import pytest
from positions import at_visit, finish_visit, table

from tajmahal.model import Step


@pytest.mark.clause("TM.VISIT.END", "TM.PLAY.COLOUR_RESET", "TM.VISIT.NEXT.START_PLAYER")
def test_the_next_visit_starts_with_every_player_back_in() -> None:
    state = finish_visit(table(("red-02",), ("yellow-02",)))
    assert (state.visit, state.step, state.start_player, state.to_move) == (2, Step.PLAY, 1, 1)
    for seat in range(4):
        player = state.players[seat]
        assert player.withdrawn is False
        assert player.withdrawn_counts is None
        assert player.played == () and player.colour is None


@pytest.mark.clause(
    "TM.VISIT.UNWON_PROVINCE", "RUL.VISIT.UNWON_PROVINCE_TILE", "TM.END.AFTER_TWELVE"
)
def test_an_unwon_province_tile_of_the_last_visit_leaves_the_court_empty() -> None:
    # Nobody plays in visit 12, so its province tile is won by nobody and set aside.
    state = finish_visit(at_visit(table(), 12))
    assert state.step is Step.OVER
    assert state.court_province_tile is None
    for seat in range(4):
        assert state.players[seat].withdrawn is False
        assert state.players[seat].withdrawn_counts is None
