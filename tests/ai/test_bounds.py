"""The published bounds hold in random games (a property test) and have the documented values."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scenes import random_game

from tajmahal import Play, Reshuffle, default_components, legal_actions
from tajmahal.ai._bounds import bounds
from tajmahal.ai._chance import Dealing


def test_documented_values() -> None:
    # The figures docs/ai.md states for the embedded components.
    found = {n: bounds(default_components(), n) for n in (3, 4, 5)}
    assert [found[n].decisions for n in (3, 4, 5)] == [250, 316, 382]
    assert found[4].score == 489
    assert found[4].legal_actions == 579
    assert found[4].chance_outcomes == 96
    assert found[5].setup_draws == 123
    with pytest.raises(ValueError):
        bounds(default_components(), 6)


@settings(max_examples=12, deadline=None)
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 10**6))
def test_random_games_stay_within_the_bounds(players: int, seed: int) -> None:
    limit = bounds(default_components(), players)
    decisions = plays = reshuffled = 0
    state = None
    for before, action, after in random_game(players, seed):
        if isinstance(action, Reshuffle):
            reshuffled += len(action.order)
            assert len(action.order) <= limit.chance_outcomes
        else:
            decisions += 1
            plays += isinstance(action, Play)
            assert len(legal_actions(before)) <= limit.legal_actions
        assert all(len(p.hand) <= limit.hand_size for p in after.players)
        state = after
    assert state is not None
    assert decisions <= limit.decisions
    assert plays <= limit.plays
    assert reshuffled <= limit.reshuffled_cards
    assert max(state.scores) <= limit.score


def test_setup_draws_and_their_outcomes() -> None:
    limit = bounds(default_components(), 3)
    node = Dealing(default_components(), 3)
    draws = 0
    while isinstance(node, Dealing):
        outcomes = node.outcomes()
        assert len(outcomes) <= limit.chance_outcomes
        node = node.draw(outcomes[0])  # type: ignore[assignment]
        draws += 1
    assert draws == limit.setup_draws
