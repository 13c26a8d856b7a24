"""The SVG picture of a position, for pages and files (``tajmahal show --svg``).

It shows what every player at the table can see, as :func:`position_text` does in
words: the board (provinces with their names and the number of the province tile lying
on each, roads, cities, fortresses, palaces in their seat's colour, the crown palace,
the bonus tiles still on fortresses), the court (influence tiles, the crown, the
current province tile), the display, the deck and discard pile, and for each seat its
score, hand size, special cards, the cards it played in this visit and the tiles it
won; a legend says how to read it. Hands and the order of the deck stay hidden, as in
:func:`tajmahal.model.view`.

The picture is laid out from top to bottom (title, board, legend, table, seats) so
that it reads on a phone as on a desktop: it scales to the width of the window
(``max-width: 100%``) and every text is kept inside the drawing, whose size is computed
from the widths of its texts (:func:`text_width`).

:func:`board_svg` draws the bare board (``tools/draw_board.py`` and the documentation use
it); :func:`position_svg` draws the board with a position on it.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from tajmahal.model import (
    Board,
    CardColour,
    CardId,
    CityId,
    Components,
    GameState,
    Palace,
    ProvinceTileId,
    Symbol,
)
from tajmahal.notation._labels import (
    SPECIAL_LETTERS,
    SYMBOL_LETTERS,
    bonus_label,
    card_label,
    count_of,
    points,
    province_tile_label,
    seat_label,
    symbol_name,
    tile_of_province,
    waiting_for,
)


def escape(text: str) -> str:
    """``text`` as SVG character data: ``&``, ``<`` and ``>`` escaped (not quotes, which
    need escaping only inside attributes)."""
    return html.escape(text, quote=False)


SCALE = 50.0
"""Pixels per board unit."""
MARGIN = 30.0
"""Empty border around the drawing, in pixels."""
CITY_RADIUS = 7.0
"""Radius of a city's circle, in pixels."""
FORTRESS_HALF = 8.0
"""Half the side of a fortress's square, in pixels."""
MIN_WIDTH = 720.0
"""The narrowest position picture, in pixels (the table and seats need the room)."""
CHAR_WIDTHS: dict[str, float] = {
    character: width
    for width, characters in (
        (0.30, "'IJijl"),
        (0.35, " ,./:;\\|·"),
        (0.40, "()-[]ft"),
        (0.45, "!r"),
        (0.50, '"*_`–'),
        (0.55, "?csz"),
        (0.60, "FLkvxy"),
        (0.65, "$0123456789EPSTYabdeghnopqu{}"),
        (0.70, "ABCKRVXZ"),
        (0.75, "NU"),
        (0.80, "&DGHOQ"),
        (0.85, "#+<=>^w~"),
        (0.90, "M"),
        (1.00, "%@Wm—…"),
    )
    for character in characters
}
"""The width of each character in ems, rounded up from DejaVu Sans (one of the widest
sans-serif faces; Chromium's default on Linux): texts are measured with it so that none
reaches past the edge of the drawing whatever face the viewer has. Any other character
counts as 1 em."""
BOLD_WIDTH = 1.1
"""How much wider a bold text is (DejaVu Sans Bold's lower-case letters are about 10 %
wider)."""
PROVINCE_FILLS = ("#f3e3c3", "#dcebc8", "#cfe0ef", "#f1d3d3", "#e6dcf0", "#d8efe9")
"""Soft fills that tell neighbouring provinces apart."""
SEAT_COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b7950b", "#7d3c98")
"""The palace colour of seats 0 to 4."""
CARD_FILLS = {
    CardColour.RED: ("#c0392b", "#ffffff"),
    CardColour.YELLOW: ("#f4d03f", "#222222"),
    CardColour.GREEN: ("#27ae60", "#ffffff"),
    CardColour.VIOLET: ("#8e44ad", "#ffffff"),
    CardColour.WHITE: ("#ffffff", "#222222"),
}
"""A card's fill and the colour of its letters, by the card's colour."""
INFLUENCE_FILLS = {
    Symbol.VIZIER: "#229954",
    Symbol.GENERAL: "#7d3c98",
    Symbol.MONK: "#e67e22",
    Symbol.PRINCESS: "#f1c40f",
}
"""An influence tile's fill, by its symbol (the colours of the printed symbols)."""
GOLD = "#d4ac0d"
"""The crown's colour (the crown, the crown palace's outline, special cards' edges)."""
CURRENT = "#b03a2e"
"""The outline of the current province."""
INK = "#222222"
"""Text and outlines."""
QUIET = "#6b5f4a"
"""Secondary text: labels of groups, visit numbers."""


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """A generous estimate of the width of ``text`` at font size ``size``, in pixels."""
    ems = sum(CHAR_WIDTHS.get(character, 1.0) for character in text)
    return ems * size * (BOLD_WIDTH if bold else 1.0)


