"""The rewards of a withdrawal: palaces and the crown palace (the rulebooks' "I punti
influenza", "Punti influenza", "Puntos de Influencia", "Les Palais").

Each influence tile won puts a normal palace in an empty city of the current province
(taking the bonus tile there, scored by :mod:`~tajmahal.engine`); the crown puts
the crown palace in any city of the province, even an occupied one, and takes no bonus.
Placements are decisions of the withdrawing player, one at a time.

Notes on this implementation:

- The crown palace may join a city holding the same player's palace, unless the rule set
  forbids it (RUL.CROWN.BESIDE_OWN_PALACE, option ``crown_beside_own_palace``); a normal
  palace may join a city holding only a crown palace, but not the player's own crown
  palace unless allowed (RUL.CROWN.OWN_PALACE_BESIDE_CROWN, option
  ``own_palace_beside_own_crown``).
- The crown palace is one of the player's palaces for scoring (RUL.CROWN.COUNTS_AS_PALACE).
- Palaces won together are placed one at a time, in the player's order
  (RUL.CROWN.PLACEMENT_ORDER).
- A palace or crown palace without a legal city is not placed; the tile stays won
  (RUL.REWARD.NO_LEGAL_CITY).
"""

from __future__ import annotations

import functools
import operator
from bisect import bisect_left, insort
from collections.abc import Mapping
from typing import Generic

import attrs

from tajmahal.engine._score import score_bonus_tile
from tajmahal.engine._work import SYMBOL_ORDER, ChoiceT, Work
from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    Action,
    CityId,
    Components,
    Event,
    EventKind,
    GameState,
    Palace,
    Permission,
    PlaceCrown,
    PlacePalace,
    ProvinceTileId,
    Symbol,
    palace_sort_key,
)

_ALLOWED, _FORBIDDEN = Permission.ALLOWED, Permission.FORBIDDEN
_MOGUL, _ELEPHANT = Symbol.MOGUL, Symbol.ELEPHANT
"""Enum members as module names: reading a member from its enum class goes through the
enum's metaclass, several times slower than reading a global, and this is the hot path."""


def take_from_court(work: Work, seat: int, symbol: Symbol) -> ProvinceTileId | None:
    """Hand the court's reward for ``symbol`` to ``seat``, who won its majority.

    The Grand Moguls take the crown (its palace is placed later), the elephants the
    province tile (returned: it is scored after the palaces), any other symbol its
    influence tile, which the player keeps and which owes a palace.

    Implements: TM.COMP.CROWN, TM.REWARD.INFLUENCE.TILE, TM.REWARD.CROWN.TAKE,
    TM.REWARD.ELEPHANT.PROVINCE
    """
    if symbol is _MOGUL:
        work.crown_in_court = False
        return None
    if symbol is _ELEPHANT:
        province_won = work.court_province_tile
        work.court_province_tile = None
        return province_won
    work.court_influence.remove(symbol)
    insort(work.player(seat).influence, symbol, key=SYMBOL_ORDER.index)
    return None


def palace_cities(state: GameState, seat: int) -> tuple[CityId, ...]:
    """Cities of the current province where ``seat`` may place a normal palace now.

    A normal palace needs an empty city; a city holding only a crown palace counts as
    open to another player (TM.REWARD.CROWN.LATER_NORMAL) and to its own owner only if
    the rule set allows it (RUL.CROWN.OWN_PALACE_BESIDE_CROWN).

    Implements: TM.REWARD.INFLUENCE.PALACE, TM.REWARD.CROWN.LATER_NORMAL,
    TM.REWARD.CROWN.OWN_NORMAL_LATER, RUL.CROWN.OWN_PALACE_BESIDE_CROWN,
    TM.REWARD.TWO_PALACES_PER_CITY, RUL.REWARD.TWO_PALACES_PER_CITY
    """
    return open_palace_cities(
        state.config.components,
        state.config.rules.own_palace_beside_own_crown,
        state.current_province,
        state.palaces,
        seat,
    )


