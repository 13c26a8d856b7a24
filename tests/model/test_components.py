"""Components as data: the embedded set, and a user's own files validated against every
confirmed fact (errors name the file and field)."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from tajmahal.errors import ComponentError
from tajmahal.model import (
    BonusKind,
    CardColour,
    SpecialKind,
    Symbol,
    default_components,
    load_components,
)

COMPONENTS = default_components()


def _packaged(name: str) -> Any:
    return json.loads(resources.files("tajmahal").joinpath("data", name).read_text())


def _write(folder: Path, name: str, document: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(document), encoding="utf-8")
    return folder


@pytest.mark.clause("TM.COMP.CARDS.COUNT", "TM.COMP.CARDS.SYMBOLS")
def test_embedded_cards_match_the_confirmed_counts() -> None:
    colours = Counter(card.colour for card in COMPONENTS.cards.values())
    assert colours == {
        CardColour.RED: 21,
        CardColour.YELLOW: 21,
        CardColour.GREEN: 21,
        CardColour.VIOLET: 21,
        CardColour.WHITE: 12,
    }
    for card in COMPONENTS.cards.values():
        if card.colour is CardColour.WHITE:
            assert len(card.symbols) == 1
        else:
            assert len(card.symbols) == 2
            first, second = card.symbols
            assert first != second or first is Symbol.ELEPHANT


@pytest.mark.clause("TM.COMP.CARDS.SYMBOLS")
def test_all_six_symbols_appear_on_the_cards() -> None:
    shown = {symbol for card in COMPONENTS.cards.values() for symbol in card.symbols}
    assert shown == set(Symbol)


@pytest.mark.clause("TM.COMP.SPECIALS", "TM.SPECIAL.ELEPHANT", "TM.SPECIAL.MOGUL")
def test_four_special_cards_with_their_symbols() -> None:
    kinds = {special.kind: special for special in COMPONENTS.specials.values()}
    assert set(kinds) == set(SpecialKind)
    assert kinds[SpecialKind.ELEPHANT].symbols == (Symbol.ELEPHANT,)
    assert kinds[SpecialKind.MOGUL].symbols == (Symbol.MOGUL,)
    assert kinds[SpecialKind.PLUS_TWO].symbols == ()
    assert kinds[SpecialKind.COLOUR_CHANGE].symbols == ()
    assert kinds[SpecialKind.ELEPHANT].earned_by is Symbol.GENERAL


@pytest.mark.clause("TM.COMP.PROVINCE_TILES")
def test_province_tiles_one_good_on_tile_one_two_on_the_others() -> None:
    tiles = sorted(COMPONENTS.province_tiles.values(), key=lambda tile: tile.number)
    assert [tile.number for tile in tiles] == list(range(1, 13))
    assert len(tiles[0].goods) == 1
    assert all(len(tile.goods) == 2 and len(set(tile.goods)) == 2 for tile in tiles[1:])


@pytest.mark.clause("TM.COMP.BONUS_TILES")
def test_bonus_tiles_taj_mahal_and_fifteen_squares_of_three_kinds() -> None:
    kinds = Counter(tile.kind for tile in COMPONENTS.bonus_tiles.values())
    assert kinds[BonusKind.TAJ_MAHAL] == 1
    assert sum(kinds.values()) == 16
    assert set(kinds) == {BonusKind.TAJ_MAHAL, BonusKind.POINTS, BonusKind.CARD, BonusKind.GOOD}
    assert COMPONENTS.taj_mahal_tile.points == 4
    assert all(
        tile.points == 2
        for tile in COMPONENTS.bonus_tiles.values()
        if tile.kind is BonusKind.POINTS
    )


@pytest.mark.clause("TM.COMP.CARDS.COUNT")
def test_a_folder_replaces_only_the_files_it_holds(tmp_path: Path) -> None:
    cards = _packaged("cards.json")
    cards["cards"][0]["symbols"] = ["vizier", "monk"]  # red-01 differs from the default
    loaded = load_components(_write(tmp_path, "cards.json", cards))
    assert loaded.name == "custom"
    assert loaded.digest != COMPONENTS.digest
    assert loaded.cards["red-01"].symbols == (Symbol.VIZIER, Symbol.MONK)
    assert loaded.board.agra == COMPONENTS.board.agra  # the default board is kept


@pytest.mark.clause("TM.COMP.CARDS.COUNT", "TM.COMP.CARDS.SYMBOLS")
@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["cards"].pop(), "expected 96 regular cards"),
        (lambda d: d["cards"][0].update(symbols=["monk", "monk"]), r"cards\[0\]\.symbols"),
        (lambda d: d["cards"][0].update(symbols=["monk"]), "exactly two symbols"),
        (lambda d: d["cards"][0].update(colour="blue"), r"cards\[0\]\.colour"),
        (lambda d: d["cards"][1].update(id="red-01"), "duplicate id"),
        (lambda d: d["cards"][0].update(colour="yellow"), "expected 21 red"),
    ],
)
def test_bad_cards_are_refused_naming_file_and_field(
    tmp_path: Path, mutate: Any, message: str
) -> None:
    cards = _packaged("cards.json")
    mutate(cards)
    with pytest.raises(ComponentError, match=message) as error:
        load_components(_write(tmp_path, "cards.json", cards))
    assert str(error.value).startswith("cards.json:")


@pytest.mark.clause("TM.COMP.SPECIALS")
def test_elephant_special_must_be_earned_by_generals(tmp_path: Path) -> None:
    specials = _packaged("specials.json")
    earners = {s["kind"]: s for s in specials["specials"]}
    earners["elephant"]["earned_by"], earners["mogul"]["earned_by"] = "vizier", "general"
    with pytest.raises(ComponentError, match="two general tiles"):
        load_components(_write(tmp_path, "specials.json", specials))


@pytest.mark.clause("TM.COMP.PROVINCE_TILES")
def test_province_tile_two_with_one_good_is_refused(tmp_path: Path) -> None:
    tiles = _packaged("province_tiles.json")
    tiles["tiles"][1]["goods"] = ["tea"]
    with pytest.raises(ComponentError, match=r"province_tiles\.json: tiles\[1\]\.goods"):
        load_components(_write(tmp_path, "province_tiles.json", tiles))


@pytest.mark.clause("TM.COMP.BONUS_TILES")
def test_two_taj_mahal_tiles_are_refused(tmp_path: Path) -> None:
    tiles = _packaged("bonus_tiles.json")
    tiles["tiles"][1] = {"id": "bonus-01", "kind": "taj-mahal"}
    with pytest.raises(ComponentError, match="exactly one Taj Mahal tile"):
        load_components(_write(tmp_path, "bonus_tiles.json", tiles))


def test_malformed_json_and_missing_folder_are_clear_errors(tmp_path: Path) -> None:
    (tmp_path / "board.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ComponentError, match=r"board\.json: not valid JSON \(line 1"):
        load_components(tmp_path)
    with pytest.raises(ComponentError, match="not a folder"):
        load_components(tmp_path / "missing")


@pytest.mark.clause("TM.COMP.BOARD.ROADS")
def test_declared_province_neighbours_must_be_joined_by_a_road(tmp_path: Path) -> None:
    board = _packaged("board.json")
    board["province_neighbours"].append(["A", "L"])
    with pytest.raises(ComponentError, match=r"province_neighbours\[\d+\]: .*no road joins"):
        load_components(_write(tmp_path, "board.json", board))
    board["province_neighbours"][-1] = ["A", "A"]
    with pytest.raises(ComponentError, match="two different province ids"):
        load_components(_write(tmp_path, "board.json", board))


@pytest.mark.clause("TM.COMP.CARDS.COUNT", "TM.COMP.BOARD.CITIES")
@pytest.mark.parametrize(
    ("name", "mutate", "field"),
    [
        ("cards.json", lambda d: d["cards"][0].update(id="red 01"), r"cards\[0\]\.id"),
        ("bonus_tiles.json", lambda d: d["tiles"][1].update(id="-bonus"), r"tiles\[1\]\.id"),
        ("board.json", lambda d: d["cities"][0].update(id="A 1"), r"cities\[0\]\.id"),
        ("board.json", lambda d: d["provinces"][0].update(id="A/"), r"provinces\[0\]\.id"),
    ],
)
def test_ids_that_would_break_action_strings_are_refused(
    tmp_path: Path, name: str, mutate: Any, field: str
) -> None:
    document = _packaged(name)
    mutate(document)
    with pytest.raises(ComponentError, match=rf"{name}: {field}: .* is not a valid id"):
        load_components(_write(tmp_path, name, document))
