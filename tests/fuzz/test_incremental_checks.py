"""The incremental deep checks give the verdicts of the full checks.

The round trip reads back, part by part, only the parts of a state not already found
read back equal (by identity, as the same field); its verdict is compared with reading
the whole document, on every state of random games and on states that do not survive
the round trip.

The view check gathers, part by part and through a memo, the cards hidden from any seat
that a view shows, then keeps those hidden from the viewer; the parts every seat's view
shows alike are looked at once per state, each player view once, and what the last
check found in the very same parts is brought up to date with the cards that joined or
left the hidden ones; the view itself reuses the player views made for the very same
seats before. Here both are compared, on every state
of random games and on damaged states, with the plain computation: a fresh view, every
string of it walked without memos, compared with the cards hidden from the viewer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from positions import game

import tajmahal.notation._reading
from tajmahal.model import GameState, PlayerState, View, view
from tajmahal.model._view import _SEAT_VIEWS, Picks, picks_along
from tajmahal.notation import reads_back, state_from_json, state_to_json
from tajmahal.notation._reading import _READ_BACK
from tajmahal.testing.invariants import _secrets as secrets
from tajmahal.testing.invariants import serialization_round_trip, views_hide_secrets
from tajmahal.testing.invariants._secrets import _STRINGS_MEMO, hidden_cards_shown
from tajmahal.testing.strategies import Game, games


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
    specials = state.config.components.specials
    secret = [card for card in first.hand if card not in specials]  # specials are public
    if secret:
        card = secret[0]
        yield attrs.evolve(state, display=(*state.display, card))  # a hand card shown
        played = attrs.evolve(second, played=(*second.played, card))
        yield attrs.evolve(state, players=(first, played, *state.players[2:]))
        twice = attrs.evolve(second, hand=(*second.hand, card))  # one card in two hands
        yield attrs.evolve(state, players=(first, twice, *state.players[2:]))


def leaky_views() -> Iterator[Callable[[GameState, int], View]]:
    """Faulty views: another hand shown, a deck card among the known picks or as the
    viewer."""

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

    def deck_card_as_viewer(state: GameState, seat: int) -> View:
        seen = view(state, seat)
        if not state.deck:
            return seen
        return attrs.evolve(seen, viewer=state.deck[0])  # type: ignore[arg-type]

    yield other_hand
    yield deck_card
    yield deck_card_as_viewer


def check_alike(state: GameState) -> None:
    expected = full_verdict(state, fresh_view)
    assert list(views_hide_secrets(state)) == expected  # memos as the game left them
    _STRINGS_MEMO.clear()
    _SEAT_VIEWS.clear()
    secrets._LAST.__init__()  # type: ignore[misc]  # what the last check kept: nothing
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
            patch.setattr(secrets, "view", leaky)
            caught = 0
            for state in game_.states[:: max(1, len(game_.states) // 8)]:
                expected = full_verdict(state, leaky)
                assert list(views_hide_secrets(state)) == expected
                caught += bool(expected)
            assert caught, "a leaky view went unnoticed"


@pytest.mark.clause("TM.PLAY.HANDS_SECRET")
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=games(max_choices=30, max_extra=80), second=games(max_choices=30, max_extra=80))
def test_the_view_check_agrees_with_the_full_walk_on_states_of_two_games_in_turn(
    first: Game, second: Game
) -> None:
    """What one check keeps for the next is right for any state: the states of two games
    in turn, each followed by a damaged copy, share no parts or a few."""
    for one, other in zip(first.states, second.states, strict=False):
        turn = (one, other, *list(damaged(one))[:1], one, other)
        expected = [full_verdict(state, fresh_view) for state in turn]
        assert [list(views_hide_secrets(state)) for state in turn] == expected


@pytest.mark.clause("TM.PLAY.HANDS_SECRET")
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_=games(max_choices=40, max_extra=120))
def test_cards_joining_or_leaving_the_hidden_ones_are_seen_in_unchanged_player_views(
    game_: Game,
) -> None:
    """A card played (shown in its player's view) that turns up in the deck too, then
    leaves it again: the player views of that seat are the same objects in all three
    states, so what the last check found in them must follow the cards hidden now."""
    tried = 0
    for state in game_.states:
        played = [card for player in state.players for card in player.played]
        if not played:
            continue
        buried = attrs.evolve(state, deck=(*state.deck, played[0]))
        expected = [full_verdict(each, fresh_view) for each in (state, buried, state)]
        assert expected[1], "a played card in the deck went unnoticed"
        assert [list(views_hide_secrets(each)) for each in (state, buried, state)] == expected
        tried += 1
    assert tried or not any(player.played for s in game_.states for player in s.players)


@pytest.mark.clause("TM.PLAY.HANDS_SECRET")
def test_a_player_view_holding_something_that_may_change_is_walked_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = game(3)
    box: list[str] = []

    def boxed(seen_state: GameState, player: int, picks: Picks | None = None) -> View:
        seen = view(seen_state, player, picks)
        other = attrs.evolve(seen.players[1], known=box)  # type: ignore[arg-type]
        return attrs.evolve(seen, players=(seen.players[0], other, *seen.players[2:]))

    monkeypatch.setattr(secrets, "view", boxed)
    assert list(views_hide_secrets(state)) == []
    box.append(state.deck[0])
    assert list(views_hide_secrets(state)) == full_verdict(state, boxed) != []


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


def full_round_trip(state: GameState) -> list[str]:
    """What serialization-round-trip must say: the whole document read back."""
    try:
        loaded = state_from_json(state_to_json(state), state.config.components)
    except Exception as error:
        return [f"the state does not load back: {type(error).__name__}: {error}"]
    return [] if loaded == state else ["the state loaded back differs from the state written"]


def unreadable(state: GameState) -> Iterator[GameState]:
    """States that do not survive the round trip, most made of parts already read back
    equal (as other fields, or beside other parts)."""
    if len(set(state.deck)) > 1 and list(state.deck) != sorted(state.deck):
        yield attrs.evolve(state, discard=state.deck, deck=state.discard)  # fields swapped
    if len(state.display) > 1:
        yield attrs.evolve(state, display=tuple(reversed(state.display)))  # not canonical
    if state.deck:
        yield attrs.evolve(state, discard=(*state.discard, state.deck[0]))  # in two places
    seat = state.players[0]
    if len(seat.hand) > 1:
        unsorted = attrs.evolve(seat, hand=tuple(reversed(seat.hand)))
        yield attrs.evolve(state, players=(unsorted, *state.players[1:]))
    yield attrs.evolve(state, players=(*state.players[1:], state.players[0]))  # seats moved
    yield attrs.evolve(state, visit=13)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_=games(max_choices=40, max_extra=120))
def test_the_round_trip_part_by_part_agrees_with_the_whole_reader(game_: Game) -> None:
    for state in game_.states:
        assert list(serialization_round_trip(state)) == full_round_trip(state) == []
        assert reads_back(state, state_to_json(state))
    broken = 0
    for state in (game_.states[len(game_.states) // 2], game_.states[-1]):
        for damaged_state in unreadable(state):
            expected = full_round_trip(damaged_state)
            assert list(serialization_round_trip(damaged_state)) == expected
            _READ_BACK.clear()
            assert list(serialization_round_trip(damaged_state)) == expected
            broken += bool(expected)
    assert broken, "no damaged state failed the round trip"


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_=games(max_choices=40, max_extra=120))
def test_a_faulty_seat_reader_is_caught_for_seats_not_read_back_before(game_: Game) -> None:
    real = tajmahal.notation._reading._player_from_json

    def lossy(document: Any, path: str) -> PlayerState:
        return attrs.evolve(real(document, path), score=real(document, path).score + 1)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tajmahal.notation._reading, "_SEATS_READ", {})
        patch.setattr(tajmahal.notation._reading, "_READ_BACK", {})
        patch.setattr(tajmahal.notation._reading, "_player_from_json", lossy)
        for state in game_.states:
            expected = full_round_trip(state)
            assert expected == ["the state loaded back differs from the state written"]
            assert list(serialization_round_trip(state)) == expected


def test_a_part_read_back_is_remembered_only_as_the_same_field() -> None:
    state = game(3)
    assert reads_back(state, state_to_json(state))
    assert _READ_BACK[("deck", id(state.deck))] is state.deck
    assert ("discard", id(state.deck)) not in _READ_BACK