def placement_actions(state: GameState, seat: int, table: PlacementTable[ChoiceT]) -> list[ChoiceT]:
    """The placements open to the withdrawing ``seat``: the crown palace in each city of
    :func:`crown_cities` while it is owed, then a normal palace in each city of
    :func:`palace_cities` while one is owed (canonical order: "crown" < "palace"), each
    as ``table`` holds it (:func:`placement_table`: the actions; an action space's copy:
    their ids). Nothing else is legal at a place step: the palaces won are placed before
    the withdrawal goes on, and cannot be kept back.

    Implements: TM.REWARD.PLACE_AT_ONCE
    """
    withdrawal = state.withdrawal
    assert withdrawal is not None
    actions: list[ChoiceT] = []
    if withdrawal.crown_owed:
        actions.extend(map(table.crowns.__getitem__, crown_cities(state, seat)))
    if withdrawal.palaces_owed:
        actions.extend(map(table.palaces.__getitem__, palace_cities(state, seat)))
    return actions


@attrs.frozen(slots=True)
class PlacementTable(Generic[ChoiceT]):
    """Every placement of a component set, built once: listing the placements then looks
    actions up instead of building them. Generic over what it holds for each decision
    (the actions, or an action space's ids), so that one :func:`placement_actions`
    lists both."""

    crowns: Mapping[CityId, ChoiceT]
    """``crown c`` for every city ``c``."""
    palaces: Mapping[CityId, ChoiceT]
    """``palace c`` for every city ``c``."""


@functools.cache
def placement_table(components: Components) -> PlacementTable[Action]:
    """The :class:`PlacementTable` of a component set (one per set: sets compare by
    digest)."""
    cities = components.board.cities
    return PlacementTable(
        {city: PlaceCrown(city) for city in cities}, {city: PlacePalace(city) for city in cities}
    )


def open_palace_cities(
    components: Components,
    own_beside_crown: Permission,
    province: str,
    palaces: list[Palace] | tuple[Palace, ...],
    seat: int,
) -> tuple[CityId, ...]:
    """:func:`palace_cities` from its parts (the working copy's palaces included)."""
    return tuple(
        [
            city
            for city in components.board.provinces[province].cities
            if palace_fits(palaces_in(palaces, city), seat, own_beside_crown)
        ]
    )


def palace_fits(
    here: list[Palace] | tuple[Palace, ...], seat: int, own_beside_crown: Permission
) -> bool:
    """True if ``seat`` may add a normal palace to a city of the current province that
    holds the palaces ``here`` (see :func:`palace_cities`)."""
    return not here or (
        len(here) == 1
        and here[0].crowned
        and (here[0].seat != seat or own_beside_crown is _ALLOWED)
    )


def crown_cities(state: GameState, seat: int) -> tuple[CityId, ...]:
    """Cities of the current province where ``seat`` may place the crown palace now: any
    city, occupied or not, except beside their own palace when the rule set forbids it.

    Implements: TM.REWARD.CROWN.PALACE, TM.REWARD.CROWN.OCCUPIED, TM.REWARD.CROWN.BESIDE_OWN,
    RUL.CROWN.BESIDE_OWN_PALACE, TM.REWARD.TWO_PALACES_PER_CITY
    """
    return open_crown_cities(
        state.config.components,
        state.config.rules.crown_beside_own_palace,
        state.current_province,
        state.palaces,
        seat,
    )


def open_crown_cities(
    components: Components,
    beside_own: Permission,
    province: str,
    palaces: list[Palace] | tuple[Palace, ...],
    seat: int,
) -> tuple[CityId, ...]:
    """:func:`crown_cities` from its parts (a city holds at most two palaces)."""
    return tuple(
        [
            city
            for city in components.board.provinces[province].cities
            if crown_fits(palaces_in(palaces, city), seat, beside_own)
        ]
    )


def crown_fits(here: list[Palace] | tuple[Palace, ...], seat: int, beside_own: Permission) -> bool:
    """True if ``seat`` may add the crown palace to a city of the current province that
    holds the palaces ``here`` (see :func:`crown_cities`)."""
    if len(here) >= 2:
        return False
    return not (beside_own is _FORBIDDEN and any(p.seat == seat for p in here))


def palaces_in(
    palaces: list[Palace] | tuple[Palace, ...], city: CityId
) -> list[Palace] | tuple[Palace, ...]:
    """The palaces standing in ``city``, in canonical order.

    The board's palaces are kept sorted by city (:attr:`GameState.palaces
    <tajmahal.model.GameState.palaces>`; the working copy inserts in order), so this is a
    binary search rather than a scan of every palace on the board; the city's few
    palaces are then read one by one.
    """
    start = end = bisect_left(palaces, city, key=_CITY)
    count = len(palaces)
    while end < count and palaces[end].city == city:  # at most two palaces to a city
        end += 1
    return palaces[start:end]


