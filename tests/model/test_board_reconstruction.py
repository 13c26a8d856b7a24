"""The reconstructed board: confirmed facts, the shape of a real board, and loader errors.

The counts (12 provinces, 49 cities, 16 fortresses with Agra among them) are confirmed
by the rulebooks; the rings inside provinces and the sparse north-west are likely; the
fortress cities and the roads between provinces are a labelled reconstruction (ruling
RUL.COMPONENTS.BOARD). These tests pin the confirmed facts and check that the
reconstruction still looks like a board that could be printed: drawn without crossing
roads, neighbouring provinces joined, some provinces without a fortress.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from tajmahal.errors import ComponentError
from tajmahal.model import Board, load_components
from tajmahal.model._board import board_from_json

Point = tuple[float, float]

MIN_CLEARANCE = 0.5
"""Least distance, in board units, between a city and a road that does not end there."""


def _document() -> dict[str, Any]:
    """A fresh copy of the packaged ``board.json``, safe to modify in a test."""
    # One name per step: works whether or not the package is a namespace package.
    data = resources.files("tajmahal").joinpath("data").joinpath("board.json")
    text = data.read_text(encoding="utf-8")
    document = json.loads(text)
    assert isinstance(document, dict)
    return document


def _board() -> Board:
    """The packaged board, built by the same loader the game uses."""
    return board_from_json(_document())


def _orientation(a: Point, b: Point, c: Point) -> int:
    """Sign of the turn a -> b -> c: 1 left, -1 right, 0 collinear."""
    value = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    if abs(value) < 1e-9:
        return 0
    return 1 if value > 0 else -1


def _on_segment(a: Point, b: Point, p: Point) -> bool:
    """Whether p, known to be collinear with a-b, lies within the segment's bounding box."""
    return (
        min(a[0], b[0]) - 1e-9 <= p[0] <= max(a[0], b[0]) + 1e-9
        and min(a[1], b[1]) - 1e-9 <= p[1] <= max(a[1], b[1]) + 1e-9
    )


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether two road segments meet anywhere other than at a shared end city.

    Roads that share a city are expected to touch there, so that case only counts
    when the two roads overlap along a line, which would hide one road under another.
    """
    shared = {p1, p2} & {q1, q2}
    o1 = _orientation(p1, p2, q1)
    o2 = _orientation(p1, p2, q2)
    o3 = _orientation(q1, q2, p1)
    o4 = _orientation(q1, q2, p2)
    if shared:
        # Touching at the shared end is fine; lying on top of each other is not.
        return o1 == 0 and o2 == 0 and len(shared) == 1 and _overlap_beyond_end(p1, p2, q1, q2)
    if o1 != o2 and o3 != o4 and 0 not in (o1, o2, o3, o4):
        return True
    return (
        (o1 == 0 and _on_segment(p1, p2, q1))
        or (o2 == 0 and _on_segment(p1, p2, q2))
        or (o3 == 0 and _on_segment(q1, q2, p1))
        or (o4 == 0 and _on_segment(q1, q2, p2))
    )


def _overlap_beyond_end(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """For collinear roads sharing one end: whether they run the same way from it."""
    common = ({p1, p2} & {q1, q2}).pop()
    p_far = p2 if p1 == common else p1
    q_far = q2 if q1 == common else q1
    dot = (p_far[0] - common[0]) * (q_far[0] - common[0]) + (p_far[1] - common[1]) * (
        q_far[1] - common[1]
    )
    return dot > 0


def _distance_to_segment(point: Point, a: Point, b: Point) -> float:
    """Shortest distance from a city to a road, in board units."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length_squared = dx * dx + dy * dy
    t = ((point[0] - a[0]) * dx + (point[1] - a[1]) * dy) / length_squared
    t = max(0.0, min(1.0, t))
    return math.hypot(point[0] - a[0] - t * dx, point[1] - a[1] - t * dy)


def _inter_province_roads(board: Board) -> list[tuple[str, str]]:
    """Roads between two different provinces, each as a sorted pair of province ids."""
    pairs: list[tuple[str, str]] = []
    for road in board.roads:
        first, second = sorted(board.cities[city].province for city in road)
        if first != second:
            pairs.append((first, second))
    return pairs


# Changes to a copy of board.json, each one defect (the tests below apply them).


def _city(document: dict[str, Any], city_id: str) -> dict[str, Any]:
    """The city entry of ``city_id`` in ``document`` (modifiable in place)."""
    found = [city for city in document["cities"] if city["id"] == city_id]
    assert len(found) == 1
    city = found[0]
    assert isinstance(city, dict)
    return city


