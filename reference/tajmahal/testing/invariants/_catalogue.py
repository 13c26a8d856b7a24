"""Every invariant, by tier, and the functions that run them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tajmahal.engine import SetupOutcome
from tajmahal.model import Action, Event, GameState
from tajmahal.testing.invariants import _holdings as holdings
from tajmahal.testing.invariants import _turns as turns
from tajmahal.testing.invariants._model import (
    GameInvariant,
    Invariant,
    StateInvariant,
    StepInvariant,
    Transition,
    Violation,
)
from tajmahal.testing.invariants._replay import replay_reproduces
from tajmahal.testing.invariants._round_trip import serialization_round_trip
from tajmahal.testing.invariants._secrets import views_hide_secrets

STEP_INVARIANTS: tuple[StepInvariant, ...] = (
    StepInvariant(
        "cards-conserved",
        ("TM.COMP.CARDS.COUNT", "TM.COMP.SPECIALS", "TM.SETUP.SPECIALS.TABLE"),
        holdings.cards_conserved,
    ),
    StepInvariant(
        "influence-tiles",
        ("TM.COMP.INFLUENCE_TILES", "TM.SETUP.COURT.INFLUENCE"),
        holdings.influence_tiles,
    ),
    StepInvariant(
        "province-tiles",
        ("TM.COMP.PROVINCE_TILES", "TM.REWARD.ELEPHANT.PROVINCE", "TM.VISIT.UNWON_PROVINCE"),
        holdings.province_tiles,
    ),
    StepInvariant(
        "bonus-tiles",
        ("TM.SETUP.BONUS.FORTRESSES", "TM.REWARD.FORTRESS.BONUS", "TM.REWARD.CROWN.NO_BONUS"),
        holdings.bonus_tiles,
    ),
    StepInvariant(
        "palaces-placed",
        (
            "TM.REWARD.INFLUENCE.PALACE",
            "TM.REWARD.CROWN.PALACE",
            "TM.REWARD.CROWN.OCCUPIED",
            "TM.REWARD.CROWN.LATER_NORMAL",
        ),
        holdings.palaces_placed,
    ),
    StepInvariant(
        "crown-once-per-visit",
        ("TM.REWARD.CROWN.TAKE", "TM.VISIT.NEXT.CROWN", "TM.COMP.CROWN"),
        holdings.crown_once_per_visit,
    ),
    StepInvariant(
        "majority-awards",
        (
            "TM.WITHDRAW.COMPARE",
            "TM.WITHDRAW.MAJORITY.STRICT",
            "TM.WITHDRAW.MAJORITY.REMAINING",
            "TM.WITHDRAW.MAJORITY.ZERO",
            "TM.WITHDRAW.ONCE_PER_VISIT",
            "RUL.MAJORITY.REMAINING_PLAYERS",
            "RUL.MAJORITY.ZERO_SYMBOLS",
        ),
        turns.majority_awards,
    ),
    StepInvariant("scores-never-decrease", ("TM.SCORE.TRACK",), holdings.scores_never_decrease),
    StepInvariant(
        "colour-lock",
        ("TM.PLAY.COLOUR_LOCK", "TM.PLAY.ONE_COLOURED", "TM.SPECIAL.COLOUR_CHANGE"),
        turns.colour_lock,
    ),
    StepInvariant(
        "plays-are-final",
        ("TM.PLAY.NO_TAKE_BACK", "TM.PLAY.ONE_COLOURED", "TM.PLAY.EXTRA_CARD"),
        turns.plays_are_final,
    ),
    StepInvariant(
        "table-and-display",
        ("TM.WITHDRAW.DISCARD", "TM.SETUP.DISPLAY.SIZE", "TM.END.AFTER_TWELVE"),
        turns.table_and_display,
    ),
    StepInvariant(
        "legal-actions-well-formed",
        ("TM.TURN.CHOICE", "TM.TURN.NO_LEGAL_PLAY", "TM.REWARD.PLACEMENT_ORDER"),
        turns.legal_actions_well_formed,
    ),
)
"""Checked after every step of every game."""


STATE_INVARIANTS: tuple[StateInvariant, ...] = (
    StateInvariant(
        "views-hide-secrets",
        ("TM.PLAY.HANDS_SECRET", "RUL.PLAY.PUBLIC_INFORMATION"),
        views_hide_secrets,
    ),
    StateInvariant("serialization-round-trip", (), serialization_round_trip),
)
"""Checked after every step of the games checked deeply."""


GAME_INVARIANTS: tuple[GameInvariant, ...] = (
    GameInvariant(
        "replay-reproduces",
        ("TM.PLAY.NO_TAKE_BACK", "TM.VISIT.NEXT.RESHUFFLE"),
        replay_reproduces,
    ),
)
"""Checked once per game checked deeply."""

INVARIANTS: tuple[Invariant, ...] = (*STEP_INVARIANTS, *STATE_INVARIANTS, *GAME_INVARIANTS)
"""Every invariant, cheapest first."""


# ---------------------------------------------------------------------------------------
# Running them


def check_step(
    step: Transition, invariants: Sequence[StepInvariant] = STEP_INVARIANTS
) -> tuple[Violation, ...]:
    """Every violation of the step invariants by one transition."""
    return _violations(invariants, step)


def check_state(
    state: GameState, invariants: Sequence[StateInvariant] = STATE_INVARIANTS
) -> tuple[Violation, ...]:
    """Every violation of the state invariants by one state."""
    return _violations(invariants, state)


def check_game(
    setup: SetupOutcome,
    states: Sequence[GameState],
    actions: Sequence[Action],
    invariants: Sequence[GameInvariant] = GAME_INVARIANTS,
    *,
    events: Sequence[tuple[Event, ...]] | None = None,
    legal: Sequence[tuple[Action, ...]] | None = None,
) -> tuple[Violation, ...]:
    """Every violation of the game invariants by a game played from ``setup``
    (``states`` has one more entry than ``actions``: the initial state first; ``events``
    and ``legal``, when given, hold each step's events and the legal actions offered
    before it, empty at a chance step)."""
    return _violations(invariants, setup, states, actions, events, legal)


def _violations(invariants: Sequence[Invariant], *arguments: Any) -> tuple[Violation, ...]:
    """Every message of every invariant checked on ``arguments``, as violations; a check
    that fails on what it reads (a state too broken to examine) is a violation too."""
    found: list[Violation] = []
    for invariant in invariants:
        try:
            for message in invariant.check(*arguments):
                found.append(Violation(invariant.name, invariant.clauses, message))
        except Exception as error:
            found.append(Violation(invariant.name, invariant.clauses, _unreadable(error)))
    return tuple(found)


def _unreadable(error: Exception) -> str:
    return f"the check could not read the state ({type(error).__name__}: {error})"
