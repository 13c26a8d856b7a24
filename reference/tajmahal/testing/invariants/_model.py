"""The vocabulary of the invariants: tiers, violations, transitions, invariant kinds."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from typing import Generic, TypeVar

import attrs

from tajmahal.engine import SetupOutcome
from tajmahal.model import Action, Event, GameState


class Tier(enum.Enum):
    """How often a campaign can afford an invariant."""

    STEP = "step"
    """After every step of every game."""
    STATE = "state"
    """After every step of the games checked deeply."""
    GAME = "game"
    """Once per game checked deeply, on its record."""


@attrs.frozen(slots=True)
class Violation:
    """One broken invariant."""

    invariant: str
    """The invariant's name (``cards-conserved`` ...)."""
    clauses: tuple[str, ...]
    """The clauses and rulings the invariant protects."""
    message: str
    """What is wrong, with the values involved."""

    def to_json(self) -> dict[str, object]:
        """A JSON object with the three fields."""
        return {"invariant": self.invariant, "clauses": list(self.clauses), "message": self.message}


@attrs.frozen(slots=True)
class Transition:
    """One step of a game, as the step invariants see it."""

    before: GameState
    """The state the action was applied to."""
    legal: tuple[Action, ...]
    """The legal actions offered in ``before`` (empty at a chance step)."""
    action: Action | None
    """The action applied; None to check the state ``after`` alone (the initial state,
    given as both ``before`` and ``after``)."""
    after: GameState
    """The resulting state."""

    changed: tuple[int, ...] = ()
    """The seats whose holdings are not the very same objects as in ``before`` (all
    seats when ``action`` is None); see :meth:`of`."""

    @classmethod
    def of(
        cls,
        before: GameState,
        legal: tuple[Action, ...],
        action: Action | None,
        after: GameState,
    ) -> Transition:
        """A transition with :attr:`changed` worked out."""
        if action is None:
            changed = tuple(range(after.config.players))
        else:
            pairs = zip(before.players, after.players, strict=True)
            changed = tuple(seat for seat, (old, new) in enumerate(pairs) if old is not new)
        return cls(before, legal, action, after, changed)

    def unchanged(self, *names: str) -> bool:
        """True when these fields of ``after`` equal those of an already checked
        ``before`` (checked by identity first: the engine keeps untouched parts of a state
        as the very same objects)."""
        if self.action is None:
            return False
        before, after = self.before, self.after
        for name in names:
            old, new = getattr(before, name), getattr(after, name)
            if old is not new and old != new:
                return False
        return True


StepCheck = Callable[[Transition], Iterable[str]]
StateCheck = Callable[[GameState], Iterable[str]]
GameCheck = Callable[
    [
        SetupOutcome,
        Sequence[GameState],
        Sequence[Action],
        Sequence[tuple[Event, ...]] | None,
        Sequence[tuple[Action, ...]] | None,
    ],
    Iterable[str],
]
_Check = TypeVar("_Check", StepCheck, StateCheck, GameCheck)


@attrs.frozen(slots=True)
class _Invariant(Generic[_Check]):
    """What an invariant of any tier is: a name, what it protects, and its check."""

    name: str
    """Its name in reports and counterexample files."""
    clauses: tuple[str, ...]
    """What it protects."""
    check: _Check
    """Yields one message per problem found."""


@attrs.frozen(slots=True)
class StepInvariant(_Invariant[StepCheck]):
    """An invariant of one transition."""

    tier: Tier = Tier.STEP


@attrs.frozen(slots=True)
class StateInvariant(_Invariant[StateCheck]):
    """An invariant of one state (costlier; see :class:`Tier`)."""

    tier: Tier = Tier.STATE


@attrs.frozen(slots=True)
class GameInvariant(_Invariant[GameCheck]):
    """An invariant of a whole game: its setup, states (initial first) and actions."""

    tier: Tier = Tier.GAME


Invariant = StepInvariant | StateInvariant | GameInvariant
