"""Pictures of a position: plain text for the terminal, SVG for pages and files.

Both show what every player at the table can see: the board with its palaces and the
bonus tiles still lying on fortresses, the court, the display, the cards played this
visit, the tiles and special cards each player holds, hand sizes and scores. Hands and
the order of the deck stay hidden, as in :func:`tajmahal.model.view`.

:func:`board_svg` draws the bare board (``tools/draw_board.py`` and the documentation use
it); :func:`position_svg` draws the same board with a position on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape

from tajmahal.model import Board, CityId, Components, GameState, Palace, Step

SCALE = 50.0
"""Pixels per board unit."""
MARGIN = 40.0
"""Empty border around the drawing, in pixels."""
CITY_RADIUS = 7.0
"""Radius of a city's circle, in pixels."""
FORTRESS_HALF = 8.0
"""Half the side of a fortress's square, in pixels."""
PROVINCE_FILLS = ("#f3e3c3", "#dcebc8", "#cfe0ef", "#f1d3d3", "#e6dcf0", "#d8efe9")
"""Soft fills that tell neighbouring provinces apart."""
SEAT_COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b7950b", "#7d3c98")
"""The palace colour of seats 0 to 4."""


def seat_label(seat: int, names: Sequence[str] | None = None) -> str:
    """``P2`` or ``P2 (greedy)``, as in the account of a game."""
    if names is not None and seat < len(names):
        return f"P{seat} ({names[seat]})"
    return f"P{seat}"


def bonus_label(components: Components, tile_id: str) -> str:
    """What a bonus tile gives, in a word or two (``tea``, ``+2``, ``card``, ``Taj Mahal``)."""
    tile = components.bonus_tiles[tile_id]
    if tile.good is not None:
        return tile.good.value
    return {"taj-mahal": "Taj Mahal", "points": "+2", "card": "card"}[tile.kind.value]


def _points(score: int) -> str:
    return f"{score} point" if score == 1 else f"{score} points"


def _step_label(state: GameState) -> str:
    if state.is_over:
        return "the game is over"
    if state.is_chance:
        return "a reshuffle is due"
    doing = {
        Step.PLAY: "to play or withdraw",
        Step.PLACE: "to place a palace",
        Step.TAKE: "to take display cards",
    }.get(state.step, state.step.value)
    return f"P{state.to_move} {doing}"


# -- text --------------------------------------------------------------------------------


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


def position_text(state: GameState, names: Sequence[str] | None = None) -> str:
    """The public position as lines of text.

    On the board lines a ``#`` marks a fortress, ``:P1`` a palace of seat 1 (``P1*`` its
    crown palace), ``[tea]`` the bonus tile still lying there; provinces are listed in
    the order they are visited, the current one marked ``>``.
    """
    components = state.config.components
    board = components.board
    bonus = dict(state.bonus_on_board)
    visit = min(state.visit, 12)
    lines = [
        f"Visit {visit} of 12, province {state.province_order[visit - 1]}; "
        f"start player P{state.start_player}; {_step_label(state)}"
    ]
    court = [symbol.value for symbol in state.court_influence]
    if state.crown_in_court:
        court.append("crown")
    if state.court_province_tile is not None:
        tile = components.province_tiles[state.court_province_tile]
        court.append(f"{tile.id} ({', '.join(good.value for good in tile.goods)})")
    lines.append(f"Court: {', '.join(court) or 'empty'}")
    lines.append(f"Display: {', '.join(state.display) or 'empty'}")
    lines.append(
        f"Deck: {len(state.deck)} cards; discard pile: {len(state.discard)}; special cards "
        f"on the table: {', '.join(state.specials_on_table) or 'none'}"
    )
    lines.append("")
    for seat, player in enumerate(state.players):
        specials = [card for card in player.hand if card in components.specials]
        status = " (withdrawn)" if player.withdrawn else ""
        lines.append(f"{seat_label(seat, names)}: {_points(player.score)}{status}")
        lines.append(f"  played: {', '.join(player.played) or '-'}")
        lines.append(
            f"  hand: {len(player.hand)} cards, special: {', '.join(specials) or '-'}; "
            f"influence: {', '.join(s.value for s in player.influence) or '-'}"
        )
        lines.append(
            f"  province tiles: {', '.join(player.province_tiles) or '-'}; goods tiles: "
            f"{', '.join(bonus_label(components, t) for t in player.goods_tiles) or '-'}"
        )
    lines.append("")
    lines.append("Board (# fortress, :P1 palace of P1, * crown palace, [..] bonus tile):")
    for number, province in enumerate(state.province_order, start=1):
        mark = ">" if number == visit and not state.is_over else " "
        cities = "  ".join(
            _city_text(state, city, bonus) for city in board.provinces[province].cities
        )
        lines.append(f"{mark}{number:>3} {province}: {cities}")
    return "\n".join(lines) + "\n"


