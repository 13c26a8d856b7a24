"""Special cards changing hands at the end of a visit (the rulebooks' "Le carte
speciali", "Las cartas especiales", "Fin de Manche").

A player holding two influence tiles of a kind at the end of a visit returns them for
the special card that kind earns, from the table or from the player holding it. How
special cards act when played is part of playing (:mod:`~tajmahal.engine`); that
they return to hand after a withdrawal is part of the discard
(:mod:`~tajmahal.engine`).

Notes on this implementation:

- Special cards change hands only at the end of a visit, straight from the holder's hand
  (RUL.SPECIAL.CHANGES_HANDS); seats are handled in seat order.
- A player who already holds the card earned by their pair returns the two tiles by
  default, or keeps them (RUL.SPECIAL.ALREADY_HELD, option ``already_held_special``).
- Pairs are exchanged at the end of the twelfth visit too, before hand scoring
  (RUL.END.LAST_VISIT_EXCHANGE).
"""

from __future__ import annotations

from tajmahal.engine._work import Work, cards_into_hand, without
from tajmahal.model import (
    INFLUENCE_SYMBOLS,
    VISITS,
    AlreadyHeldSpecial,
    CardId,
    Event,
    EventKind,
    Symbol,
)


def exchange_pairs(work: Work) -> None:
    """Every pair of influence tiles of a kind is returned for the special card it earns,
    taken from the table or from the player holding it.

    Implements: TM.SPECIAL.EARN, TM.SPECIAL.EXCHANGE_AT_VISIT_END,
    TM.SPECIAL.TAKE_FROM_HOLDER, TM.SPECIAL.ALREADY_HELD, RUL.SPECIAL.CHANGES_HANDS,
    RUL.SPECIAL.ALREADY_HELD, RUL.END.LAST_VISIT_EXCHANGE, RUL.SPECIAL.PAIR_TILES_TO_SUPPLY
    """
    for seat in range(len(work.players)):
        for symbol in INFLUENCE_SYMBOLS:
            if work.players[seat].influence.count(symbol) < 2:
                continue
            card = work.components.special_earned_by(symbol).id
            if card not in work.players[seat].hand:
                return_pair(work, seat, symbol)
                holder = take_special(work, card)
                cards_into_hand(work, seat, [card])
                work.record(exchange_event, seat, symbol, card, holder, work.visit)
            elif work.rules.already_held_special is AlreadyHeldSpecial.RETURN_TILES:
                return_pair(work, seat, symbol)
                work.record(already_held_event, seat, symbol, card)


def return_pair(work: Work, seat: int, symbol: Symbol) -> None:
    """``seat`` gives back two influence tiles of ``symbol`` (to the supply)."""
    player = work.edit(seat)
    player.influence = without(player.influence, [symbol] * 2)


def take_special(work: Work, card: CardId) -> int | None:
    """Take the special ``card`` from the table, or from the player who holds it (whose
    seat is returned)."""
    if card in work.specials_on_table:
        work.specials_on_table = without(work.specials_on_table, [card])
        return None
    holder = next(seat for seat, player in enumerate(work.players) if card in player.hand)
    player = work.edit(holder)
    player.hand = without(player.hand, [card])
    return holder


def exchange_event(
    seat: int, symbol: Symbol, card: CardId, holder: int | None, visit: int
) -> Event:
    """The ``exchange`` event: a pair returned for the special ``card``, taken from the
    table or from ``holder``."""
    clauses = ["TM.SPECIAL.EARN", "TM.SPECIAL.EXCHANGE_AT_VISIT_END"]
    if holder is not None:
        clauses += ["TM.SPECIAL.TAKE_FROM_HOLDER", "RUL.SPECIAL.CHANGES_HANDS"]
    if visit == VISITS:
        clauses.append("RUL.END.LAST_VISIT_EXCHANGE")
    return Event(
        EventKind.EXCHANGE,
        seat,
        symbol=symbol,
        cards=(card,),
        seats=() if holder is None else (holder,),
        counts=(2,),
        clauses=tuple(clauses),
    )


def already_held_event(seat: int, symbol: Symbol, card: CardId) -> Event:
    """The ``exchange`` event of a pair returned for a special card already held."""
    return Event(
        EventKind.EXCHANGE,
        seat,
        symbol=symbol,
        cards=(card,),
        counts=(2,),
        clauses=("TM.SPECIAL.ALREADY_HELD", "RUL.SPECIAL.ALREADY_HELD"),
    )
