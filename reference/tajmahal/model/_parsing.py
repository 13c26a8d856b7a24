"""Parsing the component documents into parts, checked against every confirmed fact.

One function per document (``cards.json``, ``specials.json``, ``province_tiles.json``,
``bonus_tiles.json``; the board is :func:`tajmahal.model._board.board_from_json`): each walks
the JSON, builds the :mod:`tajmahal.model` values and checks the counts and
symbols the rulebooks confirm, so that wrong data fails loudly with an error naming the
file and the field. Reading the files and assembling the set is
:func:`tajmahal.model.load_components`; the checks are apart because they are the
rules about the printed components (``TM.COMP.*``), not about loading.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar

from tajmahal.errors import ComponentError
from tajmahal.model._board import ID_PATTERN, ID_RULE
from tajmahal.model._parts import (
    BonusTile,
    BonusTileId,
    Card,
    CardId,
    ProvinceTile,
    ProvinceTileId,
    SpecialCard,
)
from tajmahal.model._symbols import BonusKind, CardColour, Good, SpecialKind, Symbol

_Part = TypeVar("_Part")


class _Reader:
    """Walks one JSON document, building error messages that name file and field."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, where: str, message: str) -> ComponentError:
        return ComponentError(f"{self.file}: {where}: {message}")

    def obj(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected an object, found {type(value).__name__}")
        return value

    def items(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list, found {type(value).__name__}")
        return value

    def field(self, container: dict[str, Any], key: str, where: str) -> Any:
        """The value of field ``key``, which must be there."""
        if key not in container:
            raise self.fail(where, f"missing field '{key}'")
        return container[key]

    def text(self, container: dict[str, Any], key: str, where: str) -> str:
        value = self.field(container, key, where)
        if not isinstance(value, str) or not value:
            raise self.fail(f"{where}.{key}", "expected a non-empty string")
        return value

    def identifier(self, container: dict[str, Any], where: str) -> str:
        """The ``id`` field, which must be a valid stable id (see :data:`ID_PATTERN`)."""
        value = self.text(container, "id", where)
        if not ID_PATTERN.fullmatch(value):
            raise self.fail(f"{where}.id", f"{value!r} is not a valid id ({ID_RULE})")
        return value

    def integer(self, container: dict[str, Any], key: str, where: str) -> int:
        value = self.field(container, key, where)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(f"{where}.{key}", "expected an integer")
        return value

    def enum(self, enum_type: Any, value: Any, where: str) -> Any:
        try:
            return enum_type(value)
        except ValueError:
            allowed = ", ".join(repr(member.value) for member in enum_type)
            raise self.fail(where, f"unknown value {value!r} (expected one of {allowed})") from None

    def entries(self, document: Any, key: str) -> Iterator[tuple[str, dict[str, Any], str]]:
        """Each object of the document's list ``key``: where it stands (``key[i]``), the
        object, and its id."""
        root = self.obj(document, "(root)")
        for position, raw in enumerate(self.items(root.get(key), key)):
            where = f"{key}[{position}]"
            item = self.obj(raw, where)
            yield where, item, self.identifier(item, where)

    def add(self, table: dict[str, _Part], item_id: str, part: _Part, where: str) -> None:
        """Enter ``part`` under its id, which no earlier entry of ``table`` may have."""
        if item_id in table:
            raise self.fail(f"{where}.id", f"duplicate id {item_id!r}")
        table[item_id] = part


def parse_cards(document: Any) -> dict[CardId, Card]:
    """The 96 regular cards of ``cards.json``, checked against the confirmed counts.

    21 cards of each of the four colours and 12 white ones; a coloured card shows one or
    two different symbols (never two elephants). Wrong data fails loudly here instead of
    skewing every majority later.

    Implements: TM.COMP.CARDS.COUNT, TM.COMP.CARDS.SYMBOLS
    """
    reader = _Reader("cards.json")
    cards: dict[CardId, Card] = {}
    for where, item, card_id in reader.entries(document, "cards"):
        colour = reader.enum(CardColour, reader.text(item, "colour", where), f"{where}.colour")
        raw_symbols = reader.items(item.get("symbols"), f"{where}.symbols")
        symbols = tuple(
            reader.enum(Symbol, value, f"{where}.symbols[{index}]")
            for index, value in enumerate(raw_symbols)
        )
        if colour is CardColour.WHITE:
            if len(symbols) != 1:
                raise reader.fail(f"{where}.symbols", "a white card shows exactly one symbol")
        else:
            if len(symbols) != 2:
                raise reader.fail(f"{where}.symbols", "a coloured card shows exactly two symbols")
            if symbols[0] == symbols[1] and symbols[0] is not Symbol.ELEPHANT:
                raise reader.fail(
                    f"{where}.symbols",
                    "a coloured card shows two different symbols or two elephants",
                )
        reader.add(cards, card_id, Card(card_id, colour, symbols), where)
    if len(cards) != 96:
        raise reader.fail("cards", f"expected 96 regular cards, found {len(cards)}")
    for colour in CardColour:
        count = sum(1 for card in cards.values() if card.colour is colour)
        expected = 12 if colour is CardColour.WHITE else 21
        if count != expected:
            raise reader.fail("cards", f"expected {expected} {colour.value} cards, found {count}")
    return cards


_SPECIAL_SYMBOLS: dict[SpecialKind, tuple[Symbol, ...]] = {
    SpecialKind.ELEPHANT: (Symbol.ELEPHANT,),
    SpecialKind.MOGUL: (Symbol.MOGUL,),
    SpecialKind.PLUS_TWO: (),
    SpecialKind.COLOUR_CHANGE: (),
}


def parse_specials(document: Any) -> dict[CardId, SpecialCard]:
    """The four special cards of ``specials.json``, each earned by one influence symbol.

    The elephant card (earned with two general tiles) and the Grand Mogul card count as
    one symbol of their kind when played; +2 and colour change count none. The checks pin
    down that four different symbols earn them and generals the elephant card.

    Implements: TM.COMP.SPECIALS, TM.SPECIAL.ELEPHANT, TM.SPECIAL.MOGUL
    """
    reader = _Reader("specials.json")
    specials: dict[CardId, SpecialCard] = {}
    for where, item, card_id in reader.entries(document, "specials"):
        kind = reader.enum(SpecialKind, reader.text(item, "kind", where), f"{where}.kind")
        earned_by = reader.enum(Symbol, reader.text(item, "earned_by", where), f"{where}.earned_by")
        special = SpecialCard(card_id, kind, earned_by, _SPECIAL_SYMBOLS[kind])
        reader.add(specials, card_id, special, where)
    if len(specials) != 4:
        raise reader.fail("specials", f"expected 4 special cards, found {len(specials)}")
    if {special.kind for special in specials.values()} != set(SpecialKind):
        raise reader.fail("specials", "each of the four special kinds must appear once")
    earners = [special.earned_by for special in specials.values()]
    if sorted(symbol.value for symbol in earners) != sorted(
        symbol.value for symbol in (Symbol.VIZIER, Symbol.GENERAL, Symbol.MONK, Symbol.PRINCESS)
    ):
        raise reader.fail(
            "specials", "each of vizier, general, monk and princess must earn one special card"
        )
    for special in specials.values():
        if special.kind is SpecialKind.ELEPHANT and special.earned_by is not Symbol.GENERAL:
            raise reader.fail(
                "specials", "the elephant special card is earned with two general tiles"
            )
    return specials


def parse_province_tiles(document: Any) -> dict[ProvinceTileId, ProvinceTile]:
    """The twelve province tiles of ``province_tiles.json``, numbered by visit, with goods.

    Tile ``n`` lies in the court during visit ``n``; its goods score when it is won. Tile 1
    shows one good and every other tile two, the same good twice included: no rulebook
    rules that out (RUL.COMPONENTS.PROVINCE_TILES).

    Implements: TM.COMP.PROVINCE_TILES, RUL.COMPONENTS.PROVINCE_TILES
    """
    reader = _Reader("province_tiles.json")
    tiles: dict[ProvinceTileId, ProvinceTile] = {}
    for where, item, tile_id in reader.entries(document, "tiles"):
        number = reader.integer(item, "number", where)
        raw_goods = reader.items(item.get("goods"), f"{where}.goods")
        goods = tuple(
            reader.enum(Good, value, f"{where}.goods[{index}]")
            for index, value in enumerate(raw_goods)
        )
        expected = 1 if number == 1 else 2
        if len(goods) != expected:
            shows = "1 good" if expected == 1 else f"{expected} goods"
            raise reader.fail(f"{where}.goods", f"province tile {number} shows {shows}")
        reader.add(tiles, tile_id, ProvinceTile(tile_id, number, goods), where)
    numbers = sorted(tile.number for tile in tiles.values())
    if numbers != list(range(1, 13)):
        raise reader.fail("tiles", "expected 12 province tiles numbered 1 to 12, each once")
    return tiles


def parse_bonus_tiles(document: Any) -> dict[BonusTileId, BonusTile]:
    """The 16 bonus tiles of ``bonus_tiles.json``: the Taj Mahal tile and 15 square ones.

    The Taj Mahal tile is worth 4 points and a points tile 2; a card tile draws a card and
    a good tile scores like a good. The count check catches a lost or doubled tile.

    Implements: TM.COMP.BONUS_TILES
    """
    reader = _Reader("bonus_tiles.json")
    tiles: dict[BonusTileId, BonusTile] = {}
    for where, item, tile_id in reader.entries(document, "tiles"):
        kind = reader.enum(BonusKind, reader.text(item, "kind", where), f"{where}.kind")
        good: Good | None = None
        points = 0
        if kind is BonusKind.TAJ_MAHAL:
            points = 4
        elif kind is BonusKind.POINTS:
            points = 2
        elif kind is BonusKind.GOOD:
            good = reader.enum(Good, reader.text(item, "good", where), f"{where}.good")
        reader.add(tiles, tile_id, BonusTile(tile_id, kind, points, good), where)
    taj = [tile for tile in tiles.values() if tile.kind is BonusKind.TAJ_MAHAL]
    if len(taj) != 1:
        raise reader.fail("tiles", f"expected exactly one Taj Mahal tile, found {len(taj)}")
    if len(tiles) != 16:
        raise reader.fail(
            "tiles", f"expected 16 bonus tiles (15 square + Taj Mahal), found {len(tiles)}"
        )
    return tiles


__all__ = [
    "parse_bonus_tiles",
    "parse_cards",
    "parse_province_tiles",
    "parse_specials",
]