# -- SVG ---------------------------------------------------------------------------------


class _Frame:
    """Board units to pixels (SVG's y grows downwards; the board's grows northwards)."""

    def __init__(self, board: Board, top: float) -> None:
        xs = [city.x for city in board.cities.values()]
        ys = [city.y for city in board.cities.values()]
        self.board = board
        self.min_x, self.max_y = min(xs), max(ys)
        self.top = top
        self.width = (max(xs) - self.min_x) * SCALE + 2 * MARGIN
        self.height = (self.max_y - min(ys)) * SCALE + 2 * MARGIN + top

    def point(self, city_id: CityId) -> tuple[float, float]:
        city = self.board.cities[city_id]
        return (
            (city.x - self.min_x) * SCALE + MARGIN,
            (self.max_y - city.y) * SCALE + MARGIN + self.top,
        )


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


def _board_parts(frame: _Frame, current: str | None) -> list[str]:
    board = frame.board
    parts = []
    for index, province in enumerate(sorted(board.provinces.values(), key=lambda p: p.id)):
        corners = " ".join(
            f"{x:.1f},{y:.1f}" for x, y in map(frame.point, _ring_order(board, province.cities))
        )
        fill = PROVINCE_FILLS[index % len(PROVINCE_FILLS)]
        outlined = province.id == current
        stroke = ' stroke="#b03a2e" stroke-width="4"' if outlined else ' stroke="none"'
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
        centre = [frame.point(city) for city in province.cities]
        cx = sum(x for x, _ in centre) / len(centre)
        cy = sum(y for _, y in centre) / len(centre)
        parts.append(
            f'<text x="{cx:.1f}" y="{cy:.1f}" font-size="28" fill="#9b8f7a" '
            f'text-anchor="middle" dominant-baseline="central">{escape(province.id)}</text>'
        )
    for city in sorted(board.cities.values(), key=lambda c: c.id):
        x, y = frame.point(city.id)
        is_agra = city.id == board.agra
        fill = "#c0392b" if is_agra else ("#34495e" if city.fortress else "#ffffff")
        if city.fortress:
            half = FORTRESS_HALF * (1.4 if is_agra else 1.0)
            parts.append(
                f'<rect x="{x - half:.1f}" y="{y - half:.1f}" width="{2 * half:.1f}" '
                f'height="{2 * half:.1f}" fill="{fill}" stroke="#222222" stroke-width="1.5"/>'
            )
        else:
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CITY_RADIUS:.1f}" fill="{fill}" '
                f'stroke="#222222" stroke-width="1.5"/>'
            )
        label = city.name or city.id
        weight = ' font-weight="bold"' if is_agra else ""
        parts.append(
            f'<text x="{x + 10:.1f}" y="{y - 10:.1f}" font-size="11"{weight}>{escape(label)}</text>'
        )
    return parts


def _svg(frame: _Frame, title: str, parts: list[str]) -> str:
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{frame.width:.0f}" '
        f'height="{frame.height:.0f}" viewBox="0 0 {frame.width:.1f} {frame.height:.1f}" '
        'font-family="sans-serif">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{frame.width:.1f}" height="{frame.height:.1f}" fill="#fbf8f0"/>',
    ]
    return "\n".join([*head, *parts, "</svg>"]) + "\n"


