"""Rulings on the component data: the embedded reconstruction matches what each ruling
describes, and a user's own files replace it (rulings/TESTS.md, section
test_ruling_components.py)."""

from __future__ import annotations

import copy
import itertools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from positions import (
    COMPONENTS,
    SMALL_HANDS,
    finish_visit,
    outcome,
    player,
    run,
    table,
    with_hands,
    with_palaces,
    with_played,
    with_player,
)

from tajmahal.engine import new_game, palace_cities, random_setup
from tajmahal.errors import ComponentError
from tajmahal.model import (
    COLOURS,
    INFLUENCE_TILES_PER_KIND,
    BonusKind,
    CardColour,
    Components,
    Good,
    SpecialKind,
    Step,
    Symbol,
    load_components,
)

V, G, M, P = Symbol.VIZIER, Symbol.GENERAL, Symbol.MONK, Symbol.PRINCESS
E, MOGUL = Symbol.ELEPHANT, Symbol.MOGUL

Point = tuple[float, float]


def _document(name: str) -> Any:
    """A fresh, modifiable copy of one embedded component file."""
    return copy.deepcopy(COMPONENTS.to_json()[name])


def _write(folder: Path, name: str, document: Any) -> None:
    (folder / name).write_text(json.dumps(document, indent=1), encoding="utf-8")


