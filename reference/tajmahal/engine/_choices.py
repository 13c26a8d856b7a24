"""The tables the legal-action generators read, as one value per component set.

The engine lists the decisions open at a step by looking them up in tables built once
per component set (:data:`~tajmahal.engine._play.play_table`,
:data:`~tajmahal.engine._withdraw.take_table`,
:func:`~tajmahal.engine._reward.placement_table`). The generators are generic over what
those tables hold, so the same rules list the action objects
(:func:`~tajmahal.engine.legal_actions`) or anything that stands one for one for them,
such as an action space's integer ids (:func:`~tajmahal.engine.legal_choices` with
:meth:`ChoiceTables.mapped`): no rule is written twice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

import attrs

from tajmahal.engine._play import PlayTable, play_table
from tajmahal.engine._reward import PlacementTable, placement_table
from tajmahal.engine._withdraw import take_table
from tajmahal.engine._work import ChoiceT, PerComponents
from tajmahal.model import Action, CardId, Components, Take

OtherT = TypeVar("OtherT")
"""What :meth:`ChoiceTables.mapped` makes them hold."""


@attrs.frozen(slots=True)
class ChoiceTables(Generic[ChoiceT]):
    """Every table the legal-action generators read, each holding one ``ChoiceT`` per
    decision of a component set."""

    plays: PlayTable[ChoiceT]
    """``play`` decisions and ``withdraw`` (read by ``play_actions``)."""
    takes: Mapping[CardId, Mapping[CardId, ChoiceT]]
    """``take a b`` by ``a`` then ``b``, ``a < b`` (read by ``take_actions``)."""
    short_take: Callable[[tuple[CardId, ...]], ChoiceT]
    """``take`` of a whole display of one or two cards, from the display."""
    placements: PlacementTable[ChoiceT]
    """``crown`` and ``palace`` decisions by city (read by ``placement_actions``)."""

    def mapped(self, convert: Callable[[ChoiceT], OtherT | None]) -> ChoiceTables[OtherT]:
        """The same tables holding ``convert(c)`` for every ``c`` (built once, here;
        ``short_take`` converts on each call, as a short display is rare). An entry that
        ``convert`` maps to None is left out: a decision that can never be legal, such as
        taking a special card (the take table pairs every card id, but a display holds
        regular cards only)."""
        plays = self.plays
        short_take = self.short_take
        withdraw = convert(plays.withdraw)
        if withdraw is None:
            raise ValueError("withdraw has no counterpart")

        def short(display: tuple[CardId, ...]) -> OtherT:
            found = convert(short_take(display))
            if found is None:
                raise KeyError(display)
            return found

        return ChoiceTables(
            PlayTable(
                plays.colour_of,
                plays.colour_change,
                plays.plus_two,
                _converted(plays.alone, convert),
                {card: _converted(row, convert) for card, row in plays.pairs.items()},
                withdraw,
            ),
            {first: _converted(row, convert) for first, row in self.takes.items()},
            short,
            PlacementTable(
                _converted(self.placements.crowns, convert),
                _converted(self.placements.palaces, convert),
            ),
        )


_Key = TypeVar("_Key")


def _converted(
    row: Mapping[_Key, ChoiceT], convert: Callable[[ChoiceT], OtherT | None]
) -> dict[_Key, OtherT]:
    """``row`` with every value converted, those converted to None left out."""
    pairs = ((key, convert(value)) for key, value in row.items())
    return {key: value for key, value in pairs if value is not None}


def build_action_tables(components: Components) -> ChoiceTables[Action]:
    """The :class:`ChoiceTables` of a component set holding the engine's action objects
    (:data:`action_tables` keeps one per set)."""
    return ChoiceTables(
        play_table(components), take_table(components), Take, placement_table(components)
    )


action_tables: PerComponents[ChoiceTables[Action]] = PerComponents(build_action_tables)
"""The :class:`ChoiceTables` of a component set holding the engine's action objects (the
very tables :func:`~tajmahal.engine.legal_actions` reads), built on first use."""
