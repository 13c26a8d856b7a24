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

import operator
from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable

import attrs

from tajmahal.engine._score import score_bonus_tile
from tajmahal.engine._work import Work, without
from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    ALL_SYMBOLS,
    Action,
    CityId,
    Event,
    EventKind,
    GameState,
    Palace,
    Permission,
    PlaceCrown,
    PlacePalace,
    Symbol,
    palace_sort_key,
)


def take_from_court(work: Work, seat: int, symbol: Symbol) -> None:
    """Hand the court's reward for ``symbol`` to ``seat``, who won its majority.

    The Grand Moguls take the crown (its palace is placed later), the elephants the
    province tile (scored after the palaces, from the withdrawal), any other symbol its
    influence tile, which the player keeps and which owes a palace.

    Implements: TM.COMP.CROWN, TM.REWARD.INFLUENCE.TILE, TM.REWARD.CROWN.TAKE,
    TM.REWARD.ELEPHANT.PROVINCE
    """
    if symbol is Symbol.MOGUL:
        work.crown_in_court = False
    elif symbol is Symbol.ELEPHANT:
        work.court_province_tile = None
    else:
        work.court_influence = without(work.court_influence, [symbol])
        player = work.edit(seat)
        influence = sorted((*player.influence, symbol), key=ALL_SYMBOLS.index)
        player.influence = tuple(influence)


def placement_actions(state: GameState) -> list[Action]:
    """The placements open to the withdrawing player: the crown palace in each city of
    :func:`crown_cities` while it is owed, then a normal palace in each city of
    :func:`palace_cities` while one is owed (canonical order: "crown" < "palace").
    Nothing else is legal at a place step: the palaces won are placed before the
    withdrawal goes on, and cannot be kept back.

    Implements: TM.REWARD.PLACE_AT_ONCE
    """
    withdrawal = state.withdrawal
    assert withdrawal is not None
    actions: list[Action] = []
    if withdrawal.crown_owed:
        actions += [PlaceCrown(city) for city in crown_cities(state, withdrawal.seat)]
    if withdrawal.palaces_owed:
        actions += [PlacePalace(city) for city in palace_cities(state, withdrawal.seat)]
    return actions


def palace_cities(state: GameState | Work, seat: int) -> tuple[CityId, ...]:
    """Cities of the current province where ``seat`` may place a normal palace now.

    A normal palace needs an empty city; a city holding only a crown palace counts as
    open to another player (TM.REWARD.CROWN.LATER_NORMAL) and to its own owner only if
    the rule set allows it (RUL.CROWN.OWN_PALACE_BESIDE_CROWN).

    Implements: TM.REWARD.INFLUENCE.PALACE, TM.REWARD.CROWN.LATER_NORMAL,
    TM.REWARD.CROWN.OWN_NORMAL_LATER, RUL.CROWN.OWN_PALACE_BESIDE_CROWN,
    TM.REWARD.TWO_PALACES_PER_CITY, RUL.REWARD.TWO_PALACES_PER_CITY
    """
    permission = state.config.rules.own_palace_beside_own_crown
    return tuple(
        [
            city
            for city in _province_cities(state)
            if palace_fits(palaces_in(state.palaces, city), seat, permission)
        ]
    )


def palace_fits(here: tuple[Palace, ...], seat: int, own_beside_crown: Permission) -> bool:
    """True if ``seat`` may add a normal palace to a city of the current province that
    holds the palaces ``here`` (see :func:`palace_cities`)."""
    return not here or (
        len(here) == 1
        and here[0].crowned
        and (here[0].seat != seat or own_beside_crown is Permission.ALLOWED)
    )


def crown_cities(state: GameState | Work, seat: int) -> tuple[CityId, ...]:
    """Cities of the current province where ``seat`` may place the crown palace now: any
    city, occupied or not, except beside their own palace when the rule set forbids it.

    Implements: TM.REWARD.CROWN.PALACE, TM.REWARD.CROWN.OCCUPIED, TM.REWARD.CROWN.BESIDE_OWN,
    RUL.CROWN.BESIDE_OWN_PALACE, TM.REWARD.TWO_PALACES_PER_CITY
    """
    permission = state.config.rules.crown_beside_own_palace
    return tuple(
        [
            city
            for city in _province_cities(state)
            if crown_fits(palaces_in(state.palaces, city), seat, permission)
        ]
    )


