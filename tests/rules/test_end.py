"""The end of the game: after the twelfth visit, hand points, the winners."""

from __future__ import annotations

import random

import pytest
from positions import (
    all_cards_once,
    at_visit,
    finish_visit,
    fresh_game,
    game,
    player,
    points,
    run_events,
)
from scenes import last_visit

from tajmahal.engine import apply, legal_actions, random_reshuffle
from tajmahal.errors import IllegalActionError
from tajmahal.model import GameState, Step, Symbol


def play_out(state: GameState) -> tuple[GameState, list[int]]:
    """Everyone withdraws without playing; returns the end state and the hand points."""
    state, events = run_events(
        state,
        "withdraw",  # seat 0 draws violet-01
        "take white-02 white-03",
        "withdraw",  # seat 1 draws violet-02
        "take green-02 white-04",
        "withdraw",  # seat 2 draws violet-03 and takes red-03, the last card
    )
    return state, points(events, "hand")


@pytest.mark.clause("TM.END.AFTER_TWELVE", "TM.TURN.TWELVE_VISITS")
def test_the_game_ends_when_the_twelfth_visit_is_complete() -> None:
    state = finish_visit(at_visit(game(4), 11))
    assert state.visit == 12 and not state.is_over
    state = finish_visit(state)
    assert state.is_over and state.step is Step.OVER
    assert state.visit == 12 and state.to_move is None
    assert legal_actions(state) == ()
    with pytest.raises(IllegalActionError, match="game is over"):
        apply(state, legal_actions(at_visit(game(4), 1))[0])


@pytest.mark.clause(
    "TM.END.HAND.SPECIAL",
    "TM.END.HAND.WHITE",
    "TM.END.HAND.LARGEST_COLOUR",
    "TM.END.HAND.INCLUDES_LAST_PICKS",
    "TM.END.LEFTOVER_NO_VALUE",
)
def test_hands_are_scored_after_the_last_visit_including_the_last_picks() -> None:
    state, hand_points = play_out(last_visit((10, 12, 14)))
    assert state.is_over
    assert player(state, 0).hand == (
        "red-01",
        "red-02",
        "special-plus-two",
        "violet-01",
        "white-01",
        "white-02",
        "white-03",
    )
    assert player(state, 2).hand == ("green-01", "red-03", "violet-03")
    # 1 special + 3 white + 2 red; 1 white + 3 yellow; one card of one colour.
    assert hand_points == [6, 4, 1]
    # Seat 1's influence tiles are worth nothing.
    assert player(state, 1).influence == (Symbol.VIZIER, Symbol.MONK)
    assert state.scores == (16, 16, 15)


@pytest.mark.clause("TM.END.WINNER")
def test_the_player_with_the_most_points_wins() -> None:
    state, _ = play_out(last_visit((10, 12, 20)))
    assert state.scores == (16, 16, 21)
    assert state.winners() == (2,)


@pytest.mark.clause("TM.END.TIE")
def test_tied_players_share_the_victory() -> None:
    state, _ = play_out(last_visit((10, 12, 14)))
    assert state.winners() == (0, 1)


@pytest.mark.clause(
    "TM.TURN.TWELVE_VISITS",
    "TM.SETUP.VISIT_ORDER",
    "TM.VISIT.NEXT.PROVINCE",
    "TM.END.AFTER_TWELVE",
)
@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3)])
def test_a_random_game_visits_each_province_once_in_tile_order(players: int, seed: int) -> None:
    state = fresh_game(players, seed)
    rng = random.Random(seed)
    visited = [state.current_province]
    for _ in range(20000):
        if state.is_over:
            break
        before = state
        if state.is_chance:
            state = apply(state, random_reshuffle(state, rng))
        else:
            state = apply(state, rng.choice(legal_actions(state)))
        if not state.is_over and state.current_province != visited[-1]:
            visited.append(state.current_province)
        # Cards are never lost or copied, scores never go down, a province tile is won
        # once, a city holds at most two palaces.
        assert all_cards_once(state)
        assert all(old <= new for old, new in zip(before.scores, state.scores, strict=True))
        won = [tile for p in state.players for tile in p.province_tiles]
        assert len(won) == len(set(won))
        cities = [palace.city for palace in state.palaces]
        assert all(cities.count(city) <= 2 for city in cities)
    assert state.is_over
    assert len(visited) == 12 == len(set(visited))
    assert visited[-1] == state.config.components.board.agra_province
    assert tuple(visited) == state.province_order