def add_palace(palaces: list[Palace], palace: Palace) -> None:
    """Insert ``palace`` in canonical order (:func:`~tajmahal.model.palace_sort_key`): a
    binary search for its city, then its place among the city's few palaces."""
    city = palace.city
    start = end = bisect_left(palaces, city, key=_CITY)
    count = len(palaces)
    while end < count and palaces[end].city == city:
        end += 1
    insort(palaces, palace, start, end, key=palace_sort_key)


_CITY = operator.attrgetter("city")
"""A palace's city: the sort key of :func:`palaces_in`'s search."""


def apply_palace(work: Work, city: CityId) -> None:
    """Place one owed normal palace in ``city`` and take the bonus tile lying there.

    Implements: TM.REWARD.INFLUENCE.PALACE, TM.REWARD.FORTRESS.BONUS,
    TM.REWARD.PLACEMENT_ORDER, TM.COMP.PALACES.UNLIMITED, RUL.CROWN.PLACEMENT_ORDER,
    RUL.TEXT.NEXT_PLAYER_BONUS, RUL.COMPONENTS.PALACES_UNLIMITED
    """
    withdrawal = work.withdrawal
    assert withdrawal is not None
    seat = withdrawal.seat
    if withdrawal.palaces_owed == 0:
        raise IllegalActionError(
            f"player {seat} owes no normal palace (only the crown palace)",
            clause="TM.REWARD.INFLUENCE.PALACE",
        )
    palaces = work.read("palaces")
    permission = work.rules.own_palace_beside_own_crown
    if city not in work.components.board.provinces[work.province].cities or not palace_fits(
        palaces_in(palaces, city), seat, permission
    ):
        allowed = open_palace_cities(work.components, permission, work.province, palaces, seat)
        raise placement_refusal(work, city, seat, crown=False, allowed=allowed)
    if work.recording:
        here = palaces_in(work.read("palaces"), city)
        work.record(
            Event(
                EventKind.PALACE,
                seat,
                cities=(city,),
                seats=tuple(palace.seat for palace in here),
                clauses=("TM.REWARD.INFLUENCE.PALACE", "TM.REWARD.CROWN.LATER_NORMAL")
                if here
                else ("TM.REWARD.INFLUENCE.PALACE",),
            )
        )
    add_palace(work.palaces, Palace(city, seat, False))
    work.withdrawal = withdrawal.placing(
        withdrawal.palaces_owed - 1, withdrawal.crown_owed, (*withdrawal.placed, city)
    )
    score_bonus_tile(work, seat, city)


def apply_crown(work: Work, city: CityId) -> None:
    """Place the owed crown palace in ``city``; a bonus tile there stays on the board.

    Implements: TM.REWARD.CROWN.PALACE, TM.REWARD.CROWN.OCCUPIED, TM.REWARD.CROWN.NO_BONUS,
    TM.REWARD.CROWN.BESIDE_OWN, TM.REWARD.PLACEMENT_ORDER
    """
    withdrawal = work.withdrawal
    assert withdrawal is not None
    seat = withdrawal.seat
    if not withdrawal.crown_owed:
        raise IllegalActionError(
            f"player {seat} has not won the crown in this withdrawal",
            clause="TM.REWARD.CROWN.TAKE",
        )
    palaces = work.read("palaces")
    permission = work.rules.crown_beside_own_palace
    if city not in work.components.board.provinces[work.province].cities or not crown_fits(
        palaces_in(palaces, city), seat, permission
    ):
        allowed = open_crown_cities(work.components, permission, work.province, palaces, seat)
        raise placement_refusal(work, city, seat, crown=True, allowed=allowed)
    if work.recording:
        work.record(_crown_event(work, seat, city))
    add_palace(work.palaces, Palace(city, seat, True))
    work.withdrawal = withdrawal.placing(withdrawal.palaces_owed, False, (*withdrawal.placed, city))


