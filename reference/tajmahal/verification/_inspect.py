"""Looking at a record that may not verify: the positions up to and including the step
where it diverges, with the reference's position beside the record's.

``tajmahal show``, ``position`` and ``replay`` display a record's positions; a record
written by another engine is most worth looking at exactly when it does not verify.
:func:`inspect_record` replays a record up to a step with every check, and where the
record diverges it stops at that step instead of failing: the position shown is the
reference's after the diverging step (or, when the record's action is one the reference
refuses, or when what differs is the legal actions or the seat to move at its start,
the position it was played from), and the divergence comes with its
:class:`~tajmahal.verification.Explanation` (which holds the record's values where they
differ from the reference's). Bad input still raises.
"""

from __future__ import annotations

import attrs

from tajmahal.model import Components, GameState
from tajmahal.records import Record, ReplayedStep, VerificationError, initial_state, replay_steps
from tajmahal.verification._explain import Explanation
from tajmahal.verification._record_explanation import explain_record

AFTER_KINDS = frozenset({"scores", "state", "different-move", "annotations", "refused"})
"""Kinds of explanation about the position after the diverging step, which is the one
shown; for the others (the legal actions or the seat to move at the start of the step,
a step missing or one too many) the position shown is the one the step is played
from."""


@attrs.frozen
class Inspection:
    """A record replayed up to a step, or up to the step where it diverges."""

    record: Record
    """The record."""
    state: GameState
    """The reference's position shown: the position after step :attr:`shown`."""
    shown: int
    """The number of steps applied to reach :attr:`state` (0: the position after setup)."""
    asked: int
    """The position asked for (after that many steps)."""
    steps: tuple[ReplayedStep, ...] = ()
    """Every step replayed, the diverging one included when the reference could play its
    action (kept only when asked for)."""
    divergence: VerificationError | None = None
    """Where and how the record diverges, when it does at or before :attr:`asked`."""
    explanation: Explanation | None = None
    """Why it diverges (what differs, where the engines parted, the rules)."""

    @property
    def diverged(self) -> bool:
        """True when the record diverges at or before the step asked for."""
        return self.divergence is not None

    @property
    def marked(self) -> int | None:
        """The number of the diverging step, when the record diverges."""
        return None if self.divergence is None else self.divergence.step


def inspect_record(
    record: Record,
    components: Components,
    source: str = "",
    upto: int | None = None,
    *,
    keep_steps: bool = False,
) -> Inspection:
    """Replay ``record`` up to the position after step ``upto`` (None: every step),
    checking every expectation, and stop at the first step that diverges (explained).
    Raises :class:`~tajmahal.errors.RecordError` for bad input (a step that cannot be
    read, other components)."""
    wanted = len(record.steps) if upto is None else upto
    state = initial_state(record, components, source)
    kept: list[ReplayedStep] = []
    shown = 0
    try:
        # Stop at the step asked for, before the replay checks the next one.
        for replayed in replay_steps(record, components, source) if wanted else ():
            state = replayed.after
            shown = replayed.number
            if keep_steps:
                kept.append(replayed)
            if shown >= wanted:
                break
    except VerificationError as error:
        if error.step is None:  # not a step: nothing of the record's steps is wrong
            raise
        explanation = explain_record(record, components, error, source)
        after_step = explanation is None or explanation.kind in AFTER_KINDS
        if error.replayed is not None and after_step:
            state = error.replayed.after
            shown = error.step
            if keep_steps:
                kept.append(error.replayed)
        return Inspection(record, state, shown, wanted, tuple(kept), error, explanation)
    return Inspection(record, state, shown, wanted, tuple(kept))


__all__: list[str] = []
