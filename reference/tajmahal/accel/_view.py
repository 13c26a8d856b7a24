"""The fast view: each seat's public part made once, not once per viewer and per state.

:func:`view` is :func:`tajmahal.model.view` with the player views of a seat (its hand
hidden, and shown) remembered by the seat's identity. Consecutive states of a game share
most of their seats (a step leaves the seats it does not touch the very same objects),
and every seat's view of a state shows each other seat alike, so a view is then made of
player views already made. A seat holding known display picks is made anew: picks are
followed only by observers that ask for them.
"""

from __future__ import annotations

from collections.abc import Mapping

from tajmahal.accel._path import FastPath
from tajmahal.model import (
    CardId,
    GameState,
    Picks,
    PlayerState,
    PlayerView,
    View,
    checked_picks,
    player_view,
    view_showing,
)
from tajmahal.model import view as core_view

_KEPT = 4096
"""Seats remembered before the memo starts afresh (a few hundred states' worth)."""

_SEATS: dict[int, tuple[PlayerState, Mapping[CardId, object], PlayerView, PlayerView]] = {}
"""By the seat's ``id``: the seat itself (kept alive, so that its ``id`` is not reused
while remembered), the special cards it was read with, its player view with the hand
hidden, and with the hand shown."""


def _player_views(
    seat: PlayerState, specials: Mapping[CardId, object]
) -> tuple[PlayerView, PlayerView]:
    """The seat's player view without its hand, and with it (no known picks)."""
    entry = _SEATS.get(id(seat))
    if entry is not None and entry[0] is seat and entry[1] is specials:
        return entry[2], entry[3]
    hidden = player_view(seat, False, (), specials)
    shown = player_view(seat, True, (), specials)
    if len(_SEATS) >= _KEPT:
        _SEATS.clear()
    _SEATS[id(seat)] = (seat, specials, hidden, shown)
    return hidden, shown


def view(state: GameState, player: int, picks: Picks | None = None) -> View:
    """:func:`tajmahal.model.view`, of player views already made where it can."""
    known = checked_picks(state, player, picks)
    specials = state.config.components.specials
    players: list[PlayerView] = []
    for index, seat in enumerate(state.players):
        if any(card in seat.hand for card in known[index]):
            players.append(player_view(seat, index == player, known[index], specials))
        else:
            players.append(_player_views(seat, specials)[index == player])
    return view_showing(state, player, tuple(players))


VIEW = FastPath(
    core=core_view,
    fast=view,
    buys=(
        "with the fast hidden_cards_shown, the views-hide-secrets invariant of the fuzz "
        "campaign's deep games: see docs/performance.md"
    ),
)

FAST_PATHS = (VIEW,)

# Every name here is documented under tajmahal.accel, which users import it from.
__all__: list[str] = []
