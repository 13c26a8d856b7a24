"""A play or a display pick applied with its events, with or without them, gives the
literal outcome: the cards moved, the colour, the +2 card's points, the display, whose
turn it is, and the events that say so.

``apply`` and ``apply_with_events`` build plays and picks from frozen values (the
working copy is the path of every other step). Each case below is worked out by hand
from the hands of :func:`three`.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from positions import run, with_hand
from scenes import three

from tajmahal.engine import apply, apply_with_events
from tajmahal.model import (
    CardColour,
    ColourChangeFirstTurn,
    Event,
    EventKind,
    GameState,
    PlayerState,
    PointSource,
    RuleSet,
    Step,
    parse_action,
)

Applying = Callable[[GameState, str], tuple[GameState, tuple[Event, ...]]]


def with_events(state: GameState, text: str) -> tuple[GameState, tuple[Event, ...]]:
    return apply_with_events(state, parse_action(text))


def without_events(state: GameState, text: str) -> tuple[GameState, tuple[Event, ...]]:
    """``apply``, with the events of ``apply_with_events`` (``apply`` builds none), so
    that the same assertions check the state ``apply`` returns."""
    after = apply(state, parse_action(text))
    return after, apply_with_events(state, parse_action(text))[1]


PATHS = pytest.mark.parametrize("applying", [with_events, without_events], ids=["events", "plain"])


def seat_0(state: GameState) -> tuple[object, ...]:
    mine: PlayerState = state.players[0]
    return (mine.hand, mine.played, mine.colour, mine.score)


@pytest.mark.clause("TM.SPECIAL.PLUS_TWO", "TM.PLAY.FIRST_ANY_COLOUR", "TM.TURN.CLOCKWISE")
@PATHS
def test_a_first_play_with_the_plus_two_card(applying: Applying) -> None:
    after, events = applying(three(), "play red-01 special-plus-two")
    assert seat_0(after) == (
        ("red-02", "red-13", "white-01", "yellow-03"),
        ("red-01", "special-plus-two"),
        CardColour.RED,
        2,
    )
    assert after.to_move == 1
    assert events == (
        Event(
            EventKind.PLAY,
            0,
            cards=("red-01", "special-plus-two"),
            clauses=("TM.PLAY.ONE_COLOURED", "TM.PLAY.EXTRA_CARD", "TM.PLAY.FIRST_ANY_COLOUR"),
        ),
        Event(
            EventKind.SCORE,
            0,
            2,
            PointSource.PLUS_TWO,
            cards=("special-plus-two",),
            clauses=("TM.SPECIAL.PLUS_TWO",),
        ),
    )


@pytest.mark.clause("TM.PLAY.COLOUR_LOCK", "TM.TURN.CLOCKWISE")
@PATHS
def test_a_second_play_in_the_colour_of_the_visit(applying: Applying) -> None:
    state = run(three(), "play red-01", "play green-07", "play violet-07")
    after, events = applying(state, "play red-02 white-01")
    assert seat_0(after) == (
        ("red-13", "special-plus-two", "yellow-03"),
        ("red-01", "red-02", "white-01"),
        CardColour.RED,
        0,
    )
    assert after.to_move == 1
    assert events == (
        Event(
            EventKind.PLAY,
            0,
            cards=("red-02", "white-01"),
            clauses=("TM.PLAY.ONE_COLOURED", "TM.PLAY.EXTRA_CARD", "TM.PLAY.COLOUR_LOCK"),
        ),
    )


@pytest.mark.clause("TM.TURN.LAST_PLAYER_CONTINUES", "TM.TURN.WITHDRAWN_SKIPPED")
@PATHS
def test_the_last_player_in_the_visit_plays_again(applying: Applying) -> None:
    state = run(three(), "withdraw", "take green-19 green-20", "withdraw", "take green-21")
    assert state.to_move == 2
    after, events = applying(state, "play violet-07")
    assert after.players[2].played == ("violet-07",)
    assert after.to_move == 2
    assert events == (
        Event(
            EventKind.PLAY,
            2,
            cards=("violet-07",),
            clauses=(
                "TM.PLAY.ONE_COLOURED",
                "TM.PLAY.FIRST_ANY_COLOUR",
                "TM.TURN.LAST_PLAYER_CONTINUES",
            ),
        ),
    )


@pytest.mark.clause("TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN")
@pytest.mark.parametrize(
    ("ruling", "colour"),
    [(ColourChangeFirstTurn.NEXT_CARD, None), (ColourChangeFirstTurn.PLAYED_CARD, CardColour.RED)],
)
@PATHS
def test_the_colour_change_card_on_a_first_turn(
    applying: Applying, ruling: ColourChangeFirstTurn, colour: CardColour | None
) -> None:
    # RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN: the next card sets the colour (default), or
    # the card played with the colour-change card does.
    rules = RuleSet(colour_change_first_turn=ruling)
    state = with_hand(three(rules), 0, ("red-01", "red-02", "special-colour-change"))
    after, events = applying(state, "play red-01 special-colour-change")
    assert seat_0(after) == (("red-02",), ("red-01", "special-colour-change"), colour, 0)
    assert events == (
        Event(
            EventKind.PLAY,
            0,
            cards=("red-01", "special-colour-change"),
            clauses=(
                "TM.PLAY.ONE_COLOURED",
                "TM.PLAY.EXTRA_CARD",
                "TM.PLAY.FIRST_ANY_COLOUR",
                "TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN",
                "RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN",
            ),
        ),
    )


@pytest.mark.clause(
    "TM.WITHDRAW.PICK_TWO", "TM.VISIT.DISPLAY_SHORT", "RUL.DISPLAY.SHORT", "TM.TURN.CLOCKWISE"
)
@PATHS
def test_display_picks_after_withdrawing(applying: Applying) -> None:
    # Seats 0 and 1 withdraw without playing, each drawing one card (red-03, then red-04:
    # the top of the deck), and pick from the display green-19, green-20, green-21.
    state = run(three(), "withdraw")
    after, events = applying(state, "take green-19 green-20")
    assert after.players[0].hand == (
        "green-19",
        "green-20",
        "red-01",
        "red-02",
        "red-03",
        "red-13",
        "special-plus-two",
        "white-01",
        "yellow-03",
    )
    assert (after.display, after.step, after.to_move) == (("green-21",), Step.PLAY, 1)
    assert events == (
        Event(EventKind.TAKE, 0, cards=("green-19", "green-20"), clauses=("TM.WITHDRAW.PICK_TWO",)),
    )
    # One card left: the pick takes it alone, and the turn passes on to seat 2.
    state = run(after, "withdraw")
    after, events = applying(state, "take green-21")
    assert after.players[1].hand == (
        "green-07",
        "green-08",
        "green-09",
        "green-21",
        "red-04",
        "violet-10",
        "white-02",
        "white-03",
    )
    assert (after.display, after.step, after.to_move) == ((), Step.PLAY, 2)
    assert events == (
        Event(
            EventKind.TAKE,
            1,
            cards=("green-21",),
            clauses=("TM.WITHDRAW.PICK_TWO", "TM.VISIT.DISPLAY_SHORT", "RUL.DISPLAY.SHORT"),
        ),
    )