def _cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether segments p1-p2 and q1-q2 cross at a point inside both."""

    def turn(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = turn(p1, p2, q1), turn(p1, p2, q2)
    d3, d4 = turn(q1, q2, p1), turn(q1, q2, p2)
    return d1 * d2 < 0 and d3 * d4 < 0


# ---------------------------------------------------------------------------------------
# RUL.COMPONENTS.BOARD


@pytest.mark.clause("TM.COMP.BOARD.PROVINCES", "TM.COMP.BOARD.CITIES", "TM.COMP.BOARD.ROADS")
def test_board_confirmed_counts() -> None:
    """RUL.COMPONENTS.BOARD: the counts the rulebooks confirm."""
    board = COMPONENTS.board
    assert sorted(board.provinces) == list("ABCDEFGHIJKL")
    assert board.agra_province == "L"
    for province in board.provinces.values():
        assert len(province.cities) == (5 if province.id == "L" else 4)
        assert all(board.cities[city].province == province.id for city in province.cities)
    assert len(board.cities) == 49
    assert board.cities[board.agra].fortress
    assert board.cities[board.agra].name == "Agra"


@pytest.mark.clause("TM.COMP.BOARD.PROVINCES", "TM.COMP.BOARD.CITIES", "TM.COMP.BOARD.ROADS")
def test_board_reconstruction_shape() -> None:
    """RUL.COMPONENTS.BOARD: a labelled reconstruction shaped like a printable board."""
    board = COMPONENTS.board
    document = _document("board.json")
    assert COMPONENTS.name == "reference-reconstruction"
    assert board.name == document["name"] == "reference-reconstruction"
    assert "reconstruction" in document["note"]
    graph = board.graph()
    # Each province's cities are joined in a ring.
    for province in board.provinces.values():
        ring = graph.subgraph(province.cities)
        assert nx.is_connected(ring)
        assert all(degree == 2 for _, degree in ring.degree())
    # Planar and connected, and drawn without crossing roads.
    assert nx.is_connected(graph)
    planar, _ = nx.check_planarity(graph)
    assert planar
    where = {city.id: (city.x, city.y) for city in board.cities.values()}
    for one, two in itertools.combinations(sorted(tuple(sorted(r)) for r in board.roads), 2):
        if set(one) & set(two):
            continue
        assert not _cross(where[one[0]], where[one[1]], where[two[0]], where[two[1]]), (one, two)
    # Only listed neighbour provinces are joined, by 1 to 3 roads each.
    between: Counter[frozenset[str]] = Counter()
    for road in board.roads:
        provinces = frozenset(board.cities[city].province for city in road)
        if len(provinces) == 2:
            between[provinces] += 1
    listed = {frozenset(pair) for pair in document["province_neighbours"]}
    assert set(between) == listed
    assert all(1 <= count <= 3 for count in between.values())
    # The north-west (A, B) is sparsely connected.
    out = {p: sum(n for pair, n in between.items() if p in pair) for p in board.provinces}
    others = [out[p] for p in board.provinces if p not in ("A", "B")]
    average = sum(others) / len(others)
    assert out["A"] < average and out["B"] < average
    # Agra lies east and south of the board's centre (y grows northwards).
    xs = [x for x, _ in where.values()]
    ys = [y for _, y in where.values()]
    agra = where[board.agra]
    assert agra[0] > (min(xs) + max(xs)) / 2
    assert agra[1] < (min(ys) + max(ys)) / 2


def _palace_points(components: Components, earlier: str, city: str) -> int:
    """A owns a palace in ``earlier`` (province A) and, in visit 1 (province B), wins the
    vizier alone and places its palace in ``city``: the points A scores."""
    state = new_game(components, 4, outcome(4, order="BACDEFGHIJK"))
    state = with_hands(state, SMALL_HANDS[:4])
    state = with_played(state, 0, ("red-07",))  # elephant + vizier
    state = with_played(state, 1, ("yellow-19",))  # two elephants: A wins no province tile
    state = with_palaces(state, (earlier, 0))
    state = run(state, "withdraw")
    assert city in palace_cities(state, 0)
    before = player(state, 0).score
    state = run(state, f"palace {city}")
    assert state.config.components == components
    return player(state, 0).score - before


@pytest.mark.clause("TM.COMP.BOARD.PROVINCES", "TM.COMP.BOARD.CITIES", "TM.COMP.BOARD.ROADS")
def test_board_replaceable_with_components_folder(tmp_path: Path) -> None:
    """RUL.COMPONENTS.BOARD: a user's board.json replaces the embedded board."""
    document = _document("board.json")
    assert ["A2", "B1"] in document["roads"] and ["A3", "B4"] not in document["roads"]
    document["roads"].remove(["A2", "B1"])
    document["roads"].append(["A3", "B4"])
    document["name"] = "my-board"
    _write(tmp_path, "board.json", document)
    custom = load_components(tmp_path)
    assert custom.name == "custom"
    assert custom.digest != COMPONENTS.digest
    assert custom.board.name == "my-board"
    assert "B4" in custom.board.neighbours["A3"] and "B1" not in custom.board.neighbours["A2"]
    # Chain scoring follows the moved road.
    assert _palace_points(COMPONENTS, "A3", "B4") == 1
    assert _palace_points(custom, "A3", "B4") == 2
    assert _palace_points(COMPONENTS, "A2", "B1") == 2
    assert _palace_points(custom, "A2", "B1") == 1
    # A broken file is refused with an error naming the file and the field.
    document["roads"].append(["A3", "Z9"])
    _write(tmp_path, "board.json", document)
    with pytest.raises(ComponentError, match=r"board\.json: roads\[\d+\]"):
        load_components(tmp_path)


# ---------------------------------------------------------------------------------------
# RUL.COMPONENTS.FORTRESSES


@pytest.mark.clause("TM.COMP.BOARD.FORTRESSES")
def test_fortress_reconstruction() -> None:
    """RUL.COMPONENTS.FORTRESSES: 16 flagged fortresses, Agra included, spread unevenly."""
    board = COMPONENTS.board
    # The reconstruction's 16 fortresses, written out here so that a change to the data is
    # a deliberate change to this test too.
    flagged = {"Agra", "B3", "C1", "C3", "D2", "E2", "E4", "F4", "G1", "G3", "H2", "H4"}
    flagged |= {"I3", "K2", "K4", "L4"}
    assert board.fortresses == flagged
    assert len(flagged) == 16
    assert board.agra in flagged
    per_province = Counter(board.cities[city].province for city in flagged)
    counts = [per_province.get(p, 0) for p in board.provinces]
    assert counts.count(0) >= 2
    assert max(counts) >= 2


# ---------------------------------------------------------------------------------------
# RUL.COMPONENTS.TWENTY_FIRST_CARD, TWO_CHARACTER_CARDS, WHITE_CARDS