def _text(
    x: float,
    y: float,
    text: str,
    size: float,
    *,
    fill: str = INK,
    bold: bool = False,
    anchor: str = "start",
    css: str = "",
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    middle = f' text-anchor="{anchor}"' if anchor != "start" else ""
    kind = f' class="{css}"' if css else ""
    return (
        f'<text{kind} x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" fill="{fill}"{weight}'
        f"{middle}>{escape(text)}</text>"
    )


# -- the board ----------------------------------------------------------------------------


class _Frame:
    """Board units to pixels (SVG's y grows downwards; the board's grows northwards).

    ``right`` is the room kept right of the easternmost city for the texts drawn beside
    cities (their names, bonus tiles), so that none is cut at the edge.
    """

    def __init__(self, board: Board, left: float, top: float, right: float) -> None:
        xs = [city.x for city in board.cities.values()]
        ys = [city.y for city in board.cities.values()]
        self.board = board
        self.min_x, self.max_x, self.max_y = min(xs), max(xs), max(ys)
        self.left = left
        self.top = top
        self.width = (self.max_x - self.min_x) * SCALE + MARGIN + right
        self.height = (self.max_y - min(ys)) * SCALE + 2 * MARGIN

    def point(self, city_id: CityId) -> tuple[float, float]:
        city = self.board.cities[city_id]
        return (
            (city.x - self.min_x) * SCALE + MARGIN + self.left,
            (self.max_y - city.y) * SCALE + MARGIN + self.top,
        )


def _city_label(board: Board, city: CityId) -> str:
    return board.cities[city].name or city


def _right_room(board: Board, beside: Callable[[CityId], float]) -> float:
    """The room right of the easternmost city that every city's texts need: its name
    (from 10 px right of the city) and whatever ``beside`` says is drawn next to it."""
    east = max(city.x for city in board.cities.values())
    room = MARGIN
    for city in board.cities.values():
        offset = (city.x - east) * SCALE
        label = _city_label(board, city.id)
        needed = max(10 + text_width(label, 11, bold=city.id == board.agra), beside(city.id))
        room = max(room, offset + needed + MARGIN / 2)
    return room


def _ring_order(board: Board, cities: tuple[CityId, ...]) -> list[CityId]:
    """The province's cities in the order of its ring of roads, so it can be filled.

    Falls back to the stored order when the cities do not form a ring (a user's board
    may not), which still gives a recognisable if imperfect shape.
    """
    members = set(cities)
    order = [cities[0]]
    previous: CityId | None = None
    while len(order) < len(cities):
        current = order[-1]
        following = sorted(city for city in board.neighbours[current] & members if city != previous)
        unvisited = [city for city in following if city not in order]
        if not unvisited:
            return list(cities)
        previous = current
        order.append(unvisited[0])
    return order


def _province_centre(frame: _Frame, cities: Sequence[CityId]) -> tuple[float, float]:
    centre = [frame.point(city) for city in cities]
    return sum(x for x, _ in centre) / len(centre), sum(y for _, y in centre) / len(centre)


def _board_parts(
    frame: _Frame, current: str | None, under_names: Mapping[str, list[str]] | None = None
) -> list[str]:
    """Provinces (filled, the current one outlined), roads, the provinces' names (with
    ``under_names``' drawing below each), cities and fortresses with their names."""
    board = frame.board
    parts = []
    for index, province in enumerate(sorted(board.provinces.values(), key=lambda p: p.id)):
        corners = " ".join(
            f"{x:.1f},{y:.1f}" for x, y in map(frame.point, _ring_order(board, province.cities))
        )
        fill = PROVINCE_FILLS[index % len(PROVINCE_FILLS)]
        outlined = province.id == current
        stroke = f' stroke="{CURRENT}" stroke-width="4"' if outlined else ' stroke="none"'
        parts.append(f'<polygon points="{corners}" fill="{fill}"{stroke}/>')
    for road in sorted(tuple(sorted(road)) for road in board.roads):
        (x1, y1), (x2, y2) = frame.point(road[0]), frame.point(road[1])
        same = board.cities[road[0]].province == board.cities[road[1]].province
        colour, dash = ("#8a6d3b", "") if same else ("#555555", ' stroke-dasharray="6 4"')
        parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="{colour}" stroke-width="2"{dash}/>'
        )
    for province in sorted(board.provinces.values(), key=lambda p: p.id):
        cx, cy = _province_centre(frame, province.cities)
        parts.append(
            f'<text class="province" x="{cx:.1f}" y="{cy:.1f}" font-size="28" fill="#9b8f7a" '
            f'text-anchor="middle" dominant-baseline="central">{escape(province.id)}</text>'
        )
        parts.extend((under_names or {}).get(province.id, []))
    for city in sorted(board.cities.values(), key=lambda c: c.id):
        x, y = frame.point(city.id)
        is_agra = city.id == board.agra
        fill = "#c0392b" if is_agra else ("#34495e" if city.fortress else "#ffffff")
        if city.fortress:
            half = FORTRESS_HALF * (1.4 if is_agra else 1.0)
            parts.append(
                f'<rect x="{x - half:.1f}" y="{y - half:.1f}" width="{2 * half:.1f}" '
                f'height="{2 * half:.1f}" fill="{fill}" stroke="{INK}" stroke-width="1.5"/>'
            )
        else:
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CITY_RADIUS:.1f}" fill="{fill}" '
                f'stroke="{INK}" stroke-width="1.5"/>'
            )
        parts.append(_text(x + 10, y - 10, _city_label(board, city.id), 11, bold=is_agra))
    return parts


