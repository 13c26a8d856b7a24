"""The OpenSpiel game object (:class:`TajMahalGame`): the game's size and utility bounds
from its parameters, its initial state and its observers."""

from __future__ import annotations

from typing import Any

import pyspiel

from tajmahal.ai.openspiel._config import DEFAULT_PARAMETERS, GameConfig, game_type
from tajmahal.ai.openspiel._fast_paths import GAME_CONFIG
from tajmahal.ai.openspiel._observer import TajMahalObserver
from tajmahal.ai.openspiel._state import TajMahalState

_game_config = GAME_CONFIG.chosen()


class TajMahalGame(pyspiel.Game):  # type: ignore[misc]
    """The game object ``pyspiel.load_game("tajmahal", ...)`` returns."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**DEFAULT_PARAMETERS, **(params or {})}
        config = _game_config(values)
        limits = config.limits
        length = limits.decisions + limits.reshuffled_cards
        if config.staged:
            length += limits.setup_draws
        super().__init__(
            game_type(config.utility),
            pyspiel.GameInfo(
                num_distinct_actions=config.space.size,
                max_chance_outcomes=limits.chance_outcomes,
                num_players=config.players,
                min_utility=0.0,
                max_utility=1.0 if config.utility == "win" else float(limits.score),
                utility_sum=1.0 if config.utility == "win" else None,
                max_game_length=length,
            ),
            values,
        )
        self._config = config

    def config(self) -> GameConfig:
        """The configuration of this game's parameters."""
        return self._config

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its parameters (as ``pyspiel.load_game`` makes it)."""
        return (TajMahalGame, (dict(self._config.parameters),))

    def new_initial_state(self) -> TajMahalState:
        """The start: a dealing at its first draw, or the seeded initial state."""
        return TajMahalState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TajMahalObserver:
        """An observer: the information state when perfect recall is asked, else the view."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return TajMahalObserver(self, perfect_recall)
