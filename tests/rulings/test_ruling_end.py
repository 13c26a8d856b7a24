"""Rulings on the end of the game: tied winners, the largest colour, the picks and the
special cards of the last visit (rulings/TESTS.md, section test_ruling_end.py)."""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import pytest
from positions import (
    COMPONENTS,
    at_visit,
    game,
    player,
    run,
    with_deck,
    with_display,
    with_hands,
    with_played,
    with_player,
)
from scenes import last_withdrawal

from tajmahal.engine import apply, apply_with_events, legal_actions
from tajmahal.engine._scoring import hand_points
from tajmahal.model import WITHDRAW, Action, CardId, Event, GameState, Reshuffle, Step, Symbol


def _last_withdrawal_of_game(
    hands: Sequence[Sequence[CardId]], scores: Sequence[int] = (0, 0, 0)
) -> tuple[GameState, list[Event]]:
    """3 players in visit 12. B won the province tile earlier in the visit and B and C have
    withdrawn; A has played a double elephant (which can win nothing now) and, the last
    player, withdraws with an empty display: the game ends and the hands are scored."""
    state = last_withdrawal(hands, scores)
    before = state.scores
    state, events = apply_with_events(state, WITHDRAW)
    assert state.is_over and state.step is Step.OVER
    # Nothing but the hands scored in this last withdrawal.
    assert all(e.kind == "hand" for e in events if e.points)
    assert all(p.hand == tuple(sorted(h)) for p, h in zip(state.players, hands, strict=True))
    assert sum(state.scores) - sum(before) == sum(e.points for e in events)
    return state, list(events)


def _hand_events(events: Sequence[Event]) -> dict[int, int]:
    scored: dict[int, int] = {}
    for event in events:
        if event.kind == "hand":
            assert event.seat is not None
            scored[event.seat] = event.points
    return scored


# ---------------------------------------------------------------------------------------
# RUL.END.TIED_WINNERS


@pytest.mark.clause("TM.END.TIE", "TM.END.WINNER")
def test_tied_top_scores_share_victory() -> None:
    """RUL.END.TIED_WINNERS: equal top scores share the victory, with no tie-break."""
    # Hands worth 1 (a white card), 2 (two red cards and a green one) and 1 (a yellow card).
    hands = (("white-01",), ("red-01", "red-02", "green-01"), ("yellow-01",))
    state, events = _last_withdrawal_of_game(hands, scores=(39, 38, 34))
    assert _hand_events(events) == {0: 1, 1: 2, 2: 1}
    assert state.scores == (40, 40, 35)
    assert state.winners() == (0, 1)
    [end] = [e for e in events if e.kind == "end"]
    assert end.seats == (0, 1) and end.points == 0 and end.counts == (40, 40, 35)
    assert "RUL.END.TIED_WINNERS" in end.clauses


# ---------------------------------------------------------------------------------------
# RUL.END.LARGEST_COLOUR


@pytest.mark.clause("TM.END.HAND.LARGEST_COLOUR")
def test_largest_colour_zero_without_coloured_cards() -> None:
    """RUL.END.LARGEST_COLOUR: no coloured card scores 0 for the largest colour."""
    hand = ("special-plus-two", "white-01", "white-06")
    assert hand_points(COMPONENTS, hand) == 3
    _, events = _last_withdrawal_of_game(((), hand, ()))
    assert _hand_events(events)[1] == 2 + 1 + 0


@pytest.mark.clause("TM.END.HAND.LARGEST_COLOUR", "TM.END.HAND.WHITE")
def test_white_cards_never_the_largest_colour() -> None:
    """RUL.END.WHITE_NOT_A_COLOUR: 3 white and 2 red cards score 3 for the white cards and
    2 for red, not 3 + 3 with white as the largest colour."""
    hand = ("white-01", "white-02", "white-03", "red-01", "red-02")
    assert hand_points(COMPONENTS, hand) == 3 + 2
    _, events = _last_withdrawal_of_game(((), hand, ()))
    assert _hand_events(events)[1] == 5


@pytest.mark.clause("TM.END.HAND.LARGEST_COLOUR")
def test_largest_colour_tie_counts_once() -> None:
    """RUL.END.LARGEST_COLOUR: a tie for the largest colour counts one colour, once."""
    hand = ("green-01", "green-02", "green-03", "red-01", "red-02", "red-03", "white-01")
    assert hand_points(COMPONENTS, hand) == 4
    _, events = _last_withdrawal_of_game(((), hand, ()))
    assert _hand_events(events)[1] == 3 + 1


@pytest.mark.clause("TM.END.HAND.LARGEST_COLOUR")
def test_worked_hand_scoring_example() -> None:
    """RUL.END.LARGEST_COLOUR: 001's example of three hands scores 6, 4 and 6."""
    first = (
        ("special-elephant",),  # 1 special card
        ("white-01", "white-06"),  # 2 white cards
        ("red-01", "red-02", "red-03", "green-01", "green-02", "violet-01"),  # red: 3
    )
    second = (
        ("special-mogul",),
        ("white-07",),
        ("yellow-01", "yellow-02", "violet-02", "violet-03", "red-04"),  # a 2-2 tie: 2
    )
    third = (
        ("special-plus-two",),
        (),
        ("green-04", "green-05", "green-06", "green-07", "green-08", "red-05", "red-06"),
    )
    hands = tuple(tuple(card for part in hand for card in part) for hand in (first, second, third))
    assert [hand_points(COMPONENTS, hand) for hand in hands] == [6, 4, 6]
    _, events = _last_withdrawal_of_game(hands)
    assert _hand_events(events) == {0: 1 + 2 + 3, 1: 1 + 1 + 2, 2: 1 + 0 + 5}


