"""Rulings on the deck: running out of cards, when the discard pile is reshuffled, and a
short display (rulings/TESTS.md, section test_ruling_deck.py)."""

from __future__ import annotations

import json
import random

import pytest
from positions import (
    COMPONENTS,
    all_cards_once,
    game,
    legal,
    player,
    run,
    table,
    with_deck,
    with_display,
    with_played,
)
from scenes import (
    LAST_FOUR,
    card_tile,
    card_tile_on_b3,
    last_four_cards,
    stow,
    withdrawn,
)

from tajmahal.agents import RandomPlayer, play_match
from tajmahal.engine import apply, apply_with_events, chance_cards, legal_actions
from tajmahal.errors import IllegalActionError
from tajmahal.model import WITHDRAW, Reshuffle, Step, Take, parse_action
from tajmahal.records import dumps_record, record_from_json, replay, replay_steps

# ---------------------------------------------------------------------------------------
# RUL.DECK.EXHAUSTED


@pytest.mark.clause(
    "TM.VISIT.NEXT.RESHUFFLE",
    "TM.VISIT.DISPLAY_SHORT",
    "TM.SCORE.BONUS.CARD",
    "TM.WITHDRAW.WITHOUT_PLAYING",
)
def test_empty_deck_and_discard_gives_short_display() -> None:
    """RUL.DECK.EXHAUSTED: with deck and discard pile short, the display is short."""
    # B, C and D have withdrawn; A, last, withdraws without playing and draws the extra
    # card, which leaves 3 cards in the deck and none in the discard pile.
    state = last_four_cards()
    extra, *rest = LAST_FOUR
    assert state.deck == (extra, *rest) and state.discard == ()
    assert all_cards_once(state)
    hand = player(state, 0).hand
    state, events = apply_with_events(state, WITHDRAW)
    assert player(state, 0).hand == tuple(sorted((*hand, extra, "white-06")))
    # The next visit's display holds the 3 cards left; the account notes the 4 missing.
    assert state.visit == 2
    assert state.display == tuple(sorted(rest))
    assert state.deck == () and state.discard == ()
    [short] = [e for e in events if e.kind == "draw" and e.counts]
    assert short.seat is None and short.counts == (4,) and short.cards == ()
    assert "RUL.DECK.EXHAUSTED" in short.clauses
    # Play continues with the new start player.
    assert state.step is Step.PLAY and state.to_move == 1
    assert "withdraw" in legal(state) and any(a.startswith("play ") for a in legal(state))
    state = apply(state, legal_actions(state)[0])
    assert state.to_move == 2
    assert all_cards_once(state)


@pytest.mark.clause(
    "TM.VISIT.NEXT.RESHUFFLE",
    "TM.VISIT.DISPLAY_SHORT",
    "TM.SCORE.BONUS.CARD",
    "TM.WITHDRAW.WITHOUT_PLAYING",
)
def test_card_bonus_with_no_cards_gives_nothing() -> None:
    """RUL.DECK.EXHAUSTED: a card bonus tile with no card to draw gives nothing."""
    tile = card_tile()
    state = card_tile_on_b3(("red-07",))
    assert state.deck == () and state.discard == ()
    state = run(state, "withdraw")
    assert state.step is Step.PLACE and "palace B3" in legal(state)
    hand = player(state, 0).hand
    state, events = apply_with_events(state, parse_action("palace B3"))
    assert player(state, 0).hand == hand
    assert "B3" not in dict(state.bonus_on_board)
    assert tile not in dict(state.bonus_on_board).values()
    assert tile not in player(state, 0).goods_tiles
    assert [e.points for e in events if e.kind == "bonus"] == [0]
    [short] = [e for e in events if e.kind == "draw" and e.counts]
    assert short.seat == 0 and short.counts == (1,)
    assert short.clauses == ("TM.SCORE.BONUS.CARD", "RUL.DECK.EXHAUSTED")
    # No chance step: the game goes on to A's pick from the display.
    assert state.step is Step.TAKE and state.to_move == 0
    assert all_cards_once(state)