def _svg(width: float, height: float, title: str, parts: list[str]) -> str:
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" style="max-width:100%;height:auto" '
        'font-family="sans-serif">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{width:.1f}" height="{height:.1f}" fill="#fbf8f0"/>',
    ]
    return "\n".join([*head, *parts, "</svg>"]) + "\n"


def board_svg(
    board: Board, palaces: Mapping[CityId, Sequence[tuple[str, str]]] | None = None
) -> str:
    """The board as a standalone SVG document: provinces, roads, cities, fortresses.

    ``palaces`` optionally puts houses on it: for each city, (fill colour, label) pairs,
    e.g. the palaces of a rulebook figure whose players are named by colour.
    """
    frame = _Frame(board, 0.0, 0.0, _right_room(board, lambda city: 0.0))
    parts = _board_parts(frame, None)
    for city, houses in sorted((palaces or {}).items()):
        x, y = frame.point(city)
        for index, (colour, label) in enumerate(houses):
            parts.append(_house(x - 8 + 17 * index, y + 10, colour, INK, "1", label))
    return _svg(frame.width, frame.height, board.name, parts)


def _house(px: float, py: float, fill: str, outline: str, width: str, label: str) -> str:
    """A small house (a square with a roof) with its label as a tooltip."""
    return (
        f'<path class="palace" d="M{px - 7:.1f},{py + 12:.1f} v-8 l7,-7 l7,7 v8 z" '
        f'fill="{fill}" stroke="{outline}" stroke-width="{width}"><title>{escape(label)}'
        "</title></path>"
    )


def _palace(px: float, py: float, seat: int, crowned: bool, label: str, key: bool = False) -> str:
    """A palace of ``seat``; the crown palace has a gold outline and a gold ring.

    Classes ``palace seat-N`` (and ``crown-mark`` for the ring) mark the palaces on the
    board; a ``key`` (in the legend, before a seat's name) is marked ``key`` instead.
    """
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    outline, width = (GOLD, "3") if crowned else ("#111111", "1")
    house = _house(px, py, colour, outline, width, label)
    kind = "key" if key else f"palace seat-{seat}"
    house = house.replace('class="palace"', f'class="{kind}"')
    if crowned:
        house += (
            f'<circle class="{"key" if key else "crown-mark"}" cx="{px:.1f}" cy="{py + 6:.1f}" '
            f'r="3" fill="none" stroke="{GOLD}" stroke-width="2"/>'
        )
    return house


