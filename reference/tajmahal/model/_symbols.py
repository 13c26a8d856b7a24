"""Enumerations for every symbol, colour and good printed on the components.

Enum values are the lower-case words used in data files, game records and canonical
action strings, so they are part of the published trace format.
"""

from __future__ import annotations

import enum


class Symbol(enum.Enum):
    """The six symbols on the cards; each names the force it influences."""

    __hash__ = object.__hash__
    """A symbol hashes by identity, as it compares (an enum member is the one object equal
    to itself). Python's ``Enum.__hash__`` hashes the member's name in Python code, and
    symbols key the counts of every majority: hashed by identity, a fuzz campaign's game
    costs about 4 % fewer instructions."""

    VIZIER = "vizier"
    """Political forces: wins the vizier influence tile and a palace."""
    GENERAL = "general"
    """Military forces: wins the general influence tile and a palace."""
    MONK = "monk"
    """Religious forces: wins the monk influence tile and a palace."""
    PRINCESS = "princess"
    """Social forces: wins the princess influence tile and a palace."""
    MOGUL = "mogul"
    """The Grand Mogul: wins the crown and a crown palace."""
    ELEPHANT = "elephant"
    """The province: wins the current province tile."""


INFLUENCE_SYMBOLS: tuple[Symbol, ...] = (
    Symbol.VIZIER,
    Symbol.GENERAL,
    Symbol.MONK,
    Symbol.PRINCESS,
)
"""The four symbols whose majority wins an influence tile and a palace."""

ALL_SYMBOLS: tuple[Symbol, ...] = tuple(Symbol)
"""All six symbols in their canonical order (the order majorities are resolved in)."""

SYMBOL_INDEX: dict[Symbol, int] = {symbol: index for index, symbol in enumerate(Symbol)}
"""Each symbol's position in the canonical order: the index into symbol-count tuples and
the sort key of influence tiles."""


class CardColour(enum.Enum):
    """The back-independent colour of a regular card's face."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    VIOLET = "violet"
    WHITE = "white"

    @property
    def is_coloured(self) -> bool:
        """True for the four colours that lock a visit; False for white."""
        return self is not CardColour.WHITE


COLOURS: tuple[CardColour, ...] = (
    CardColour.RED,
    CardColour.YELLOW,
    CardColour.GREEN,
    CardColour.VIOLET,
)
"""The four card colours (white excluded)."""


class Good(enum.Enum):
    """The four goods on province tiles and goods bonus tiles."""

    RICE = "rice"
    TEA = "tea"
    SPICES = "spices"
    JEWELS = "jewels"


class BonusKind(enum.Enum):
    """What a bonus tile on a fortress gives to the first normal palace there."""

    TAJ_MAHAL = "taj-mahal"
    """The Taj Mahal tile on Agra: 4 points."""
    POINTS = "points"
    """A square +2 tile: 2 points."""
    CARD = "card"
    """A square tile: the top card of the deck into the hand."""
    GOOD = "good"
    """A square tile with one good: scored like goods, then kept."""


class SpecialKind(enum.Enum):
    """The four special cards, earned with two identical influence tiles."""

    ELEPHANT = "elephant"
    """Counts as one elephant symbol when played."""
    MOGUL = "mogul"
    """Counts as one Grand Mogul symbol when played."""
    PLUS_TWO = "plus-two"
    """Its player scores 2 points at once when it is played."""
    COLOUR_CHANGE = "colour-change"
    """The coloured card played with it may break the visit's colour."""
