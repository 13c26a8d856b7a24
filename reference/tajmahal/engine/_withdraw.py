"""Withdrawing from a visit and its end: the majorities, the discard, the display picks
(the rulebooks' "Ritirarsi dalla visita", "Ritirarsi", "B. Retirar", "Terminare una
ritirata", "Finalización de un retiro", "Calcul des Points d'influence").

A withdrawing player compares the symbols they played with the other players' and wins
every court reward (influence tile, the crown for Grand Moguls, the province tile for
elephants) of which they have strictly more than each; the rewards are placed and scored
by :mod:`~tajmahal.engine` and :mod:`~tajmahal.engine`, then the played
cards are discarded and the player takes two cards from the display.

Notes on this implementation:

- Compared are the players still in the visit; with ``majority_scope = "all"`` the
  counts the withdrawn players had are compared too (RUL.MAJORITY.REMAINING_PLAYERS).
- A tie wins nothing now, and is broken when one of the tied players withdraws
  (RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL); zero symbols never win, even when nobody is
  left to compare with (RUL.MAJORITY.ZERO_SYMBOLS).
- Withdrawing without having played wins nothing and, by default, draws an extra card
  (RUL.WITHDRAW.FIRST_ROUND, RUL.WITHDRAW.WITHOUT_PLAYING, option
  ``withdraw_without_playing``).
- Each withdrawing player takes two display cards, the last one what remains, with no
  choice (RUL.WITHDRAW.DISPLAY_PICKS, RUL.DISPLAY.SHORT).
"""

from __future__ import annotations

import itertools

from tajmahal.engine._majority import majority_events
from tajmahal.engine._reward import take_from_court
from tajmahal.engine._scoring import symbol_counts, wins_majority
from tajmahal.engine._visit import end_visit
from tajmahal.engine._work import Work, cards_into_hand, next_in_visit, sorted_with, without
from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    ALL_SYMBOLS,
    INFLUENCE_SYMBOLS,
    CardId,
    Event,
    EventKind,
    GameState,
    MajorityScope,
    PendingDraw,
    Step,
    Symbol,
    Take,
    Withdraw,
    Withdrawal,
    WithdrawWithoutPlaying,
)


def withdraw(work: Work, action: Withdraw) -> None:
    """Withdraw the player to move and award every court reward they win by majority.

    The player's symbol counts are compared, symbol by symbol in canonical order, with
    those of :func:`compared_counts`. Won influence tiles each owe a palace; the Grand
    Moguls win the crown; the elephants win the province tile, scored after the palaces.

    Implements: TM.COMP.CARDS.SYMBOL_MEANING, TM.WITHDRAW.FINAL, TM.WITHDRAW.COMPARE,
    TM.WITHDRAW.MAJORITY.STRICT, TM.WITHDRAW.MAJORITY.ZERO, TM.WITHDRAW.ONCE_PER_VISIT,
    TM.WITHDRAW.ANY_COMBINATION, TM.WITHDRAW.WITHOUT_PLAYING.NOTHING,
    TM.TURN.WITHDRAWN_SKIPPED, RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL
    """
    seat = work.to_move
    assert seat is not None
    player = work.edit(seat)
    counts = symbol_counts(work.components, player.played)
    compared = compared_counts(work, seat)
    player.withdrawn = True
    player.withdrawn_counts = counts
    work.record(withdraw_event, seat, counts, tuple(compared), bool(player.played))
    outcomes = [
        (symbol, wins_majority(counts[index], [other[index] for other in compared.values()]))
        for index, symbol in enumerate(ALL_SYMBOLS)
        if in_court(work, symbol)
    ]
    work.record_each(majority_events, work, seat, counts, compared, outcomes)
    won = [symbol for symbol, wins in outcomes if wins]
    work.withdrawal = Withdrawal(
        seat,
        palaces_owed=sum(symbol in INFLUENCE_SYMBOLS for symbol in won),
        crown_owed=Symbol.MOGUL in won,
        province_won=work.court_province_tile if Symbol.ELEPHANT in won else None,
        played_nothing=not player.played,
    )
    for symbol in won:
        take_from_court(work, seat, symbol)


def compared_counts(work: Work, seat: int) -> dict[int, tuple[int, ...]]:
    """The symbol counts a withdrawing ``seat`` is compared with, by seat: those of the
    players still in the visit, and under ``majority_scope = "all"`` the counts recorded
    when the others withdrew.

    Implements: TM.WITHDRAW.MAJORITY.REMAINING, RUL.MAJORITY.REMAINING_PLAYERS
    """
    every = work.rules.majority_scope is MajorityScope.ALL
    compared = {}
    for other, player in enumerate(work.players):
        if other == seat:
            continue
        if not player.withdrawn:
            compared[other] = symbol_counts(work.components, player.played)
        elif every and player.withdrawn_counts is not None:
            compared[other] = player.withdrawn_counts
    return compared


def in_court(work: Work, symbol: Symbol) -> bool:
    """True while the court holds the reward of ``symbol``'s majority: the influence tile
    of that symbol, the crown, or the province tile."""
    if symbol in INFLUENCE_SYMBOLS:
        return symbol in work.court_influence
    if symbol is Symbol.MOGUL:
        return work.crown_in_court
    return work.court_province_tile is not None


def withdraw_event(
    seat: int, counts: tuple[int, ...], compared: tuple[int, ...], played: bool
) -> Event:
    """The ``withdraw`` event: the player's symbols and whom they are compared with."""
    return Event(
        EventKind.WITHDRAW,
        seat,
        counts=counts,
        seats=compared,
        clauses=("TM.WITHDRAW.FINAL", "TM.WITHDRAW.ONCE_PER_VISIT")
        if played
        else ("TM.WITHDRAW.FINAL", "TM.WITHDRAW.WITHOUT_PLAYING.NOTHING"),
    )