@pytest.mark.clause("TM.COMP.CARDS.SYMBOLS", "TM.COMP.CARDS.COUNT")
def test_twenty_first_card_is_elephant_mogul() -> None:
    """RUL.COMPONENTS.TWENTY_FIRST_CARD: the 21st card of each colour is elephant + Mogul."""
    for colour in COLOURS:
        cards = [card for card in COMPONENTS.cards.values() if card.colour is colour]
        assert len(cards) == 21
        assert Counter(COMPONENTS.cards[f"{colour.value}-21"].symbols) == Counter((E, MOGUL))
        assert sum(1 for card in cards if Counter(card.symbols) == Counter((E, MOGUL))) == 3


@pytest.mark.clause("TM.COMP.CARDS.SYMBOLS")
def test_two_character_cards_form_cycle() -> None:
    """RUL.COMPONENTS.TWO_CHARACTER_CARDS: the cycle VG, GM, MP, PV."""
    expected = [{V, G}, {G, M}, {M, P}, {P, V}]
    for colour in COLOURS:
        pairs = [set(COMPONENTS.cards[f"{colour.value}-0{n}"].symbols) for n in range(1, 5)]
        assert pairs == expected
        # No other card of the colour shows two characters.
        others = [
            card
            for card in COMPONENTS.cards.values()
            if card.colour is colour and E not in card.symbols and MOGUL not in card.symbols
        ]
        assert sorted(card.id for card in others) == [f"{colour.value}-0{n}" for n in range(1, 5)]
        # Each character appears twice, and the pairs close a single cycle.
        assert Counter(s for pair in pairs for s in pair) == Counter({V: 2, G: 2, M: 2, P: 2})
        cycle = nx.Graph([tuple(pair) for pair in pairs])
        assert nx.is_connected(cycle) and all(d == 2 for _, d in cycle.degree())


@pytest.mark.clause("TM.COMP.CARDS.SYMBOLS")
def test_white_cards_one_each_and_seven_elephants() -> None:
    """RUL.COMPONENTS.WHITE_CARDS: one of each character and the Mogul, and 7 elephants."""
    whites = [card for card in COMPONENTS.cards.values() if card.colour is CardColour.WHITE]
    assert len(whites) == 12
    assert all(len(card.symbols) == 1 for card in whites)
    shown = Counter(card.symbols[0] for card in whites)
    assert shown == Counter({V: 1, G: 1, M: 1, P: 1, MOGUL: 1, E: 7})


# ---------------------------------------------------------------------------------------
# RUL.COMPONENTS.BONUS_MIX


@pytest.mark.clause("TM.COMP.BONUS_TILES")
def test_bonus_mix_counts() -> None:
    """RUL.COMPONENTS.BONUS_MIX: 1 Taj Mahal, 3 x +2, 4 card and 8 goods tiles."""
    tiles = COMPONENTS.bonus_tiles.values()
    kinds = Counter(tile.kind for tile in tiles)
    assert kinds == Counter(
        {BonusKind.TAJ_MAHAL: 1, BonusKind.POINTS: 3, BonusKind.CARD: 4, BonusKind.GOOD: 8}
    )
    goods = Counter(tile.good for tile in tiles if tile.kind is BonusKind.GOOD)
    assert goods == Counter({good: 2 for good in Good})
    assert {tile.points for tile in tiles if tile.kind is BonusKind.POINTS} == {2}
    assert COMPONENTS.taj_mahal_tile.points == 4


