"""Playing a whole game between players, recording it as it goes."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import attrs

from tajmahal.agents._players import Player
from tajmahal.engine import (
    apply_with_events,
    legal_actions,
    new_game,
    random_reshuffle,
    random_setup,
)
from tajmahal.model import Action, Components, Event, GameState, RuleSet
from tajmahal.records import Record, Recorder


@attrs.frozen
class MatchResult:
    """A finished game: its record, final state and what happened at each step."""

    record: Record
    """The game record (the published trace format)."""
    final: GameState
    """The final state."""
    events: tuple[tuple[Event, ...], ...]
    """The events of each step, aligned with ``record.steps``."""
    initial: GameState
    """The state after setup."""


def chance_seed(seed: int) -> int:
    """The seed of the generator that draws reshuffles, derived from the game seed."""
    return seed * 1_000_003 + 7


def play_match(
    components: Components,
    players: Sequence[Player],
    seed: int,
    rules: RuleSet | None = None,
    *,
    full: bool = False,
    watch: Callable[[GameState, Action, GameState, tuple[Event, ...]], None] | None = None,
) -> MatchResult:
    """Play a full game: setup and reshuffles drawn from ``seed``, decisions by ``players``
    (``full``: the record also lists every step's legal actions and public position).

    ``watch`` is told every step as it is played (the position before it, the action,
    the position after it and what happened), so that a game can be followed live, as
    the command line does for a human seat.
    """
    count = len(players)
    rule_set = rules if rules is not None else RuleSet()
    setup = random_setup(components, count, seed)
    state = new_game(components, count, setup, rule_set)
    initial = state
    recorder = Recorder(
        components,
        count,
        setup,
        rule_set,
        seed=seed,
        names=tuple(player.name for player in players),
        full=full,
    )
    chance = random.Random(chance_seed(seed))
    events: list[tuple[Event, ...]] = []
    while not state.is_over:
        action: Action
        legal: tuple[Action, ...] | None = None
        if state.is_chance:
            action = random_reshuffle(state, chance)
        else:
            assert state.to_move is not None
            legal = legal_actions(state)
            action = players[state.to_move].choose(state, legal)
        after, happened = apply_with_events(state, action)
        recorder.add(state, action, after, happened, legal)
        events.append(happened)
        if watch is not None:
            watch(state, action, after, happened)
        state = after
    return MatchResult(recorder.record(state), state, tuple(events), initial)