def _without_road(first: str, second: str) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        document["roads"] = [
            road for road in document["roads"] if sorted(road) != sorted((first, second))
        ]

    return change


def _set_city(city_id: str, key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        _city(document, city_id)[key] = value

    return change


def _set_item(key: str, index: int, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        document[key][index] = value

    return change


def _append(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        document[key].append(value)

    return change


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        document[key] = value

    return change


def _swap_fortress(document: dict[str, Any]) -> None:
    """Agra loses its fortress and A1 gains one: still 16 fortresses."""
    assert _city(document, "A1")["fortress"] is False
    _city(document, "Agra")["fortress"] = False
    _city(document, "A1")["fortress"] = True


def _island_a(document: dict[str, Any]) -> None:
    """Every road into or out of province A cut: its four cities form their own part."""
    province_of = {city["id"]: city["province"] for city in document["cities"]}
    document["roads"] = [
        road
        for road in document["roads"]
        if (province_of[road[0]] == "A") == (province_of[road[1]] == "A")
    ]


def _six_cities_joined_pairwise(document: dict[str, Any]) -> None:
    """A1 to A4, B1 and B2 joined each to each: the network contains K5, not drawable flat."""
    cities = ("A1", "A2", "A3", "A4", "B1", "B2")
    existing = {frozenset(road) for road in document["roads"]}
    document["roads"] += [
        [a, b]
        for i, a in enumerate(cities)
        for b in cities[i + 1 :]
        if frozenset((a, b)) not in existing
    ]


@pytest.mark.clause("TM.COMP.BOARD.ROADS")
def test_segment_helper_sees_crossings_and_ignores_shared_ends() -> None:
    """The crossing check is only as good as its helper, so the helper is checked too."""
    assert segments_cross((0, 0), (2, 2), (0, 2), (2, 0))
    assert not segments_cross((0, 0), (1, 0), (0, 1), (1, 1))
    assert not segments_cross((0, 0), (1, 1), (1, 1), (2, 0))
    assert segments_cross((0, 0), (2, 0), (1, 0), (1, 1))
    assert segments_cross((0, 0), (2, 0), (0, 0), (1, 0))
    assert not segments_cross((0, 0), (1, 0), (0, 0), (-1, 0))


@pytest.mark.clause("TM.COMP.BOARD.PROVINCES")
def test_twelve_provinces_four_cities_each_and_five_in_agras() -> None:
    board = _board()
    assert len(board.provinces) == 12
    assert sorted(board.provinces) == list("ABCDEFGHIJKL")
    assert board.agra_province == "L"
    for province in board.provinces.values():
        expected = 5 if province.id == board.agra_province else 4
        assert len(province.cities) == expected, province.id


@pytest.mark.clause("TM.COMP.BOARD.CITIES")
def test_forty_nine_cities_and_agra_is_named() -> None:
    board = _board()
    assert len(board.cities) == 49
    assert board.agra == "Agra"
    assert board.cities["Agra"].name == "Agra"
    named = [city.id for city in board.cities.values() if city.name is not None]
    assert named == ["Agra"]


@pytest.mark.clause("TM.COMP.BOARD.FORTRESSES")
def test_sixteen_fortresses_with_agra_among_them() -> None:
    board = _board()
    assert len(board.fortresses) == 16
    assert board.agra in board.fortresses


@pytest.mark.clause("TM.COMP.BOARD.FORTRESSES")
def test_fortresses_are_spread_unevenly_and_some_provinces_have_none() -> None:
    """Some provinces have no fortress and some have two, as on a real board."""
    board = _board()
    per_province = Counter(board.cities[city].province for city in board.fortresses)
    without = [province for province in board.provinces if per_province[province] == 0]
    assert len(without) >= 2
    assert max(per_province.values()) >= 2


@pytest.mark.clause("TM.COMP.BOARD.ROADS")
def test_cities_of_each_province_form_a_ring_of_roads() -> None:
    board = _board()
    graph = board.graph()
    for province in board.provinces.values():
        ring = graph.subgraph(province.cities)
        assert nx.is_connected(ring), province.id
        for city in province.cities:
            assert ring.degree(city) == 2, (province.id, city)


@pytest.mark.clause("TM.COMP.BOARD.ROADS")
def test_road_network_is_connected() -> None:
    assert nx.is_connected(_board().graph())


@pytest.mark.clause("TM.COMP.BOARD.ROADS")
def test_road_network_is_planar() -> None:
    planar, _ = nx.check_planarity(_board().graph())
    assert planar


@pytest.mark.clause("TM.COMP.BOARD.ROADS")
def test_no_two_roads_cross_on_the_drawing() -> None:
    """The coordinates must draw the network as a printed board would: no crossings."""
    board = _board()
    segments = [
        tuple((board.cities[city].x, board.cities[city].y) for city in sorted(road))
        for road in board.roads
    ]
    crossings = [
        (first, second)
        for first, second in itertools.combinations(segments, 2)
        if segments_cross(first[0], first[1], second[0], second[1])
    ]
    assert crossings == []


@pytest.mark.clause("TM.COMP.BOARD.ROADS")
def test_no_road_passes_close_to_a_city_it_does_not_end() -> None:
    """A road grazing a city would look like two roads meeting there on the picture."""
    board = _board()
    for road in board.roads:
        first, second = (board.cities[city] for city in sorted(road))
        for city in board.cities.values():
            if city.id in road:
                continue
            clearance = _distance_to_segment(
                (city.x, city.y), (first.x, first.y), (second.x, second.y)
            )
            assert clearance >= MIN_CLEARANCE, (sorted(road), city.id, clearance)


@pytest.mark.clause("TM.COMP.BOARD.ROADS")
def test_neighbouring_provinces_are_joined_and_only_they() -> None:
    board = _board()
    listed = {tuple(sorted(pair)) for pair in _document()["province_neighbours"]}
    assert all(len(pair) == 2 and pair[0] != pair[1] for pair in listed)
    joined = set(_inter_province_roads(board))
    assert listed - joined == set()
    assert joined - listed == set()
    touched = {province for pair in listed for province in pair}
    assert touched == set(board.provinces)


@pytest.mark.clause("TM.COMP.BOARD.ROADS")
def test_neighbouring_provinces_are_joined_by_one_to_three_roads() -> None:
    counts = Counter(_inter_province_roads(_board()))
    assert all(1 <= count <= 3 for count in counts.values()), counts


@pytest.mark.clause("TM.COMP.BOARD.ROADS")
def test_north_west_is_less_connected_than_the_rest() -> None:
    """Provinces A and B (the upper left) have fewer roads out than the others on average."""
    per_province: Counter[str] = Counter()
    for first, second in _inter_province_roads(_board()):
        per_province[first] += 1
        per_province[second] += 1
    north_west = ["A", "B"]
    others = [province for province in "ABCDEFGHIJKL" if province not in north_west]
    north_west_average = sum(per_province[p] for p in north_west) / len(north_west)
    others_average = sum(per_province[p] for p in others) / len(others)
    assert north_west_average < others_average
    assert per_province["A"] <= 2


@pytest.mark.clause("TM.COMP.BOARD.CITIES")
def test_agra_lies_in_the_south_east() -> None:
    """North-western India is shown; Agra lies toward its south-east corner."""
    board = _board()
    xs = [city.x for city in board.cities.values()]
    ys = [city.y for city in board.cities.values()]
    agra = board.cities[board.agra]
    assert agra.x > (min(xs) + max(xs)) / 2
    assert agra.y < (min(ys) + max(ys)) / 2


@pytest.mark.clause("TM.COMP.BOARD.PROVINCES")
def test_city_with_unknown_province_names_the_city_and_field() -> None:
    document = _document()
    document["cities"][3]["province"] = "Z"
    with pytest.raises(ComponentError, match=r"board\.json: cities\[3\]\.province"):
        board_from_json(document)


@pytest.mark.clause("TM.COMP.BOARD.CITIES")
def test_forty_eight_cities_is_refused() -> None:
    document = _document()
    del document["cities"][1]
    with pytest.raises(ComponentError, match=r"board\.json: cities: expected 49 cities, found 48"):
        board_from_json(document)


@pytest.mark.clause("TM.COMP.BOARD.ROADS")
@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        pytest.param(
            _set_item("roads", 5, ["A1", "Z9"]),
            r"board\.json: roads\[5\]: unknown city 'Z9'",
            id="road-to-unknown-city",
        ),
        pytest.param(
            _append("roads", ["A2", "A1"]),
            r"roads\[\d+\]: duplicate road",
            id="duplicate-road-even-reversed",
        ),
        pytest.param(_island_a, r"board\.json: roads: .*not connected", id="province-a-an-island"),
    ],
)
def test_a_road_defect_is_refused_by_the_board_builder(
    change: Callable[[dict[str, Any]], None], pattern: str
) -> None:
    document = _document()
    change(document)
    with pytest.raises(ComponentError, match=pattern):
        board_from_json(document)


@pytest.mark.clause("TM.COMP.BOARD.FORTRESSES")
def test_agra_must_be_a_fortress() -> None:
    """Swapping Agra's fortress to another city keeps 16 fortresses, so only Agra is wrong."""
    document = _document()
    _swap_fortress(document)
    with pytest.raises(ComponentError, match=r"board\.json: agra: "):
        board_from_json(document)


# A user's own board.json, derived from the embedded one with one change: every defect is
# refused with the file, the field and what is wrong; every omission that has a default
# loads with that default. The expected values are worked out by hand from board.json.


def _load(tmp_path: Path, document: Any) -> Board:
    """Write ``document`` as the folder's board.json and load the component set from it."""
    (tmp_path / "board.json").write_text(json.dumps(document), encoding="utf-8")
    return load_components(tmp_path).board


def _refusal(tmp_path: Path, document: Any) -> str:
    """The one-line error that loading ``document`` as board.json gives."""
    with pytest.raises(ComponentError) as error:
        _load(tmp_path, document)
    return str(error.value)


@pytest.mark.clause("TM.COMP.BOARD.FORTRESSES")
def test_a_city_without_a_fortress_flag_is_not_a_fortress(tmp_path: Path) -> None:
    document = _document()
    del _city(document, "A1")["fortress"]
    board = _load(tmp_path, document)
    assert board.cities["A1"].fortress is False
    assert len(board.fortresses) == 16
    assert "A1" not in board.fortresses


@pytest.mark.clause("TM.COMP.BOARD.CITIES")
def test_a_city_without_coordinates_is_drawn_at_the_origin(tmp_path: Path) -> None:
    document = _document()
    del _city(document, "A1")["x"]
    del _city(document, "A2")["y"]
    board = _load(tmp_path, document)
    assert (board.cities["A1"].x, board.cities["A1"].y) == (0.0, 11.0)
    assert (board.cities["A2"].x, board.cities["A2"].y) == (3.1, 0.0)


@pytest.mark.clause("TM.COMP.BOARD.CITIES")
def test_coordinates_up_to_the_limit_are_accepted(tmp_path: Path) -> None:
    document = _document()
    _city(document, "A1")["x"] = 1000000
    _city(document, "A2")["y"] = -1000000.0
    board = _load(tmp_path, document)
    assert board.cities["A1"].x == 1000000.0
    assert board.cities["A2"].y == -1000000.0


@pytest.mark.clause("RUL.COMPONENTS.BOARD", "TM.COMP.BOARD.ROADS")
def test_a_board_without_rings_or_with_crossing_roads_loads(tmp_path: Path) -> None:
    """RUL.COMPONENTS.BOARD: the rulebooks confirm the counts and a network of roads, not
    the reconstruction's rings inside provinces or its flat drawing, so a board without
    them loads and scores by its own roads."""
    no_ring = _document()
    _without_road("A1", "A2")(no_ring)
    board = _load(tmp_path, no_ring)
    assert len(board.roads) == 86
    assert board.neighbours["A1"] == frozenset({"A4"})
    assert board.graph().subgraph(board.provinces["A"].cities).degree("A1") == 1
    crossing = _document()
    _six_cities_joined_pairwise(crossing)
    board = _load(tmp_path, crossing)
    planar, _ = nx.check_planarity(board.graph())
    assert not planar
    assert board.neighbours["A1"] == frozenset({"A2", "A3", "A4", "B1", "B2"})


@pytest.mark.clause("TM.COMP.BOARD.CITIES")
def test_coordinates_are_digested_with_three_decimals_at_most(tmp_path: Path) -> None:
    """docs/trace-format.md, "Numbers in the component files": a coordinate written 11,
    11.0 or 1.1e1 is the same number in the digest, written 11.0, and -0 is 0.0."""
    digests = set()
    for written in ("11", "11.0", "1.1e1", "11.000"):
        text = json.dumps(_document()).replace('"x": 0.6, "y": 11.0', f'"x": 0.6, "y": {written}')
        assert f'"y": {written}' in text
        (tmp_path / "board.json").write_text(text, encoding="utf-8")
        digests.add(load_components(tmp_path).digest)
    assert digests == {load_components().digest}
    zero = _document()
    _city(zero, "A1")["x"] = 0.0
    (tmp_path / "board.json").write_text(json.dumps(zero).replace('"x": 0.0', '"x": -0.0'))
    negative = load_components(tmp_path).digest
    (tmp_path / "board.json").write_text(json.dumps(zero))
    assert load_components(tmp_path).digest == negative


@pytest.mark.clause("TM.COMP.BOARD.ROADS")
def test_province_neighbours_are_optional(tmp_path: Path) -> None:
    document = _document()
    del document["province_neighbours"]
    board = _load(tmp_path, document)
    assert len(board.roads) == 87
    assert board.neighbours["A1"] == frozenset({"A2", "A4"})


@pytest.mark.clause("TM.COMP.BOARD.ROADS")
def test_the_road_graph_carries_each_citys_province_fortress_and_position() -> None:
    graph = _board().graph()
    assert graph.number_of_nodes() == 49
    assert graph.number_of_edges() == 87
    assert graph.nodes["A1"] == {"province": "A", "fortress": False, "pos": (0.6, 11.0)}
    assert graph.nodes["B3"] == {"province": "B", "fortress": True, "pos": (6.5, 9.2)}
    assert graph.nodes["Agra"] == {"province": "L", "fortress": True, "pos": (15.4, 1.3)}
    assert set(graph["A1"]) == {"A2", "A4"}


VALID_ID = "letters, digits, '_' and '-', starting with a letter or digit"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param(_set("name", 5), "board.json: name: expected a string", id="name-not-text"),
        pytest.param(
            _set("provinces", {}), "board.json: provinces: expected a list", id="provinces-object"
        ),
        pytest.param(_set("cities", None), "board.json: cities: expected a list", id="cities-null"),
        pytest.param(_set("roads", "A1-A2"), "board.json: roads: expected a list", id="roads-text"),
        pytest.param(
            _set_item("provinces", 0, {"id": "A 1"}),
            f"board.json: provinces[0].id: 'A 1' is not a valid id ({VALID_ID})",
            id="province-id-with-a-space",
        ),
        pytest.param(
            _set_item("provinces", 1, {"id": "A"}),
            "board.json: provinces[1].id: duplicate province id 'A'",
            id="province-twice",
        ),
        pytest.param(
            lambda d: d["provinces"].pop(),
            "board.json: provinces: expected 12 provinces, found 11",
            id="eleven-provinces",
        ),
        pytest.param(
            _set_item("cities", 0, "A1"),
            "board.json: cities[0]: expected an object",
            id="city-not-an-object",
        ),
        pytest.param(
            _set_city("A1", "id", "A 1"),
            f"board.json: cities[0].id: 'A 1' is not a valid id ({VALID_ID})",
            id="city-id-with-a-space",
        ),
        pytest.param(
            _set_city("A2", "id", "A1"),
            "board.json: cities[1].id: duplicate city id 'A1'",
            id="city-twice",
        ),
        pytest.param(
            _set_city("A1", "province", "Z"),
            "board.json: cities[0].province: unknown province 'Z'",
            id="city-in-unknown-province",
        ),
        pytest.param(
            _set_city("A1", "name", 5),
            "board.json: cities[0].name: expected a string or null",
            id="city-name-a-number",
        ),
        pytest.param(
            _set_city("A1", "province", "B"),
            "board.json: cities: province 'A' has 3 cities; expected 4",
            id="province-of-three-cities",
        ),
        pytest.param(
            _set_city("A1", "fortress", True),
            "board.json: cities: expected 16 fortresses, found 17",
            id="seventeen-fortresses",
        ),
        pytest.param(
            _swap_fortress,
            "board.json: agra: Agra must be a fortress (it holds the Taj Mahal tile)",
            id="agra-not-a-fortress",
        ),
        pytest.param(
            _set_item("roads", 0, ["A1", "A1"]),
            "board.json: roads[0]: a road joins two different cities, found 'A1' twice",
            id="road-from-a-city-to-itself",
        ),
        pytest.param(
            _append("roads", ["A2", "A1"]),
            "board.json: roads[87]: duplicate road A2-A1",
            id="road-twice-reversed",
        ),
        pytest.param(
            _island_a,
            "board.json: roads: the road network is not connected; parts start at ['A1', 'Agra']",
            id="network-in-two-parts",
        ),
        pytest.param(
            _set_city("A1", "x", 0.1234),
            "board.json: cities[0].x: expected a multiple of 0.001 (at most three decimals), "
            "found 0.1234",
            id="coordinate-with-four-decimals",
        ),
        pytest.param(
            _set_city("A2", "y", 1e-7),
            "board.json: cities[1].y: expected a multiple of 0.001 (at most three decimals), "
            "found 1e-07",
            id="coordinate-below-a-thousandth",
        ),
        pytest.param(
            _set_item("provinces", 0, {"id": ""}),
            "board.json: provinces[0].id: expected a non-empty string",
            id="province-empty-id",
        ),
        pytest.param(
            _set_item("provinces", 0, {"id": 7}),
            "board.json: provinces[0].id: expected a non-empty string",
            id="province-number-id",
        ),
        pytest.param(
            _set_item("provinces", 0, "A"),
            "board.json: provinces[0].id: expected a non-empty string",
            id="province-not-an-object",
        ),
        pytest.param(
            _set_city("A1", "id", ""),
            "board.json: cities[0].id: expected a non-empty string",
            id="city-empty-id",
        ),
        pytest.param(
            _set_city("A1", "id", 7),
            "board.json: cities[0].id: expected a non-empty string",
            id="city-number-id",
        ),
        pytest.param(
            _set_city("A1", "fortress", "yes"),
            "board.json: cities[0].fortress: expected true or false",
            id="fortress-not-a-flag",
        ),
        pytest.param(
            _set_city("A1", "x", True),
            "board.json: cities[0].x: expected a number",
            id="x-is-a-flag",
        ),
        pytest.param(
            _set_city("A1", "y", "11"),
            "board.json: cities[0].y: expected a number",
            id="y-is-text",
        ),
        pytest.param(
            _set_city("A1", "x", 1000000.5),
            "board.json: cities[0].x: expected a finite number from -1e+06 to 1e+06",
            id="x-beyond-the-limit",
        ),
        pytest.param(
            _set("agra", "Z9"),
            "board.json: agra: expected the id of a city, found 'Z9'",
            id="agra-unknown",
        ),
        pytest.param(
            _set("agra", 7),
            "board.json: agra: expected the id of a city, found 7",
            id="agra-a-number",
        ),
        pytest.param(
            _set_item("roads", 0, ["A1", "A2", "A3"]),
            "board.json: roads[0]: expected a pair of city ids",
            id="road-of-three",
        ),
        pytest.param(
            _set_item("roads", 0, ["A1", 2]),
            "board.json: roads[0]: expected a pair of city ids",
            id="road-end-a-number",
        ),
        pytest.param(
            _set_item("roads", 0, "A1"),
            "board.json: roads[0]: expected a pair of city ids",
            id="road-as-text",
        ),
        pytest.param(
            _append("province_neighbours", ["A", "L"]),
            "board.json: province_neighbours[21]: provinces A and L are declared "
            "neighbours but no road joins them",
            id="neighbours-without-a-road",
        ),
        pytest.param(
            _append("province_neighbours", ["A", "A"]),
            "board.json: province_neighbours[21]: expected a pair of two different province ids",
            id="neighbour-of-itself",
        ),
        pytest.param(
            _append("province_neighbours", ["A", "B", "E"]),
            "board.json: province_neighbours[21]: expected a pair of two different province ids",
            id="neighbours-three",
        ),
        pytest.param(
            _append("province_neighbours", "AB"),
            "board.json: province_neighbours[21]: expected a pair of two different province ids",
            id="neighbours-as-text",
        ),
        pytest.param(
            _append("province_neighbours", ["A", "Z"]),
            "board.json: province_neighbours[21]: expected a pair of two different province ids",
            id="neighbour-unknown",
        ),
        pytest.param(
            _set("province_neighbours", None),
            "board.json: province_neighbours: expected a list of pairs of province ids",
            id="neighbours-null",
        ),
    ],
)
@pytest.mark.clause(
    "TM.COMP.BOARD.PROVINCES",
    "TM.COMP.BOARD.CITIES",
    "TM.COMP.BOARD.FORTRESSES",
    "TM.COMP.BOARD.ROADS",
)
def test_a_board_file_with_one_defect_is_refused_naming_the_field(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    document = _document()
    change(document)
    assert _refusal(tmp_path, document) == message


@pytest.mark.clause("TM.COMP.BOARD.CITIES")
def test_a_board_file_that_is_not_an_object_is_refused(tmp_path: Path) -> None:
    assert _refusal(tmp_path, []) == "board.json: (root): expected an object"


def test_a_board_without_a_name_is_called_custom(tmp_path: Path) -> None:
    document = _document()
    del document["name"]
    assert _load(tmp_path, document).name == "custom"
    assert _board().name == "reference-reconstruction"