def _palace_parts(frame: _Frame, palaces: Sequence[Palace]) -> list[str]:
    parts = []
    by_city: dict[CityId, list[Palace]] = {}
    for palace in palaces:
        by_city.setdefault(palace.city, []).append(palace)
    for city, here in sorted(by_city.items()):
        x, y = frame.point(city)
        for index, palace in enumerate(here):
            label = f"{city}: palace of P{palace.seat}" + (
                " (crown palace)" if palace.crowned else ""
            )
            parts.append(_palace(x - 8 + 17 * index, y + 10, palace.seat, palace.crowned, label))
    return parts


# -- small pieces: cards, tiles, the crown --------------------------------------------------

CARD_WIDTH = 36.0
CARD_HEIGHT = 50.0
PIECE_GAP = 6.0
"""The room between two pieces of a row."""
ROW_GAP = 8.0
"""The room between two rows."""


def _card(components: Components, card: CardId, x: float, y: float, where: str) -> str:
    """A card, ``y`` its top: its colour and the letters of its symbols; ``where`` (its
    class) says where it lies."""
    regular = components.cards.get(card)
    if regular is not None:
        fill, ink = CARD_FILLS[regular.colour]
        letters = [SYMBOL_LETTERS[symbol] for symbol in regular.symbols]
        edge, edge_width = "#555555", "1"
    else:
        fill, ink = "#3b2f2f", GOLD
        kind = components.specials[card].kind if card in components.specials else None
        letters = [SPECIAL_LETTERS[kind]] if kind is not None else ["?"]
        edge, edge_width = GOLD, "2"
    parts = [
        f'<g class="card {where}"><title>{escape(card_label(components, card))}</title>',
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{CARD_WIDTH:g}" height="{CARD_HEIGHT:g}" rx="4" '
        f'fill="{fill}" stroke="{edge}" stroke-width="{edge_width}"/>',
    ]
    rows = [y + CARD_HEIGHT / 2 + 5] if len(letters) == 1 else [y + 21, y + 41]
    for letter, row in zip(letters, rows, strict=False):
        size = 10 if len(letter) > 2 else 14
        parts.append(
            _text(x + CARD_WIDTH / 2, row, letter, size, fill=ink, bold=True, anchor="middle")
        )
    parts.append("</g>")
    return "".join(parts)


def _influence_tile(symbol: Symbol, x: float, y: float) -> str:
    """An oval influence tile, ``(x, y)`` its left and middle."""
    fill = INFLUENCE_FILLS.get(symbol, "#cccccc")
    return (
        f'<g class="influence-tile"><title>{escape(symbol.value)} influence tile</title>'
        f'<ellipse cx="{x + 15:.1f}" cy="{y:.1f}" rx="15" ry="11" fill="{fill}" '
        f'stroke="{INK}" stroke-width="1"/>'
        + _text(
            x + 15, y + 4.5, SYMBOL_LETTERS[symbol], 12, fill="#ffffff", bold=True, anchor="middle"
        )
        + "</g>"
    )


def _crown(x: float, y: float) -> str:
    """The crown (a golden ring), ``(x, y)`` its left and middle."""
    return (
        '<g class="crown"><title>the crown</title>'
        f'<circle cx="{x + 11:.1f}" cy="{y:.1f}" r="8.5" fill="none" stroke="{GOLD}" '
        'stroke-width="4"/></g>'
    )


def _octagon(cx: float, cy: float, radius: float) -> str:
    cut = radius * 0.414
    points_ = [
        (cx - cut, cy - radius),
        (cx + cut, cy - radius),
        (cx + radius, cy - cut),
        (cx + radius, cy + cut),
        (cx + cut, cy + radius),
        (cx - cut, cy + radius),
        (cx - radius, cy + cut),
        (cx - radius, cy - cut),
    ]
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in points_)


def _province_tile(components: Components, tile: ProvinceTileId, x: float, y: float) -> str:
    """An octagonal province tile with its number, ``(x, y)`` its left and middle."""
    number = components.province_tiles[tile].number
    return (
        f'<g class="province-tile"><title>{escape(province_tile_label(components, tile))}'
        f'</title><polygon points="{_octagon(x + 13, y, 13)}" fill="#f5e6c8" '
        f'stroke="#8a6d3b" stroke-width="1.5"/>'
        + _text(x + 13, y + 4.5, str(number), 12, bold=True, anchor="middle")
        + "</g>"
    )