@pytest.mark.clause("TM.COMP.BONUS_TILES")
def test_bonus_mix_replaceable(tmp_path: Path) -> None:
    """RUL.COMPONENTS.BONUS_MIX: a user's bonus_tiles.json replaces the mix."""
    goods = ["rice", "tea", "spices", "jewels", "rice"]
    tiles: list[dict[str, str]] = [{"id": "taj", "kind": "taj-mahal"}]
    tiles += [{"id": f"points-{n}", "kind": "points"} for n in range(5)]
    tiles += [{"id": f"card-{n}", "kind": "card"} for n in range(5)]
    tiles += [{"id": f"good-{n}", "kind": "good", "good": good} for n, good in enumerate(goods)]
    _write(tmp_path, "bonus_tiles.json", {"tiles": tiles})
    custom = load_components(tmp_path)
    assert custom.name == "custom" and custom.digest != COMPONENTS.digest
    kinds = Counter(tile.kind for tile in custom.bonus_tiles.values())
    assert kinds == Counter(
        {BonusKind.TAJ_MAHAL: 1, BonusKind.POINTS: 5, BonusKind.CARD: 5, BonusKind.GOOD: 5}
    )
    # Used at setup: the fortresses hold the user's tiles, the Taj Mahal tile on Agra.
    state = new_game(custom, 4, random_setup(custom, 4, 11))
    on_board = dict(state.bonus_on_board)
    assert set(on_board) == set(custom.board.fortresses)
    assert sorted(on_board.values()) == sorted(tile["id"] for tile in tiles)
    assert on_board[custom.board.agra] == "taj"
    assert Counter(custom.bonus_tiles[t].kind for t in on_board.values()) == kinds
    # A broken file is refused with an error naming the file and the field.
    tiles[3]["kind"] = "treasure"
    _write(tmp_path, "bonus_tiles.json", {"tiles": tiles})
    with pytest.raises(ComponentError, match=r"bonus_tiles\.json: tiles\[3\]\.kind"):
        load_components(tmp_path)


# ---------------------------------------------------------------------------------------
# RUL.COMPONENTS.SPECIAL_EARNERS


@pytest.mark.clause("TM.COMP.SPECIALS", "TM.SPECIAL.EARN")
def test_special_earners_mapping() -> None:
    """RUL.COMPONENTS.SPECIAL_EARNERS: G -> elephant, P -> +2, V -> Mogul, M -> colour change."""
    earned = {symbol: COMPONENTS.special_earned_by(symbol).kind for symbol in (V, G, M, P)}
    assert earned == {
        G: SpecialKind.ELEPHANT,
        P: SpecialKind.PLUS_TWO,
        V: SpecialKind.MOGUL,
        M: SpecialKind.COLOUR_CHANGE,
    }
    raw = {s["kind"]: s["earned_by"] for s in _document("specials.json")["specials"]}
    assert raw == {
        "elephant": "general",
        "plus-two": "princess",
        "mogul": "vizier",
        "colour-change": "monk",
    }


@pytest.mark.clause("TM.COMP.SPECIALS", "TM.SPECIAL.EARN")
def test_special_earners_replaceable(tmp_path: Path) -> None:
    """RUL.COMPONENTS.SPECIAL_EARNERS: a user's specials.json replaces the mapping."""
    document = _document("specials.json")
    for special in document["specials"]:
        if special["earned_by"] in ("vizier", "monk"):
            special["earned_by"] = "monk" if special["earned_by"] == "vizier" else "vizier"
    _write(tmp_path, "specials.json", document)
    custom = load_components(tmp_path)
    assert custom.name == "custom" and custom.digest != COMPONENTS.digest
    assert custom.special_earned_by(V).kind is SpecialKind.COLOUR_CHANGE
    assert custom.special_earned_by(M).kind is SpecialKind.MOGUL
    colour_change = custom.special_of_kind(SpecialKind.COLOUR_CHANGE).id
    mogul = custom.special_of_kind(SpecialKind.MOGUL).id
    # A holds one vizier tile and wins a second one in visit 1.
    state = new_game(custom, 4, outcome(4))
    state = with_hands(state, SMALL_HANDS[:4])
    state = with_played(state, 0, ("red-07", "white-01"))  # elephant + vizier, vizier
    state = with_played(state, 1, ("yellow-19",))
    state = with_player(state, 0, influence=(V,))
    state = run(state, "withdraw", "palace A1")
    state = finish_visit(state)
    assert state.visit == 2
    assert colour_change in player(state, 0).hand
    assert mogul not in player(state, 0).hand and mogul in state.specials_on_table
    assert player(state, 0).influence == ()
    # A broken file is refused with an error naming the file and the field.
    document["specials"][1]["kind"] = "teleport"
    _write(tmp_path, "specials.json", document)
    with pytest.raises(ComponentError, match=r"specials\.json: specials\[1\]\.kind"):
        load_components(tmp_path)


