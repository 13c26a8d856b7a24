"""Floors of the adapter loops of ``tools/bench/adapter_speed.py``: the measured cost of the
work each loop cannot avoid beyond the engine loop, whatever the adapter does.

Each real loop is first played once (untimed) to record its *script*: for every
iteration of the caller's loop, who is to move and how long the list it is handed is
(legal ids, or chance outcomes). Then trivial games replay the scripts with the same
caller loops, doing no work of their own but what their framework's API requires:

- ``floor-openspiel-seeded`` / ``floor-openspiel-staged``: a trivial Python game
  registered with ``pyspiel`` (``tajmahal_floor``). Its state answers ``legal_actions``
  with a copy of a prebuilt list of the recorded length, ``chance_outcomes`` with a copy
  of a prebuilt list of ``(id, 1/n)`` pairs of the recorded length (the staged game's
  123 dealing draws and the reshuffle draws alike), ``is_chance_node`` /
  ``is_terminal`` / ``current_player`` from one attribute, and its ``_apply_action``
  moves to the next entry. The caller's loop is the one of the real loops, through
  OpenSpiel's C++ ``apply_action`` (the bridge back into Python) and the Python
  overrides the real adapter has too.
- ``floor-pettingzoo-masks`` / ``-observe`` / ``-tensors``: a trivial PettingZoo AEC
  environment (``env()`` of ``tajmahal.ai.pettingzoo`` adds no wrapper, so neither does
  this one) driven by PettingZoo's own ``agent_iter``, ``last`` and ``_was_dead_step``.
  Its ``step`` moves to the next entry, points ``agent_selection`` at the recorded seat
  and hands over the least a mask needs: a copy of a prebuilt 6,183-flag mask with the
  recorded number of flags, in a new ``infos`` dict. Its ``observe`` gives the least an
  observation needs: a copy of the mask and the dict holding it with a tensor; for
  ``-tensors``, whose caller reads every tensor, the tensor is a copy of a prebuilt
  float32 tensor of the real size (2,573), for ``-observe`` (whose caller reads only
  the mask, and whose real tensors are written on first use) the prebuilt one itself.
  The caller reads the mask with ``np.flatnonzero`` as the real loop does.
- ``null-*``: the scripts walked with nothing but one ``randrange`` per entry with a
  list: the choice and the draws the engine loop makes too, subtracted.

The highest ratio a loop can reach, if the adapter's own code took no time, is then
``engine / (engine + floor - null)``: the engine loop's time plus only what the
framework's machinery and the caller add. Printed by ``tools/bench/adapter_speed.py
--floors``; never a timed test.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from adapter_speed import drive_openspiel, drive_pettingzoo

Entry = tuple[int, int]
"""One iteration of a caller's loop: the player to move (OpenSpiel's CHANCE id, or a
seat; -9 at OpenSpiel's terminal entry, -1 at a PettingZoo agent already done) and the
length of the list it is handed (0 when none)."""

Script = list[Entry]
"""One game, iteration by iteration."""

MASK_SIZE = 6183
"""Flags in a mask (the embedded components' action space)."""

TENSOR_SIZE = 2573
"""Values in an observation tensor (the embedded components' layout)."""


# -- recording ------------------------------------------------------------------------


def record_openspiel(setup: str, players: int, seed: int) -> Script:
    """The script of the real OpenSpiel loop's game ``seed`` (as ``adapter_speed``)."""
    import pyspiel

    import tajmahal.ai.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game(
        "tajmahal", {"players": players, "setup": setup, "seed": seed, "utility": "score"}
    )
    state = game.new_initial_state()
    rng = random.Random(seed)
    script: Script = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            script.append((int(pyspiel.PlayerId.CHANCE), len(outcomes)))
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            script.append((state.current_player(), len(legal)))
            state.apply_action(legal[rng.randrange(len(legal))])
    script.append((int(pyspiel.PlayerId.TERMINAL), 0))
    return script


def record_pettingzoo(players: int, seed: int) -> Script:
    """The script of the real PettingZoo loop's game ``seed`` (as ``adapter_speed``):
    each live step's seat and legal count; the agents' final steps (done) as ``-1``."""
    import numpy as np

    from tajmahal.ai.pettingzoo import env

    game = env(players=players, utility="score")
    game.reset(seed=seed)
    rng = random.Random(seed)
    script: Script = []
    for agent in game.agent_iter():
        _, _, termination, truncation, info = game.last(observe=False)
        if termination or truncation:
            script.append((-1, 0))
            game.step(None)
            continue
        legal = np.flatnonzero(info["action_mask"].view(np.bool_))
        script.append((int(agent.removeprefix("seat_")), len(legal)))
        game.step(int(legal[rng.randrange(len(legal))]))
    return script


def null_loop(script: Script, seed: int) -> None:
    """The script walked with one ``randrange`` per entry with a list: what the engine
    loop spends choosing and drawing too (subtracted from a floor)."""
    rng = random.Random(seed)
    for _player, length in script:
        if length:
            rng.randrange(length)


# -- OpenSpiel ------------------------------------------------------------------------

_OpenSpielEntry = tuple[int, list[int], list[tuple[int, float]]]

_NEXT: list[list[_OpenSpielEntry]] = []
"""The entries the next trivial OpenSpiel state replays (set by the loop before
``new_initial_state``; a measuring tool's hand-over, not an API)."""

_LEGAL: dict[int, list[int]] = {}
_OUTCOMES: dict[int, list[tuple[int, float]]] = {}


def _openspiel_entries(script: Script) -> list[_OpenSpielEntry]:
    """A script with its prebuilt lists (shared by length; built before timing)."""
    for _player, length in script:
        if length not in _LEGAL:
            _LEGAL[length] = list(range(length))
            _OUTCOMES[length] = [(i, 1.0 / length) for i in range(length)] if length else []
    return [(player, _LEGAL[length], _OUTCOMES[length]) for player, length in script]


def _register_openspiel() -> Any:
    """Register ``tajmahal_floor`` with ``pyspiel`` (once) and return ``pyspiel``."""
    import pyspiel

    if "tajmahal_floor" in pyspiel.registered_names():
        return pyspiel
    chance = int(pyspiel.PlayerId.CHANCE)
    terminal = int(pyspiel.PlayerId.TERMINAL)

    class FloorState(pyspiel.State):  # type: ignore[misc]
        """Replays a script; the least OpenSpiel's API asks of a Python state."""

        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self._entries = _NEXT.pop()
            self._at = 0
            self._player = self._entries[0][0]

        def current_player(self) -> int:
            return self._player

        def is_terminal(self) -> bool:
            return self._player == terminal

        def is_chance_node(self) -> bool:
            return self._player == chance

        def legal_actions(self, player: int | None = None) -> list[int]:
            return self._entries[self._at][1][:]

        def _legal_actions(self, player: int) -> list[int]:
            return self._entries[self._at][1][:]

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return self._entries[self._at][2][:]

        def _apply_action(self, action: int) -> None:
            self._at += 1
            self._player = self._entries[self._at][0]

        def _action_to_string(self, player: int, action: int) -> str:
            return str(action)

        def returns(self) -> list[float]:
            return [0.0] * self.get_game().num_players()

        def __str__(self) -> str:
            return str(self._at)

    class FloorGame(pyspiel.Game):  # type: ignore[misc]
        """The trivial game: as many players as asked, the real game's sizes."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            players = int((params or {}).get("players", 4))
            super().__init__(
                game_type,
                pyspiel.GameInfo(
                    num_distinct_actions=MASK_SIZE,
                    max_chance_outcomes=96,
                    num_players=players,
                    min_utility=0.0,
                    max_utility=1.0,
                    utility_sum=None,
                    max_game_length=10_000,
                ),
                params or {},
            )

        def new_initial_state(self) -> FloorState:
            return FloorState(self)

    game_type = pyspiel.GameType(
        short_name="tajmahal_floor",
        long_name="Taj Mahal adapter floor (a trivial replay of recorded list lengths)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=5,
        min_num_players=3,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={"players": 4},
    )
    pyspiel.register_game(game_type, FloorGame)
    return pyspiel


def openspiel_floor(scripts: dict[int, Script]) -> Callable[[int, int], None]:
    """The OpenSpiel caller's loop of ``adapter_speed`` over the trivial game."""
    pyspiel = _register_openspiel()
    games: dict[int, Any] = {}
    prepared = {seed: _openspiel_entries(script) for seed, script in scripts.items()}

    def play(players: int, seed: int) -> None:
        game = games.get(players)
        if game is None:
            game = games[players] = pyspiel.load_game("tajmahal_floor", {"players": players})
        _NEXT.append(prepared[seed])
        state = game.new_initial_state()
        drive_openspiel(state, seed, state.apply_action)
        state.returns()

    return play


# -- PettingZoo -----------------------------------------------------------------------


def _pettingzoo_env(players: int, tensors: bool = False) -> Any:
    """A trivial AEC environment replaying scripts (see the module docstring)."""
    import numpy as np
    from pettingzoo import AECEnv

    class FloorEnv(AECEnv):  # type: ignore[misc]
        metadata: dict[str, Any] = {"name": "tajmahal_floor", "is_parallelizable": False}  # noqa: RUF012

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = [f"seat_{seat}" for seat in range(players)]
            self.agents = list(self.possible_agents)
            self._tensor = np.zeros(TENSOR_SIZE, np.float32)
            self._no_mask = np.zeros(MASK_SIZE, np.int8)
            self._mask = self._no_mask
            self._entries: Iterator[tuple[str, Any]] = iter(())

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            assert seed is not None
            agents = self.possible_agents
            self._entries = iter(_NEXT_PZ.pop())
            self.agents = list(agents)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
            self.agent_selection = agents[0]
            self._next()

        def _next(self) -> None:
            entry = next(self._entries, None)
            if entry is None:
                self.terminations = dict.fromkeys(self.agents, True)
                for agent in self.agents:
                    self.infos[agent] = {"action_mask": self._no_mask.copy()}
                self._accumulate_rewards()
                return
            self.infos[self.agent_selection] = {}
            agent, prebuilt = entry
            self.agent_selection = agent
            self._mask = mask = prebuilt.copy()
            self.infos[agent] = {"action_mask": mask}

        def observe(self, agent: str) -> dict[str, Any]:
            tensor = self._tensor.copy() if tensors else self._tensor
            return {"observation": tensor, "action_mask": self._mask.copy()}

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self._next()

    return FloorEnv()


_NEXT_PZ: list[list[tuple[str, Any]]] = []
"""The live steps the next ``reset`` of the trivial environment replays: the agent to
move and its prebuilt mask."""

_MASKS: dict[int, Any] = {}


def _pettingzoo_entries(script: Script) -> list[tuple[str, Any]]:
    """A script's live steps with prebuilt masks (shared by length; built before timing)."""
    import numpy as np

    for _seat, length in script:
        if length not in _MASKS:
            _MASKS[length] = np.zeros(MASK_SIZE, np.int8)
            _MASKS[length][:length] = 1
    return [(f"seat_{seat}", _MASKS[length]) for seat, length in script if seat >= 0]


def pettingzoo_floor(
    scripts: dict[int, Script], observe: bool, tensors: bool = False
) -> Callable[[int, int], None]:
    """The PettingZoo caller's loop of ``adapter_speed`` over the trivial environment
    (with ``tensors``, copying and reading every observation's tensor)."""

    made: dict[int, Any] = {}
    prepared = {seed: _pettingzoo_entries(script) for seed, script in scripts.items()}

    def play(players: int, seed: int) -> None:
        game = made.get(players)
        if game is None:
            game = made[players] = _pettingzoo_env(players, tensors)
        _NEXT_PZ.append(prepared[seed])
        game.reset(seed=seed)
        drive_pettingzoo(game, seed, observe, tensors)

    return play