def _chip(text: str, x: float, y: float, size: float = 10, where: str = "") -> str:
    """A bonus tile (a small square tile, drawn with its word), ``(x, y)`` its left and
    middle."""
    width = text_width(text, size) + 6
    kind = f"bonus {where}".strip()
    return (
        f'<g class="{kind}"><rect x="{x:.1f}" y="{y - size * 0.75:.1f}" width="{width:.1f}" '
        f'height="{size * 1.5:.1f}" rx="2" fill="#fdebd0" stroke="#6e2c00" stroke-width="1"/>'
        + _text(x + 3, y + size * 0.35, text, size, fill="#6e2c00")
        + "</g>"
    )


def _chip_width(text: str, size: float = 10) -> float:
    return text_width(text, size) + 6


# -- laying pieces out in rows --------------------------------------------------------------


class _Piece(NamedTuple):
    """A piece to lay out in a row: its size, and how to draw it given its left and the
    middle of its row."""

    width: float
    height: float
    draw: Callable[[float, float], str]


def _word(text: str, size: float = 13, *, fill: str = QUIET, bold: bool = False) -> _Piece:
    return _Piece(
        text_width(text, size, bold=bold),
        size * 1.3,
        lambda x, y: _text(x, y + size * 0.35, text, size, fill=fill, bold=bold),
    )


def _together(*pieces: _Piece) -> _Piece:
    """Pieces that stay in one row (a legend's glyph and its words, a label and its
    first card)."""
    width = sum(piece.width for piece in pieces) + PIECE_GAP * (len(pieces) - 1)

    def draw(x: float, y: float) -> str:
        parts = []
        for piece in pieces:
            parts.append(piece.draw(x, y))
            x += piece.width + PIECE_GAP
        return "".join(parts)

    return _Piece(width, max(piece.height for piece in pieces), draw)


def _card_piece(components: Components, card: CardId, where: str) -> _Piece:
    return _Piece(
        CARD_WIDTH,
        CARD_HEIGHT,
        lambda x, y: _card(components, card, x, y - CARD_HEIGHT / 2, where),
    )


def _influence_piece(symbol: Symbol) -> _Piece:
    return _Piece(30.0, 22.0, lambda x, y: _influence_tile(symbol, x, y))


def _province_piece(components: Components, tile: ProvinceTileId, goods: bool) -> _Piece:
    """A province tile, with its goods written beside it when ``goods``."""
    drawn = _Piece(26.0, 26.0, lambda x, y: _province_tile(components, tile, x, y))
    if not goods:
        return drawn
    words = ", ".join(good.value for good in components.province_tiles[tile].goods)
    return _together(drawn, _word(words, 11))


def _chip_piece(text: str) -> _Piece:
    return _Piece(_chip_width(text), 15.0, lambda x, y: _chip(text, x, y))


def _group(label: str, pieces: Sequence[_Piece]) -> list[_Piece]:
    """A labelled group: the label kept in the row of the first piece, ``none`` when
    there is no piece."""
    first, *rest = list(pieces) or [_word("none")]
    return [_together(_word(label), first), *rest]


def _flow(
    pieces: Sequence[_Piece], left: float, top: float, width: float
) -> tuple[list[str], float]:
    """Lay ``pieces`` out left to right from ``top``, starting a new row when the next
    would pass ``left + width``; each row is as high as its highest piece. Returns the
    drawing and the bottom of the last row."""
    rows: list[list[_Piece]] = [[]]
    x = left
    for piece in pieces:
        if rows[-1] and x + piece.width > left + width:
            rows.append([])
            x = left
        rows[-1].append(piece)
        x += piece.width + PIECE_GAP
    parts = []
    y = top
    for row in rows:
        height = max((piece.height for piece in row), default=0.0)
        x = left
        for piece in row:
            parts.append(piece.draw(x, y + height / 2))
            x += piece.width + PIECE_GAP
        y += height + ROW_GAP
    return parts, y


# -- the position -----------------------------------------------------------------------------


def _bonus_beside(state: GameState) -> Callable[[CityId], float]:
    bonus = dict(state.bonus_on_board)
    components = state.config.components

    def room(city: CityId) -> float:
        return 18 + _chip_width(bonus_label(components, bonus[city])) if city in bonus else 0.0

    return room


