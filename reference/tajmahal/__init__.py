"""tajmahal: the reference engine for Reiner Knizia's Taj Mahal (alea, 2000).

The public API in one place::

    from tajmahal import default_components, random_setup, new_game, legal_actions, apply

    components = default_components()
    state = new_game(components, 4, random_setup(components, 4, seed=1))
    while not state.is_over:
        ...

See the README for the command line and ``specs/`` for the clause registry and formats.
"""

from tajmahal.actions import (
    Action,
    PlaceCrown,
    PlacePalace,
    Play,
    Reshuffle,
    Take,
    Withdraw,
    parse_action,
)
from tajmahal.components import Components, default_components, load_components
from tajmahal.engine import (
    apply,
    apply_with_events,
    chance_cards,
    crown_cities,
    legal_actions,
    palace_cities,
    random_reshuffle,
)
from tajmahal.errors import (
    ActionSyntaxError,
    ComponentError,
    IllegalActionError,
    RecordError,
    StateFormatError,
    TajMahalError,
)
from tajmahal.events import Event, EventKind, PointSource
from tajmahal.match import MatchResult, play_match
from tajmahal.players import PLAYER_TYPES, GreedyPlayer, Player, RandomPlayer
from tajmahal.rules import DEFAULT_RULES, RuleSet
from tajmahal.setup import SetupOutcome, new_game, random_setup
from tajmahal.state import GameState, Step
from tajmahal.tags import edge_tags, step_clauses
from tajmahal.trace import Record, read_record, replay, replay_steps, verify

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_RULES",
    "PLAYER_TYPES",
    "Action",
    "ActionSyntaxError",
    "ComponentError",
    "Components",
    "Event",
    "EventKind",
    "GameState",
    "GreedyPlayer",
    "IllegalActionError",
    "MatchResult",
    "PlaceCrown",
    "PlacePalace",
    "Play",
    "Player",
    "PointSource",
    "RandomPlayer",
    "Record",
    "RecordError",
    "Reshuffle",
    "RuleSet",
    "SetupOutcome",
    "StateFormatError",
    "Step",
    "TajMahalError",
    "Take",
    "Withdraw",
    "apply",
    "apply_with_events",
    "chance_cards",
    "crown_cities",
    "default_components",
    "edge_tags",
    "legal_actions",
    "load_components",
    "new_game",
    "palace_cities",
    "parse_action",
    "play_match",
    "random_reshuffle",
    "random_setup",
    "read_record",
    "replay",
    "replay_steps",
    "step_clauses",
    "verify",
]
