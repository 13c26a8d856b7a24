"""Shrinking a counterexample: the smallest game that still breaks the same invariant.

A failing game is a :class:`~tajmahal.testing.fuzz.Script` (player count, rule set, setup
seed, chance seed, one index per decision). The shrinker tries, in rounds until nothing
helps or the budget of replays is spent:

1. cutting the script just after the failing decision;
2. fewer players (3, then 4) with the same choices;
3. deleting runs of decisions, long runs first (indices are taken modulo the number of
   legal actions, so every shortened script is still a legal game);
4. lowering each index (to 0, then to half);
5. the plainest setup and chance seeds (0 to 9).

A candidate is kept only if it breaks the same invariant (or crashes the same way) and
is smaller: fewer decisions, then fewer players, then smaller seeds, then smaller indices.
Every candidate finishes its game (:attr:`~tajmahal.testing.fuzz.Script.finish`): once
its choices run out it takes the last legal action at each decision, so that a failure
at the end of a game (another engine's hand points) survives deleting choices.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import attrs

from tajmahal.model import Components, default_components
from tajmahal.testing.fuzz._games import CRASH, Checks, Outcome, Script, play_script


def size(script: Script) -> tuple[int, int, int, int]:
    """The order in which smaller scripts are preferred."""
    return (
        len(script.choices),
        script.players,
        script.setup_seed + script.chance_seed,
        sum(script.choices),
    )


def played_size(script: Script, outcome: Outcome) -> tuple[int, int, int, int]:
    """:func:`size` with the decisions the game played in place of the script's choices
    (a finishing script plays more decisions than it lists)."""
    return (outcome.decisions, *size(script)[1:])


def failure_key(outcome: Outcome) -> str | None:
    """What a failing outcome broke: the first invariant's name (for a crash, with the
    exception's type), or None when nothing broke."""
    if not outcome.violations:
        return None
    first = outcome.violations[0]
    if first.invariant == CRASH:
        parts = first.message.split(": ")
        return CRASH + ":" + (parts[1] if len(parts) > 1 else parts[0])
    return first.invariant


@attrs.frozen(slots=True)
class Shrunk:
    """The result of shrinking."""

    script: Script
    """The smallest failing script found."""
    outcome: Outcome
    """Its replay (the violation, the steps)."""
    replays: int
    """How many candidate games were played."""


def _truncated(script: Script, outcome: Outcome) -> Script:
    return attrs.evolve(script, choices=script.choices[: outcome.decisions])


def _candidates(script: Script) -> Iterator[Script]:
    choices = script.choices
    for players in (3, 4):
        if players < script.players:
            yield attrs.evolve(script, players=players)
    length = len(choices)
    run = length // 2
    while run >= 1:
        start = length - run
        while start >= 0:
            yield attrs.evolve(script, choices=choices[:start] + choices[start + run :])
            start -= run
        run //= 2
    for position, value in enumerate(choices):
        if value:
            yield attrs.evolve(script, choices=_replace(choices, position, 0))
            if value > 1:
                yield attrs.evolve(script, choices=_replace(choices, position, value // 2))
    for seed in range(10):
        if seed < script.setup_seed:
            yield attrs.evolve(script, setup_seed=seed)
        if seed < script.chance_seed:
            yield attrs.evolve(script, chance_seed=seed)


def _replace(choices: tuple[int, ...], position: int, value: int) -> tuple[int, ...]:
    return (*choices[:position], value, *choices[position + 1 :])


def shrink(
    script: Script,
    checks: Checks,
    *,
    budget: int = 3000,
    components: Components | None = None,
    replay: Callable[[Script, Checks, Components], Outcome] | None = None,
) -> Shrunk:
    """Shrink a failing script (see the module docstring); ``budget`` bounds the games
    played. Raises ValueError if the script does not fail to begin with."""
    parts = components or default_components()
    run = replay or (lambda candidate, what, using: play_script(candidate, what, using))
    script = attrs.evolve(script, finish=True)  # a shortened game still reaches its end
    outcome = run(script, checks, parts)
    key = failure_key(outcome)
    if key is None:
        raise ValueError("the script breaks nothing; there is nothing to shrink")
    best = _truncated(script, outcome)
    best_outcome = outcome
    replays = 1
    improved = True
    while improved and replays < budget:
        improved = False
        for candidate in _candidates(best):
            if replays >= budget:
                break
            if size(candidate) >= size(best):
                continue
            result = run(candidate, checks, parts)
            replays += 1
            smaller = _truncated(candidate, result)
            if failure_key(result) == key and played_size(smaller, result) < played_size(
                best, best_outcome
            ):
                best, best_outcome = smaller, result
                improved = True
                break
    return Shrunk(best, best_outcome, replays)