def _province_marks(state: GameState, frame: _Frame) -> dict[str, list[str]]:
    """Below each province's name: the province tile still lying on it (its number is
    the visit), or which visit it was."""
    components = state.config.components
    visit = min(state.visit, 12)
    marks: dict[str, list[str]] = {}
    for number, province in enumerate(state.province_order, start=1):
        cx, cy = _province_centre(frame, frame.board.provinces[province].cities)
        tile = tile_of_province(state, province)
        if number > visit and tile is not None:
            marks[province] = [_province_tile(components, tile, cx - 13, cy + 30)]
        else:
            now = number == visit and not state.is_over
            word = f"visit {number}" + (" (now)" if now else "")
            marks[province] = [_text(cx, cy + 32, word, 12, fill=QUIET, anchor="middle")]
    return marks


def _legend(components: Components) -> list[_Piece]:
    def glyph(width: float, draw: Callable[[float, float], str], words: str) -> _Piece:
        return _together(_Piece(width, 18.0, draw), _word(words, 12, fill=INK))

    def city(x: float, y: float) -> str:
        return (
            f'<circle cx="{x + 7:.1f}" cy="{y:.1f}" r="{CITY_RADIUS:g}" fill="#ffffff" '
            f'stroke="{INK}" stroke-width="1.5"/>'
        )

    def fortress(x: float, y: float) -> str:
        return (
            f'<rect x="{x:.1f}" y="{y - 8:.1f}" width="16" height="16" fill="#34495e" '
            f'stroke="{INK}" stroke-width="1.5"/>'
        )

    def road(dashed: bool) -> Callable[[float, float], str]:
        dash = ' stroke-dasharray="6 4"' if dashed else ""
        colour = "#555555" if dashed else "#8a6d3b"
        return lambda x, y: (
            f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x + 24:.1f}" y2="{y:.1f}" '
            f'stroke="{colour}" stroke-width="2"{dash}/>'
        )

    def current(x: float, y: float) -> str:
        return (
            f'<rect x="{x:.1f}" y="{y - 8:.1f}" width="22" height="16" fill="#f3e3c3" '
            f'stroke="{CURRENT}" stroke-width="3"/>'
        )

    pieces = [
        glyph(14, city, "city"),
        glyph(16, fortress, "fortress"),
        glyph(24, road(False), "road in a province"),
        glyph(24, road(True), "road between provinces"),
        glyph(22, current, "current province"),
        glyph(
            14,
            lambda x, y: _palace(x + 7, y - 6, 0, False, "palace", key=True),
            "palace (seat colour)",
        ),
        glyph(
            14,
            lambda x, y: _palace(x + 7, y - 6, 0, True, "crown palace", key=True),
            "crown palace",
        ),
        glyph(_chip_width("+2"), lambda x, y: _chip("+2", x, y), "bonus tile"),
    ]
    tile = min(components.province_tiles, default=None)
    if tile is not None:
        pieces.append(
            glyph(26, lambda x, y: _province_tile(components, tile, x, y), "province tile (visit)")
        )
    pieces += [
        glyph(30, lambda x, y: _influence_tile(Symbol.MONK, x, y), "influence tile"),
        glyph(22, _crown, "crown"),
        _word("cards:", 12, fill=INK),
        *(
            _word(f"{SYMBOL_LETTERS[symbol]} {symbol_name(symbol)}", 12, fill=INK)
            for symbol in Symbol
        ),
        _word("special cards: dark, gold edge", 12, fill=INK),
    ]
    return pieces


def _seat_pieces(state: GameState, seat: int) -> list[_Piece]:
    components = state.config.components
    player = state.players[seat]
    specials = [card for card in player.hand if card in components.specials]
    tiles = [_influence_piece(symbol) for symbol in player.influence]
    tiles += [_province_piece(components, tile, True) for tile in player.province_tiles]
    tiles += [_chip_piece(bonus_label(components, kept)) for kept in player.goods_tiles]
    return [
        *_group("played", [_card_piece(components, card, "played") for card in player.played]),
        *_group("special cards", [_card_piece(components, card, "held") for card in specials]),
        *_group("tiles", tiles),
    ]


