"""``view`` gives what the plain construction gives.

``view`` reuses the player views made for the very same seats before (a memo) and makes
its empty picks by repeating one empty tuple; here every seat's view of every state of
random games, for 3, 4 and 5 players, with the picks tracked along the game and without
them, is compared with a view built field by field from the state, with no memo and the
empty picks made one seat at a time.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tajmahal.engine import apply, legal_actions, new_game, random_reshuffle, random_setup
from tajmahal.model import GameState, View, default_components, view
from tajmahal.model._view import _SEAT_VIEWS, Picks, PlayerView, no_picks, track_picks

COMPONENTS = default_components()


def states(players: int, seed: int) -> Iterator[GameState]:
    """Every state of a seeded random game, the last one included."""
    rng = random.Random(seed)
    state = new_game(COMPONENTS, players, random_setup(COMPONENTS, players, seed))
    while True:
        yield state
        if state.is_over:
            return
        if state.is_chance:
            state = apply(state, random_reshuffle(state, rng))
        else:
            legal = legal_actions(state)
            state = apply(state, legal[rng.randrange(len(legal))])


def plain_view(state: GameState, player: int, picks: Picks | None) -> View:
    """The view of ``state`` for ``player``, every part made afresh."""
    known = picks if picks is not None else tuple(() for _ in state.players)
    specials = state.config.components.specials
    seats = []
    for seat, held in enumerate(state.players):
        seats.append(
            PlayerView(
                hand=held.hand if seat == player else None,
                hand_size=len(held.hand),
                specials=tuple(card for card in held.hand if card in specials),
                known=tuple(card for card in known[seat] if card in held.hand),
                played=held.played,
                colour=held.colour,
                withdrawn=held.withdrawn,
                influence=held.influence,
                province_tiles=held.province_tiles,
                goods_tiles=held.goods_tiles,
                score=held.score,
            )
        )
    return View(
        viewer=player,
        visit=state.visit,
        province=state.current_province,
        step=state.step,
        to_move=state.to_move,
        start_player=state.start_player,
        players=tuple(seats),
        deck_size=len(state.deck),
        discard=state.discard,
        display=state.display,
        specials_on_table=state.specials_on_table,
        court_influence=state.court_influence,
        crown_in_court=state.crown_in_court,
        court_province_tile=state.court_province_tile,
        province_order=state.province_order,
        bonus_on_board=state.bonus_on_board,
        palaces=state.palaces,
    )


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (4, 12), (5, 13)])
def test_views_are_the_plain_views(players: int, seed: int) -> None:
    _SEAT_VIEWS.clear()
    previous: GameState | None = None
    picks: Picks | None = None
    picked = 0
    for state in states(players, seed):
        picks = no_picks(state) if previous is None else track_picks(previous, state, picks)
        previous = state
        picked += sum(map(len, picks))
        assert no_picks(state) == ((),) * players
        for seat in range(players):
            assert view(state, seat) == plain_view(state, seat, None)
            assert view(state, seat, picks) == plain_view(state, seat, picks)
    assert picked, "no display pick was tracked: the picks were never looked at"
