"""The events of one withdrawal's comparison: for each force, won by majority or not, and why.

:mod:`~tajmahal.engine._withdraw` decides (it compares the counts with
:func:`~tajmahal.engine._scoring.wins_majority` and hands out the rewards); this module
says what the comparison showed, with the clauses and rulings that decided it, for the
account, the tags and the records.
"""

from __future__ import annotations

from collections.abc import Sequence

from tajmahal.engine._work import Work
from tajmahal.model import SYMBOL_INDEX, Event, EventKind, MajorityScope, Symbol


def majority_events(
    work: Work,
    seat: int,
    counts: tuple[int, ...],
    compared: dict[int, tuple[int, ...]],
    outcomes: Sequence[tuple[Symbol, bool]],
) -> list[Event]:
    """The ``win`` or ``no-majority`` event of ``seat`` for each force of ``outcomes``
    (a symbol, and whether it won), in that order: its ``counts`` against those
    ``compared`` (by seat).

    When only the players still in the visit were compared, some having withdrawn (or
    every count recorded was, under ``majority_scope = "all"``), every event says so.

    Implements: RUL.MAJORITY.REMAINING_PLAYERS
    """
    withdrawn = [
        player
        for other, player in enumerate(work.players)
        if other != seat and other not in compared and player.withdrawn
    ]
    set_aside = [
        player.withdrawn_counts for player in withdrawn if player.withdrawn_counts is not None
    ]
    scope: tuple[str, ...] = ("TM.WITHDRAW.COMPARE",)
    if withdrawn or work.rules.majority_scope is MajorityScope.ALL:
        scope += ("TM.WITHDRAW.MAJORITY.REMAINING", "RUL.MAJORITY.REMAINING_PLAYERS")
    tile = work.court_province_tile
    seats = tuple(compared)
    events = []
    for symbol, won in outcomes:
        index = SYMBOL_INDEX[symbol]
        own = counts[index]
        others = tuple(other[index] for other in compared.values())
        tie_broken = won and any(aside[index] >= own for aside in set_aside)
        events.append(
            Event(
                EventKind.WIN if won else EventKind.NO_MAJORITY,
                seat,
                symbol=symbol,
                tiles=(tile,) if symbol is Symbol.ELEPHANT and tile is not None else (),
                seats=seats,
                counts=(own, *others),
                clauses=scope + outcome_clauses(symbol, own, others, tie_broken, won),
            )
        )
    return events


def outcome_clauses(
    symbol: Symbol, own: int, others: tuple[int, ...], tie_broken: bool, won: bool
) -> tuple[str, ...]:
    """Why ``own`` symbols against the ``others`` compared did or did not win.

    A win names the reward's clause, and RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL when the
    tie was broken: a player who has withdrawn (and was not compared) had as many. A loss
    is a tie (TM.WITHDRAW.MAJORITY.STRICT and the tie ruling), fewer symbols
    (TM.WITHDRAW.MAJORITY.STRICT), or zero symbols (TM.WITHDRAW.MAJORITY.ZERO, and
    RUL.MAJORITY.ZERO_SYMBOLS when nobody was left to compare with).

    Implements: RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL, RUL.MAJORITY.ZERO_SYMBOLS
    """
    best = max(others, default=0)
    if won:
        if tie_broken:
            return (
                "TM.WITHDRAW.MAJORITY.STRICT",
                reward_clause(symbol),
                "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL",
            )
        return ("TM.WITHDRAW.MAJORITY.STRICT", reward_clause(symbol))
    if own == 0 and best == 0:
        if others:
            return ("TM.WITHDRAW.MAJORITY.ZERO", "TM.WITHDRAW.MAJORITY.STRICT")
        return ("TM.WITHDRAW.MAJORITY.ZERO", "RUL.MAJORITY.ZERO_SYMBOLS")
    if best == own:
        return ("TM.WITHDRAW.MAJORITY.STRICT", "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL")
    return ("TM.WITHDRAW.MAJORITY.STRICT",)


def reward_clause(symbol: Symbol) -> str:
    """The clause of the reward that a majority of ``symbol`` wins."""
    if symbol is Symbol.MOGUL:
        return "TM.REWARD.CROWN.TAKE"
    if symbol is Symbol.ELEPHANT:
        return "TM.REWARD.ELEPHANT.PROVINCE"
    return "TM.REWARD.INFLUENCE.TILE"
