"""The deep checks find what they look for: a view that shows a hidden card, a state that
does not survive its JSON round trip.

Every state of random games passes both; states damaged on purpose (a deck card face up,
a card in two places, a hand shown) and views made leaky on purpose (another hand shown,
a deck card among the known picks or as the viewer) fail the view check, naming a card
that is hidden from the viewer; states that cannot load back equal fail the round trip.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from positions import game

import tajmahal.notation._reading
from tajmahal.model import GameState, PlayerState, View, view
from tajmahal.testing.invariants import _secrets as secrets
from tajmahal.testing.invariants import serialization_round_trip, views_hide_secrets
from tajmahal.testing.strategies import Game, games

SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def hidden_from(state: GameState, seat: int) -> set[str]:
    """The deck's cards and the other hands' cards but the special cards."""
    specials = state.config.components.specials
    hidden = set(state.deck)
    for other, player in enumerate(state.players):
        if other != seat:
            hidden.update(card for card in player.hand if card not in specials)
    return hidden


def shown_cards(messages: list[str]) -> set[str]:
    """The cards a view check's messages name (``... shows hidden cards ['a', 'b']``)."""
    return {
        card
        for message in messages
        for card in ast.literal_eval(message.partition(" hidden cards ")[2] or "[]")
    }


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


def leaky_views() -> Iterator[Callable[[GameState, int], View]]:
    """Faulty views: another hand shown, a deck card among the known picks or as the
    viewer."""

    def other_hand(state: GameState, seat: int) -> View:
        seen = view(state, seat)
        other = (seat + 1) % state.config.players
        players = list(seen.players)
        players[other] = attrs.evolve(seen.players[other], hand=state.players[other].hand)
        return attrs.evolve(seen, players=tuple(players))

    def deck_card(state: GameState, seat: int) -> View:
        seen = view(state, seat)
        players = list(seen.players)
        players[seat] = attrs.evolve(seen.players[seat], known=(state.deck[-1],))
        return attrs.evolve(seen, players=tuple(players))

    def deck_card_as_viewer(state: GameState, seat: int) -> View:
        return attrs.evolve(view(state, seat), viewer=state.deck[0])  # type: ignore[arg-type]

    yield other_hand
    yield deck_card
    yield deck_card_as_viewer


@pytest.mark.clause("TM.PLAY.HANDS_SECRET")
@SETTINGS
@given(game_=games(max_choices=40, max_extra=120))
def test_played_states_pass_and_damaged_states_fail_the_view_check(game_: Game) -> None:
    for state in game_.states:
        assert list(views_hide_secrets(state)) == []
    broken = list(damaged(game_.states[-1]))
    assert broken
    for state in broken:
        messages = list(views_hide_secrets(state))
        assert messages, "a damaged state passed the view check"
        named = shown_cards(messages)
        assert named and all(
            any(card in hidden_from(state, seat) for seat in range(state.config.players))
            for card in named
        )


@pytest.mark.clause("TM.PLAY.HANDS_SECRET")
@settings(parent=SETTINGS, max_examples=4)
@given(game_=games(max_choices=30, max_extra=60))
def test_a_leaky_view_is_found(game_: Game) -> None:
    states = [state for state in game_.states if state.deck]
    for leaky in leaky_views():
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(secrets, "view", leaky)
            for state in states[:: max(1, len(states) // 6)]:
                messages = list(views_hide_secrets(state))
                assert messages, f"{leaky.__name__} went unnoticed"


@pytest.mark.clause("TM.PLAY.HANDS_SECRET")
def test_a_view_without_its_own_hand_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    state = game(3)

    def no_hand(seen_state: GameState, seat: int) -> View:
        seen = view(seen_state, seat)
        players = list(seen.players)
        players[seat] = attrs.evolve(seen.players[seat], hand=())
        return attrs.evolve(seen, players=tuple(players))

    monkeypatch.setattr(secrets, "view", no_hand)
    assert "P0's view does not show its own hand" in list(views_hide_secrets(state))


def unreadable(state: GameState) -> Iterator[GameState]:
    """States that do not load back equal."""
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
    yield attrs.evolve(state, visit=13)


@SETTINGS
@given(game_=games(max_choices=40, max_extra=120))
def test_played_states_survive_the_round_trip_and_unreadable_ones_do_not(game_: Game) -> None:
    for state in game_.states:
        assert list(serialization_round_trip(state)) == []
    last = game_.states[-1]
    for state in unreadable(last):
        messages = list(serialization_round_trip(state))
        assert len(messages) == 1
        assert messages[0].startswith(
            ("the state does not load back: ", "the state loaded back differs")
        )


def test_a_faulty_seat_reader_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = tajmahal.notation._reading._player_from_json

    def lossy(document: Any, path: str) -> PlayerState:
        return attrs.evolve(real(document, path), score=real(document, path).score + 1)

    monkeypatch.setattr(tajmahal.notation._reading, "_player_from_json", lossy)
    assert list(serialization_round_trip(game(3))) == [
        "the state loaded back differs from the state written"
    ]
