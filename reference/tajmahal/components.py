"""Components as data: cards, special cards, province tiles, bonus tiles and the board.

The embedded defaults live in ``tajmahal/data/*.json``. Where the published sources do
not say what is printed (see the ``RUL.COMPONENTS.*`` rulings), the defaults are a
labelled reconstruction. A user who owns the game can point :func:`load_components` at
a folder with their own files (any subset of the five; the rest come from the
defaults). Every file is validated against every confirmed fact, and an error names
the file and the field.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

import attrs

from tajmahal.board import ID_PATTERN, ID_RULE, Board, City, Province, board_from_json
from tajmahal.errors import ComponentError
from tajmahal.inputs import COMPONENT_LIMITS, InputError, read_json, read_json_text
from tajmahal.symbols import SYMBOL_INDEX, BonusKind, CardColour, Good, SpecialKind, Symbol

CardId = str
"""Stable id of a regular or special card, e.g. ``red-07``, ``white-03``, ``special-mogul``."""
BonusTileId = str
"""Stable id of a bonus tile, e.g. ``bonus-taj-mahal`` or ``bonus-07``."""
ProvinceTileId = str
"""Stable id of a province tile, e.g. ``province-09``."""

COMPONENT_FILES: tuple[str, ...] = (
    "cards.json",
    "specials.json",
    "province_tiles.json",
    "bonus_tiles.json",
    "board.json",
)
"""The files that make up a component set, in the order they are digested."""


@attrs.frozen
class Card:
    """A regular card: a colour (or white) and its symbols (two on coloured, one on white)."""

    id: CardId
    """Stable id used in records, errors and docs."""
    colour: CardColour
    """The card's colour; ``WHITE`` for the 12 white cards."""
    symbols: tuple[Symbol, ...]
    """The printed symbols; a symbol printed twice appears twice."""


@attrs.frozen
class SpecialCard:
    """One of the four special cards, played like a white card and kept after a visit."""

    id: CardId
    """Stable id, e.g. ``special-elephant``."""
    kind: SpecialKind
    """Its effect when played."""
    earned_by: Symbol
    """The influence tile of which two are exchanged for this card."""
    symbols: tuple[Symbol, ...]
    """Symbols it counts as when played (one elephant or one Grand Mogul, or none)."""


@attrs.frozen
class ProvinceTile:
    """An octagonal province tile: its number is the visit in which its province is visited."""

    id: ProvinceTileId
    """Stable id, e.g. ``province-09``."""
    number: int
    """1 to 12; tile 12 always lies on Agra's province."""
    goods: tuple[Good, ...]
    """One good on tile 1, two different goods on the others."""


@attrs.frozen
class BonusTile:
    """A bonus tile lying on a fortress until a normal palace is placed there."""

    id: BonusTileId
    """Stable id, e.g. ``bonus-taj-mahal`` or ``bonus-07``."""
    kind: BonusKind
    """What it gives."""
    points: int = 0
    """Points it scores at once (4 for the Taj Mahal, 2 for a +2 tile, else 0)."""
    good: Good | None = None
    """The good on a goods tile; None for other kinds."""