@pytest.mark.clause(
    "TM.VISIT.NEXT.RESHUFFLE",
    "TM.VISIT.DISPLAY_SHORT",
    "TM.SCORE.BONUS.CARD",
    "TM.WITHDRAW.WITHOUT_PLAYING",
)
def test_without_playing_extra_card_skipped_when_no_cards() -> None:
    """RUL.DECK.EXHAUSTED: no extra card for withdrawing without playing when none is left."""
    state = stow(with_deck(game(4), ()), keeper=3)
    assert state.deck == () and state.discard == ()
    hand = player(state, 0).hand
    state = run(state, "withdraw")
    assert player(state, 0).hand == hand
    assert state.step is Step.TAKE and state.to_move == 0
    assert len(legal_actions(state)) == 21
    state = apply(state, legal_actions(state)[0])
    assert len(player(state, 0).hand) == len(hand) + 2
    assert state.step is Step.PLAY and state.to_move == 1


# ---------------------------------------------------------------------------------------
# RUL.DECK.RESHUFFLE_TIMING


@pytest.mark.clause(
    "TM.VISIT.NEXT.RESHUFFLE",
    "TM.SCORE.BONUS.CARD",
    "TM.WITHDRAW.DISCARD",
    "TM.WITHDRAW.WITHOUT_PLAYING",
)
def test_reshuffle_when_drawing_display() -> None:
    """RUL.DECK.RESHUFFLE_TIMING: the display drawn from an empty deck waits for a reshuffle."""
    # A, the last player in the visit, has played red-07; the deck is empty.
    state = withdrawn(with_played(game(4), 0, ("red-07",)), 1, 2, 3)
    state = with_deck(state, ())
    assert state.deck == () and len(state.discard) > 7
    earlier = state.discard
    state = run(state, "withdraw", "palace A1")
    # The visit is over; the new display must come from the discard pile.
    assert state.visit == 2
    assert state.step is Step.SHUFFLE and state.to_move is None
    assert legal_actions(state) == ()
    assert chance_cards(state) == state.discard
    assert sorted(state.discard) == sorted((*earlier, "red-07"))
    assert state.display == ()
    order = list(chance_cards(state))
    random.Random(5).shuffle(order)
    state = apply(state, Reshuffle(tuple(order)))
    assert state.display == tuple(sorted(order[:7]))
    assert state.deck == tuple(order[7:])
    assert state.discard == ()
    assert state.step is Step.PLAY and state.to_move == 1
    assert all_cards_once(state)


@pytest.mark.clause(
    "TM.VISIT.NEXT.RESHUFFLE",
    "TM.SCORE.BONUS.CARD",
    "TM.WITHDRAW.DISCARD",
    "TM.WITHDRAW.WITHOUT_PLAYING",
)
def test_reshuffle_mid_withdrawal_excludes_own_played_cards() -> None:
    """RUL.DECK.RESHUFFLE_TIMING: a reshuffle mid-withdrawal leaves out the own played cards."""
    played = ("red-07", "white-01", "red-08")
    state = card_tile_on_b3(played, keep_discard=6)
    discarded = state.discard
    assert state.deck == () and len(discarded) == 6
    assert not set(discarded) & set(played)
    state = run(state, "withdraw")
    hand = player(state, 0).hand
    state = run(state, "palace B3")
    # The card tile needs a card: the chance step orders exactly the earlier discards.
    assert state.step is Step.SHUFFLE
    assert chance_cards(state) == discarded
    assert player(state, 0).played == played
    order = tuple(reversed(discarded))
    state = apply(state, Reshuffle(order))
    assert player(state, 0).hand == tuple(sorted((*hand, order[0])))
    assert state.deck == order[1:]
    # A's own cards are discarded after scoring, into the emptied discard pile.
    assert state.step is Step.TAKE and state.to_move == 0
    assert player(state, 0).played == ()
    assert state.discard == tuple(sorted(played))
    state = apply(state, legal_actions(state)[0])
    assert state.step is Step.PLAY and state.to_move == 1
    assert state.discard == tuple(sorted(played))
    assert all_cards_once(state)


