"""RUL.PLAY.PUBLIC_INFORMATION: what a player view shows of the other players."""

from __future__ import annotations

import pytest
from positions import legal, player, run, table, with_deck_top, with_display, with_hand

from tajmahal.model import GameState, Step, view
from tajmahal.model._view import picks_along, track_picks

pytestmark = pytest.mark.clause("TM.PLAY.PUBLIC_INFORMATION", "TM.PLAY.HANDS_SECRET")


def steps(state: GameState, *actions: str) -> list[GameState]:
    """``state`` and the state after each of ``actions`` in turn."""
    states = [state]
    for action in actions:
        states.append(run(states[-1], action))
    return states


def test_view_shows_hand_sizes_and_special_holders() -> None:
    """Hand sizes and who holds which special card are public; the other cards are not."""
    state = with_hand(table(), 0, ("red-02", "red-03", "special-mogul"))
    state = with_hand(state, 2, ("green-02", "special-plus-two", "special-elephant"))
    seen = view(state, 1)
    assert [p.hand_size for p in seen.players] == [3, 3, 3, 3]
    assert seen.players[0].hand is None and seen.players[0].specials == ("special-mogul",)
    assert seen.players[2].specials == ("special-elephant", "special-plus-two")
    assert seen.players[1].specials == () and seen.players[3].specials == ()
    assert seen.specials_on_table == ("special-colour-change",)
    # The viewer sees their own hand in full.
    assert view(state, 0).players[0].hand == ("red-02", "red-03", "special-mogul")


def test_view_shows_display_picks_until_played() -> None:
    """A's two display cards are known to B until A plays one of them in the next visit."""
    state = table(("red-02",), ("yellow-02",))  # tied: A wins nothing
    visit_one = steps(state, "withdraw", "take white-06 white-07")
    seen = view(visit_one[-1], 1, picks_along(visit_one))
    assert seen.players[0].known == ("white-06", "white-07")
    assert seen.players[0].hand is None
    # B, C and D withdraw at once, each taking the first pair offered; D takes the last card.
    states = visit_one
    while states[-1].visit == 1:
        current = states[-1]
        action = "withdraw" if current.step is Step.PLAY else sorted(legal(current))[0]
        states.append(run(current, action))
    picks = picks_along(states)
    assert picks[0] == ("white-06", "white-07")
    assert all(len(picks[seat]) >= 1 for seat in (1, 2, 3))
    # Visit 2 starts with B; B, C and D withdraw, then A plays red-03 with white-06.
    while states[-1].to_move != 0:
        current = states[-1]
        action = "withdraw" if current.step is Step.PLAY else sorted(legal(current))[0]
        states.append(run(current, action))
    states.append(run(states[-1], "play red-03 white-06"))
    seen = view(states[-1], 2, picks_along(states))
    assert seen.players[0].known == ("white-07",)
    assert seen.players[0].played == ("red-03", "white-06")


def test_view_hides_drawn_cards_and_deck_order() -> None:
    """A withdraws without playing: the extra card from the deck stays hidden, the two
    display cards are known."""
    state = with_deck_top(table(), ("violet-20",))
    before, withdrawn, after = steps(state, "withdraw", "take white-08 white-09")
    picks = track_picks(withdrawn, after, track_picks(before, withdrawn))
    assert picks == picks_along((before, withdrawn, after))
    seen = view(after, 1, picks)
    assert seen.players[0].hand_size == len(player(before, 0).hand) + 3
    assert "violet-20" in player(after, 0).hand
    assert seen.players[0].known == ("white-08", "white-09")
    assert seen.players[0].hand is None
    assert not hasattr(seen, "deck") and seen.deck_size == len(after.deck)


def test_view_shows_the_whole_discard_pile() -> None:
    """Every discarded card was played face up, so the whole pile is in every view."""
    state = table(("red-02", "white-02"), ("yellow-02", "yellow-11"))  # tied: nothing won
    state = run(state, "withdraw", "take white-06 white-07")
    assert state.discard == ("red-02", "white-02")
    for seat in range(4):
        assert view(state, seat).discard == ("red-02", "white-02")


def test_a_pick_drawn_again_face_down_is_not_known() -> None:
    """Once a picked card has left the hand (played), it is known no more, even should it
    come back into the same hand face down (a card bonus after a reshuffle)."""
    start = table()
    picked = with_display(with_hand(start, 0, (*player(start, 0).hand, "white-06")), ())
    picks = track_picks(with_display(start, ("white-06",)), picked)
    assert picks[0] == ("white-06",)
    played = with_hand(picked, 0, player(start, 0).hand)
    picks = track_picks(picked, played, picks)
    assert picks[0] == ()
    drawn = with_hand(played, 0, (*player(start, 0).hand, "white-06"))
    picks = track_picks(played, drawn, picks)
    assert picks[0] == ()
    assert view(drawn, 1, picks).players[0].known == ()
