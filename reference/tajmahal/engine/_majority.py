"""The event of one force at a withdrawal: won by majority, or not and why.

:mod:`~tajmahal.engine._withdraw` decides (it compares the counts with
:func:`~tajmahal.engine._scoring.wins_majority` and hands out the rewards); this module
says what the comparison showed, with the clauses and rulings that decided it, for the
account, the tags and the records.
"""

from __future__ import annotations

from tajmahal.engine._work import Work
from tajmahal.model import SYMBOL_INDEX, Event, EventKind, MajorityScope, Symbol


def majority_event(
    work: Work,
    seat: int,
    symbol: Symbol,
    counts: tuple[int, ...],
    compared: dict[int, tuple[int, ...]],
    won: bool,
) -> Event:
    """The ``win`` or ``no-majority`` event of ``seat`` for ``symbol``: its ``counts``
    against those ``compared`` (by seat), and whether it ``won``.

    A win names the reward's clause, and RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL when a
    player who has withdrawn (and was not compared) had as many. A loss is a tie
    (TM.WITHDRAW.MAJORITY.STRICT and the tie ruling), fewer symbols
    (TM.WITHDRAW.MAJORITY.STRICT), or zero symbols (TM.WITHDRAW.MAJORITY.ZERO, and
    RUL.MAJORITY.ZERO_SYMBOLS when nobody was left to compare with). When only the
    players still in the visit were compared, some having withdrawn (or every count
    recorded was, under ``majority_scope = "all"``), the event says so.

    Implements: RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL, RUL.MAJORITY.ZERO_SYMBOLS,
    RUL.MAJORITY.REMAINING_PLAYERS
    """
    index = SYMBOL_INDEX[symbol]
    own = counts[index]
    others = tuple(other[index] for other in compared.values())
    withdrawn = [
        player
        for other, player in enumerate(work.players)
        if other != seat and other not in compared and player.withdrawn
    ]
    clauses = ["TM.WITHDRAW.COMPARE"]
    if withdrawn or work.rules.majority_scope is MajorityScope.ALL:
        clauses += ["TM.WITHDRAW.MAJORITY.REMAINING", "RUL.MAJORITY.REMAINING_PLAYERS"]
    best = max(others, default=0)
    if won:
        clauses += ["TM.WITHDRAW.MAJORITY.STRICT", reward_clause(symbol)]
        if any(
            p.withdrawn_counts is not None and p.withdrawn_counts[index] >= own for p in withdrawn
        ):
            clauses.append("RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL")
    elif own == 0 and best == 0:
        clauses.append("TM.WITHDRAW.MAJORITY.ZERO")
        clauses.append("TM.WITHDRAW.MAJORITY.STRICT" if others else "RUL.MAJORITY.ZERO_SYMBOLS")
    elif best == own:
        clauses += ["TM.WITHDRAW.MAJORITY.STRICT", "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL"]
    else:
        clauses.append("TM.WITHDRAW.MAJORITY.STRICT")
    tile = work.court_province_tile if symbol is Symbol.ELEPHANT else None
    return Event(
        EventKind.WIN if won else EventKind.NO_MAJORITY,
        seat,
        symbol=symbol,
        tiles=() if tile is None else (tile,),
        seats=tuple(compared),
        counts=(own, *others),
        clauses=tuple(clauses),
    )


def reward_clause(symbol: Symbol) -> str:
    """The clause of the reward that a majority of ``symbol`` wins."""
    if symbol is Symbol.MOGUL:
        return "TM.REWARD.CROWN.TAKE"
    if symbol is Symbol.ELEPHANT:
        return "TM.REWARD.ELEPHANT.PROVINCE"
    return "TM.REWARD.INFLUENCE.TILE"