def _table_pieces(state: GameState) -> list[list[_Piece]]:
    """The rows of the table around the board: the court, the display, the deck."""
    components = state.config.components
    court = [_influence_piece(symbol) for symbol in state.court_influence]
    if state.crown_in_court:
        court.append(_Piece(22.0, 22.0, _crown))
    if state.court_province_tile is not None:
        tile = state.court_province_tile
        court.append(
            _together(
                _province_piece(components, tile, False),
                _word(province_tile_label(components, tile), 12),
            )
        )
    heading = 15
    return [
        [_word("Court", heading, fill=INK, bold=True), *(court or [_word("empty")])],
        [
            _word("Display", heading, fill=INK, bold=True),
            *(
                [_card_piece(components, card, "display") for card in state.display]
                or [_word("empty")]
            ),
        ],
        [
            _word("Deck", heading, fill=INK, bold=True),
            _word(
                f"{count_of(len(state.deck), 'card')}; discard pile "
                f"{count_of(len(state.discard), 'card')}",
                13,
                fill=INK,
            ),
            *_group(
                "special cards nobody holds:",
                [_card_piece(components, card, "nobody") for card in state.specials_on_table],
            ),
        ],
    ]


def _swatch(seat: int, label: str) -> _Piece:
    """A palace in the seat's colour, before the seat's name."""
    return _Piece(14.0, 20.0, lambda x, y: _palace(x + 7, y - 6, seat, False, label, key=True))


def _rule(y: float, width: float, colour: str) -> str:
    return (
        f'<line x1="{MARGIN:.1f}" y1="{y:.1f}" x2="{width - MARGIN:.1f}" y2="{y:.1f}" '
        f'stroke="{colour}" stroke-width="1"/>'
    )


def position_svg(
    state: GameState, names: Sequence[str] | None = None, caption: str | None = None
) -> str:
    """The public position as a standalone SVG document (see the module docstring).

    ``caption`` heads the picture (by default the visit and province); the line below it
    says what the game waits for.
    """
    components = state.config.components
    board = components.board
    visit = min(state.visit, 12)
    current = None if state.is_over else state.province_order[visit - 1]
    title = caption or f"Visit {visit}, province {state.province_order[visit - 1]}"
    status = (
        f"Visit {visit} of 12, province {state.province_order[visit - 1]}; start player "
        f"P{state.start_player}; {waiting_for(state)}"
    )
    right = _right_room(board, _bonus_beside(state))
    probe = _Frame(board, 0.0, 0.0, right)
    texts = max(text_width(title, 17, bold=True), text_width(status, 13)) + 2 * MARGIN
    width = max(MIN_WIDTH, probe.width, texts)
    inner = width - 2 * MARGIN
    frame = _Frame(board, (width - probe.width) / 2, 62.0, right)
    parts = [
        _text(MARGIN, 28, title, 17, bold=True, css="caption"),
        _text(MARGIN, 50, status, 13, css="status"),
    ]
    parts.extend(_board_parts(frame, current, _province_marks(state, frame)))
    for city, tile in state.bonus_on_board:
        x, y = frame.point(city)
        parts.append(_chip(bonus_label(components, tile), x + 18, y + 10, where="on-board"))
    parts.extend(_palace_parts(frame, state.palaces))

    drawn, y = _flow(_legend(components), MARGIN, frame.top + frame.height, inner)
    parts += ['<g class="legend">', *drawn, "</g>", _rule(y, width, "#c8bfae")]
    parts.append('<g class="table">')
    y += ROW_GAP
    for row in _table_pieces(state):
        drawn, y = _flow(row, MARGIN, y, inner)
        parts.extend(drawn)
    parts.append("</g>")

    for seat, player in enumerate(state.players):
        parts += [_rule(y, width, "#e3dccd"), f'<g class="seat seat-{seat}">']
        y += ROW_GAP
        heading = seat_label(seat, names)
        facts = [points(player.score), f"hand {count_of(len(player.hand), 'card')}"]
        if player.withdrawn:
            facts.append("withdrawn")
        line = [
            _swatch(seat, heading),
            _word(heading, 16, fill=INK, bold=True),
            _word(" · ".join(facts), 14, fill=INK),
        ]
        if state.to_move == seat and not state.is_over:
            line.append(_word("their turn", 14, fill=CURRENT, bold=True))
        drawn, y = _flow(line, MARGIN, y, inner)
        parts.extend(drawn)
        drawn, y = _flow(_seat_pieces(state, seat), MARGIN, y, inner)
        parts += [*drawn, "</g>"]
    return _svg(width, y + MARGIN / 2, title, parts)


__all__ = ["board_svg", "bonus_label", "position_svg", "seat_label", "text_width"]
