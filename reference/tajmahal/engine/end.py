"""The end of the game (the rulebooks' "FINE DEL GIOCO", "Fine della partita", "Fin del
juego", "Fin de Partie").

After the twelfth visit every player scores the cards in hand (:func:`tajmahal.scoring.
hand_points`) and the highest score wins.

Notes on this implementation:

- The largest colour counts once on a tie and nothing without coloured cards
  (RUL.END.LARGEST_COLOUR); the display picks of the last visit are in hand by then.
- Tied top scores share the victory (RUL.END.TIED_WINNERS).
"""

from __future__ import annotations

from tajmahal.engine._work import Work
from tajmahal.scoring import hand_points
from tajmahal.state import Step


def end_game(work: Work) -> None:
    """Score every hand and end the game; the winners are the top scores.

    Implements: TM.END.HAND.INCLUDES_LAST_PICKS, TM.END.WINNER, TM.END.TIE,
    RUL.END.TIED_WINNERS
    """
    for seat, player in enumerate(work.players):
        points = hand_points(work.components, player.hand)
        work.note("hand", seat, f"scores {points} for the cards in hand", points)
    work.step = Step.OVER
    work.to_move = None
    best = max(player.score for player in work.players)
    winners = [seat for seat, player in enumerate(work.players) if player.score == best]
    work.note("end", None, f"game over; winner(s): {', '.join(map(str, winners))} with {best}")
