"""tajmahal: the reference engine for Reiner Knizia's Taj Mahal (alea, 2000).

The public API in one place::

    from tajmahal import default_components, random_setup, new_game, legal_actions, apply

    components = default_components()
    state = new_game(components, 4, random_setup(components, 4, seed=1))
    while not state.is_over:
        ...

See the README for the command line and ``specs/`` for the clause registry and formats.
"""

from tajmahal._version import __version__ as __version__
from tajmahal.agents import (
    PLAYER_TYPES,
    GreedyPlayer,
    MatchResult,
    Player,
    RandomPlayer,
    play_match,
)
from tajmahal.engine import (
    SetupOutcome,
    apply,
    apply_with_events,
    chance_cards,
    crown_cities,
    legal_actions,
    new_game,
    palace_cities,
    random_reshuffle,
    random_setup,
)
from tajmahal.errors import (
    ActionSyntaxError,
    ComponentError,
    IllegalActionError,
    RecordError,
    StateFormatError,
    TajMahalError,
)
from tajmahal.model import (
    DEFAULT_RULES,
    Action,
    Components,
    Event,
    EventKind,
    GameState,
    PlaceCrown,
    PlacePalace,
    Play,
    PointSource,
    Reshuffle,
    RuleSet,
    Step,
    Take,
    View,
    Withdraw,
    default_components,
    load_components,
    parse_action,
    view,
)
from tajmahal.notation import (
    canonical_json,
    legal_digest,
    state_digest,
    state_from_json,
    state_to_json,
)
from tajmahal.records import (
    Record,
    edge_tags,
    read_record,
    replay,
    replay_steps,
    step_clauses,
    verify,
)

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
    "View",
    "Withdraw",
    "apply",
    "apply_with_events",
    "canonical_json",
    "chance_cards",
    "crown_cities",
    "default_components",
    "edge_tags",
    "legal_actions",
    "legal_digest",
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
    "state_digest",
    "state_from_json",
    "state_to_json",
    "step_clauses",
    "verify",
    "view",
]
