"""Observation: what one player may see of a state.

Kept apart from the state itself (as OpenSpiel keeps observations apart). What is public
is settled by RUL.PLAY.PUBLIC_INFORMATION: a view shows everything on the table (the
board, the court, played cards, the display, the whole face-up discard pile, scores,
tiles won), how many cards each hand and the deck hold, which special cards each player
holds, and which display cards each player took and still holds; and the viewer's own
hand. Never the rest of another hand, nor the order of the deck.

A state does not remember who took which display card, so the known picks are carried
beside it: :func:`track_picks` updates them from one state to the next and
:func:`picks_along` folds a whole sequence of states.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs

from tajmahal.model._board import CityId, ProvinceId
from tajmahal.model._parts import BonusTileId, CardId, ProvinceTileId
from tajmahal.model._state import GameState, Palace, PlayerState, Step
from tajmahal.model._symbols import CardColour, Symbol


@attrs.frozen
class PlayerView:
    """The public part of one player's holdings (plus the hand, for the viewer only)."""

    hand: tuple[CardId, ...] | None
    """The viewer's own hand; None for every other player."""
    hand_size: int
    """How many cards the player holds."""
    specials: tuple[CardId, ...]
    """The special cards in the player's hand (public: they change hands openly)."""
    known: tuple[CardId, ...]
    """Cards the player took face up from the display and still holds (public until
    played); empty unless the view was given the picks (see :func:`track_picks`)."""
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


Picks = tuple[tuple[CardId, ...], ...]
"""Per seat, the display cards that seat took and still holds, sorted."""


def no_picks(state: GameState) -> Picks:
    """No known picks: the start of a game (one empty tuple per seat)."""
    return tuple(() for _ in state.players)


def track_picks(before: GameState, after: GameState, picks: Picks | None = None) -> Picks:
    """The known picks after the step from ``before`` to ``after``.

    A card counts as a known pick of a seat when it left the display and entered that
    seat's hand in this step (a take, or the last card given to the last player). It
    stays known while the seat holds it; once played it is on the table, and should it
    later come back to a hand through a face-down draw it is not known again.

    Implements: TM.PLAY.HANDS_SECRET, TM.SETUP.HANDS, TM.PLAY.PUBLIC_INFORMATION,
    RUL.PLAY.PUBLIC_INFORMATION
    """
    current = picks if picks is not None else no_picks(before)
    if len(current) != after.players_count:
        raise ValueError(f"picks for {len(current)} seats in a {after.players_count}-player game")
    left_display = set(before.display) - set(after.display)
    result: list[tuple[CardId, ...]] = []
    for seat, seat_after in enumerate(after.players):
        hand = set(seat_after.hand)
        taken = left_display & (hand - set(before.players[seat].hand))
        kept = {card for card in current[seat] if card in hand}
        result.append(tuple(sorted(kept | taken)))
    return tuple(result)


def picks_along(states: Iterable[GameState]) -> Picks:
    """The known picks at the last of ``states``, consecutive states of one game."""
    picks: Picks | None = None
    previous: GameState | None = None
    for state in states:
        picks = no_picks(state) if previous is None else track_picks(previous, state, picks)
        previous = state
    if picks is None:
        raise ValueError("no states")
    return picks


def player_view(
    seat_state: PlayerState,
    shown: bool,
    picks: tuple[CardId, ...],
    specials: Mapping[CardId, object],
) -> PlayerView:
    """The public part of one seat (its hand too when ``shown``), with the ``picks`` it
    still holds as known cards: what :func:`view` shows of each seat."""
    hand = seat_state.hand
    return PlayerView(
        hand=hand if shown else None,
        hand_size=len(hand),
        specials=tuple(card for card in hand if card in specials),
        known=tuple(card for card in picks if card in hand),
        played=seat_state.played,
        colour=seat_state.colour,
        withdrawn=seat_state.withdrawn,
        influence=seat_state.influence,
        province_tiles=seat_state.province_tiles,
        goods_tiles=seat_state.goods_tiles,
        score=seat_state.score,
    )


def view(state: GameState, player: int, picks: Picks | None = None) -> View:
    """The view of ``state`` for seat ``player``: other hands and the deck order removed,
    each seat's special cards and known display picks (``picks``, from
    :func:`track_picks`) shown.

    Implements: TM.PLAY.HANDS_SECRET, TM.SETUP.HANDS, TM.PLAY.PUBLIC_INFORMATION,
    RUL.PLAY.PUBLIC_INFORMATION
    """
    known = checked_picks(state, player, picks)
    specials = state.config.components.specials
    players = tuple(
        player_view(seat_state, seat == player, known[seat], specials)
        for seat, seat_state in enumerate(state.players)
    )
    return view_showing(state, player, players)


def checked_picks(state: GameState, player: int, picks: Picks | None) -> Picks:
    """The known picks the view of seat ``player`` shows (none when not given), after
    checking that the seat and the picks fit the state: a ``ValueError`` otherwise."""
    if not 0 <= player < state.players_count:
        raise ValueError(f"no seat {player} in a {state.players_count}-player game")
    known = picks if picks is not None else no_picks(state)
    if len(known) != state.players_count:
        raise ValueError(f"picks for {len(known)} seats in a {state.players_count}-player game")
    return known


def view_showing(state: GameState, viewer: int, players: tuple[PlayerView, ...]) -> View:
    """The view of ``state`` for seat ``viewer`` that shows ``players`` as the seats'
    public parts (as :func:`view` makes them); every other field is the state's own public
    part: the deck's size, not its order."""
    return View(
        viewer=viewer,
        visit=state.visit,
        province=state.current_province,
        step=state.step,
        to_move=state.to_move,
        start_player=state.start_player,
        players=players,
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
