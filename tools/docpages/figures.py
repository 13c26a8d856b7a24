"""The figures of "The rules of Taj Mahal", drawn from positions the engine plays.

The rulebook's withdrawal example (Anna, Bob, Chris and Doris; the position of
``tests/rules/test_examples.py``) is replayed through :func:`tajmahal.apply`, turn by
turn as the test plays it, and two pictures are drawn from what the engine did:

- ``figures/majorities.svg``: the symbols each player has played, and the forces each
  one won on withdrawing (a tie wins nothing; a player's cards stop counting once they
  withdraw);
- ``figures/crown.svg``: the visited province afterwards, with the crown palace in the
  same city as another player's palace.

The palace-chain figure is the rulebook's palace-connection figure, drawn by
:func:`docpages.examples.palace_figure`.
"""

from __future__ import annotations

import importlib
import sys
from xml.sax.saxutils import escape

import tajmahal
from docpages.common import Writer
from docpages.examples import EXAMPLES, FIGURE_COLOURS
from tajmahal.engine import symbol_counts
from tajmahal.model import GameState, Symbol

NAMES = ("Anna", "Bob", "Chris", "Doris")
"""The players of the rulebook's example, seats 0 to 3."""

COLOURS = (
    FIGURE_COLOURS["red"],
    FIGURE_COLOURS["blue"],
    FIGURE_COLOURS["brown"],
    FIGURE_COLOURS["grey"],
)
"""Their palace colours in the pictures."""

TURNS = (
    "withdraw",
    "take white-06 white-07",
    "withdraw",
    "palace A1",
    "take white-08 white-09",
    "play green-17",
    "play violet-14",
    "withdraw",
    "palace A2",
    "palace A3",
    "take white-10 white-11",
    "withdraw",
    "palace A4",
    "crown A1",
)
"""The example's turns, as ``test_example_anna_bob_chris_doris_withdraw`` plays them."""

SYMBOL_WORDS = {
    Symbol.VIZIER: "vizier",
    Symbol.GENERAL: "general",
    Symbol.MONK: "monk",
    Symbol.PRINCESS: "princess",
    Symbol.MOGUL: "Grand Mogul",
    Symbol.ELEPHANT: "elephant",
}
FORCE_OF = {"crown": Symbol.MOGUL, "province": Symbol.ELEPHANT}


def _example_start() -> GameState:
    sys.path.insert(0, str(EXAMPLES.parent))
    try:
        examples = importlib.import_module(EXAMPLES.stem)
    finally:
        sys.path.remove(str(EXAMPLES.parent))
    state: GameState = examples.four_players()
    return state


def _won(before: GameState, after: GameState, seat: int) -> set[Symbol]:
    """The forces ``seat`` won between two positions."""
    gained = set(after.players[seat].influence) - set(before.players[seat].influence)
    if before.crown_in_court and not after.crown_in_court:
        gained.add(Symbol.MOGUL)
    if before.court_province_tile is not None and after.court_province_tile is None:
        gained.add(Symbol.ELEPHANT)
    return gained


def replay_example() -> tuple[GameState, list[tuple[int, ...]], dict[int, set[Symbol]], GameState]:
    """(start, symbols each player had on withdrawing, forces won, position after)."""
    start = state = _example_start()
    components = state.config.components
    counts: list[tuple[int, ...]] = [()] * len(state.players)
    won: dict[int, set[Symbol]] = {}
    for text in TURNS:
        after = tajmahal.apply(state, tajmahal.parse_action(text))
        if text == "withdraw":
            seat = state.to_move
            assert seat is not None, f"nobody to move before {text!r}"
            counts[seat] = symbol_counts(components, state.players[seat].played)
            won[seat] = _won(state, after, seat)
        state = after
    return start, counts, won, state


def _text(x: float, y: float, text: str, size: int = 14, **attributes: str) -> str:
    extra = "".join(f' {name.replace("_", "-")}="{value}"' for name, value in attributes.items())
    return f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}"{extra}>{escape(text)}</text>'


