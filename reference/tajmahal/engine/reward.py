"""The rewards of a withdrawal: palaces and the crown palace (the rulebooks' "I punti
influenza", "Punti influenza", "Puntos de Influencia", "Les Palais").

Each influence tile won puts a normal palace in an empty city of the current province
(taking the bonus tile there, scored by :mod:`~tajmahal.engine.score`); the crown puts
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

from bisect import insort

from tajmahal.board import CityId
from tajmahal.components import Components, ProvinceTileId
from tajmahal.engine._work import Work
from tajmahal.engine.score import score_bonus_tile
from tajmahal.errors import IllegalActionError
from tajmahal.events import Event, EventKind
from tajmahal.rules import Permission
from tajmahal.state import GameState, Palace, palace_sort_key
from tajmahal.symbols import SYMBOL_INDEX, Symbol


def take_from_court(work: Work, seat: int, symbol: Symbol) -> ProvinceTileId | None:
    """Hand the court's reward for ``symbol`` to ``seat``, who won its majority.

    The Grand Moguls take the crown (its palace is placed later), the elephants the
    province tile (returned: it is scored after the palaces), any other symbol its
    influence tile, which the player keeps and which owes a palace.

    Implements: TM.COMP.CROWN, TM.REWARD.INFLUENCE.TILE, TM.REWARD.CROWN.TAKE,
    TM.REWARD.ELEPHANT.PROVINCE
    """
    if symbol is Symbol.MOGUL:
        work.crown_in_court = False
        return None
    if symbol is Symbol.ELEPHANT:
        province_won = work.court_province_tile
        work.court_province_tile = None
        return province_won
    work.court_influence.remove(symbol)
    insort(work.player(seat).influence, symbol, key=SYMBOL_INDEX.__getitem__)
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


def open_palace_cities(
    components: Components,
    own_beside_crown: Permission,
    province: str,
    palaces: list[Palace] | tuple[Palace, ...],
    seat: int,
) -> tuple[CityId, ...]:
    """:func:`palace_cities` from its parts (the working copy's palaces included)."""
    result = []
    cities = components.board.provinces[province].cities
    local = [palace for palace in palaces if palace.city in cities]
    for city in cities:
        here = [palace for palace in local if palace.city == city]
        if not here or (
            len(here) == 1
            and here[0].crowned
            and (here[0].seat != seat or own_beside_crown is Permission.ALLOWED)
        ):
            result.append(city)
    return tuple(result)


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
    result = []
    cities = components.board.provinces[province].cities
    local = [palace for palace in palaces if palace.city in cities]
    for city in cities:
        here = [palace for palace in local if palace.city == city]
        if len(here) >= 2:
            continue
        if beside_own is Permission.FORBIDDEN and any(p.seat == seat for p in here):
            continue
        result.append(city)
    return tuple(result)


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
    allowed = open_palace_cities(
        work.components,
        work.rules.own_palace_beside_own_crown,
        work.province,
        work.read("palaces"),
        seat,
    )
    if city not in allowed:
        raise placement_refusal(work, city, seat, crown=False, allowed=allowed)
    if work.recording:
        here = [palace for palace in work.read("palaces") if palace.city == city]
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
    insort(work.palaces, Palace(city, seat, False), key=palace_sort_key)
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
    allowed = open_crown_cities(
        work.components,
        work.rules.crown_beside_own_palace,
        work.province,
        work.read("palaces"),
        seat,
    )
    if city not in allowed:
        raise placement_refusal(work, city, seat, crown=True, allowed=allowed)
    if work.recording:
        work.record(_crown_event(work, seat, city))
    insort(work.palaces, Palace(city, seat, True), key=palace_sort_key)
    work.withdrawal = withdrawal.placing(withdrawal.palaces_owed, False, (*withdrawal.placed, city))


def _crown_event(work: Work, seat: int, city: CityId) -> Event:
    """The ``crown`` event: the palaces already in the city, a bonus tile left lying."""
    owners = tuple(palace.seat for palace in work.read("palaces") if palace.city == city)
    bonus = work.bonus_on_board.get(city)
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
    """Why a palace or the crown palace cannot go in ``city``, with the rule that says so."""
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
    here = [palace for palace in work.read("palaces") if palace.city == city]
    owners = ", ".join(f"player {p.seat}" + (" (crown)" if p.crowned else "") for p in here)
    if crown:
        rule = "TM.REWARD.CROWN.OCCUPIED" if len(here) >= 2 else "RUL.CROWN.BESIDE_OWN_PALACE"
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
    if withdrawal.palaces_owed and not open_palace_cities(
        work.components,
        work.rules.own_palace_beside_own_crown,
        work.province,
        work.read("palaces"),
        seat,
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
    if withdrawal.crown_owed and not open_crown_cities(
        work.components,
        work.rules.crown_beside_own_palace,
        work.province,
        work.read("palaces"),
        seat,
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
