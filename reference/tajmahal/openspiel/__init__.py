"""Taj Mahal as an OpenSpiel game (``pip install tajmahal-reference[openspiel]``).

Importing this module registers the game ``tajmahal`` with ``pyspiel``::

    import pyspiel
    import tajmahal.openspiel  # registers the game

    game = pyspiel.load_game("tajmahal", {"players": 3, "utility": "score"})

Parameters (all optional):

``players``     3, 4 (default) or 5.
``rules``       non-default rule-set options as ``name=value`` pairs separated by commas,
                e.g. ``majority_scope=all`` (the fields of :class:`tajmahal.rules.RuleSet`).
``setup``       ``staged`` (default): the setup is dealt by chance nodes
                (:class:`tajmahal.chance.Dealing`); ``seeded``: the setup outcome is
                drawn from ``seed`` before the game, as a recorded setup is given.
``seed``        the seed of a ``seeded`` setup (default 0).
``utility``     ``win`` (default): the winners share 1 (constant sum);
                ``score``: each player's final score (general sum).
``components``  a folder of component files (:func:`tajmahal.components.load_components`);
                empty (default): the embedded components.

Player actions are the ids of :mod:`tajmahal.action_space`. Chance actions are indices:
a card (dealt or drawn into a new deck) is its position among the sorted regular card
ids, a province or bonus tile its position among the sorted tile ids, a start player
its seat. A reshuffle is drawn card by card (:class:`tajmahal.chance.Shuffling`) and
folds into one ``reshuffle`` step of the engine.

The observation is the seat's view (:func:`tajmahal.observation.observation_tensor`,
string: the view's JSON); the information state adds everything the seat has learned
(:class:`tajmahal.observation.Knowledge`; string: one line per step, perfect recall).
``resample_from_infostate`` draws a state with
:func:`tajmahal.sampling.sample_consistent_state`, which OpenSpiel's information-set
MCTS (``open_spiel.python.algorithms.ismcts``) needs.

The adapter, one concern per module: :mod:`~tajmahal.openspiel.config` (the parameters,
the game type and the configuration they fix), :mod:`~tajmahal.openspiel.game` (the game
object), :mod:`~tajmahal.openspiel.state` (the state: legal actions, chance outcomes,
applying actions and draws, resampling), :mod:`~tajmahal.openspiel.history` (the history
links, per-seat knowledge, the information-state text, and pickling) and
:mod:`~tajmahal.openspiel.observer` (the observation and information-state tensors and
strings). Every public name is importable from here.
"""

from __future__ import annotations

import pyspiel

from tajmahal.openspiel.config import (
    DEFAULT_PARAMETERS,
    GAME_NAME,
    GameConfig,
    _game_type,
    game_config,
    parse_rules,
)
from tajmahal.openspiel.game import TajMahalGame
from tajmahal.openspiel.history import PUBLIC, Node
from tajmahal.openspiel.history import _Base as _Base
from tajmahal.openspiel.history import _Data as _Data
from tajmahal.openspiel.observer import TajMahalObserver
from tajmahal.openspiel.state import TajMahalState

# ``_Base`` and ``_Data`` are named here because states pickled before the adapter was
# split into modules name ``tajmahal.openspiel._Base``, ``._Data``, ``.game_config`` and
# ``.TajMahalState``; new pickles name the defining modules.

__all__ = [
    "DEFAULT_PARAMETERS",
    "GAME_NAME",
    "PUBLIC",
    "GameConfig",
    "Node",
    "TajMahalGame",
    "TajMahalObserver",
    "TajMahalState",
    "game_config",
    "parse_rules",
]

pyspiel.register_game(_game_type("win"), TajMahalGame)
