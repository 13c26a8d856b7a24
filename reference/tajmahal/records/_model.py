"""The game record as values: what a record holds, before it is text.

A :class:`Record` is the setup and every step of one game, each :class:`RecordStep`
with what a checking engine must reproduce after it; :func:`public_to_json` is the
public position a full record stores at each step. Writing, reading, replaying and
recording a record each build on these values (:mod:`tajmahal.records`,
:mod:`tajmahal.records`, :mod:`tajmahal.records`,
:mod:`tajmahal.records`), so they live apart from all four; every name is
imported from :mod:`tajmahal.records`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from tajmahal.engine import SetupOutcome
from tajmahal.model import GameState, RuleSet
from tajmahal.notation import state_to_json

TRACE_FORMAT = "tajmahal-trace"
"""The ``format`` tag of a record."""
TRACE_VERSION = 2
"""The version written; see "Versions" in ``docs/trace-format.md``."""
READABLE_VERSIONS: tuple[int, ...] = (1, 2)
"""Versions this reader understands (each has its schema in ``specs/schemas``)."""
SCHEMA_BY_VERSION: Mapping[int, str] = {1: "trace-v1", 2: "trace"}
"""The schema name of each readable version."""
CHANCE = "chance"
"""The ``actor`` of a chance step."""


@attrs.frozen
class RecordStep:
    """One step of a record: the action and what the state looks like after it."""

    actor: int | None
    """The seat that acted (the seat to move before the step), or None for chance."""
    action: str
    """The canonical action string."""
    scores: tuple[int, ...] | None = None
    """Every seat's score after the step, when recorded."""
    clauses: tuple[str, ...] = ()
    """Clause and ruling ids that decided the step (``step_clauses``), when recorded."""
    tags: tuple[str, ...] | None = None
    """Edge tags the step reaches (``edge_tags``), when recorded (version 2)."""
    legal_count: int | None = None
    """How many legal actions the actor had (decision steps, version 2)."""
    legal_digest: str | None = None
    """Digest of those legal actions (decision steps, version 2)."""
    state_digest: str | None = None
    """Digest of the whole position after the step (version 2)."""
    legal: tuple[str, ...] | None = None
    """The legal actions themselves (full records)."""
    public: Mapping[str, Any] | None = attrs.field(default=None, hash=False)
    """The public position after the step (full records)."""


@attrs.frozen
class Record:
    """A complete game record."""

    players: int
    """3, 4 or 5."""
    rules: RuleSet
    """The rule set the game was played under."""
    components_digest: str
    """Digest of the component set (see :attr:`tajmahal.model.Components.digest`)."""
    components_name: str
    """Label of the component set, informational."""
    setup: SetupOutcome
    """Every chance outcome of the setup."""
    steps: tuple[RecordStep, ...]
    """Every decision and chance outcome, in order."""
    final_scores: tuple[int, ...] | None = None
    """Final scores, when the game was finished."""
    winners: tuple[int, ...] | None = None
    """Winning seats, when the game was finished."""
    seed: int | None = None
    """The seed the setup and chance were drawn from, informational only."""
    names: tuple[str, ...] | None = None
    """The players' names (for the account), informational only."""
    id: str | None = None
    """A stable name for the record (the golden corpus's manifest uses it)."""
    description: str | None = None
    """What the record shows, for people."""
    version: int = TRACE_VERSION
    """The version the record was read in (records are always written in the newest)."""


def public_to_json(state: GameState) -> dict[str, Any]:
    """The public part of a position (``position.schema.json#/$defs/public``): the state
    document without its header fields, each hand and the deck replaced by their sizes."""
    document = state_to_json(state)
    for key in ("format", "version", "players", "ruleset", "components"):
        del document[key]
    document["deck_size"] = len(document.pop("deck"))
    seats = []
    for seat in document["seats"]:
        hand = seat.pop("hand")
        seats.append({"hand_size": len(hand), **seat})
    document["seats"] = seats
    return document


# The functions and classes are documented under tajmahal.records, which users import them
# from; only the constants, whose docstrings cannot go with them, are listed here.
__all__ = [
    "CHANCE",
    "READABLE_VERSIONS",
    "SCHEMA_BY_VERSION",
    "TRACE_FORMAT",
    "TRACE_VERSION",
]
