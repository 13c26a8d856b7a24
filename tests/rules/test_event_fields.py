"""Event fields as data: the clauses an event names in situations the golden games miss.

The golden event streams (``tests/golden/``) pin every field of every event of five
games; these hand-built positions cover what those games never reach.
"""

from __future__ import annotations

import attrs
import pytest
from positions import (
    COMPONENTS,
    table,
    with_hand,
    with_played,
)
from scenes import tied_at_the_end

from tajmahal.engine import apply_with_events
from tajmahal.model import CardColour, Event, EventKind, GameState, SpecialKind, parse_action

COLOUR_CHANGE = COMPONENTS.special_of_kind(SpecialKind.COLOUR_CHANGE).id


def events_of(state: GameState, text: str, kind: EventKind) -> list[Event]:
    _, events = apply_with_events(state, parse_action(text))
    return [event for event in events if event.kind is kind]


@pytest.mark.clause("TM.PLAY.COLOUR_LOCK", "TM.SPECIAL.COLOUR_CHANGE")
def test_the_colour_change_card_kept_in_the_same_colour_is_a_colour_lock_play() -> None:
    # Seat 0 has played red-08 this visit and plays red-07 with the colour-change card:
    # the colour is not changed, so the play is decided by the colour lock.
    state = with_hand(table(), 0, ("red-07", "green-08", COLOUR_CHANGE))
    state = attrs.evolve(with_played(state, 0, ("red-08",)), to_move=0)
    [same] = events_of(state, f"play red-07 {COLOUR_CHANGE}", EventKind.PLAY)
    assert same.clauses == ("TM.PLAY.ONE_COLOURED", "TM.PLAY.EXTRA_CARD", "TM.PLAY.COLOUR_LOCK")
    [changed] = events_of(state, f"play green-08 {COLOUR_CHANGE}", EventKind.PLAY)
    assert changed.clauses == (
        "TM.PLAY.ONE_COLOURED",
        "TM.PLAY.EXTRA_CARD",
        "TM.SPECIAL.COLOUR_CHANGE",
        "TM.SPECIAL.COLOUR_CHANGE.ONE_TURN",
    )
    assert state.players[0].colour is CardColour.RED


@pytest.mark.clause("TM.END.WINNER", "TM.END.TIE", "RUL.END.TIED_WINNERS")
def test_tied_winners_are_named_with_the_tie_clauses() -> None:
    # Visit 12, 3 players on 39, 38 and 34 points; seat 0 withdraws last. Hands: seat 0 a
    # white card (+1), seat 1 two reds and a green (+2), seat 2 one yellow (+1): 40, 40, 35.
    state = tied_at_the_end()
    [end] = events_of(state, "withdraw", EventKind.END)
    assert end.seats == (0, 1) and end.counts == (40, 40, 35)
    assert end.clauses == ("TM.END.WINNER", "TM.END.TIE", "RUL.END.TIED_WINNERS")