def crown_fits(here: tuple[Palace, ...], seat: int, beside_own: Permission) -> bool:
    """True if ``seat`` may add the crown palace to a city of the current province that
    holds the palaces ``here`` (see :func:`crown_cities`; a city holds at most two)."""
    if len(here) >= 2:
        return False
    return not (any(palace.seat == seat for palace in here) and beside_own is Permission.FORBIDDEN)


def _province_cities(state: GameState | Work) -> tuple[CityId, ...]:
    """The cities of the current province."""
    return state.config.components.board.provinces[state.current_province].cities


def palaces_in(palaces: tuple[Palace, ...], city: CityId) -> tuple[Palace, ...]:
    """The palaces standing in ``city``, in canonical order: the board's palaces are
    sorted by city (:attr:`~tajmahal.model.GameState.palaces`), so they are the slice
    that a binary search finds."""
    return palaces[bisect_left(palaces, city, key=_city) : bisect_right(palaces, city, key=_city)]


_city = operator.attrgetter("city")
"""A palace's city."""


def place_palace(work: Work, action: PlacePalace) -> None:
    """Place one owed normal palace in ``action``'s city and take the bonus tile lying
    there.

    Implements: TM.REWARD.INFLUENCE.PALACE, TM.REWARD.FORTRESS.BONUS,
    TM.REWARD.PLACEMENT_ORDER, TM.COMP.PALACES.UNLIMITED, RUL.CROWN.PLACEMENT_ORDER,
    RUL.TEXT.NEXT_PLAYER_BONUS, RUL.COMPONENTS.PALACES_UNLIMITED
    """
    withdrawal = work.withdrawal
    assert withdrawal is not None
    seat, city = withdrawal.seat, action.city
    if withdrawal.palaces_owed == 0:
        raise IllegalActionError(
            f"P{seat} owes no normal palace (only the crown palace)",
            clause="TM.REWARD.INFLUENCE.PALACE",
        )
    permission = work.rules.own_palace_beside_own_crown
    if city not in _province_cities(work) or not palace_fits(
        palaces_in(work.palaces, city), seat, permission
    ):
        raise placement_refusal(work, city, seat, crown=False, allowed=palace_cities(work, seat))
    work.record(palace_event, seat, city, palaces_in(work.palaces, city))
    add_palace(work, Palace(city, seat, False))
    work.withdrawal = withdrawal.after_placement(city, crown=False)
    score_bonus_tile(work, seat, city)


def palace_event(seat: int, city: CityId, here: tuple[Palace, ...]) -> Event:
    """The ``palace`` event: the owners of the palaces already ``here``."""
    return Event(
        EventKind.PALACE,
        seat,
        cities=(city,),
        seats=tuple(palace.seat for palace in here),
        clauses=("TM.REWARD.INFLUENCE.PALACE", "TM.REWARD.CROWN.LATER_NORMAL")
        if here
        else ("TM.REWARD.INFLUENCE.PALACE",),
    )


def place_crown(work: Work, action: PlaceCrown) -> None:
    """Place the owed crown palace in ``action``'s city; a bonus tile there stays on the
    board.

    Implements: TM.REWARD.CROWN.PALACE, TM.REWARD.CROWN.OCCUPIED, TM.REWARD.CROWN.NO_BONUS,
    TM.REWARD.CROWN.BESIDE_OWN, TM.REWARD.PLACEMENT_ORDER
    """
    withdrawal = work.withdrawal
    assert withdrawal is not None
    seat, city = withdrawal.seat, action.city
    if not withdrawal.crown_owed:
        raise IllegalActionError(
            f"P{seat} has not won the crown in this withdrawal",
            clause="TM.REWARD.CROWN.TAKE",
        )
    permission = work.rules.crown_beside_own_palace
    if city not in _province_cities(work) or not crown_fits(
        palaces_in(work.palaces, city), seat, permission
    ):
        raise placement_refusal(work, city, seat, crown=True, allowed=crown_cities(work, seat))
    bonus = dict(work.bonus_on_board).get(city)
    work.record(crown_event, seat, city, palaces_in(work.palaces, city), bonus)
    add_palace(work, Palace(city, seat, True))
    work.withdrawal = withdrawal.after_placement(city, crown=True)


def crown_event(seat: int, city: CityId, here: tuple[Palace, ...], bonus: str | None) -> Event:
    """The ``crown`` event: the palaces already ``here``, a ``bonus`` tile left lying."""
    owners = tuple(palace.seat for palace in here)
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


