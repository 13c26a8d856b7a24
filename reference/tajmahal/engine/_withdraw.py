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

from bisect import insort
from collections.abc import Callable, Mapping, Sequence

from tajmahal.engine._majority import remembered_majority_event
from tajmahal.engine._reward import take_from_court
from tajmahal.engine._scoring import symbol_counts, wins_majority
from tajmahal.engine._visit import end_visit
from tajmahal.engine._work import (
    ChoiceT,
    PerComponents,
    Work,
    next_active,
    next_in_visit,
    turn_passed,
    with_hand,
)
from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    CardId,
    Components,
    Event,
    EventKind,
    GameState,
    MajorityScope,
    PendingDraw,
    Step,
    Symbol,
    Take,
    Withdrawal,
    WithdrawWithoutPlaying,
)


def apply_withdraw(work: Work) -> None:
    """Withdraw the player to move and award every court reward they win by majority.

    The player's symbol counts are compared, symbol by symbol in canonical order, with
    the players still in the visit (and, under ``majority_scope = "all"``, the recorded
    counts of those who withdrew). Won influence tiles each owe a palace; the Grand
    Moguls win the crown; the elephants win the province tile, scored after the palaces.

    Implements: TM.COMP.CARDS.SYMBOL_MEANING, TM.WITHDRAW.FINAL, TM.WITHDRAW.COMPARE,
    TM.WITHDRAW.MAJORITY.STRICT, TM.WITHDRAW.MAJORITY.ZERO,
    TM.WITHDRAW.MAJORITY.REMAINING, TM.WITHDRAW.ONCE_PER_VISIT, TM.WITHDRAW.ANY_COMBINATION,
    TM.WITHDRAW.WITHOUT_PLAYING.NOTHING, TM.TURN.WITHDRAWN_SKIPPED,
    RUL.MAJORITY.REMAINING_PLAYERS, RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL
    """
    seat = work.to_move
    assert seat is not None
    components = work.components
    player = work.player(seat)
    counts = symbol_counts(components, player.played)
    compared: list[tuple[int, ...]] = []
    compared_seats: list[int] = []
    every = work.rules.majority_scope is _ALL
    for other_seat in range(work.count):
        if other_seat == seat:
            continue
        other = work.peek(other_seat)
        if not other.withdrawn:
            compared.append(symbol_counts(components, other.played))
            compared_seats.append(other_seat)
        elif every and other.withdrawn_counts is not None:
            compared.append(other.withdrawn_counts)
            compared_seats.append(other_seat)
    player.withdrawn = True
    player.withdrawn_counts = counts
    seats = tuple(compared_seats)
    if work.recording:
        work.record(
            Event(
                EventKind.WITHDRAW,
                seat,
                counts=counts,
                seats=seats,
                clauses=("TM.WITHDRAW.FINAL", "TM.WITHDRAW.ONCE_PER_VISIT")
                if player.played
                else ("TM.WITHDRAW.FINAL", "TM.WITHDRAW.WITHOUT_PLAYING.NOTHING"),
            )
        )
    palaces_owed = 0
    crown_owed = False
    province_won = None
    # The compared players' counts symbol by symbol (an empty column for each when
    # nobody is compared).
    columns = list(zip(*compared, strict=True)) if compared else [()] * len(counts)
    court = work.read("court_influence")  # each symbol is looked up once, before its take
    withdrawn = (
        [
            other
            for other in range(work.count)
            if other != seat and other not in compared_seats and work.peek(other).withdrawn
        ]
        if work.recording
        else []
    )
    crown = work.crown_in_court
    province_tile = work.court_province_tile is not None
    for index, symbol in _SYMBOLS:
        if symbol is _MOGUL:
            available = crown
        elif symbol is _ELEPHANT:
            available = province_tile
        else:
            available = symbol in court
        if not available:
            continue
        won = wins_majority(counts[index], columns[index])
        if work.recording:
            work.record(
                remembered_majority_event(
                    work,
                    seat,
                    index,
                    symbol,
                    counts,
                    seats,
                    columns[index],
                    withdrawn,
                    won,
                )
            )
        if not won:
            continue
        tile = take_from_court(work, seat, symbol)
        if symbol is _MOGUL:
            crown_owed = True
        elif symbol is _ELEPHANT:
            province_won = tile
        else:
            palaces_owed += 1
    work.withdrawal = Withdrawal(
        seat, palaces_owed, crown_owed, (), province_won, not player.played
    )


_SYMBOLS: tuple[tuple[int, Symbol], ...] = tuple(enumerate(Symbol))
"""Every symbol with its position in canonical order (as in ``SYMBOL_INDEX``)."""

_MOGUL, _ELEPHANT, _ALL, _PLAY = Symbol.MOGUL, Symbol.ELEPHANT, MajorityScope.ALL, Step.PLAY
_TAKE = EventKind.TAKE
"""Enum members as module names: reading a member from its enum class goes through the
enum's metaclass, several times slower than reading a global, and this is the hot path."""


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
    player = work.player(seat)
    components = work.components
    special_cards = components.specials
    specials = [card for card in player.played if card in special_cards]
    discarded = [card for card in player.played if card not in special_cards]
    work.discard.extend(discarded)
    for card in specials:
        insort(player.hand, card)
    player.played = []
    if work.recording:
        if discarded:
            work.record(
                Event(
                    EventKind.DISCARD,
                    seat,
                    cards=tuple(discarded),
                    clauses=("TM.WITHDRAW.DISCARD", "TM.WITHDRAW.DISCARDED_NO_INFLUENCE"),
                )
            )
        if specials:
            work.record(take_event(seat, tuple(specials), ("TM.SPECIAL.RETURN_TO_HAND",)))
    work.withdrawal = withdrawal.done_scoring()
    if (
        withdrawal.played_nothing
        and work.rules.withdraw_without_playing is WithdrawWithoutPlaying.EXTRA_CARD
    ):
        work.draw = PendingDraw(seat, 1, "extra-card")