def discard_played(work: Work) -> None:
    """After scoring: discard the withdrawing player's played cards, specials back to hand.

    Discarded cards count for nobody any more. A player who withdrew without having
    played is owed an extra card under the default rule set.

    Implements: TM.WITHDRAW.DISCARD, TM.WITHDRAW.DISCARDED_NO_INFLUENCE,
    TM.WITHDRAW.WITHOUT_PLAYING, TM.SPECIAL.RETURN_TO_HAND, RUL.WITHDRAW.WITHOUT_PLAYING
    """
    withdrawal = work.withdrawal
    assert withdrawal is not None
    seat = withdrawal.seat
    player = work.edit(seat)
    specials = tuple(card for card in player.played if work.components.is_special(card))
    discarded = tuple(card for card in player.played if not work.components.is_special(card))
    work.discard = sorted_with(work.discard, discarded)
    player.played = ()
    player.hand = sorted_with(player.hand, specials)
    if discarded:
        work.record(discard_event, seat, discarded)
    if specials:
        work.record(take_event, seat, specials, ("TM.SPECIAL.RETURN_TO_HAND",))
    work.withdrawal = withdrawal.after_scoring()
    if (
        withdrawal.played_nothing
        and work.rules.withdraw_without_playing is WithdrawWithoutPlaying.EXTRA_CARD
    ):
        work.draw = PendingDraw(seat, 1, "extra-card")


def discard_event(seat: int, cards: tuple[CardId, ...]) -> Event:
    """The ``discard`` event: a withdrawing player's played cards, special cards aside."""
    return Event(
        EventKind.DISCARD,
        seat,
        cards=cards,
        clauses=("TM.WITHDRAW.DISCARD", "TM.WITHDRAW.DISCARDED_NO_INFLUENCE"),
    )


def take_actions(state: GameState) -> list[Take]:
    """The display picks: every two display cards, or all of a display of one or two.

    Implements: TM.WITHDRAW.PICK_TWO, RUL.DISPLAY.SHORT
    """
    display = state.display
    if len(display) <= 2:
        return [Take(display)] if display else []
    return [Take(pair) for pair in itertools.combinations(display, 2)]


def take(work: Work, action: Take) -> None:
    """The withdrawing player's display pick; the turn passes to the next player still in
    the visit (there is one: the last player takes without a decision).

    Implements: TM.WITHDRAW.PICK_TWO, RUL.WITHDRAW.DISPLAY_PICKS, TM.TURN.CLOCKWISE
    """
    withdrawal = work.withdrawal
    assert withdrawal is not None
    clauses = check_take(work.display, action, withdrawal.seat)
    take_from_display(work, withdrawal.seat, action.cards, clauses)
    finish_withdrawal(work, withdrawal.seat)


def check_take(display: tuple[CardId, ...], action: Take, seat: int) -> tuple[str, ...]:
    """Refuse a take that is not two different display cards (all, if fewer remain);
    return the clauses that decide a legal one.

    Implements: TM.WITHDRAW.PICK_TWO, RUL.DISPLAY.SHORT
    """
    expected = min(2, len(display))
    for card in action.cards:
        if card not in display:
            raise IllegalActionError(
                f"{card} is not in the display ({', '.join(sorted(display))})",
                clause="TM.WITHDRAW.PICK_TWO",
            )
    if len(action.cards) != expected or len(set(action.cards)) != len(action.cards):
        raise IllegalActionError(
            f"P{seat} takes {'1 card' if expected == 1 else f'{expected} different cards'} "
            f"from the display, not {len(action.cards)}",
            clause="TM.WITHDRAW.PICK_TWO",
        )
    if expected == 2:
        return ("TM.WITHDRAW.PICK_TWO",)
    return ("TM.WITHDRAW.PICK_TWO", "TM.VISIT.DISPLAY_SHORT", "RUL.DISPLAY.SHORT")


def last_player_takes(work: Work, seat: int) -> None:
    """The last player to withdraw takes what is left of the display (no choice).

    Implements: TM.WITHDRAW.LAST_TAKES_ONE, TM.VISIT.DISPLAY_SHORT, RUL.DISPLAY.SHORT,
    RUL.WITHDRAW.DISPLAY_PICKS
    """
    if work.display:
        take_from_display(
            work,
            seat,
            work.display,
            ("TM.WITHDRAW.LAST_TAKES_ONE", "RUL.WITHDRAW.DISPLAY_PICKS"),
        )


def take_from_display(
    work: Work, seat: int, cards: tuple[CardId, ...], clauses: tuple[str, ...]
) -> None:
    """Move display cards into ``seat``'s hand (``clauses`` decided the take)."""
    work.display = without(work.display, cards)
    cards_into_hand(work, seat, cards)
    work.record(take_event, seat, cards, clauses)


def take_event(seat: int, cards: tuple[CardId, ...], clauses: tuple[str, ...]) -> Event:
    """The ``take`` event: cards into ``seat``'s hand (display picks, specials back)."""
    return Event(EventKind.TAKE, seat, cards=cards, clauses=clauses)


def finish_withdrawal(work: Work, seat: int) -> None:
    """Pass the turn to the next player still in the visit, or end the visit."""
    work.withdrawal = None
    following = next_in_visit(work.players, seat)
    if following is None:
        end_visit(work)
    else:
        work.step = Step.PLAY
        work.to_move = following
