"""The end of the game (the rulebooks' "FINE DEL GIOCO", "Fine della partita", "Fin del
juego", "Fin de Partie").

After the twelfth visit every player scores the cards in hand (:func:`tajmahal.engine.
hand_points`) and the highest score wins.

Notes on this implementation:

- The largest colour counts once on a tie and nothing without coloured cards
  (RUL.END.LARGEST_COLOUR); the display picks of the last visit are in hand by then.
- Tied top scores share the victory (RUL.END.TIED_WINNERS).
"""

from __future__ import annotations

from tajmahal.engine._scoring import hand_breakdown, hand_points
from tajmahal.engine._work import Work
from tajmahal.model import CardId, Components, Event, EventKind, PointSource, Step


def end_game(work: Work) -> None:
    """Score every hand and end the game; the winners are the top scores.

    Implements: TM.END.HAND.INCLUDES_LAST_PICKS, TM.END.WINNER, TM.END.TIE,
    RUL.END.TIED_WINNERS
    """
    for seat in range(len(work.players)):
        player = work.edit(seat)
        points = hand_points(work.components, player.hand)
        player.score += points
        work.record(hand_event, work.components, seat, player.hand, points)
    work.step = Step.OVER
    work.to_move = None
    work.record(end_event, tuple(player.score for player in work.players))


def hand_event(components: Components, seat: int, hand: tuple[CardId, ...], points: int) -> Event:
    """The ``hand`` event: a hand's points and their three parts."""
    specials, whites, largest = hand_breakdown(components, hand)
    clauses = ["TM.END.HAND.INCLUDES_LAST_PICKS"]
    if specials:
        clauses.append("TM.END.HAND.SPECIAL")
    if whites:
        clauses.append("TM.END.HAND.WHITE")
    if largest:
        clauses += ["TM.END.HAND.LARGEST_COLOUR", "RUL.END.LARGEST_COLOUR"]
    return Event(
        EventKind.HAND,
        seat,
        points,
        PointSource.HAND,
        cards=hand,
        counts=(specials, whites, largest),
        clauses=tuple(clauses),
    )


def end_event(scores: tuple[int, ...]) -> Event:
    """The ``end`` event: the final scores and the winners, the top scores."""
    winners = tuple(seat for seat, score in enumerate(scores) if score == max(scores))
    return Event(
        EventKind.END,
        seats=winners,
        counts=scores,
        clauses=("TM.END.WINNER", "TM.END.TIE", "RUL.END.TIED_WINNERS")
        if len(winners) > 1
        else ("TM.END.WINNER",),
    )
