"""The text picture of a position, for the terminal (``tajmahal show``, the human seat).

It shows the same facts as the SVG picture (:func:`tajmahal.notation.position_svg`):
what every player at the table can see, and with ``viewer`` that seat's own hand too.
"""

from __future__ import annotations

from collections.abc import Sequence

from tajmahal.model import CityId, GameState
from tajmahal.notation._labels import (
    bonus_label,
    cards_label,
    count_of,
    points,
    province_tile_label,
    seat_label,
    special_name,
    waiting_for,
)

BOARD_KEY = (
    "Board (visit number and province; # fortress, :P1 palace of P1, * crown palace, "
    "[..] bonus tile; > the current province):"
)
"""The heading of the board lines, which says how to read them."""


def _city_text(state: GameState, city: CityId, bonus: dict[CityId, str]) -> str:
    board = state.config.components.board
    owners = [
        f"P{palace.seat}{'*' if palace.crowned else ''}"
        for palace in state.palaces
        if palace.city == city
    ]
    text = city
    if board.cities[city].fortress:
        text += "#"
    if owners:
        text += ":" + "+".join(owners)
    if city in bonus:
        text += f"[{bonus_label(state.config.components, bonus[city])}]"
    return text


def _court(state: GameState) -> str:
    components = state.config.components
    court = [f"{symbol.value} tile" for symbol in state.court_influence]
    if state.crown_in_court:
        court.append("the crown")
    if state.court_province_tile is not None:
        court.append(province_tile_label(components, state.court_province_tile))
    return ", ".join(court) or "empty"


def position_text(
    state: GameState, names: Sequence[str] | None = None, viewer: int | None = None
) -> str:
    """The public position as lines of text; with ``viewer``, that seat's hand too.

    On the board lines a ``#`` marks a fortress, ``:P1`` a palace of seat 1 (``P1*`` its
    crown palace), ``[tea]`` the bonus tile still lying there; provinces are listed in
    the order they are visited (the number of the province tile that lies on each), the
    current one marked ``>``. Other hands show only their size and special cards.
    """
    components = state.config.components
    board = components.board
    bonus = dict(state.bonus_on_board)
    visit = min(state.visit, 12)
    lines = [
        f"Visit {visit} of 12, province {state.province_order[visit - 1]}; "
        f"start player P{state.start_player}; {waiting_for(state)}",
        f"Court: {_court(state)}",
        f"Display: {cards_label(components, state.display)}",
        f"Deck: {count_of(len(state.deck), 'card')}; discard pile: "
        f"{count_of(len(state.discard), 'card')}; special cards nobody holds: "
        + (", ".join(special_name(components, c) for c in state.specials_on_table) or "none"),
        "",
    ]
    for seat, player in enumerate(state.players):
        specials = [special_name(components, c) for c in player.hand if c in components.specials]
        status = ", withdrawn" if player.withdrawn else ""
        if state.to_move == seat and not state.is_over:
            status += ", their turn"
        lines.append(f"{seat_label(seat, names)}: {points(player.score)}{status}")
        lines.append(
            f"  hand: {count_of(len(player.hand), 'card')}; special cards: "
            f"{', '.join(specials) or '-'}"
        )
        if seat == viewer:
            lines.append(f"  your hand: {cards_label(components, player.hand)}")
        lines.append(f"  played: {cards_label(components, player.played)}")
        tiles = [
            f"influence tiles: {', '.join(s.value for s in player.influence) or '-'}",
            "province tiles: "
            + (
                ", ".join(
                    province_tile_label(components, t).removeprefix("province tile ")
                    for t in player.province_tiles
                )
                or "-"
            ),
            "bonus tiles kept: "
            + (", ".join(bonus_label(components, t) for t in player.goods_tiles) or "-"),
        ]
        lines.append("  " + "; ".join(tiles))
    lines.append("")
    lines.append(BOARD_KEY)
    for number, province in enumerate(state.province_order, start=1):
        mark = ">" if number == visit and not state.is_over else " "
        cities = "  ".join(
            _city_text(state, city, bonus) for city in board.provinces[province].cities
        )
        lines.append(f"{mark}{number:>3} {province}: {cities}")
    return "\n".join(lines) + "\n"
