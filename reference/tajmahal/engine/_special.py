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

import operator
from bisect import insort

from tajmahal.engine._work import Work
from tajmahal.model import INFLUENCE_SYMBOLS, VISITS, AlreadyHeldSpecial, Event, EventKind


def exchange_pairs(work: Work) -> None:
    """Every pair of influence tiles of a kind is returned for the special card it earns.

    Implements: TM.SPECIAL.EARN, TM.SPECIAL.EXCHANGE_AT_VISIT_END,
    TM.SPECIAL.TAKE_FROM_HOLDER, TM.SPECIAL.ALREADY_HELD, RUL.SPECIAL.CHANGES_HANDS,
    RUL.SPECIAL.ALREADY_HELD, RUL.END.LAST_VISIT_EXCHANGE, RUL.SPECIAL.PAIR_TILES_TO_SUPPLY
    """
    components = work.components
    for seat in range(work.count):
        influence = work.peek(seat).influence
        # Influence tiles are kept in canonical order: a pair lies side by side.
        if not any(map(operator.is_, influence, influence[1:])):
            continue
        player = work.player(seat)
        for symbol in INFLUENCE_SYMBOLS:
            if player.influence.count(symbol) < 2:
                continue
            special = components.special_earned_by(symbol)
            if special.id in player.hand:
                if work.rules.already_held_special is AlreadyHeldSpecial.RETURN_TILES:
                    player.influence.remove(symbol)
                    player.influence.remove(symbol)
                    if work.recording:
                        work.record(
                            Event(
                                EventKind.EXCHANGE,
                                seat,
                                symbol=symbol,
                                cards=(special.id,),
                                counts=(2,),
                                clauses=("TM.SPECIAL.ALREADY_HELD", "RUL.SPECIAL.ALREADY_HELD"),
                            )
                        )
                continue
            player.influence.remove(symbol)
            player.influence.remove(symbol)
            holders: tuple[int, ...] = ()
            if special.id in work.specials_on_table:
                work.specials_on_table.remove(special.id)
            else:
                holder = next(s for s, p in enumerate(work.players) if special.id in p.hand)
                work.player(holder).hand.remove(special.id)
                holders = (holder,)
            insort(player.hand, special.id)
            if work.recording:
                clauses = ["TM.SPECIAL.EARN", "TM.SPECIAL.EXCHANGE_AT_VISIT_END"]
                if holders:
                    clauses += ["TM.SPECIAL.TAKE_FROM_HOLDER", "RUL.SPECIAL.CHANGES_HANDS"]
                if work.visit == VISITS:
                    clauses.append("RUL.END.LAST_VISIT_EXCHANGE")
                work.record(
                    Event(
                        EventKind.EXCHANGE,
                        seat,
                        symbol=symbol,
                        cards=(special.id,),
                        seats=holders,
                        counts=(2,),
                        clauses=tuple(clauses),
                    )
                )
