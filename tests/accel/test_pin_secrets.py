"""The fast view and the fast search for hidden cards give what the plain ones give.

- ``tajmahal.accel.view`` against :func:`tajmahal.model.view`: every seat's view of every
  state of random games of 3, 4 and 5 players, with and without the known display picks,
  in order and out of order; the same errors.
- ``tajmahal.accel.hidden_cards_shown`` against the plain search of the secrets
  invariant (``tajmahal.testing.invariants._hidden``): every seat's view of those states,
  and views that leak, in every way a leak can be held (a hand, a known card, a bare
  string, a list, a value that is not frozen), before and after the leak.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import attrs
import pytest
from games import states

from tajmahal.accel._view import VIEW
from tajmahal.model import GameState, View, picks_along, view
from tajmahal.testing.invariants._fast_paths import HIDDEN_CARDS_SHOWN
from tajmahal.testing.invariants._hidden import hidden_cards_shown

GAMES = [list(states(players, seed)) for players, seed in ((3, 1), (4, 2), (5, 3))]
"""Every state of three random games, one of each player count."""


def _every_state() -> list[GameState]:
    return [state for game in GAMES for state in game]


@pytest.mark.pins(VIEW)
def test_the_fast_view_is_the_core_view() -> None:
    for state in _every_state():
        for seat in range(state.players_count):
            assert VIEW.fast(state, seat) == view(state, seat)


@pytest.mark.pins(VIEW)
def test_the_fast_view_is_the_core_view_with_the_known_picks() -> None:
    for game in GAMES:
        for end in range(1, len(game) + 1, 3):
            state, picks = game[end - 1], picks_along(game[:end])
            for seat in range(state.players_count):
                assert VIEW.fast(state, seat, picks) == view(state, seat, picks)


@pytest.mark.pins(VIEW)
def test_the_fast_view_is_the_core_view_out_of_order() -> None:
    backwards = [list(reversed(game)) for game in GAMES]
    mixed = list(itertools.chain.from_iterable(itertools.zip_longest(*backwards)))
    for state in filter(None, mixed):
        for seat in reversed(range(state.players_count)):
            assert VIEW.fast(state, seat) == view(state, seat)


@pytest.mark.pins(VIEW)
@pytest.mark.parametrize("seat", [-1, 3])
def test_the_fast_view_refuses_what_the_core_view_refuses(seat: int) -> None:
    state = GAMES[0][0]
    with pytest.raises(ValueError) as core:
        view(state, seat)
    with pytest.raises(ValueError) as fast:
        VIEW.fast(state, seat)
    assert str(fast.value) == str(core.value) == f"no seat {seat} in a 3-player game"
    with pytest.raises(ValueError, match="picks for 2 seats in a 3-player game"):
        VIEW.fast(state, 0, ((), ()))


@pytest.mark.pins(HIDDEN_CARDS_SHOWN)
def test_the_fast_search_finds_what_the_plain_one_finds_in_every_view() -> None:
    for state in _every_state():
        for seat in range(state.players_count):
            seen = view(state, seat)
            assert HIDDEN_CARDS_SHOWN.fast(state, seat, seen) == []
            assert hidden_cards_shown(state, seat, seen) == []


@attrs.define
class Mutable:
    """A value that is not frozen (the search must look inside it every time)."""

    cards: tuple[str, ...]


Leak = Callable[[GameState, int, View], object]


def _hands_shown(state: GameState, seat: int, seen: View) -> object:
    shown = [attrs.evolve(p, hand=state.players[i].hand) for i, p in enumerate(seen.players)]
    return attrs.evolve(seen, players=tuple(shown))


def _deck_card_known(state: GameState, seat: int, seen: View) -> object:
    own = attrs.evolve(seen.players[seat], known=state.deck[:1])
    return attrs.evolve(seen, players=(*seen.players[:seat], own, *seen.players[seat + 1 :]))


LEAKS: dict[str, Leak] = {
    "other hands shown": _hands_shown,
    "a deck card known": _deck_card_known,
    "a deck card as the province": lambda state, seat, seen: attrs.evolve(
        seen, province=state.deck[-1]
    ),
    "the deck in a list": lambda state, seat, seen: [seen, list(state.deck)],
    "the deck in a value not frozen": lambda state, seat, seen: (seen, Mutable(state.deck)),
    "a bare deck card": lambda state, seat, seen: state.deck[0],
}


@pytest.mark.pins(HIDDEN_CARDS_SHOWN)
@pytest.mark.parametrize("name", sorted(LEAKS))
def test_the_fast_search_finds_every_leak_the_plain_one_finds(name: str) -> None:
    leak = LEAKS[name]
    found = 0
    for state in GAMES[1]:
        if not state.deck:
            continue
        for seat in range(state.players_count):
            honest = view(state, seat)
            leaky = leak(state, seat, honest)
            expected = hidden_cards_shown(state, seat, leaky)
            assert HIDDEN_CARDS_SHOWN.fast(state, seat, leaky) == expected
            assert HIDDEN_CARDS_SHOWN.fast(state, seat, honest) == []
            found += bool(expected)
    assert found > 0


@pytest.mark.pins(HIDDEN_CARDS_SHOWN)
def test_the_fast_search_looks_again_inside_what_can_change() -> None:
    state = GAMES[0][0]
    held: list[object] = []
    mutable = Mutable(())
    seen = (view(state, 0), held, mutable)
    assert HIDDEN_CARDS_SHOWN.fast(state, 0, seen) == []
    held.append(state.deck[0])
    mutable.cards = state.deck[1:2]
    assert HIDDEN_CARDS_SHOWN.fast(state, 0, seen) == sorted(state.deck[:2])
    assert hidden_cards_shown(state, 0, seen) == sorted(state.deck[:2])
