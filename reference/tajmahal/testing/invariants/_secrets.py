"""The state invariant that views hide secrets."""

from __future__ import annotations

from collections.abc import Iterable

from tajmahal.accel import view
from tajmahal.model import GameState
from tajmahal.testing.invariants._fast_paths import HIDDEN_CARDS_SHOWN

hidden_cards_shown = HIDDEN_CARDS_SHOWN.chosen()
"""The search for hidden cards in a view (``_hidden.hidden_cards_shown``, or its drop-in
in the accelerated layer)."""


def views_hide_secrets(state: GameState) -> Iterable[str]:
    """A player's view shows no card of the deck (hence no deck order) and, of another
    player's hand, only the special cards (public: they change hands openly); it shows
    the viewer's own hand.

    Every string anywhere inside each seat's view is compared with the cards hidden from
    that seat. The view checked is the one the accelerated layer chooses
    (:func:`tajmahal.accel.view`, pinned to :func:`tajmahal.model.view`)."""
    for seat in range(state.config.players):
        seen = view(state, seat)
        leaked = hidden_cards_shown(state, seat, seen)
        if leaked:
            yield f"P{seat}'s view shows hidden cards {leaked[:5]}"
        if seen.players[seat].hand != state.players[seat].hand:
            yield f"P{seat}'s view does not show its own hand"
