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
from tajmahal.model import Event, EventKind, PointSource, Step


def end_game(work: Work) -> None:
    """Score every hand and end the game; the winners are the top scores.

    Implements: TM.END.HAND.INCLUDES_LAST_PICKS, TM.END.WINNER, TM.END.TIE,
    RUL.END.TIED_WINNERS
    """
    components = work.components
    for seat, player in enumerate(work.players):
        points = hand_points(components, player.hand)
        player.score += points
        if work.recording:
            specials, whites, largest = hand_breakdown(components, player.hand)
            clauses = ["TM.END.HAND.INCLUDES_LAST_PICKS"]
            if specials:
                clauses.append("TM.END.HAND.SPECIAL")
            if whites:
                clauses.append("TM.END.HAND.WHITE")
            if largest:
                clauses += ["TM.END.HAND.LARGEST_COLOUR", "RUL.END.LARGEST_COLOUR"]
            work.record(
                Event(
                    EventKind.HAND,
                    seat,
                    points,
                    PointSource.HAND,
                    cards=tuple(player.hand),
                    counts=(specials, whites, largest),
                    clauses=tuple(clauses),
                )
            )
    work.step = Step.OVER
    work.to_move = None
    if work.recording:
        scores = tuple(player.score for player in work.players)
        best = max(scores)
        winners = tuple(seat for seat, score in enumerate(scores) if score == best)
        work.record(
            Event(
                EventKind.END,
                seats=winners,
                counts=scores,
                clauses=("TM.END.WINNER", "TM.END.TIE", "RUL.END.TIED_WINNERS")
                if len(winners) > 1
                else ("TM.END.WINNER",),
            )
        )
