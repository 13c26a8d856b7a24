"""The printed parts of Taj Mahal as values: cards, special cards, province and bonus tiles.

Each part is a frozen value with a stable id (the ids are what records, errors and docs
name). They are apart from :class:`tajmahal.model.Components`, the whole validated
set with its lookup tables and its loading, and from :mod:`tajmahal.model`,
which builds these values from the component documents; both import them from here, and
:mod:`tajmahal.model` re-exports them, as it always offered them.
"""

from __future__ import annotations

import attrs

from tajmahal.model._symbols import BonusKind, CardColour, Good, SpecialKind, Symbol

CardId = str
"""Stable id of a regular or special card, e.g. ``red-07``, ``white-03``, ``special-mogul``."""
BonusTileId = str
"""Stable id of a bonus tile, e.g. ``bonus-taj-mahal`` or ``bonus-07``."""
ProvinceTileId = str
"""Stable id of a province tile, e.g. ``province-09``."""


@attrs.frozen
class Card:
    """A regular card: a colour (or white) and its symbols (two on coloured, one on white)."""

    id: CardId
    """Stable id used in records, errors and docs."""
    colour: CardColour
    """The card's colour; ``WHITE`` for the 12 white cards."""
    symbols: tuple[Symbol, ...]
    """The printed symbols; a symbol printed twice appears twice."""


@attrs.frozen
class SpecialCard:
    """One of the four special cards, played like a white card and kept after a visit."""

    id: CardId
    """Stable id, e.g. ``special-elephant``."""
    kind: SpecialKind
    """Its effect when played."""
    earned_by: Symbol
    """The influence tile of which two are exchanged for this card."""
    symbols: tuple[Symbol, ...]
    """Symbols it counts as when played (one elephant or one Grand Mogul, or none)."""


@attrs.frozen
class ProvinceTile:
    """An octagonal province tile: its number is the visit in which its province is visited."""

    id: ProvinceTileId
    """Stable id, e.g. ``province-09``."""
    number: int
    """1 to 12; tile 12 always lies on Agra's province."""
    goods: tuple[Good, ...]
    """One good on tile 1, two on the others (the same good twice is allowed:
    RUL.COMPONENTS.PROVINCE_TILES)."""


@attrs.frozen
class BonusTile:
    """A bonus tile lying on a fortress until a normal palace is placed there."""

    id: BonusTileId
    """Stable id, e.g. ``bonus-taj-mahal`` or ``bonus-07``."""
    kind: BonusKind
    """What it gives."""
    points: int = 0
    """Points it scores at once (4 for the Taj Mahal, 2 for a +2 tile, else 0)."""
    good: Good | None = None
    """The good on a goods tile; None for other kinds."""


# The classes are documented under tajmahal.model, which users import them from;
# only the id aliases, whose docstrings cannot go with them, are listed here.
__all__ = ["BonusTileId", "CardId", "ProvinceTileId"]