# ---------------------------------------------------------------------------------------
# RUL.COMPONENTS.PROVINCE_TILES


@pytest.mark.clause("RUL.COMPONENTS.PROVINCE_TILES")
def test_province_tile_goods() -> None:
    """RUL.COMPONENTS.PROVINCE_TILES: the goods of the single secondary source."""
    goods = {n: COMPONENTS.province_tile_number(n).goods for n in range(1, 13)}
    assert goods[1] == (Good.RICE,)
    for number in range(2, 13):
        assert len(goods[number]) == 2 and len(set(goods[number])) == 2
    assert set(goods[12]) == {Good.RICE, Good.SPICES}
    totals = Counter(good for tile in goods.values() for good in tile)
    assert totals == Counter({Good.RICE: 7, Good.TEA: 5, Good.SPICES: 6, Good.JEWELS: 5})


# ---------------------------------------------------------------------------------------
# RUL.COMPONENTS.INFLUENCE_TILES


@pytest.mark.clause(
    "TM.COMP.INFLUENCE_TILES", "RUL.COMPONENTS.INFLUENCE_TILES", "TM.SETUP.COURT.INFLUENCE"
)
def test_influence_tiles_six_of_each_kind() -> None:
    """RUL.COMPONENTS.INFLUENCE_TILES: 24 tiles, six of each of the four kinds; a new game
    puts one of each kind in the court."""
    kinds = (Symbol.VIZIER, Symbol.GENERAL, Symbol.MONK, Symbol.PRINCESS)
    assert INFLUENCE_TILES_PER_KIND == 6
    assert INFLUENCE_TILES_PER_KIND * len(kinds) == 24
    state = table()
    assert sorted(state.court_influence, key=kinds.index) == list(kinds)
    assert all(p.influence == () for p in state.players)


# ---------------------------------------------------------------------------------------
# RUL.COMPONENTS.PALACES_UNLIMITED


@pytest.mark.clause("TM.COMP.PALACES.UNLIMITED", "TM.REWARD.INFLUENCE.PALACE")
def test_palaces_never_run_out() -> None:
    """RUL.COMPONENTS.PALACES_UNLIMITED: 5 players; A already has 25 palaces on the board
    (more than the 20 of a colour) and still places one for the vizier won."""
    state = table(("red-07", "white-01"), ("yellow-19",), players=5)
    board = COMPONENTS.board
    here = board.provinces[state.current_province].cities
    elsewhere = [city for city in sorted(board.cities) if city not in here]
    state = with_palaces(state, *((city, 0) for city in elsewhere[:25]))
    assert sum(1 for p in state.palaces if p.seat == 0) == 25
    state = run(state, "withdraw")
    assert state.step is Step.PLACE and state.to_move == 0
    assert set(palace_cities(state, 0)) == set(here)
    state = run(state, f"palace {here[0]}")
    assert sum(1 for p in state.palaces if p.seat == 0) == 26


def _doubled_rice(folder: Path) -> Components:
    """The reference components with province tile 2 showing rice twice."""
    tiles = _document("province_tiles.json")
    second = next(tile for tile in tiles["tiles"] if tile["number"] == 2)
    second["goods"] = ["rice", "rice"]
    _write(folder, "province_tiles.json", tiles)
    return load_components(folder)


@pytest.mark.clause("RUL.COMPONENTS.PROVINCE_TILES", "TM.COMP.PROVINCE_TILES")
def test_a_province_tile_may_show_one_good_twice(tmp_path: Path) -> None:
    """RUL.COMPONENTS.PROVINCE_TILES: no rulebook rules out a tile showing one good twice,
    so a component file with one loads (tile 1 must still show one good, the others two)."""
    components = _doubled_rice(tmp_path)
    assert components.province_tile_number(2).goods == (Good.RICE, Good.RICE)
    assert components.digest != COMPONENTS.digest
    tiles = _document("province_tiles.json")
    next(tile for tile in tiles["tiles"] if tile["number"] == 2)["goods"] = ["rice"]
    _write(tmp_path, "province_tiles.json", tiles)
    with pytest.raises(ComponentError, match="province tile 2 shows 2 good"):
        load_components(tmp_path)
