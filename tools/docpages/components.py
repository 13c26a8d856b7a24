"""The components page and the board picture, with the provenance of every fact.

Apart because its facts come from the component set, not the registry: each card, tile
and city says whether the rulebooks, a secondary source or a reconstruction gives it.
"""

from __future__ import annotations

from collections import defaultdict

from docpages.common import Writer
from docpages.ruling_questions import question_link
from tajmahal.model import Components
from tajmahal.notation._render import board_svg, bonus_label


def card_provenance(card_id: str, colour: str) -> str:
    number = int(card_id.rsplit("-", 1)[1])
    if colour == "white":
        return "secondary source (" + question_link("RUL.COMPONENTS.WHITE_CARDS", "ruling") + ")"
    if number <= 4:
        return (
            "reconstruction (" + question_link("RUL.COMPONENTS.TWO_CHARACTER_CARDS", "ruling") + ")"
        )
    if number == 21:
        return (
            "reconstruction (" + question_link("RUL.COMPONENTS.TWENTY_FIRST_CARD", "ruling") + ")"
        )
    return "secondary source (one rules translation)"


SPECIAL_PROVENANCE = {
    "elephant": "rulebooks",
    "plus-two": "secondary source ("
    + question_link("RUL.COMPONENTS.SPECIAL_EARNERS", "ruling")
    + ")",
    "mogul": "reconstruction (" + question_link("RUL.COMPONENTS.SPECIAL_EARNERS", "ruling") + ")",
    "colour-change": "reconstruction ("
    + question_link("RUL.COMPONENTS.SPECIAL_EARNERS", "ruling")
    + ")",
}


def components_page(writer: Writer, components: Components) -> None:
    board = components.board
    writer.write("board.svg", board_svg(board))
    lines = [
        "# The components",
        "",
        "The rulebooks do not print the board, every card's symbols or the mix of bonus "
        "tiles. Each fact below says where it comes from: **rulebooks** (stated in the "
        "texts), **secondary source** (one published translation or review), or "
        "**reconstruction** (no source found; chosen to agree with every confirmed fact "
        "and written up as a ruling). Own the game? Supply the real data with "
        "`--components DIR` (same format as `reference/tajmahal/data/`).",
        "",
        f"Component set `{components.name}`, digest `{components.digest}`.",
        "",
        "## The board",
        "",
        f"{len(board.provinces)} provinces, {len(board.cities)} cities, "
        f"{len(board.fortresses)} fortresses (squares; Agra in red), {len(board.roads)} roads "
        "(dashed between provinces). Counts and Agra: rulebooks. Which cities are "
        "fortresses: reconstruction, "
        + question_link("RUL.COMPONENTS.FORTRESSES")
        + "; roads and layout: reconstruction, "
        + question_link("RUL.COMPONENTS.BOARD")
        + ".",
        "",
        "```{image} board.svg",
        ":alt: The board: provinces, cities, fortresses and roads",
        ":class: board",
        "```",
        "",
        "| province | cities (# fortress) | neighbouring provinces |",
        "|---|---|---|",
    ]
    neighbours: dict[str, set[str]] = defaultdict(set)
    for road in board.roads:
        a, b = sorted(road)
        pa, pb = board.cities[a].province, board.cities[b].province
        if pa != pb:
            neighbours[pa].add(pb)
            neighbours[pb].add(pa)
    for province in sorted(board.provinces.values(), key=lambda p: p.id):
        cities = ", ".join(
            f"{board.cities[c].name or c}{'#' if board.cities[c].fortress else ''}"
            for c in province.cities
        )
        lines.append(f"| {province.id} | {cities} | {', '.join(sorted(neighbours[province.id]))} |")
    lines += [
        "",
        "## Cards",
        "",
        f"{len(components.cards)} regular cards: 21 of each of four colours and 12 white "
        "(rulebooks). Symbols per card:",
        "",
        "| card | colour | symbols | provenance |",
        "|---|---|---|---|",
    ]
    for card in components.cards.values():
        symbols = " + ".join(symbol.value for symbol in card.symbols)
        provenance = card_provenance(card.id, card.colour.value)
        lines.append(f"| `{card.id}` | {card.colour.value} | {symbols} | {provenance} |")
    lines += [
        "",
        "## Special cards",
        "",
        "| card | effect | earned with two influence tiles of | provenance |",
        "|---|---|---|---|",
    ]
    for special in components.specials.values():
        lines.append(
            f"| `{special.id}` | {special.kind.value} | {special.earned_by.value} | "
            f"{SPECIAL_PROVENANCE.get(special.kind.value, 'reconstruction')} |"
        )
    lines += [
        "",
        "## Province tiles",
        "",
        "Tile 1 shows one good, the others two (rulebooks); the goods of each tile: "
        "secondary source (" + question_link("RUL.COMPONENTS.PROVINCE_TILES", "ruling") + ").",
        "",
        "| tile | number | goods |",
        "|---|---|---|",
    ]
    for tile in components.province_tiles.values():
        goods = ", ".join(good.value for good in tile.goods)
        lines.append(f"| `{tile.id}` | {tile.number} | {goods} |")
    lines += [
        "",
        "## Bonus tiles",
        "",
        "The Taj Mahal tile (4 points, on Agra) and 15 square tiles of three kinds: rulebooks. "
        "How many of each kind: reconstruction, " + question_link("RUL.COMPONENTS.BONUS_MIX") + ".",
        "",
        "| tile | kind | gives |",
        "|---|---|---|",
    ]
    for bonus in components.bonus_tiles.values():
        lines.append(f"| `{bonus.id}` | {bonus.kind.value} | {bonus_label(components, bonus.id)} |")
    lines.append("")
    writer.write("components.md", "\n".join(lines))
