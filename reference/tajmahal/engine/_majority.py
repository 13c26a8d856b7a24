"""The event of one force at a withdrawal: won by majority, or not and why.

:mod:`~tajmahal.engine` decides (it compares the counts with
:func:`tajmahal.engine._scoring.wins_majority` and hands out the rewards); this module says what
the comparison showed, with the clauses and rulings that decided it, for the account,
the tags and the records. Events are built only when they are recorded, and remembered
(:data:`_MAJORITY_EVENTS`).
"""

from __future__ import annotations

from tajmahal.engine._scoring import wins_majority
from tajmahal.engine._work import Work
from tajmahal.model import Event, EventKind, MajorityScope, Symbol

_MOGUL, _ELEPHANT, _ALL = Symbol.MOGUL, Symbol.ELEPHANT, MajorityScope.ALL
_WIN, _NO_MAJORITY = EventKind.WIN, EventKind.NO_MAJORITY
"""Enum members as module names: reading a member from its enum class goes through the
enum's metaclass, several times slower than reading a global, and this is the hot path."""


def remembered_majority_event(
    work: Work,
    seat: int,
    index: int,
    symbol: Symbol,
    counts: tuple[int, ...],
    compared_seats: tuple[int, ...],
    others: tuple[int, ...],
    withdrawn: list[int],
    won: bool,
) -> Event:
    """The ``win`` or ``no-majority`` event of one force (``index`` is the symbol's
    position in canonical order, ``others`` the compared players' counts of it,
    ``withdrawn`` the seats that withdrew earlier and were not compared): what decides
    it is gathered here, the event is :func:`majority_event`'s (remembered, see
    :data:`_MAJORITY_EVENTS`). ``won``: the outcome, as :func:`majority_event` finds it.

    Implements: RUL.MAJORITY.REMAINING_PLAYERS, RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL
    """
    own = counts[index]
    remaining = bool(withdrawn) or work.rules.majority_scope is _ALL
    # A win that a player who has withdrawn had as many symbols for (only the remaining
    # players were compared) breaks a tie.
    tie_broken = won and any(
        (recorded := work.peek(other).withdrawn_counts) is not None and recorded[index] >= own
        for other in withdrawn
    )
    tile = work.court_province_tile if symbol is _ELEPHANT else None
    key = (seat, index, remaining, tie_broken, tile, compared_seats, own, others)
    event = _MAJORITY_EVENTS.get(key)
    if event is None:
        event = majority_event(
            seat, symbol, own, others, compared_seats, remaining, tie_broken, tile
        )
        if len(_MAJORITY_EVENTS) >= MAJORITY_EVENTS_KEPT:
            _MAJORITY_EVENTS.clear()
        _MAJORITY_EVENTS[key] = event
    return event


_MAJORITY_EVENTS: dict[tuple[object, ...], Event] = {}
"""The majority events built so far, by every argument of :func:`majority_event` (the
symbol by its position in canonical order): an event is a frozen value that depends on
these alone, so an equal key stands for an equal event. The same few comparisons recur
withdrawal after withdrawal (about four in five are found here on the golden corpus);
emptied when full."""
MAJORITY_EVENTS_KEPT = 16384
"""Majority events remembered at most."""


def majority_event(
    seat: int,
    symbol: Symbol,
    own: int,
    others: tuple[int, ...],
    compared_seats: tuple[int, ...],
    remaining: bool,
    tie_broken: bool,
    tile: str | None,
) -> Event:
    """The ``win`` or ``no-majority`` event of ``seat`` for ``symbol``, with the clauses
    that decided it: ``own`` symbols against ``others`` (the counts of
    ``compared_seats``); ``remaining``: only the players still in the visit were
    compared, some having withdrawn (or every count recorded, under ``majority_scope =
    "all"``); ``tie_broken``: a player who has withdrawn had as many (only for a win);
    ``tile`` the court's province tile (only for the elephants).

    A win names the reward's clause, and RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL when
    ``tie_broken``. A loss is a tie (TM.WITHDRAW.MAJORITY.STRICT and the tie ruling),
    fewer symbols (TM.WITHDRAW.MAJORITY.STRICT), or zero symbols
    (TM.WITHDRAW.MAJORITY.ZERO, and RUL.MAJORITY.ZERO_SYMBOLS when nobody was left to
    compare with). The outcome is :func:`tajmahal.engine._scoring.wins_majority`'s, as in
    :func:`~tajmahal.engine._withdraw.apply_withdraw`, which implements the two clauses.

    Implements: RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL, RUL.MAJORITY.ZERO_SYMBOLS,
    RUL.MAJORITY.REMAINING_PLAYERS
    """
    won = wins_majority(own, others)
    clauses = ["TM.WITHDRAW.COMPARE"]
    if remaining:
        clauses += ["TM.WITHDRAW.MAJORITY.REMAINING", "RUL.MAJORITY.REMAINING_PLAYERS"]
    best = max(others, default=0)
    if won:
        clauses += [
            "TM.WITHDRAW.MAJORITY.STRICT",
            "TM.REWARD.CROWN.TAKE"
            if symbol is _MOGUL
            else "TM.REWARD.ELEPHANT.PROVINCE"
            if symbol is _ELEPHANT
            else "TM.REWARD.INFLUENCE.TILE",
        ]
        if tie_broken:
            clauses.append("RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL")
    elif own == 0 and best == 0:
        clauses.append("TM.WITHDRAW.MAJORITY.ZERO")
        clauses.append("TM.WITHDRAW.MAJORITY.STRICT" if others else "RUL.MAJORITY.ZERO_SYMBOLS")
    elif best == own:
        clauses += ["TM.WITHDRAW.MAJORITY.STRICT", "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL"]
    else:
        clauses.append("TM.WITHDRAW.MAJORITY.STRICT")
    return Event(
        _WIN if won else _NO_MAJORITY,
        seat,
        symbol=symbol,
        tiles=(tile,) if symbol is _ELEPHANT and tile is not None else (),
        seats=compared_seats,
        counts=(own, *others),
        clauses=tuple(clauses),
    )