def _digest(documents: Mapping[str, Any]) -> str:
    blob = json.dumps(documents, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()


@attrs.frozen(eq=False, slots=False)
class Components:
    """A complete, validated component set.

    Two component sets are equal when their digests are equal, so states can be compared
    and hashed cheaply however large the board is.
    """

    name: str
    """A short label: ``reference-reconstruction`` for the embedded defaults."""
    digest: str
    """``sha256:`` over the canonical JSON of the five documents; recorded in every trace."""
    cards: Mapping[CardId, Card]
    """The 96 regular cards by id."""
    specials: Mapping[CardId, SpecialCard]
    """The 4 special cards by id."""
    province_tiles: Mapping[ProvinceTileId, ProvinceTile]
    """The 12 province tiles by id."""
    bonus_tiles: Mapping[BonusTileId, BonusTile]
    """The 16 bonus tiles by id (the Taj Mahal tile included)."""
    board: Board
    """Provinces, cities, fortresses and roads."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Components) and other.digest == self.digest

    def __hash__(self) -> int:
        return hash(self.digest)

    @functools.cached_property
    def symbol_positions(self) -> Mapping[CardId, tuple[int, ...]]:
        """For every card (regular and special), the positions in canonical symbol order
        of the symbols it counts: a table built once, so that counting majorities does
        not look cards up symbol by symbol."""
        order = SYMBOL_INDEX
        table = {card.id: tuple(order[s] for s in card.symbols) for card in self.cards.values()}
        table.update(
            {
                special.id: tuple(order[s] for s in special.symbols)
                for special in self.specials.values()
            }
        )
        return MappingProxyType(table)

    @functools.cached_property
    def card_colours(self) -> Mapping[CardId, CardColour | None]:
        """For every card, its colour (``WHITE`` for white cards, None for the special
        cards): a table built once, so that listing plays does not look cards up one
        attribute at a time."""
        table: dict[CardId, CardColour | None] = dict.fromkeys(self.specials)
        table.update((card.id, card.colour) for card in self.cards.values())
        return MappingProxyType(table)

    @functools.cached_property
    def _specials_by_kind(self) -> Mapping[SpecialKind, SpecialCard]:
        """The special cards by effect (the first one listed, should two share one)."""
        table: dict[SpecialKind, SpecialCard] = {}
        for special in self.specials.values():
            table.setdefault(special.kind, special)
        return MappingProxyType(table)

    def card_symbols(self, card_id: CardId) -> tuple[Symbol, ...]:
        """The symbols a played card counts (regular or special)."""
        card = self.cards.get(card_id)
        if card is not None:
            return card.symbols
        return self.specials[card_id].symbols

    def is_special(self, card_id: CardId) -> bool:
        """True if the id names one of the four special cards."""
        return card_id in self.specials

    def special_of_kind(self, kind: SpecialKind) -> SpecialCard:
        """The special card with the given effect."""
        return self._specials_by_kind[kind]

    def special_earned_by(self, symbol: Symbol) -> SpecialCard:
        """The special card exchanged for two influence tiles of ``symbol``."""
        for special in self.specials.values():
            if special.earned_by is symbol:
                return special
        raise KeyError(symbol)

    def province_tile_number(self, number: int) -> ProvinceTile:
        """The province tile bearing ``number`` (1 to 12)."""
        for tile in self.province_tiles.values():
            if tile.number == number:
                return tile
        raise KeyError(number)

    @property
    def taj_mahal_tile(self) -> BonusTile:
        """The bonus tile that always lies on Agra."""
        for tile in self.bonus_tiles.values():
            if tile.kind is BonusKind.TAJ_MAHAL:
                return tile
        raise KeyError("taj-mahal")

    def __deepcopy__(self, memo: dict[int, Any]) -> Components:
        """A component set is immutable: its deep copy is itself."""
        return self

    def __copy__(self) -> Components:
        """A component set is immutable: its copy is itself."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle the embedded defaults by reference to :func:`default_components`, any
        other set by its five documents (validated again when unpickled)."""
        if self.digest == default_components().digest:
            return (default_components, ())
        return (components_from_documents, (self.to_json(), self.name))

    def to_json(self) -> dict[str, Any]:
        """A copy of the five documents as loaded (to write a modified component set)."""
        return {name: json.loads(json.dumps(doc)) for name, doc in self._documents.items()}

    _documents: Mapping[str, Any] = attrs.field(factory=dict, repr=False)


# ---------------------------------------------------------------------------------------
# Parsing helpers: each names file and field on failure.


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


def _parse_cards(document: Any) -> dict[CardId, Card]:
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


def _parse_specials(document: Any) -> dict[CardId, SpecialCard]:
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


def _parse_province_tiles(document: Any) -> dict[ProvinceTileId, ProvinceTile]:
    """The twelve province tiles of ``province_tiles.json``, numbered by visit, with goods.

    Tile ``n`` lies in the court during visit ``n``; its goods score when it is won.

    Implements: TM.COMP.PROVINCE_TILES
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
            raise reader.fail(f"{where}.goods", f"province tile {number} shows {expected} good(s)")
        if len(set(goods)) != len(goods):
            raise reader.fail(f"{where}.goods", "a province tile shows different goods")
        reader.add(tiles, tile_id, ProvinceTile(tile_id, number, goods), where)
    numbers = sorted(tile.number for tile in tiles.values())
    if numbers != list(range(1, 13)):
        raise reader.fail("tiles", "expected 12 province tiles numbered 1 to 12, each once")
    return tiles


def _parse_bonus_tiles(document: Any) -> dict[BonusTileId, BonusTile]:
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


def _read_document(folder: Path | None, name: str) -> Any:
    """One component file: the folder's own if there is an entry of that name (a
    dangling or looping symbolic link is an error, never silently the default), else
    the embedded default. Reading is bounded (see :mod:`tajmahal.inputs`)."""
    try:
        if folder is not None and os.path.lexists(folder / name):
            return read_json(folder / name, COMPONENT_LIMITS)
        text = resources.files("tajmahal").joinpath("data", name).read_text(encoding="utf-8")
        return read_json_text(text, COMPONENT_LIMITS, name)
    except InputError as error:
        raise ComponentError(str(error)) from None


def load_components(folder: str | Path | None = None) -> Components:
    """Load and validate a component set.

    With no folder, the embedded defaults. With a folder, each of the five files found
    there replaces the default of the same name. Raises :class:`ComponentError` naming
    the file and field of the first problem.
    """
    directory: Path | None = None
    if folder is not None:
        directory = Path(folder)
        if not directory.is_dir():
            raise ComponentError(f"{directory}: not a folder of component files")
    documents = {name: _read_document(directory, name) for name in COMPONENT_FILES}
    customised = directory is not None and any(
        os.path.lexists(directory / n) for n in COMPONENT_FILES
    )
    return _parse(documents, "custom" if customised else "reference-reconstruction")


def _parse(documents: dict[str, Any], name: str) -> Components:
    """The component set of the five documents, each parsed and checked (the documents
    are kept as they are: they must be the caller's own copies)."""
    cards = _parse_cards(documents["cards.json"])
    specials = _parse_specials(documents["specials.json"])
    overlap = set(cards) & set(specials)
    if overlap:
        raise ComponentError(
            f"specials.json: specials: id(s) also used by regular cards: {sorted(overlap)}"
        )
    return Components(
        name=name,
        digest=_digest(documents),
        cards=cards,
        specials=specials,
        province_tiles=_parse_province_tiles(documents["province_tiles.json"]),
        bonus_tiles=_parse_bonus_tiles(documents["bonus_tiles.json"]),
        board=board_from_json(documents["board.json"]),
        documents=documents,
    )


_DEFAULT: Components | None = None


def default_components() -> Components:
    """The embedded component set (loaded once and shared; it is immutable)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_components()
    return _DEFAULT


def components_from_documents(documents: Mapping[str, Any], name: str = "custom") -> Components:
    """A component set built from its five documents (as :meth:`Components.to_json` gives
    them), validated like files read by :func:`load_components`."""
    missing = [file for file in COMPONENT_FILES if file not in documents]
    if missing:
        raise ComponentError(f"component documents: missing {', '.join(missing)}")
    copies = {file: json.loads(json.dumps(documents[file])) for file in COMPONENT_FILES}
    return _parse(copies, name)


__all__ = [
    "COMPONENT_FILES",
    "Board",
    "BonusTile",
    "BonusTileId",
    "Card",
    "CardId",
    "City",
    "Components",
    "Province",
    "ProvinceTile",
    "ProvinceTileId",
    "SpecialCard",
    "components_from_documents",
    "default_components",
    "load_components",
]
