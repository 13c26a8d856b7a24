"""Invariants: what must hold after every step of every game, whatever the players do.

They are the fuzzer's oracle. Each invariant names the clauses (and rulings) it protects
and returns its violations as data (:class:`Violation`), never by raising, so that a
campaign can record, count and shrink them.

Every check here is written from the rulebooks again, apart from the engine: it looks
at the state before and after a step and at the action taken, never at the engine's
internals or at its events. Three tiers, by cost:

``step``
    Cheap checks of one transition (``before``, the legal actions offered, ``action``,
    ``after``); a campaign runs all of them after every step.
``state``
    Costlier checks of one state (a player's view, the serialization round trip); a
    campaign runs them after every step of the games it checks deeply.
``game``
    Checks of a whole game record (it replays to the same states, it verifies).
"""

from tajmahal.testing.invariants._catalogue import (
    GAME_INVARIANTS,
    INVARIANTS,
    STATE_INVARIANTS,
    STEP_INVARIANTS,
    check_game,
    check_state,
    check_step,
)
from tajmahal.testing.invariants._fast_paths import FAST_PATHS
from tajmahal.testing.invariants._holdings import (
    bonus_tiles,
    cards_conserved,
    crown_once_per_visit,
    influence_tiles,
    palaces_placed,
    province_tiles,
    scores_never_decrease,
)
from tajmahal.testing.invariants._model import (
    GameInvariant,
    Invariant,
    StateInvariant,
    StepInvariant,
    Tier,
    Transition,
    Violation,
)
from tajmahal.testing.invariants._replay import replay_reproduces
from tajmahal.testing.invariants._round_trip import serialization_round_trip
from tajmahal.testing.invariants._secrets import views_hide_secrets
from tajmahal.testing.invariants._turns import (
    colour_lock,
    legal_actions_well_formed,
    majority_awards,
    plays_are_final,
    table_and_display,
)

__all__ = [
    "FAST_PATHS",
    "GAME_INVARIANTS",
    "INVARIANTS",
    "STATE_INVARIANTS",
    "STEP_INVARIANTS",
    "GameInvariant",
    "Invariant",
    "StateInvariant",
    "StepInvariant",
    "Tier",
    "Transition",
    "Violation",
    "bonus_tiles",
    "cards_conserved",
    "check_game",
    "check_state",
    "check_step",
    "colour_lock",
    "crown_once_per_visit",
    "influence_tiles",
    "legal_actions_well_formed",
    "majority_awards",
    "palaces_placed",
    "plays_are_final",
    "province_tiles",
    "replay_reproduces",
    "scores_never_decrease",
    "serialization_round_trip",
    "table_and_display",
    "views_hide_secrets",
]
