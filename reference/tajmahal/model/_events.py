"""Events: the facts of what happened while an action was applied.

Events are a by-product of :func:`tajmahal.engine.apply_with_events`; the state never
stores them, and replaying a record yields them again. They hold facts, not sentences:
who, how many points and for what, which cards, tiles and cities, which rivals, which
counts, and the clause and ruling ids that decided it. The readable account
(:mod:`tajmahal.records`), the per-step tags (:mod:`tajmahal.records`) and the records read
the same facts. :func:`tajmahal.engine.apply` builds none of them.

Fields by kind (fields not named are empty, ``None``, 0 or False):

========== ==============================================================================
kind       fields
========== ==============================================================================
visit      ``seat`` the start player; ``tiles`` the province tile; ``counts`` (visit,)
play       ``seat``; ``cards`` the coloured card, then the second card if any
withdraw   ``seat``; ``counts`` the player's symbols (canonical symbol order); ``seats``
           the players compared with
win        ``seat``; ``symbol`` the force; ``tiles`` the province tile (elephants);
           ``seats`` the players compared with; ``counts`` the winner's count, then each
           compared player's, in the order of ``seats``
no-majority as ``win``, for a force in the court the player did not win: a tie (some
           compared count equals the player's, none is higher), fewer (some is higher),
           or zero symbols (the player has none and nobody compared has any)
palace     ``seat``; ``cities`` (city,); ``seats`` owners of palaces already there
crown      ``seat``; ``cities`` (city,); ``seats`` owners of palaces already there;
           ``tiles`` the bonus tile that stays there, if any
bonus      ``seat``; ``tiles`` (bonus tile,); ``cities`` (city,); ``points`` and
           ``source`` (``bonus-points``, ``bonus-good``; none for a card tile)
score      ``seat``; ``points``; ``source`` ``plus-two`` (``cards`` the +2 card),
           ``province-tile`` (``tiles``) or ``palaces`` (``cities`` the player's palaces)
discard    ``seat``; ``cards`` the discarded cards
take       ``seat``; ``cards`` taken from the display, or the special cards taken back
           into hand after a withdrawal (``clauses`` names TM.SPECIAL.RETURN_TO_HAND)
draw       ``seat`` the hand drawn into (``private``), or None for the display; ``cards``;
           ``counts`` (cards that could not be drawn,) when deck and discard were empty
reshuffle  ``counts`` (cards shuffled into the new deck,)
exchange   ``seat``; ``symbol`` the pair's kind; ``cards`` the special card; ``seats``
           the holder it was taken from, if any; ``counts`` (tiles returned,)
forfeit    ``seat``; ``counts`` (palaces not placed,), or ``symbol`` ``mogul`` for the
           crown palace
unwon      ``tiles`` the province tile that leaves the game
hand       ``seat``; ``points``; ``source`` ``hand``; ``cards`` the hand; ``counts``
           (special cards, white cards, cards of the largest colour)
end        ``seats`` the winners; ``counts`` every seat's final score
========== ==============================================================================
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

from tajmahal.model._symbols import Symbol


class EventKind(enum.StrEnum):
    """What kind of thing happened (a string enum: ``EventKind.WIN == "win"``)."""

    VISIT = "visit"
    """A new visit began."""
    PLAY = "play"
    """A player played one or two cards."""
    WITHDRAW = "withdraw"
    """A player withdrew from the visit."""
    WIN = "win"
    """A withdrawing player won a force of the court by majority."""
    NO_MAJORITY = "no-majority"
    """A withdrawing player did not win a force still in the court, and why."""
    PALACE = "palace"
    """A normal palace was placed."""
    CROWN = "crown"
    """The crown palace was placed."""
    BONUS = "bonus"
    """A bonus tile was taken (and scored, unless it is a card tile)."""
    SCORE = "score"
    """Points scored: the +2 card, a province tile or palaces."""
    DISCARD = "discard"
    """Played cards went to the discard pile."""
    DRAW = "draw"
    """Cards were drawn from the deck (or could not be)."""
    TAKE = "take"
    """Cards went into a hand from the display, or special cards back from the table."""
    RESHUFFLE = "reshuffle"
    """The discard pile became the new deck."""
    EXCHANGE = "exchange"
    """A pair of influence tiles was returned (for a special card, or because it is held)."""
    FORFEIT = "forfeit"
    """Palaces or the crown palace won could not be placed anywhere."""
    UNWON = "unwon"
    """A province tile nobody won left the game."""
    HAND = "hand"
    """A hand was scored at the end of the game."""
    END = "end"
    """The game ended."""


class PointSource(enum.StrEnum):
    """What points were scored for."""

    PLUS_TWO = "plus-two"
    """The +2 special card, as it is played."""
    PROVINCE_TILE = "province-tile"
    """A province tile won with elephants (its goods)."""
    PALACES = "palaces"
    """The palaces of the current province and the provinces connected to it."""
    BONUS_POINTS = "bonus-points"
    """A bonus tile worth fixed points (the Taj Mahal tile, a +2 tile)."""
    BONUS_GOOD = "bonus-good"
    """A bonus tile showing a good."""
    HAND = "hand"
    """The cards in hand at the end of the game."""


@attrs.frozen(slots=False)
class Event:
    """One thing that happened, as facts (see the module's table for the fields by kind).

    Frozen like every value of the model, but not slotted: attrs sets a frozen class's
    fields through the instance's dict when it has one, and through ``object.__setattr__``
    one field at a time when it has slots, which makes an event of twelve fields about
    40 % cheaper to build this way. Events are built at every step whose events are
    recorded (3.6 a step on the golden corpus)."""

    kind: EventKind
    """What happened."""
    seat: int | None = None
    """The player concerned, or None for table events."""
    points: int = 0
    """Points scored by ``seat`` in this event."""
    source: PointSource | None = None
    """What the points are for (None when no points are scored)."""
    cards: tuple[str, ...] = ()
    """The cards involved."""
    tiles: tuple[str, ...] = ()
    """The province or bonus tiles involved."""
    cities: tuple[str, ...] = ()
    """The cities involved."""
    symbol: Symbol | None = None
    """The force (symbol) involved."""
    seats: tuple[int, ...] = ()
    """Other seats involved: players compared with, palace owners, a card's holder, winners."""
    counts: tuple[int, ...] = ()
    """Numbers that explain the event (see the table)."""
    private: bool = False
    """True when ``cards`` are known only to ``seat`` (a draw into a hand)."""
    clauses: tuple[str, ...] = ()
    """The clause (TM.) and ruling (RUL.) ids that decided it."""

    def to_json(self) -> dict[str, Any]:
        """A JSON object with every field; enums as their strings, tuples as lists."""
        return {
            "kind": self.kind.value,
            "seat": self.seat,
            "points": self.points,
            "source": None if self.source is None else self.source.value,
            "cards": list(self.cards),
            "tiles": list(self.tiles),
            "cities": list(self.cities),
            "symbol": None if self.symbol is None else self.symbol.value,
            "seats": list(self.seats),
            "counts": list(self.counts),
            "private": self.private,
            "clauses": list(self.clauses),
        }
