"""Components as data: cards, special cards, province tiles, bonus tiles and the board.

The embedded defaults live in ``tajmahal/data/*.json``. Where the published sources do
not say what is printed (see the ``RUL.COMPONENTS.*`` rulings), the defaults are a
labelled reconstruction. A user who owns the game can point :func:`load_components` at
a folder with their own files (any subset of the five; the rest come from the
defaults). Every file is validated against every confirmed fact, and an error names
the file and the field.

This module holds the set as a whole (:class:`Components`: lookup tables, digest,
copying and pickling) and its loading (:func:`load_components`,
:func:`default_components`, :func:`components_from_documents`). The parts themselves
(:class:`~tajmahal.model.Card` and the others) live in
:mod:`tajmahal.model`, the per-document parsing and checks in
:mod:`tajmahal.model`; the parts' names stay importable from here.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import attrs

from tajmahal.errors import ComponentError
from tajmahal.inputs import (
    COMPONENT_LIMITS,
    InputError,
    check_document,
    first_violation,
    read_json,
    read_json_text,
)
from tajmahal.model._board import Board, City, Province, board_from_json, coordinate
from tajmahal.model._parsing import (
    parse_bonus_tiles,
    parse_cards,
    parse_province_tiles,
    parse_specials,
)
from tajmahal.model._parts import (
    BonusTile,
    BonusTileId,
    Card,
    CardId,
    ProvinceTile,
    ProvinceTileId,
    SpecialCard,
)
from tajmahal.model._symbols import BonusKind, SpecialKind, Symbol

COMPONENT_FILES: tuple[str, ...] = (
    "cards.json",
    "specials.json",
    "province_tiles.json",
    "bonus_tiles.json",
    "board.json",
)
"""The files that make up a component set, in the order they are digested."""


SCHEMAS: dict[str, str] = {
    "cards.json": "components-cards",
    "specials.json": "components-specials",
    "province_tiles.json": "components-province-tiles",
    "bonus_tiles.json": "components-bonus-tiles",
    "board.json": "components-board",
}
"""The published schema of each component file (``specs/schemas/``)."""


def _digest(documents: Mapping[str, Any]) -> str:
    """``sha256:`` over the canonical JSON of the five documents, each city's drawing
    coordinates written as :func:`~tajmahal.model._board.coordinate` gives them
    (docs/trace-format.md, "Digests"): the documents are checked against their schemas
    first, so these are the only numbers that are not integers."""
    board = dict(documents["board.json"])
    board["cities"] = [
        {key: coordinate(value) if key in ("x", "y") else value for key, value in city.items()}
        for city in board["cities"]
    ]
    digested = {**documents, "board.json": board}
    blob = json.dumps(digested, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _check_shapes(documents: Mapping[str, Any]) -> None:
    """Refuse a component document that its schema refuses (a field the format does not
    have, above all: its numbers would enter the digest in a form no page describes).
    Run after the parsers, whose messages name the facts they check."""
    for file, name in SCHEMAS.items():
        problem = first_violation(name, documents[file])
        if problem is not None:
            raise ComponentError(f"{file}: {problem.field}: {problem.message}")


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
        """The special card with the given effect (the first one listed, should two share
        one)."""
        for special in self.specials.values():
            if special.kind is kind:
                return special
        raise KeyError(kind)

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
    cards = parse_cards(documents["cards.json"])
    specials = parse_specials(documents["specials.json"])
    overlap = set(cards) & set(specials)
    if overlap:
        raise ComponentError(
            f"specials.json: specials: {'id' if len(overlap) == 1 else 'ids'} also used by regular "
            f"cards: {sorted(overlap)}"
        )
    province_tiles = parse_province_tiles(documents["province_tiles.json"])
    bonus_tiles = parse_bonus_tiles(documents["bonus_tiles.json"])
    board = board_from_json(documents["board.json"])
    _check_shapes(documents)
    return Components(
        name=name,
        digest=_digest(documents),
        cards=cards,
        specials=specials,
        province_tiles=province_tiles,
        bonus_tiles=bonus_tiles,
        board=board,
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
    for file in COMPONENT_FILES:
        try:  # a document built in Python: bounded as if it were read from its file
            check_document(documents[file], COMPONENT_LIMITS, file)
        except InputError as error:
            raise ComponentError(str(error)) from None
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