def majorities_svg(counts: list[tuple[int, ...]], won: dict[int, set[Symbol]]) -> str:
    """A table: one row per symbol, one column per player, the won forces filled."""
    symbols = list(Symbol)
    left, column, row, top = 110, 68, 30, 34
    width = left + column * len(NAMES) + 10
    height = top + row * (len(symbols) + 1) + 30
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        "<title>Symbols played, and the forces won on withdrawing</title>",
        f'<rect width="{width}" height="{height}" fill="#fbf8f0"/>',
    ]
    for seat, name in enumerate(NAMES):
        x = left + column * seat + column / 2
        parts.append(
            _text(x, 22, name, text_anchor="middle", font_weight="bold", fill=COLOURS[seat])
        )
    for index, symbol in enumerate(symbols):
        y = top + row * index
        parts.append(_text(8, y + 20, SYMBOL_WORDS[symbol]))
        for seat in range(len(NAMES)):
            x = left + column * seat
            number = counts[seat][index]
            if symbol in won.get(seat, set()):
                parts.append(
                    f'<rect x="{x + 6}" y="{y + 3}" width="{column - 12}" height="{row - 6}" '
                    f'rx="5" fill="{COLOURS[seat]}" opacity="0.85"/>'
                )
                parts.append(
                    _text(
                        x + column / 2,
                        y + 20,
                        f"{number} won",
                        text_anchor="middle",
                        fill="#ffffff",
                        font_weight="bold",
                    )
                )
            else:
                parts.append(
                    _text(
                        x + column / 2,
                        y + 20,
                        str(number) if number else "-",
                        text_anchor="middle",
                        fill="#333333",
                    )
                )
    y = top + row * len(symbols) + 22
    parts.append(
        _text(
            8, y, "Counted as each player withdraws; a tie wins nothing.", size=12, fill="#555555"
        )
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def crown_svg(state: GameState, province: str = "A") -> str:
    """The visited province after the example: its cities, roads and palaces."""
    board = state.config.components.board
    cities = board.provinces[province].cities
    xs = [board.cities[c].x for c in cities]
    ys = [board.cities[c].y for c in cities]
    scale, margin = 120.0, 60.0
    width = (max(xs) - min(xs)) * scale + 2 * margin + 120
    height = (max(ys) - min(ys)) * scale + 2 * margin + 40

    def point(city: str) -> tuple[float, float]:
        here = board.cities[city]
        return ((here.x - min(xs)) * scale + margin, (max(ys) - here.y) * scale + margin)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif">',
        "<title>The crown palace in the same city as another palace</title>",
        f'<rect width="{width:.1f}" height="{height:.1f}" fill="#fbf8f0"/>',
    ]
    for road in sorted(tuple(sorted(r)) for r in board.roads):
        if road[0] in cities and road[1] in cities:
            (x1, y1), (x2, y2) = point(road[0]), point(road[1])
            parts.append(
                f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                'stroke="#8a6d3b" stroke-width="3"/>'
            )
    for city in cities:
        x, y = point(city)
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="38" fill="#ffffff" stroke="#222222" '
            'stroke-width="1.5"/>'
        )
        parts.append(_text(x, y - 46, f"city {city}", size=13, text_anchor="middle"))
        here = [p for p in state.palaces if p.city == city]
        for index, palace in enumerate(here):
            px = x - 15 * (len(here) - 1) + 30 * index
            colour = COLOURS[palace.seat]
            parts.append(
                f'<path d="M{px - 12:.1f},{y + 18:.1f} v-16 l12,-12 l12,12 v16 z" '
                f'fill="{colour}" stroke="#111111" stroke-width="1"/>'
            )
            if palace.crowned:
                parts.append(
                    f'<path d="M{px - 10:.1f},{y - 13:.1f} l3,-11 l7,7 l7,-7 l3,11 z" '
                    'fill="#d4ac0d" stroke="#7d6608" stroke-width="1"/>'
                )
    for seat, name in enumerate(NAMES):
        parts.append(
            _text(width - 100, margin + 20 * seat, name, font_weight="bold", fill=COLOURS[seat])
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def rules_figures(writer: Writer) -> None:
    """Write the figures of the rules page into ``figures/``."""
    _, counts, won, after = replay_example()
    writer.write("figures/majorities.svg", majorities_svg(counts, won))
    writer.write("figures/crown.svg", crown_svg(after))