def take_actions(
    state: GameState,
    pairs: Mapping[CardId, Mapping[CardId, ChoiceT]],
    short: Callable[[tuple[CardId, ...]], ChoiceT],
) -> list[ChoiceT]:
    """The display picks: every pair of display cards, or all of a display of one or two,
    each as the tables hold it: ``pairs`` (:data:`take_table`, or an action space's copy
    holding ids) for two of a longer display, ``short`` for a display of one or two
    (:class:`~tajmahal.model.Take` itself, or what gives its id).

    Implements: TM.WITHDRAW.PICK_TWO, RUL.DISPLAY.SHORT
    """
    display = state.display
    if len(display) <= 2:
        return [short(display)] if display else []
    # Every pair in display order, as itertools.combinations(display, 2) lists them.
    actions: list[ChoiceT] = []
    for index, first in enumerate(display):
        actions.extend(map(pairs[first].__getitem__, display[index + 1 :]))
    return actions


def build_take_table(components: Components) -> Mapping[CardId, Mapping[CardId, Take]]:
    """``take a b`` for every two cards ``a < b`` of a component set, by ``a`` then ``b``
    (a display is sorted, so its pairs are all here): listing the picks then looks
    actions up instead of building them.

    The pairs come sorted, so each ``Take`` gets its one field set directly instead of
    through its initialiser, which would compare every pair with its sorted copy (the
    table, built once per component set, then takes about a third of the time); the
    actions are equal to ``Take((a, b))``."""
    cards = sorted(components.card_colours)
    table: dict[CardId, dict[CardId, Take]] = {}
    for index, first in enumerate(cards):
        row: dict[CardId, Take] = {}
        table[first] = row
        for second in cards[index + 1 :]:
            take = _new(Take)
            _set_cards(take, (first, second))
            row[second] = take
    return table


_new = object.__new__
_set_cards = Take.__dict__["cards"].__set__
"""Making a ``Take`` and setting its one slot (what its initialiser does, less the sort)."""


take_table = PerComponents(build_take_table)
"""The take table of a component set, built on first use."""


def check_take(display: Sequence[CardId], action: Take, seat: int) -> tuple[str, ...]:
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
            f"player {seat} takes {expected} different card(s) from the "
            f"display, not {len(action.cards)}",
            clause="TM.WITHDRAW.PICK_TWO",
        )
    if expected == 2:
        return ("TM.WITHDRAW.PICK_TWO",)
    return ("TM.WITHDRAW.PICK_TWO", "TM.VISIT.DISPLAY_SHORT", "RUL.DISPLAY.SHORT")


def take_state(
    state: GameState, action: Take, *, recording: bool = False
) -> tuple[GameState, tuple[Event, ...]]:
    """The state after ``action`` at a ``take`` step from frozen values, and its event
    when ``recording``: a take step always has another player in the visit (the last
    one takes without a decision), so the pick passes the turn.

    Implements: TM.WITHDRAW.PICK_TWO, RUL.WITHDRAW.DISPLAY_PICKS, TM.TURN.CLOCKWISE
    """
    withdrawal = state.withdrawal
    assert withdrawal is not None
    seat = withdrawal.seat
    display = list(state.display)
    clauses = check_take(display, action, seat)
    players = list(state.players)
    following = next_in_visit(players, seat)
    assert following is not None
    player = players[seat]
    hand = list(player.hand)
    for card in action.cards:
        display.remove(card)
        insort(hand, card)
    players[seat] = with_hand(player, tuple(hand))
    after = turn_passed(state, following, tuple(players), tuple(display))
    return after, (take_event(seat, action.cards, clauses),) if recording else ()


def take_into_hand(
    work: Work, seat: int, cards: tuple[CardId, ...], clauses: tuple[str, ...]
) -> None:
    """Move display cards into ``seat``'s hand (``clauses`` decided the take)."""
    hand = work.player(seat).hand
    display = work.display
    for card in cards:
        display.remove(card)
        insort(hand, card)
    if work.recording:
        work.record(take_event(seat, tuple(cards), clauses))


def take_event(seat: int, cards: tuple[CardId, ...], clauses: tuple[str, ...]) -> Event:
    """The ``take`` event: cards into ``seat``'s hand (display picks, specials back)."""
    return Event(_TAKE, seat, cards=cards, clauses=clauses)


def last_player_takes(work: Work, seat: int) -> None:
    """The last player to withdraw takes what is left of the display (no choice).

    Implements: TM.WITHDRAW.LAST_TAKES_ONE, TM.VISIT.DISPLAY_SHORT, RUL.DISPLAY.SHORT,
    RUL.WITHDRAW.DISPLAY_PICKS
    """
    if work.read("display"):
        take_into_hand(
            work,
            seat,
            tuple(sorted(work.read("display"))),
            ("TM.WITHDRAW.LAST_TAKES_ONE", "RUL.WITHDRAW.DISPLAY_PICKS"),
        )


def finish_withdrawal(work: Work, seat: int) -> None:
    """Pass the turn to the next player still in the visit, or end the visit."""
    work.withdrawal = None
    following = next_active(work, seat)
    if following is None:
        end_visit(work)
    else:
        work.step = _PLAY
        work.to_move = following
