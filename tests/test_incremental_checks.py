"""The incremental deep checks give the verdicts of the full checks.

The view check gathers, part by part and through a memo, the cards hidden from any seat
that a view shows, then keeps those hidden from the viewer; the view itself reuses the
player views made for the very same seats before. Here both are compared, on every state
of random games and on damaged states, with the plain computation: a fresh view, every
string of it walked without memos, compared with the cards hidden from the viewer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from positions import game

from tajmahal import invariants
from tajmahal.invariants.secrets import _STRINGS_MEMO, hidden_cards_shown, views_hide_secrets
from tajmahal.state import GameState
from tajmahal.testing import Game, games
from tajmahal.view import _SEAT_VIEWS, Picks, View, picks_along, view


def full_verdict(state: GameState, seen_by: Callable[[GameState, int], View]) -> list[str]:
    """What views-hide-secrets must say, worked out without memos."""
    found: list[str] = []
    for seat in range(state.config.players):
        seen = seen_by(state, seat)
        leaked = hidden_cards_shown(state, seat, seen)
        if leaked:
            found.append(f"player {seat}'s view shows hidden cards {leaked[:5]}")
        if seen.players[seat].hand != state.players[seat].hand:
            found.append(f"player {seat}'s view does not show their own hand")
    return found


def fresh_view(state: GameState, seat: int, picks: Picks | None = None) -> View:
    """A view made with the memo of player views emptied first."""
    _SEAT_VIEWS.clear()
    return view(state, seat, picks)


def damaged(state: GameState) -> Iterator[GameState]:
    """States that break the secrecy a view relies on, or the one-place rule of cards."""
    first, second = state.players[0], state.players[1]
    if state.deck:
        top = state.deck[0]
        yield attrs.evolve(state, discard=(*state.discard, top))  # a deck card face up
        holder = attrs.evolve(second, hand=(*second.hand, top))  # in the deck and a hand
        yield attrs.evolve(state, players=(first, holder, *state.players[2:]))
    if first.hand:
        card = first.hand[0]
        yield attrs.evolve(state, display=(*state.display, card))  # a hand card shown
        played = attrs.evolve(second, played=(*second.played, card))
        yield attrs.evolve(state, players=(first, played, *state.players[2:]))
        twice = attrs.evolve(second, hand=(*second.hand, card))  # one card in two hands
        yield attrs.evolve(state, players=(first, twice, *state.players[2:]))


def leaky_views() -> Iterator[Callable[[GameState, int], View]]:
    """Faulty views: another hand shown, a deck card among the known picks."""

    def other_hand(state: GameState, seat: int) -> View:
        seen = view(state, seat)
        other = (seat + 1) % state.config.players
        shown = attrs.evolve(seen.players[other], hand=state.players[other].hand)
        players = list(seen.players)
        players[other] = shown
        return attrs.evolve(seen, players=tuple(players))

    def deck_card(state: GameState, seat: int) -> View:
        seen = view(state, seat)
        if not state.deck:
            return seen
        own = attrs.evolve(seen.players[seat], known=(state.deck[-1],))
        players = list(seen.players)
        players[seat] = own
        return attrs.evolve(seen, players=tuple(players))

    yield other_hand
    yield deck_card


def check_alike(state: GameState) -> None:
    expected = full_verdict(state, fresh_view)
    assert list(views_hide_secrets(state)) == expected  # memos as the game left them
    _STRINGS_MEMO.clear()
    _SEAT_VIEWS.clear()
    assert list(views_hide_secrets(state)) == expected


@pytest.mark.clause("TM.PLAY.HANDS_SECRET")
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_=games(max_choices=40, max_extra=120))
def test_the_view_check_agrees_with_the_full_walk_on_played_and_damaged_states(
    game_: Game,
) -> None:
    for state in game_.states:
        check_alike(state)
    last = game_.states[-1]
    for broken in damaged(last):
        check_alike(broken)
        assert list(views_hide_secrets(broken)), "a damaged state passed the view check"


@pytest.mark.clause("TM.PLAY.HANDS_SECRET")
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_=games(max_choices=30, max_extra=60))
def test_the_view_check_agrees_with_the_full_walk_on_leaky_views(game_: Game) -> None:
    for leaky in leaky_views():
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(invariants.secrets, "view", leaky)
            caught = 0
            for state in game_.states[:: max(1, len(game_.states) // 8)]:
                expected = full_verdict(state, leaky)
                assert list(views_hide_secrets(state)) == expected
                caught += bool(expected)
            assert caught, "a leaky view went unnoticed"


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_=games(max_choices=40, max_extra=120))
def test_a_remembered_player_view_equals_a_fresh_one(game_: Game) -> None:
    for index, state in enumerate(game_.states):
        picks = picks_along(game_.states[: index + 1])
        for seat in range(state.config.players):
            remembered = view(state, seat, picks)
            assert remembered == fresh_view(state, seat, picks)
            assert view(state, seat) == fresh_view(state, seat)


def test_a_player_view_is_reused_only_for_the_very_same_seat() -> None:
    state = game(3)
    first = view(state, 0)
    assert view(state, 0).players[1] is first.players[1]  # the same seat: reused
    copy = attrs.evolve(state.players[1])  # equal, but another object
    other = attrs.evolve(state, players=(state.players[0], copy, state.players[2]))
    assert view(other, 0).players[1] is not first.players[1]
    assert view(other, 0).players[1] == first.players[1]
