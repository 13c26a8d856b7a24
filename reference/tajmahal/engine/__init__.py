"""The rules: ``legal_actions(state)`` and ``apply(state, action)``, setup and scoring.

Both are pure functions over frozen :class:`~tajmahal.model.GameState` values. The package
follows the rulebooks' order, one private module per clause area of ``specs/clauses``:
playing cards (``_play``), withdrawing and the majorities (``_withdraw``, ``_majority``),
palaces and the crown palace (``_reward``), bonus tiles, province tiles and palace chains
(``_score``, ``_scoring``), special cards (``_special``), the end of a visit (``_visit``) and
of the game (``_end``); ``_dispatch`` dispatches on the step and runs the automatic
sequence, ``_setup`` prepares a game from explicit chance outcomes.
"""

from tajmahal.engine._dispatch import (
    apply,
    apply_with_events,
    chance_cards,
    legal_actions,
    random_reshuffle,
)
from tajmahal.engine._play import play_event, plus_two_event
from tajmahal.engine._reward import crown_cities, palace_cities
from tajmahal.engine._scoring import palace_points, symbol_counts
from tajmahal.engine._setup import SetupOutcome, new_game, random_setup, validate_setup
from tajmahal.engine._withdraw import check_take, take_event
from tajmahal.engine._work import next_in_visit

__all__ = [
    "SetupOutcome",
    "apply",
    "apply_with_events",
    "chance_cards",
    "check_take",
    "crown_cities",
    "legal_actions",
    "new_game",
    "next_in_visit",
    "palace_cities",
    "palace_points",
    "play_event",
    "plus_two_event",
    "random_reshuffle",
    "random_setup",
    "symbol_counts",
    "take_event",
    "validate_setup",
]
