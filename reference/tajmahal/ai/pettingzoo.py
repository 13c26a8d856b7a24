"""Taj Mahal as a PettingZoo AEC environment (``pip install tajmahal-reference[pettingzoo]``).

::

    from tajmahal.ai.pettingzoo import env

    game = env(players=4)
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else game.action_space(agent).sample(mask)
        game.step(action)

Agents are ``seat_0`` .. ``seat_{n-1}``. An observation is a dict: ``observation``, the
seat's view as :func:`tajmahal.ai.observation_tensor` (float32), and
``action_mask`` (int8, one flag per id of :mod:`tajmahal.ai`); the mask is
also in ``infos[agent]["action_mask"]``. The observation dict is
:func:`tajmahal.ai.masked_observation`; with the accelerated layer its tensor is
written when first read (a player that reads only the mask never pays for it), the same
values as if written at once. Chance is resolved inside the environment: the
setup is drawn from the ``reset`` seed (:func:`tajmahal.engine.random_setup`) and each
reshuffle from a generator seeded by it, the same derivation ``tajmahal play`` uses for
records (:func:`tajmahal.agents.chance_seed`). Rewards come once, at the end: the winners
share 1 (``utility="win"``) or each seat gets its final score (``utility="score"``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector

from tajmahal import accel
from tajmahal.accel import FastPath, apply
from tajmahal.agents import chance_seed
from tajmahal.ai._action_space import ActionSpace, action_space
from tajmahal.ai._bounds import bounds
from tajmahal.ai._fast_paths import MASKED_OBSERVATION, TENSOR_OBSERVER
from tajmahal.ai._tensor import ACTION_MASK, TensorLayout, TensorWriter, tensor_layout
from tajmahal.engine import new_game, random_reshuffle, random_setup
from tajmahal.model import Components, GameState, RuleSet, Step, default_components


def legal_mask(space: ActionSpace, state: GameState) -> Any:
    """The action mask of ``state``: a new int8 array with one flag per id of ``space``,
    1 at the ids of the legal decisions (:meth:`ActionSpace.legal_ids`)."""
    mask = np.zeros(space.size, np.int8)
    mask[space.legal_ids(state)] = 1
    return mask


LEGAL_MASK: FastPath[Callable[[ActionSpace, GameState], Any]] = FastPath(
    core=legal_mask,
    fast=accel.legal_mask,
    buys=(
        "the legal ids listed from tables of ids and set through a memory view: 15 to 20 % "
        "of pettingzoo-masks and pettingzoo-observe of tools/bench/adapter_speed.py "
        "(docs/ai.md)"
    ),
)
"""The mask of a state's legal ids (paired here, as this module is an optional extra)."""

FAST_PATHS = (LEGAL_MASK,)
"""Every fast path of this module, each pinned to its function by ``tests/accel/``."""

_legal_mask = LEGAL_MASK.chosen()
_tensor_observer: Callable[[TensorLayout], TensorWriter] = TENSOR_OBSERVER.chosen()
_masked_observation: Callable[[Callable[[], Any], Any], dict[str, Any]] = (
    MASKED_OBSERVATION.chosen()
)

ENV_NAME = "tajmahal_v1"
"""The versioned environment name (bumped when observations or actions change meaning)."""


class TajMahalEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads a class attribute
        "name": ENV_NAME,
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        rules: RuleSet | None = None,
        utility: Literal["win", "score"] = "win",
        components: Components | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if players not in (3, 4, 5):
            raise ValueError(f"Taj Mahal is for 3 to 5 players, not {players}")
        if utility not in ("win", "score"):
            raise ValueError(f"utility: 'win' or 'score', not {utility!r}")
        self.players = players
        """The player count."""
        self.rules = rules if rules is not None else RuleSet()
        """The rule set."""
        self.utility = utility
        """``win`` or ``score``."""
        self.components = components if components is not None else default_components()
        """The component set."""
        self.render_mode = render_mode
        """``ansi`` (the state's canonical JSON) or None."""
        self.space = action_space(self.components)
        """The numbered decisions."""
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        self.agents = list(self.possible_agents)
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        layout = tensor_layout(self.components)
        self._observer = _tensor_observer(layout)
        """Writes the observation tensors (:class:`tajmahal.ai.TensorObserver`)."""
        self._tensor_size = size = layout.size
        high = float(max(bounds(self.components, players).score, len(self.components.cards)))
        # One space object shared by every agent: building gymnasium spaces is slow, and
        # the agents' spaces are identical.
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, high, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.space.size,), np.int8),
            }
        )
        discrete = spaces.Discrete(self.space.size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, discrete)
        self.state_: GameState | None = None
        """The engine state (None before the first reset)."""
        self._chance = random.Random(0)
        self._current_mask = np.zeros(self.space.size, np.int8)
        """The mask of the agent to move (zeros once the game is over), never changed
        after it is written."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (every id; see the mask)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: setup drawn from ``seed`` (a random seed when None)."""
        if seed is None:
            seed = random.getrandbits(31)
        setup = random_setup(self.components, self.players, seed)
        self._chance = random.Random(chance_seed(seed))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self.agents[0]
        self._settle(new_game(self.components, self.players, setup, self.rules))

    def _settle(self, state: GameState) -> bool:
        """Resolve chance steps, then point ``agent_selection`` at the seat to move, with
        its mask in ``infos`` (the seat that moved before gets an empty info dict); True
        when the game is over."""
        while state.step is Step.SHUFFLE:
            state = apply(state, random_reshuffle(state, self._chance))
        self.state_ = state
        if state.is_over:
            self._current_mask = np.zeros(self.space.size, np.int8)
            if self.utility == "score":
                values = [float(score) for score in state.scores]
            else:
                winners = state.winners()
                values = [1.0 / len(winners) if s in winners else 0.0 for s in range(self.players)]
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] = values[seat]
            self.terminations = dict.fromkeys(self.agents, True)
            for agent in self.agents:
                self.infos[agent] = {ACTION_MASK: np.zeros(self.space.size, np.int8)}
            return True
        assert state.to_move is not None
        self.infos[self.agent_selection] = {}
        self.agent_selection = self.possible_agents[state.to_move]
        mask = _legal_mask(self.space, state)
        self._current_mask = mask
        self.infos[self.agent_selection] = {ACTION_MASK: mask}
        return False

    def observe(self, agent: str) -> dict[str, Any]:
        """The observation dict of ``agent`` (its mask is empty unless it is to move)."""
        state = self.state_
        assert state is not None, "reset() first"
        if agent == self.agent_selection:
            mask = self._current_mask.copy()
        else:
            mask = np.zeros(self.space.size, np.int8)
        seat = self._seats[agent]
        return _masked_observation(lambda: self._tensor(state, seat), mask)

    def _tensor(self, state: GameState, seat: int) -> Any:
        """``seat``'s observation tensor of ``state`` (a new float32 array)."""
        return self._observer.write(state, seat, np.zeros(self._tensor_size, np.float32))

    def step(self, action: int | None) -> None:
        """Apply the id ``action`` for the agent to move (None once it is terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state_ is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        state = apply(self.state_, self.space.action_from_id(int(action)))
        if self._settle(state):
            self._accumulate_rewards()

    def render(self) -> str | None:
        """The state's canonical JSON (``ansi``), or None."""
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        from tajmahal.notation import canonical_json

        return canonical_json(self.state_)

    def close(self) -> None:
        """Nothing to release."""


def env(**kwargs: Any) -> TajMahalEnv:
    """A new environment (keyword arguments as :class:`TajMahalEnv`)."""
    return TajMahalEnv(**kwargs)
