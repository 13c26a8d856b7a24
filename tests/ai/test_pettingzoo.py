"""The PettingZoo AEC environment passes PettingZoo's own API test."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from ai_helpers import extra

extra("pettingzoo", "pettingzoo")
api_test = extra("pettingzoo.test", "pettingzoo").api_test
environment = extra("tajmahal.ai.pettingzoo", "pettingzoo")


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_api_test(players: int) -> None:
    api_test(environment.env(players=players), num_cycles=400)


def test_a_full_game_with_masks() -> None:
    game = environment.env(players=4, utility="score")
    game.reset(seed=2000)
    rng = np.random.default_rng(0)
    steps = 0
    for _agent in game.agent_iter():
        observation, _reward, termination, truncation, info = game.last()
        if termination or truncation:
            game.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.dtype == np.int8 and (info["action_mask"] == mask).all()
        assert observation["observation"].shape == (2573,)
        game.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert game.state_ is not None and game.state_.is_over
    assert steps > 100


def test_same_seed_same_game() -> None:
    def final(seed: int) -> tuple[int, ...]:
        game = environment.env(players=3, utility="score")
        game.reset(seed=seed)
        for _agent in game.agent_iter():
            _, _, termination, truncation, info = game.last(observe=False)
            if termination or truncation:
                game.step(None)
            else:
                game.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert game.state_ is not None
        scores: tuple[int, ...] = game.state_.scores
        return scores

    assert final(4) == final(4)


def test_observations_and_masks_are_the_uncached_ones_also_after_copies() -> None:
    """Every observation and mask, for every agent at every step, equals the view's tensor
    and the mask of the legal actions computed afresh; a deep copy or a pickle of the
    environment taken mid-game goes on giving the same as the original."""
    import copy
    import pickle

    from tajmahal import legal_actions
    from tajmahal.ai import observation_tensor
    from tajmahal.ai._action_space import action_space
    from tajmahal.model import view

    space = action_space()

    def check(game: Any) -> None:
        state = game.state_
        for seat, agent in enumerate(game.possible_agents):
            observation = game.observe(agent)
            expected = observation_tensor(view(state, seat), game.components)
            assert observation["observation"].tolist() == expected
            moving = agent == game.agent_selection and not state.is_over
            flags = space.mask(legal_actions(state)) if moving else (False,) * space.size
            assert observation["action_mask"].astype(bool).tolist() == list(flags)

    game = environment.env(players=4, utility="score")
    game.reset(seed=31)
    rng = np.random.default_rng(1)
    copies: list[Any] = []
    steps = 0
    for _agent in game.agent_iter():
        _observation, _reward, termination, truncation, info = game.last()
        if termination or truncation:
            game.step(None)
            continue
        if steps % 5 == 0:
            check(game)
        if steps in (40, 150):
            copies += [copy.deepcopy(game), pickle.loads(pickle.dumps(game))]
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        game.step(action)
        for other in copies:
            other.step(action)
            assert other.state_ == game.state_
            check(other)
        steps += 1
    assert steps > 150