@pytest.mark.clause(
    "TM.VISIT.NEXT.RESHUFFLE",
    "TM.SCORE.BONUS.CARD",
    "TM.WITHDRAW.DISCARD",
    "TM.WITHDRAW.WITHOUT_PLAYING",
)
def test_shuffle_order_is_recorded_and_replayed() -> None:
    """RUL.DECK.RESHUFFLE_TIMING: the shuffle order is a recorded chance outcome."""
    result = play_match(COMPONENTS, [RandomPlayer(seat) for seat in range(4)], 1)
    reshuffles = [s for s in result.record.steps if s.action.startswith("reshuffle ")]
    assert reshuffles, "the seeded game reaches a reshuffle"
    assert all(step.actor is None for step in reshuffles)
    # The record, written and read back, replays to the same final state.
    record = record_from_json(json.loads(dumps_record(result.record)))
    assert [s.action for s in record.steps] == [s.action for s in result.record.steps]
    assert replay(record, COMPONENTS) == result.final
    for step in replay_steps(record, COMPONENTS):
        if isinstance(step.action, Reshuffle):
            # The recorded order is a permutation of the discard pile at that chance step,
            # and becomes the deck (top first) before any further draw.
            assert step.before.step is Step.SHUFFLE
            assert sorted(step.action.order) == sorted(step.before.discard)
            undrawn = [card for card in step.action.order if card in step.after.deck]
            assert tuple(undrawn) == step.after.deck[: len(undrawn)]


# ---------------------------------------------------------------------------------------
# RUL.DISPLAY.SHORT


@pytest.mark.clause("TM.VISIT.DISPLAY_SHORT", "TM.WITHDRAW.PICK_TWO", "TM.WITHDRAW.LAST_TAKES_ONE")
def test_short_display_picks() -> None:
    """RUL.DISPLAY.SHORT: two cards while two are left, then one, then none."""
    # Everyone has played a general + monk card, so the first three withdrawals win
    # nothing and nobody draws the extra card for withdrawing without playing.
    state = table(("red-02",), ("yellow-02",), ("green-02",), ("violet-02",))
    state = with_display(state, ("white-06", "white-07", "white-08"))
    hands = [player(state, seat).hand for seat in range(4)]
    state = run(state, "withdraw")
    assert state.step is Step.TAKE and state.to_move == 0
    assert len(legal_actions(state)) == 3
    state = run(state, "take white-06 white-07")
    assert player(state, 0).hand == tuple(sorted((*hands[0], "white-06", "white-07")))
    state = run(state, "withdraw")
    assert state.step is Step.TAKE and state.to_move == 1
    assert legal(state) == {"take white-08"}
    with pytest.raises(IllegalActionError):
        apply(state, Take(("white-06", "white-08")))
    state = run(state, "take white-08")
    assert player(state, 1).hand == tuple(sorted((*hands[1], "white-08")))
    assert state.display == ()
    # C has nothing to take: the turn passes straight to D.
    state = run(state, "withdraw")
    assert state.step is Step.PLAY and state.to_move == 3
    assert player(state, 2).hand == hands[2]
    # D, last, wins the general and the monk, places two palaces and receives no card.
    state = run(state, "withdraw")
    while state.visit == 1:
        assert state.step is Step.PLACE
        state = apply(state, legal_actions(state)[0])
    assert player(state, 3).hand == hands[3]
    assert state.visit == 2 and state.step is Step.PLAY
    assert all_cards_once(state)


@pytest.mark.clause("TM.VISIT.DISPLAY_SHORT", "TM.WITHDRAW.PICK_TWO", "TM.WITHDRAW.LAST_TAKES_ONE")
def test_short_display_last_player_may_get_nothing() -> None:
    """RUL.DISPLAY.SHORT: the last player takes what remains, possibly nothing."""
    state = table(("red-02",), ("yellow-02",), ("green-02",), players=3)
    display = ("white-06", "white-07", "white-08", "white-09")
    state = with_display(state, display)
    hand = player(state, 2).hand
    state = run(state, "withdraw", "take white-06 white-07", "withdraw", "take white-08 white-09")
    assert state.display == ()
    assert state.step is Step.PLAY and state.to_move == 2
    state = run(state, "withdraw")
    while state.visit == 1:
        assert state.step is Step.PLACE
        state = apply(state, legal_actions(state)[0])
    assert player(state, 2).hand == hand
    # The visit ended normally: visit 2 with a full display, B to start.
    assert state.visit == 2 and state.step is Step.PLAY and state.to_move == 1
    assert len(state.display) == 5
    assert all_cards_once(state)
