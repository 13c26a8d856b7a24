"""Events: what happened while an action was applied, for the readable account.

Events are a by-product of :func:`tajmahal.engine.apply_with_events`; the state never
stores them, and replaying a record yields them again.
"""

from __future__ import annotations

import attrs


@attrs.frozen(slots=True)
class Event:
    """One thing that happened, with the points it scored (if any)."""

    kind: str
    """A short tag: ``visit``, ``play``, ``withdraw``, ``win``, ``palace``, ``crown``,
    ``bonus``, ``score``, ``discard``, ``draw``, ``take``, ``reshuffle``, ``exchange``,
    ``forfeit``, ``unwon``, ``hand``, ``end``."""
    seat: int | None
    """The player concerned, or None for table events."""
    text: str
    """A sentence for the account (without the player's name)."""
    points: int = 0
    """Points scored by ``seat`` in this event."""
