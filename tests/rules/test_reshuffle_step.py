"""The chance step: when a reshuffle is due, what it must order, and what it records."""

from __future__ import annotations

import pytest
from positions import COMPONENTS, player, run, table, with_bonus, with_deck

from tajmahal.engine import apply, apply_with_events, chance_cards, legal_actions
from tajmahal.errors import IllegalActionError
from tajmahal.model import BonusKind, EventKind, GameState, Step, parse_action

CARD_TILE = min(t.id for t in COMPONENTS.bonus_tiles.values() if t.kind is BonusKind.CARD)
"""A square bonus tile that gives a card."""


def shuffling() -> GameState:
    """Seat 0 has withdrawn with red-07 and placed a palace on fortress B3, whose bonus
    tile gives a card, while the deck is empty: a reshuffle of the discard pile is due."""
    state = with_bonus(table(("red-07",), order="BACDEFGHIJK"), "B3", CARD_TILE)
    state = run(with_deck(state, ()), "withdraw", "palace B3")
    assert state.step is Step.SHUFFLE
    return state


@pytest.mark.clause("TM.VISIT.NEXT.RESHUFFLE")
def test_chance_cards_are_the_discard_pile_only_at_a_chance_step() -> None:
    before = run(with_deck(table(("red-07",), order="BACDEFGHIJK"), ()), "withdraw")
    assert before.step is Step.PLACE and before.discard
    assert chance_cards(before) == ()
    state = shuffling()
    assert chance_cards(state) == state.discard and len(state.discard) > 0
    assert legal_actions(state) == ()


@pytest.mark.clause("TM.VISIT.NEXT.RESHUFFLE")
def test_a_reshuffle_must_order_exactly_the_discard_pile() -> None:
    state = shuffling()
    discard = list(state.discard)
    wrong = (
        discard[1:],  # one missing
        [*discard, discard[0]],  # one twice
        [*discard[1:], player(state, 1).hand[0]],  # one not discarded
    )
    for order in wrong:
        with pytest.raises(IllegalActionError) as caught:
            apply(state, parse_action("reshuffle " + " ".join(order)))
        assert caught.value.clause == "TM.VISIT.NEXT.RESHUFFLE"


@pytest.mark.clause("TM.VISIT.NEXT.RESHUFFLE", "RUL.DECK.RESHUFFLE_TIMING")
def test_a_reshuffle_puts_the_discard_pile_in_the_named_order_as_the_deck() -> None:
    state = shuffling()
    order = tuple(reversed(state.discard))
    after, events = apply_with_events(state, parse_action("reshuffle " + " ".join(order)))
    [reshuffle] = [e for e in events if e.kind is EventKind.RESHUFFLE]
    assert reshuffle.counts == (len(order),)
    assert reshuffle.clauses == ("TM.VISIT.NEXT.RESHUFFLE", "RUL.DECK.RESHUFFLE_TIMING")
    # The bonus card is then drawn from the top of the new deck: the first card named.
    assert order[0] in player(after, 0).hand
    assert after.deck == order[1:]
    # The old pile is gone; the only discard is seat 0's played red-07, laid down after.
    assert after.discard == ("red-07",)
