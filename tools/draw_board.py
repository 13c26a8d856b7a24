"""Draw the Taj Mahal board as an SVG picture.

The embedded board is a labelled reconstruction (ruling RUL.COMPONENTS.BOARD), so a
picture is the quickest way to judge whether it still looks like a board that could be
printed: rings inside provinces, no crossing roads, a sparse north-west, Agra in the
south-east. Usage: ``python3 tools/draw_board.py [OUT.svg]`` (default ``build/board.svg``).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape

from tajmahal.board import Board, CityId
from tajmahal.components import default_components

SCALE = 50.0
"""Pixels per board unit."""
MARGIN = 40.0
"""Empty border around the drawing, in pixels."""
CITY_RADIUS = 7.0
FORTRESS_HALF = 8.0
PALETTE = (
    "#f3e3c3",
    "#dcebc8",
    "#cfe0ef",
    "#f1d3d3",
    "#e6dcf0",
    "#d8efe9",
)
"""Soft fills that tell neighbouring provinces apart."""


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


def render_svg(board: Board) -> str:
    """The board as a standalone SVG document."""
    xs = [city.x for city in board.cities.values()]
    ys = [city.y for city in board.cities.values()]
    min_x, max_x, min_y, max_y = min(xs), max(xs), min(ys), max(ys)
    width = (max_x - min_x) * SCALE + 2 * MARGIN
    height = (max_y - min_y) * SCALE + 2 * MARGIN

    def point(city_id: CityId) -> tuple[float, float]:
        # SVG's y grows downwards; the board's grows northwards.
        city = board.cities[city_id]
        return (city.x - min_x) * SCALE + MARGIN, (max_y - city.y) * SCALE + MARGIN

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif">',
        f"<title>{escape(board.name)}</title>",
        f'<rect width="{width:.1f}" height="{height:.1f}" fill="#fbf8f0"/>',
    ]
    for index, province in enumerate(sorted(board.provinces.values(), key=lambda p: p.id)):
        corners = " ".join(
            f"{x:.1f},{y:.1f}" for x, y in map(point, _ring_order(board, province.cities))
        )
        fill = PALETTE[index % len(PALETTE)]
        parts.append(f'<polygon points="{corners}" fill="{fill}" stroke="none"/>')
    for road in sorted(tuple(sorted(road)) for road in board.roads):
        (x1, y1), (x2, y2) = point(road[0]), point(road[1])
        same = board.cities[road[0]].province == board.cities[road[1]].province
        colour, dash = ("#8a6d3b", "") if same else ("#555555", ' stroke-dasharray="6 4"')
        parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="{colour}" stroke-width="2"{dash}/>'
        )
    for province in sorted(board.provinces.values(), key=lambda p: p.id):
        centre = [point(city) for city in province.cities]
        cx = sum(x for x, _ in centre) / len(centre)
        cy = sum(y for _, y in centre) / len(centre)
        parts.append(
            f'<text x="{cx:.1f}" y="{cy:.1f}" font-size="28" fill="#9b8f7a" '
            f'text-anchor="middle" dominant-baseline="central">{escape(province.id)}</text>'
        )
    for city in sorted(board.cities.values(), key=lambda c: c.id):
        x, y = point(city.id)
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
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_whole(path: Path, text: str) -> None:
    """Write through a temporary file and rename, so a reader never sees half a picture."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        # mkstemp creates the file private; a picture is meant to be shared.
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def main() -> int:
    """Draw the embedded board to the path in the first argument."""
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("build") / "board.svg"
    board = default_components().board
    write_whole(target, render_svg(board))
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
