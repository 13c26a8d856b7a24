"""Observation: what one player may see of a state.

Kept apart from the state itself (as OpenSpiel keeps observations apart): a view shows
everything public (the board, the court, played cards, the display, the discard pile,
scores, tiles won, how many cards each hand and the deck hold) and the viewer's own
hand, never another hand nor the order of the deck.
"""

from __future__ import annotations

import attrs

from tajmahal.board import CityId, ProvinceId
from tajmahal.components import BonusTileId, CardId, ProvinceTileId
from tajmahal.state import GameState, Palace, Step
from tajmahal.symbols import CardColour, Symbol


@attrs.frozen
class PlayerView:
    """The public part of one player's holdings (plus the hand, for the viewer only)."""

    hand: tuple[CardId, ...] | None
    """The viewer's own hand; None for every other player."""
    hand_size: int
    """How many cards the player holds."""
    played: tuple[CardId, ...]
    """Cards played this visit (public)."""
    colour: CardColour | None
    """The colour the player follows this visit, once set."""
    withdrawn: bool
    """True once the player has withdrawn from this visit."""
    influence: tuple[Symbol, ...]
    """Influence tiles held (public)."""
    province_tiles: tuple[ProvinceTileId, ...]
    """Province tiles won (public)."""
    goods_tiles: tuple[BonusTileId, ...]
    """Goods bonus tiles kept (public)."""
    score: int
    """Score (public)."""


@attrs.frozen
class View:
    """What ``viewer`` may know about a state."""

    viewer: int
    """The seat this view is for."""
    visit: int
    """The current visit."""
    province: ProvinceId
    """The province being visited."""
    step: Step
    """What the game waits for."""
    to_move: int | None
    """Who acts next (None at a chance step or at the end)."""
    start_player: int
    """Who started this visit."""
    players: tuple[PlayerView, ...]
    """Every seat's public holdings, the viewer's hand included."""
    deck_size: int
    """Cards left in the deck (their order is hidden)."""
    discard: tuple[CardId, ...]
    """The face-up discard pile."""
    display: tuple[CardId, ...]
    """The face-up display."""
    specials_on_table: tuple[CardId, ...]
    """Special cards nobody holds yet."""
    court_influence: tuple[Symbol, ...]
    """Influence tiles still in the court."""
    crown_in_court: bool
    """Whether the crown can still be won this visit."""
    court_province_tile: ProvinceTileId | None
    """The current province tile, while it can be won."""
    province_order: tuple[ProvinceId, ...]
    """Visit order of the provinces (face-up tiles)."""
    bonus_on_board: tuple[tuple[CityId, BonusTileId], ...]
    """Bonus tiles still on fortresses (face up)."""
    palaces: tuple[Palace, ...]
    """Every palace on the board."""


def view(state: GameState, player: int) -> View:
    """The view of ``state`` for seat ``player``: other hands and the deck order removed.

    Implements: TM.PLAY.HANDS_SECRET, TM.SETUP.HANDS
    """
    if not 0 <= player < state.players_count:
        raise ValueError(f"no seat {player} in a {state.players_count}-player game")
    return View(
        viewer=player,
        visit=state.visit,
        province=state.current_province,
        step=state.step,
        to_move=state.to_move,
        start_player=state.start_player,
        players=tuple(
            PlayerView(
                hand=seat_state.hand if seat == player else None,
                hand_size=len(seat_state.hand),
                played=seat_state.played,
                colour=seat_state.colour,
                withdrawn=seat_state.withdrawn,
                influence=seat_state.influence,
                province_tiles=seat_state.province_tiles,
                goods_tiles=seat_state.goods_tiles,
                score=seat_state.score,
            )
            for seat, seat_state in enumerate(state.players)
        ),
        deck_size=len(state.deck),
        discard=state.discard,
        display=state.display,
        specials_on_table=state.specials_on_table,
        court_influence=state.court_influence,
        crown_in_court=state.crown_in_court,
        court_province_tile=state.court_province_tile,
        province_order=state.province_order,
        bonus_on_board=state.bonus_on_board,
        palaces=state.palaces,
    )
