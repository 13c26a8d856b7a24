"""The PettingZoo environment's fast step and observation give what the plain ones give.

``TajMahalEnv.step`` hands the commonest move (one leading straight to another decision)
to ``_decide`` without ``_settle``, skips setting the mover's cumulative reward to the 0
it already holds, and keeps the mover's info dict when the same seat moves again;
Here a plain environment, written as the module was before those shortcuts (every move
through one settling function that replaces the former mover's info dict, the reward set
to 0 at every step, observations from ``masked_observation`` written at once), plays the
same random games, and
everything a caller can see is compared after every step: agents, the agent to move,
rewards, cumulative rewards, terminations, truncations, infos and their masks, every
agent's observation (mask and, now and then, tensor) and the engine state.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from ai_helpers import extra

from tajmahal import apply, legal_actions, random_reshuffle
from tajmahal.accel import ENABLED, LazyObservation
from tajmahal.ai import masked_observation
from tajmahal.model import GameState, Step

np = extra("numpy", "pettingzoo")
environment = extra("tajmahal.ai.pettingzoo", "pettingzoo")


def _plain_env(players: int, utility: str) -> Any:
    """An environment whose step and observe are the plain ones described above."""

    class PlainEnv(environment.TajMahalEnv):  # type: ignore[misc, name-defined]
        agent_selection: str

        def _plain_settle(self, state: GameState) -> bool:
            while state.step is Step.SHUFFLE:
                state = apply(state, random_reshuffle(state, self._chance))
            self.state_ = state
            if state.is_over:
                if self.utility == "score":
                    values = [float(score) for score in state.scores]
                else:
                    winners = state.winners()
                    values = [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
                for seat, agent in enumerate(self.possible_agents):
                    self.rewards[agent] = values[seat]
                self.terminations = dict.fromkeys(self.agents, True)
                for agent in self.agents:
                    self.infos[agent] = {"action_mask": np.zeros(self.space.size, np.int8)}
                return True
            assert state.to_move is not None
            self.infos[self.agent_selection] = {}
            mover: str = self.possible_agents[state.to_move]
            self.agent_selection = mover
            mask = np.zeros(self.space.size, np.int8)
            for number in self.space.ids_of(legal_actions(state)):
                mask[number] = 1
            self.infos[mover] = {"action_mask": mask}
            return False

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            assert self.state_ is not None and action is not None
            self._cumulative_rewards[agent] = 0.0
            move = self.space.action_from_id(int(action))
            if self._plain_settle(apply(self.state_, move)):
                self._accumulate_rewards()

        def observe(self, agent: str) -> Any:
            state = self.state_
            assert state is not None
            if agent == self.agent_selection and not state.is_over:
                mask = self.infos[agent]["action_mask"].copy()
            else:
                mask = np.zeros(self.space.size, np.int8)
            seat = self.possible_agents.index(agent)
            return masked_observation(lambda: self._tensor(state, seat), mask)

    return PlainEnv(players=players, utility=utility)


def _same(game: Any, plain: Any, tensors: bool) -> None:
    """Everything a caller can see of the two environments is equal."""
    assert game.agents == plain.agents
    assert game.agent_selection == plain.agent_selection
    assert game.state_ == plain.state_
    for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
        assert getattr(game, name) == getattr(plain, name), name
        assert list(getattr(game, name)) == list(getattr(plain, name)), name
    assert list(game.infos) == list(plain.infos)
    for agent, info in game.infos.items():
        other = plain.infos[agent]
        assert type(info) is dict and list(info) == list(other)
        if "action_mask" in info:
            mask = info["action_mask"]
            assert mask.dtype == np.int8 and mask.flags.writeable and mask.flags.owndata
            assert np.array_equal(mask, other["action_mask"])
    for agent in game.agents:
        observation, expected = game.observe(agent), plain.observe(agent)
        if ENABLED:  # the tensor is written when first read
            assert type(observation) is LazyObservation and observation.pending
        mask = observation["action_mask"]
        assert mask.dtype == np.int8 and mask.flags.owndata
        assert np.array_equal(mask, expected["action_mask"])
        assert mask is not game.infos[agent].get("action_mask")
        if tensors:
            assert list(observation) == list(expected) == ["observation", "action_mask"]
            assert np.array_equal(observation["observation"], expected["observation"])


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("utility", ["win", "score"])
def test_fast_step_and_observations_are_the_plain_ones(players: int, utility: str) -> None:
    """Random games through both environments, compared after every step, with
    reset() reused for a second game as a training loop does."""
    game = environment.env(players=players, utility=utility)
    plain = _plain_env(players, utility)
    steps = 0
    for seed in (players, 100 + players):
        game.reset(seed=seed)
        plain.reset(seed=seed)
        rng = random.Random(seed)
        _same(game, plain, tensors=True)
        for agent in game.agent_iter():
            assert agent == plain.agent_selection
            fast_last = game.last(observe=False)
            assert fast_last[1:4] == plain.last(observe=False)[1:4]
            if fast_last[2] or fast_last[3]:
                game.step(None)
                plain.step(None)
            else:
                legal = np.flatnonzero(fast_last[4]["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
                game.step(action)
                plain.step(action)
            steps += 1
            _same(game, plain, tensors=steps % 7 == 0)
        assert not plain.agents
    assert steps > 300
