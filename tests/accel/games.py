"""The positions the pinning tests compare fast paths on: every state of random games of
3, 4 and 5 players, under the default rule set and under every option at each of its
other values (``games``), with the actions taken and their events (``steps``)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs
import pytest

from tajmahal.engine import (
    apply_with_events,
    legal_actions,
    new_game,
    random_reshuffle,
    random_setup,
)
from tajmahal.model import (
    RULE_OPTIONS,
    Action,
    Event,
    GameState,
    RuleSet,
    default_components,
)

COMPONENTS = default_components()
DEFAULT_RULES = RuleSet()


def rule_sets() -> list[RuleSet]:
    """The default rule set and, for each option, a rule set with that option at each of
    its other values (the rest at their defaults)."""
    found = [RuleSet()]
    default = RuleSet().to_json()
    for name, values in sorted(RULE_OPTIONS.items()):
        for value in values:
            if value != default[name]:
                found.append(RuleSet.from_json({name: value}))
    return found


RULE_SETS = rule_sets()
"""The rule sets the games are played under."""

GAMES = [(players, seed, rules) for seed, rules in enumerate(RULE_SETS) for players in (3, 4, 5)]
"""(players, seed, rule set) of every game: each rule set with each player count."""


def sampled(seed: int, players: int) -> bool:
    """Whether ``make check`` plays the game of rule set number ``seed`` with ``players``:
    the default rule set with every player count, each other rule set with one (its
    number modulo 3 is the player count's); ``TAJMAHAL_DEEP=1`` plays them all."""
    return seed == 0 or seed % 3 == players % 3


GAME_CASES = [
    pytest.param(players, seed, rules, marks=() if sampled(seed, players) else pytest.mark.deep)
    for players, seed, rules in GAMES
]
""":data:`GAMES` as parametrized cases, those not :func:`sampled` deep cases (9 of 21 quick)."""


@attrs.frozen
class Step:
    """One step of a random game."""

    before: GameState
    action: Action
    events: tuple[Event, ...]
    after: GameState


def steps(players: int, seed: int, rules: RuleSet = DEFAULT_RULES) -> Iterator[Step]:
    """Every step of the random game ``seed`` (uniform choices, seeded reshuffles)."""
    rng = random.Random(seed)
    state = new_game(COMPONENTS, players, random_setup(COMPONENTS, players, seed), rules)
    while not state.is_over:
        if state.is_chance:
            action: Action = random_reshuffle(state, rng)
        else:
            action = rng.choice(legal_actions(state))
        after, events = apply_with_events(state, action)
        yield Step(state, action, events, after)
        state = after


def states(players: int, seed: int, rules: RuleSet = DEFAULT_RULES) -> Iterator[GameState]:
    """Every state of the random game ``seed``, the first one after setup included."""
    first = True
    for step in steps(players, seed, rules):
        if first:
            yield step.before
            first = False
        yield step.after