def add_palace(work: Work, palace: Palace) -> None:
    """Put ``palace`` on the board (the board's palaces are kept in canonical order)."""
    palaces = list(work.palaces)
    insort(palaces, palace, key=palace_sort_key)
    work.palaces = tuple(palaces)


def placement_refusal(
    work: Work, city: CityId, seat: int, *, crown: bool, allowed: tuple[CityId, ...]
) -> IllegalActionError:
    """Why a palace or the crown palace cannot go in ``city``, with the rule that says so
    (docs/refusals.md, rows 14 to 17 and 19 to 21): a city of no province or of another
    province, a full city (two palaces), the seat's own palace under the options that
    forbid it, and a city holding a normal palace. ``allowed`` is never empty: with no
    open city the palace is forfeited, and no placement is asked for
    (RUL.REWARD.NO_LEGAL_CITY).

    Implements: TM.REWARD.TWO_PALACES_PER_CITY
    """
    what = "the crown palace" if crown else "a palace"
    rule = "TM.REWARD.CROWN.PALACE" if crown else "TM.REWARD.INFLUENCE.PALACE"
    board = work.components.board
    if city not in board.cities:
        return IllegalActionError(f"unknown city {city!r}", clause=rule)
    if board.cities[city].province != work.current_province:
        return IllegalActionError(
            f"{city} lies in province {board.cities[city].province}; {what} must go in the "
            f"current province {work.current_province} (allowed: "
            f"{', '.join(allowed)})",
            clause=rule,
        )
    here = palaces_in(work.palaces, city)
    owners = ", ".join(f"P{p.seat}" + (" (crown)" if p.crowned else "") for p in here)
    if len(here) >= 2:
        rule = "TM.REWARD.TWO_PALACES_PER_CITY"
    elif crown:
        rule = "RUL.CROWN.BESIDE_OWN_PALACE"
    elif len(here) == 1 and here[0].crowned and here[0].seat == seat:
        rule = "RUL.CROWN.OWN_PALACE_BESIDE_CROWN"
    return IllegalActionError(
        f"{what} cannot go in {city}, which holds {owners}; allowed: {', '.join(allowed)}",
        clause=rule,
    )


def forfeit_impossible(work: Work) -> bool:
    """Drop owed placements that have no legal city; True if any was dropped.

    Implements: TM.REWARD.INFLUENCE.PALACE, RUL.REWARD.NO_LEGAL_CITY
    """
    withdrawal = work.withdrawal
    assert withdrawal is not None
    seat = withdrawal.seat
    rules = work.rules
    palaces_owed = withdrawal.palaces_owed
    if palaces_owed and not _any_open(work, seat, palace_fits, rules.own_palace_beside_own_crown):
        work.record(forfeit_event, seat, palaces_owed)
        palaces_owed = 0
    crown_owed = withdrawal.crown_owed
    if crown_owed and not _any_open(work, seat, crown_fits, rules.crown_beside_own_palace):
        work.record(forfeit_event, seat, None)
        crown_owed = False
    if (palaces_owed, crown_owed) == (withdrawal.palaces_owed, withdrawal.crown_owed):
        return False
    work.withdrawal = attrs.evolve(withdrawal, palaces_owed=palaces_owed, crown_owed=crown_owed)
    return True


def _any_open(
    work: Work,
    seat: int,
    fits: Callable[[tuple[Palace, ...], int, Permission], bool],
    permission: Permission,
) -> bool:
    """True if some city of the current province ``fits`` a palace of ``seat`` (as
    :func:`palace_cities` and :func:`crown_cities` list them, stopping at the first)."""
    return any(
        fits(palaces_in(work.palaces, city), seat, permission) for city in _province_cities(work)
    )


def forfeit_event(seat: int, palaces: int | None) -> Event:
    """The ``forfeit`` event: ``palaces`` normal palaces not placed, or (None) the crown
    palace."""
    if palaces is None:
        return Event(
            EventKind.FORFEIT,
            seat,
            symbol=Symbol.MOGUL,
            clauses=("TM.REWARD.CROWN.PALACE", "RUL.REWARD.NO_LEGAL_CITY"),
        )
    return Event(
        EventKind.FORFEIT,
        seat,
        counts=(palaces,),
        clauses=("TM.REWARD.INFLUENCE.PALACE", "RUL.REWARD.NO_LEGAL_CITY"),
    )