def _crown_event(work: Work, seat: int, city: CityId) -> Event:
    """The ``crown`` event: the palaces already in the city, a bonus tile left lying."""
    owners = tuple(palace.seat for palace in palaces_in(work.read("palaces"), city))
    bonus = work.bonus_at(city)
    clauses = ["TM.REWARD.CROWN.PALACE"]
    if owners:
        clauses.append("TM.REWARD.CROWN.OCCUPIED")
    if seat in owners:
        clauses += ["TM.REWARD.CROWN.BESIDE_OWN", "RUL.CROWN.BESIDE_OWN_PALACE"]
    if bonus is not None:
        clauses += ["TM.REWARD.CROWN.NO_BONUS", "RUL.REWARD.UNCLAIMED_BONUS"]
    return Event(
        EventKind.CROWN,
        seat,
        cities=(city,),
        seats=owners,
        tiles=() if bonus is None else (bonus,),
        clauses=tuple(clauses),
    )


def placement_refusal(
    work: Work, city: CityId, seat: int, *, crown: bool, allowed: tuple[CityId, ...]
) -> IllegalActionError:
    """Why a palace or the crown palace cannot go in ``city``, with the rule that says so
    (docs/refusals.md, rows 14 to 17 and 19 to 21): a city of no province or of another
    province, a full city (two palaces), the seat's own palace under the options that
    forbid it, and a city holding a normal palace.

    Implements: TM.REWARD.TWO_PALACES_PER_CITY
    """
    what = "the crown palace" if crown else "a palace"
    rule = "TM.REWARD.CROWN.PALACE" if crown else "TM.REWARD.INFLUENCE.PALACE"
    board = work.components.board
    if city not in board.cities:
        return IllegalActionError(f"unknown city {city!r}", clause=rule)
    if board.cities[city].province != work.province:
        return IllegalActionError(
            f"{city} lies in province {board.cities[city].province}; {what} must go in the "
            f"current province {work.province} (allowed: {', '.join(allowed) or 'none'})",
            clause=rule,
        )
    here = palaces_in(work.read("palaces"), city)
    owners = ", ".join(f"player {p.seat}" + (" (crown)" if p.crowned else "") for p in here)
    if len(here) >= 2:
        rule = "TM.REWARD.TWO_PALACES_PER_CITY"
    elif crown:
        rule = "RUL.CROWN.BESIDE_OWN_PALACE"
    elif len(here) == 1 and here[0].crowned and here[0].seat == seat:
        rule = "RUL.CROWN.OWN_PALACE_BESIDE_CROWN"
    return IllegalActionError(
        f"{what} cannot go in {city}, which holds {owners}; "
        f"allowed: {', '.join(allowed) or 'none'}",
        clause=rule,
    )


def forfeit_impossible(work: Work) -> bool:
    """Drop owed placements that have no legal city; True if any was dropped.

    Implements: TM.REWARD.INFLUENCE.PALACE, RUL.REWARD.NO_LEGAL_CITY
    """
    withdrawal = work.withdrawal
    assert withdrawal is not None
    seat = withdrawal.seat
    changed = False
    palaces = work.read("palaces")
    cities = work.components.board.provinces[work.province].cities
    # Whether any city is open (as open_palace_cities / open_crown_cities list them),
    # stopping at the first.
    if withdrawal.palaces_owed and not any(
        palace_fits(palaces_in(palaces, city), seat, work.rules.own_palace_beside_own_crown)
        for city in cities
    ):
        if work.recording:
            work.record(
                Event(
                    EventKind.FORFEIT,
                    seat,
                    counts=(withdrawal.palaces_owed,),
                    clauses=("TM.REWARD.INFLUENCE.PALACE", "RUL.REWARD.NO_LEGAL_CITY"),
                )
            )
        withdrawal = withdrawal.placing(0, withdrawal.crown_owed, withdrawal.placed)
        changed = True
    if withdrawal.crown_owed and not any(
        crown_fits(palaces_in(palaces, city), seat, work.rules.crown_beside_own_palace)
        for city in cities
    ):
        if work.recording:
            work.record(
                Event(
                    EventKind.FORFEIT,
                    seat,
                    symbol=Symbol.MOGUL,
                    clauses=("TM.REWARD.CROWN.PALACE", "RUL.REWARD.NO_LEGAL_CITY"),
                )
            )
        withdrawal = withdrawal.placing(withdrawal.palaces_owed, False, withdrawal.placed)
        changed = True
    work.withdrawal = withdrawal
    return changed
