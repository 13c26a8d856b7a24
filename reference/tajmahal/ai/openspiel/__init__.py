"""Taj Mahal as an OpenSpiel game (``pip install tajmahal-reference[openspiel]``).

Importing this module registers the game ``tajmahal`` with ``pyspiel``::

    import pyspiel
    import tajmahal.ai.openspiel  # registers the game

    game = pyspiel.load_game("tajmahal", {"players": 3, "utility": "score"})

Parameters (all optional):

``players``     3, 4 (default) or 5.
``setup``       ``staged`` (default): the setup is dealt by chance nodes
                (:class:`tajmahal.ai._chance.Dealing`); ``seeded``: the setup outcome is
                drawn from ``seed`` before the game, as a recorded setup is given.
``seed``        the seed of a ``seeded`` setup (default 0).
``utility``     ``win`` (default): the winners share 1 (constant sum);
                ``score``: each player's final score (general sum).
``components``  a folder of component files (:func:`tajmahal.model.load_components`);
                empty (default): the embedded components. Its path holds none of
                ``(``, ``)``, ``,`` and ``=``, so that ``str(game)`` reads back.

And one parameter per rule-set option, named after the fields of
:class:`tajmahal.model.RuleSet` (``majority_scope``, ``colour_change_first_turn``,
``withdraw_without_playing``, ``crown_beside_own_palace``,
``own_palace_beside_own_crown``, ``already_held_special``), each defaulting to the
registry's resolution: ``majority_scope=all`` compares majorities among all players.
Every game's string loads back: ``pyspiel.load_game(str(game))``.

Player actions are the ids of :mod:`tajmahal.ai`. Chance actions are indices:
a card (dealt or drawn into a new deck) is its position among the sorted regular card
ids, a province or bonus tile its position among the sorted tile ids, a start player
its seat. A reshuffle is drawn card by card (:class:`tajmahal.ai._chance.Shuffling`) and
folds into one ``reshuffle`` step of the engine.

The observation is the seat's view (:func:`tajmahal.ai.observation_tensor`,
string: the view's JSON); the information state adds everything the seat has learned
(:class:`tajmahal.ai.Knowledge`; string: one line per step, perfect recall).
``resample_from_infostate`` draws a state with
:func:`tajmahal.ai._sampling.sample_consistent_state`, which OpenSpiel's information-set
MCTS (``open_spiel.python.algorithms.ismcts``) needs.

The adapter, one concern per module: :mod:`~tajmahal.ai.openspiel` (the parameters,
the game type and the configuration they fix), :mod:`~tajmahal.ai.openspiel` (the game
object), :mod:`~tajmahal.ai.openspiel` (the state: legal actions, chance outcomes,
applying actions and draws, resampling), :mod:`~tajmahal.ai.openspiel` (the history
links, per-seat knowledge, the information-state text, and pickling) and
:mod:`~tajmahal.ai.openspiel` (the observation and information-state tensors and
strings). Every public name is importable from here.
"""

from __future__ import annotations

import pyspiel

from tajmahal.ai.openspiel._config import (
    DEFAULT_PARAMETERS,
    GAME_NAME,
    RULE_PARAMETERS,
    GameConfig,
    game_config,
    game_type,
    rules_of,
)
from tajmahal.ai.openspiel._fast_paths import FAST_PATHS
from tajmahal.ai.openspiel._game import TajMahalGame
from tajmahal.ai.openspiel._history import PUBLIC, Node
from tajmahal.ai.openspiel._observer import TajMahalObserver
from tajmahal.ai.openspiel._state import TajMahalState

__all__ = [
    "DEFAULT_PARAMETERS",
    "FAST_PATHS",
    "GAME_NAME",
    "PUBLIC",
    "RULE_PARAMETERS",
    "GameConfig",
    "Node",
    "TajMahalGame",
    "TajMahalObserver",
    "TajMahalState",
    "game_config",
    "rules_of",
]

pyspiel.register_game(game_type("win"), TajMahalGame)