def board_svg(
    board: Board, palaces: Mapping[CityId, Sequence[tuple[str, str]]] | None = None
) -> str:
    """The board as a standalone SVG document: provinces, roads, cities, fortresses.

    ``palaces`` optionally puts houses on it: for each city, (fill colour, label) pairs,
    e.g. the palaces of a rulebook figure whose players are named by colour.
    """
    frame = _Frame(board, top=0.0)
    parts = _board_parts(frame, None)
    for city, houses in sorted((palaces or {}).items()):
        x, y = frame.point(city)
        for index, (colour, label) in enumerate(houses):
            parts.append(_house(x - 8 + 17 * index, y + 10, colour, "#111111", "1", label))
    return _svg(frame, board.name, parts)


def _house(px: float, py: float, fill: str, outline: str, width: str, label: str) -> str:
    """A small house (a square with a roof) with its label as a tooltip."""
    return (
        f'<path class="palace" d="M{px - 7:.1f},{py + 12:.1f} v-8 l7,-7 l7,7 v8 z" '
        f'fill="{fill}" stroke="{outline}" stroke-width="{width}"><title>{escape(label)}'
        "</title></path>"
    )


def _palace_parts(frame: _Frame, palaces: Sequence[Palace]) -> list[str]:
    parts = []
    by_city: dict[CityId, list[Palace]] = {}
    for palace in palaces:
        by_city.setdefault(palace.city, []).append(palace)
    for city, here in sorted(by_city.items()):
        x, y = frame.point(city)
        for index, palace in enumerate(here):
            px = x - 8 + 17 * index
            py = y + 10
            colour = SEAT_COLOURS[palace.seat % len(SEAT_COLOURS)]
            # A small house: a square with a roof; the crown palace has a gold outline.
            outline = "#d4ac0d" if palace.crowned else "#111111"
            width = "2.5" if palace.crowned else "1"
            label = f"{city}: palace of P{palace.seat}" + (
                " (crown palace)" if palace.crowned else ""
            )
            house = _house(px, py, colour, outline, width, label)
            parts.append(house.replace('class="palace"', f'class="palace seat-{palace.seat}"'))
    return parts


def position_svg(
    state: GameState, names: Sequence[str] | None = None, caption: str | None = None
) -> str:
    """The position as a standalone SVG document.

    The board with every palace (a house in its seat's colour, the crown palace outlined
    in gold), the bonus tiles still on fortresses (labelled), the current province
    outlined, and above it a caption and each seat's score.
    """
    components = state.config.components
    board = components.board
    top = 30.0 + 18.0 * len(state.players)
    frame = _Frame(board, top=top)
    visit = min(state.visit, 12)
    current = None if state.is_over else state.province_order[visit - 1]
    title = caption or f"Visit {visit}, province {state.province_order[visit - 1]}"
    parts = [
        f'<text x="{MARGIN:.1f}" y="24" font-size="16" font-weight="bold">{escape(title)}'
        f" ({escape(_step_label(state))})</text>"
    ]
    for seat, player in enumerate(state.players):
        y = 30.0 + 18.0 * (seat + 1)
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        goods = ", ".join(bonus_label(components, t) for t in player.goods_tiles)
        detail = (
            f"{seat_label(seat, names)}: {_points(player.score)}; tiles "
            f"{', '.join(s.value for s in player.influence) or '-'}; provinces "
            f"{len(player.province_tiles)}{'; goods ' + goods if goods else ''}"
        )
        parts.append(
            f'<rect x="{MARGIN:.1f}" y="{y - 11:.1f}" width="12" height="12" fill="{colour}"/>'
            f'<text x="{MARGIN + 18:.1f}" y="{y:.1f}" font-size="13">{escape(detail)}</text>'
        )
    parts.extend(_board_parts(frame, current))
    for city, tile in state.bonus_on_board:
        x, y = frame.point(city)
        parts.append(
            f'<text class="bonus" x="{x + 10:.1f}" y="{y + 16:.1f}" font-size="10" '
            f'fill="#6e2c00">{escape(bonus_label(components, tile))}</text>'
        )
    parts.extend(_palace_parts(frame, state.palaces))
    return _svg(frame, title, parts)