# ---------------------------------------------------------------------------------------
# RUL.VISIT.LAST_VISIT_DISPLAY


def _visit_twelve(hands: Sequence[Sequence[CardId]], display: Sequence[CardId]) -> GameState:
    """4 players at the start of visit 12 with the given hands (seat 3 also holds every
    card not placed elsewhere) and display; deck and discard pile are empty, so nobody
    draws the extra card for withdrawing without playing."""
    state = with_hands(at_visit(game(4), 12), hands)
    state = with_display(state, display)
    state = with_deck(state, ())
    rest = state.discard
    state = attrs.evolve(state, discard=())
    return with_player(state, 3, hand=tuple(sorted((*player(state, 3).hand, *rest))))


def _others_withdraw(state: GameState) -> tuple[GameState, list[Event]]:
    """Everyone still in the visit withdraws, with the first legal placement and pick (and
    the discard pile, unshuffled, as the new deck if a card must be drawn)."""
    events: list[Event] = []
    while not state.is_over:
        action: Action
        if state.step is Step.PLAY:
            action = WITHDRAW
        elif state.step is Step.SHUFFLE:
            action = Reshuffle(state.discard)
        else:
            action = legal_actions(state)[0]
        state, new = apply_with_events(state, action)
        events.extend(new)
    return state, events


@pytest.mark.clause("TM.VISIT.NEXT.DISPLAY", "TM.END.HAND.INCLUDES_LAST_PICKS")
def test_last_visit_picks_count_in_hand_score() -> None:
    """RUL.VISIT.LAST_VISIT_DISPLAY: the cards taken in visit 12 are scored in the hand."""
    display = ("green-20", "violet-20", "white-06", "white-07", "white-08", "white-09", "yellow-20")
    state = _visit_twelve((("red-02", "red-03"), ("yellow-02",), ("green-02",), ()), display)
    assert state.visit == 12 and len(state.display) == 7
    score = player(state, 0).score
    state = run(state, "withdraw", "take violet-20 white-06")
    assert player(state, 0).hand == ("red-02", "red-03", "violet-20", "white-06")
    state, events = _others_withdraw(state)
    # 2 for the red cards (the largest colour) and 1 for the white card taken in visit 12.
    assert _hand_events(events)[0] == 2 + 1
    assert player(state, 0).score == score + 3


# ---------------------------------------------------------------------------------------
# RUL.END.LAST_VISIT_EXCHANGE


@pytest.mark.clause(
    "TM.SPECIAL.EXCHANGE_AT_VISIT_END", "TM.END.AFTER_TWELVE", "TM.END.HAND.SPECIAL"
)
def test_special_card_exchanged_before_final_hand_scoring() -> None:
    """RUL.END.LAST_VISIT_EXCHANGE: the special card changes hands before hands are scored."""
    special = COMPONENTS.special_earned_by(Symbol.PRINCESS).id
    display = ("green-20", "violet-20", "white-06", "white-07", "white-08", "white-09", "yellow-20")
    hands = (("red-02", special), ("white-01", "yellow-16"), ("green-02",), ())
    state = _visit_twelve(hands, display)
    state = with_played(state, 1, ("yellow-16",))  # elephant + princess
    state = with_player(state, 1, influence=(Symbol.PRINCESS,))
    # A withdraws without playing and takes two cards; A keeps the special card in hand.
    state = run(state, "withdraw", "take green-20 violet-20")
    assert special in player(state, 0).hand
    # B wins the second princess tile (and the province tile), places a palace, takes two.
    state = run(state, "withdraw")
    assert player(state, 1).influence == (Symbol.PRINCESS, Symbol.PRINCESS)
    assert state.step is Step.PLACE
    state = apply(state, legal_actions(state)[0])
    state = run(state, "take white-06 white-07")
    assert special in player(state, 0).hand  # not before the visit ends
    state, events = _others_withdraw(state)
    assert state.is_over
    assert special in player(state, 1).hand and special not in player(state, 0).hand
    assert Symbol.PRINCESS not in player(state, 1).influence
    hand_scores = _hand_events(events)
    # B: 3 white cards and the special card; A: one card of each of three colours.
    assert player(state, 1).hand == tuple(sorted(("white-01", "white-06", "white-07", special)))
    assert hand_scores[1] == 3 + 1
    assert player(state, 0).hand == ("green-20", "red-02", "violet-20")
    assert hand_scores[0] == 1
    # The exchange is reported before the hands are scored.
    kinds = [e.kind.value for e in events]
    assert "exchange" in kinds
    assert kinds.index("exchange") < kinds.index("hand")
