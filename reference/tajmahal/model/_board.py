"""The board: 12 provinces, 49 cities, 16 fortresses and the road network.

The board is built and validated once, at load time, into :attr:`Board.neighbours`, a
frozen adjacency table that scoring walks. :meth:`Board.graph` gives the road network as a
networkx graph for analysis; networkx is imported there only, as importing it would
otherwise be a large part of every command's start.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import attrs

from tajmahal.errors import ComponentError

if TYPE_CHECKING:
    import networkx as nx

CityId = str
"""Stable id of a city, e.g. ``C3``; Agra is the city named ``Agra``."""
ProvinceId = str
"""Stable id of a province (a letter, ``A`` to ``L``)."""

ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
"""What every stable id (card, tile, city, province) looks like: ids appear in
space-separated action strings, so they never contain a space."""
ID_RULE = "letters, digits, '_' and '-', starting with a letter or digit"
""":data:`ID_PATTERN` in words, for error messages."""

COORDINATE_LIMIT = 1e6
"""Largest drawing coordinate of a city, either sign (NaN and infinities are refused)."""
COORDINATE_STEP = 1000
"""Drawing coordinates are multiples of 1 / COORDINATE_STEP (at most three decimals), so
that the components digest writes them the same way in every language (see
:func:`coordinate`)."""
PROVINCE_COUNT = 12
CITY_COUNT = 49
FORTRESS_COUNT = 16


@attrs.frozen
class City:
    """A city on the board."""

    id: CityId
    """Stable id used in records (``palace C3``), errors and docs."""
    province: ProvinceId
    """The province the city lies in."""
    fortress: bool
    """True for the 16 fortress cities, which hold a bonus tile at setup."""
    name: str | None = None
    """The printed name, where there is one (only Agra)."""
    x: float = 0.0
    """Drawing position (west to east); used only for pictures."""
    y: float = 0.0
    """Drawing position (south to north)."""


@attrs.frozen
class Province:
    """A province and its cities."""

    id: ProvinceId
    """Stable id."""
    cities: tuple[CityId, ...]
    """Its cities (four, or five in Agra's province)."""


@attrs.frozen(eq=False)
class Board:
    """The validated board with a frozen adjacency table for fast chain scoring."""

    name: str
    """The board's label (``reference-reconstruction`` for the embedded board)."""
    provinces: Mapping[ProvinceId, Province]
    """The 12 provinces by id."""
    cities: Mapping[CityId, City]
    """The 49 cities by id."""
    roads: frozenset[frozenset[CityId]]
    """Every road, as an unordered pair of cities."""
    agra: CityId
    """The city Agra, which holds the Taj Mahal tile; its province is visited last."""
    neighbours: Mapping[CityId, frozenset[CityId]]
    """For each city, the cities one road away (the scoring hot path uses this)."""

    @property
    def agra_province(self) -> ProvinceId:
        """The province that contains Agra (it receives province tile 12)."""
        return self.cities[self.agra].province

    @property
    def fortresses(self) -> frozenset[CityId]:
        """The 16 fortress cities."""
        return frozenset(city.id for city in self.cities.values() if city.fortress)

    def graph(self) -> nx.Graph:
        """A fresh networkx graph of the road network (for analysis and docs, not scoring)."""
        import networkx as nx

        graph = nx.Graph()
        for city in self.cities.values():
            graph.add_node(
                city.id, province=city.province, fortress=city.fortress, pos=(city.x, city.y)
            )
        graph.add_edges_from(tuple(road) for road in self.roads)
        return graph


def _fail(where: str, message: str) -> ComponentError:
    return ComponentError(f"board.json: {where}: {message}")


def coordinate(value: float) -> float:
    """A drawing coordinate as the components digest writes it: the float nearest to
    ``k / 1000`` for the integer ``k`` nearest to ``value * 1000``, so ``11`` and ``11.0``
    both become ``11.0`` and ``-0.0`` becomes ``0.0`` (docs/trace-format.md, "Numbers in the
    component files"). Exact for the coordinates :func:`board_from_json` accepts."""
    return round(value * COORDINATE_STEP) / COORDINATE_STEP


def board_from_json(document: Any) -> Board:
    """Build a :class:`Board` from ``board.json`` and check every confirmed fact.

    Confirmed facts: 12 provinces; 4 cities each but 5 in Agra's; 49 cities; 16
    fortresses with Agra among them; a road network joining all cities. Nothing else about
    the layout is required (RUL.COMPONENTS.BOARD): the reference board's rings of roads
    inside provinces and its planar drawing are properties of the reconstruction, not of
    every board the rulebooks allow. Roads must join two distinct known cities and appear
    once. The optional ``province_neighbours`` list (documentation of which provinces share
    a border) must name pairs joined by a road. Drawing coordinates are multiples of 0.001
    within :data:`COORDINATE_LIMIT`.

    Implements: TM.COMP.BOARD.PROVINCES, TM.COMP.BOARD.CITIES, TM.COMP.BOARD.FORTRESSES,
    TM.COMP.BOARD.ROADS
    """
    if not isinstance(document, dict):
        raise _fail("(root)", "expected an object")
    name = document.get("name", "custom")
    if not isinstance(name, str):
        raise _fail("name", "expected a string")
    raw_provinces = document.get("provinces")
    raw_cities = document.get("cities")
    raw_roads = document.get("roads")
    if not isinstance(raw_provinces, list):
        raise _fail("provinces", "expected a list")
    if not isinstance(raw_cities, list):
        raise _fail("cities", "expected a list")
    if not isinstance(raw_roads, list):
        raise _fail("roads", "expected a list")

    province_ids: list[str] = []
    for position, raw in enumerate(raw_provinces):
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not raw["id"]:
            raise _fail(f"provinces[{position}].id", "expected a non-empty string")
        if not ID_PATTERN.fullmatch(raw["id"]):
            raise _fail(f"provinces[{position}].id", f"{raw['id']!r} is not a valid id ({ID_RULE})")
        if raw["id"] in province_ids:
            raise _fail(f"provinces[{position}].id", f"duplicate province id {raw['id']!r}")
        province_ids.append(raw["id"])
    if len(province_ids) != PROVINCE_COUNT:
        raise _fail("provinces", f"expected {PROVINCE_COUNT} provinces, found {len(province_ids)}")

    cities: dict[CityId, City] = {}
    for position, raw in enumerate(raw_cities):
        where = f"cities[{position}]"
        if not isinstance(raw, dict):
            raise _fail(where, "expected an object")
        city_id = raw.get("id")
        if not isinstance(city_id, str) or not city_id:
            raise _fail(f"{where}.id", "expected a non-empty string")
        if not ID_PATTERN.fullmatch(city_id):
            raise _fail(f"{where}.id", f"{city_id!r} is not a valid id ({ID_RULE})")
        if city_id in cities:
            raise _fail(f"{where}.id", f"duplicate city id {city_id!r}")
        province = raw.get("province")
        if province not in province_ids:
            raise _fail(f"{where}.province", f"unknown province {province!r}")
        fortress = raw.get("fortress", False)
        if not isinstance(fortress, bool):
            raise _fail(f"{where}.fortress", "expected true or false")
        city_name = raw.get("name")
        if city_name is not None and not isinstance(city_name, str):
            raise _fail(f"{where}.name", "expected a string or null")
        coordinates = []
        for axis in ("x", "y"):
            value = raw.get(axis, 0.0)
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise _fail(f"{where}.{axis}", "expected a number")
            if not abs(value) <= COORDINATE_LIMIT:  # also false for NaN; exact for big ints
                raise _fail(
                    f"{where}.{axis}",
                    f"expected a finite number from -{COORDINATE_LIMIT:g} to {COORDINATE_LIMIT:g}",
                )
            if coordinate(value) != value:
                raise _fail(
                    f"{where}.{axis}",
                    f"expected a multiple of 0.001 (at most three decimals), found {value!r}",
                )
            coordinates.append(float(value))
        cities[city_id] = City(
            city_id, str(province), fortress, city_name, coordinates[0], coordinates[1]
        )
    if len(cities) != CITY_COUNT:
        raise _fail("cities", f"expected {CITY_COUNT} cities, found {len(cities)}")

    agra = document.get("agra")
    if not isinstance(agra, str) or agra not in cities:
        raise _fail("agra", f"expected the id of a city, found {agra!r}")
    agra_province = cities[agra].province
    provinces: dict[ProvinceId, Province] = {}
    for province_id in province_ids:
        members = tuple(sorted(c.id for c in cities.values() if c.province == province_id))
        expected = 5 if province_id == agra_province else 4
        if len(members) != expected:
            raise _fail(
                "cities", f"province {province_id!r} has {len(members)} cities; expected {expected}"
            )
        provinces[province_id] = Province(province_id, members)
    fortresses = [c.id for c in cities.values() if c.fortress]
    if len(fortresses) != FORTRESS_COUNT:
        raise _fail("cities", f"expected {FORTRESS_COUNT} fortresses, found {len(fortresses)}")
    if not cities[agra].fortress:
        raise _fail("agra", "Agra must be a fortress (it holds the Taj Mahal tile)")

    roads: set[frozenset[CityId]] = set()
    for position, raw in enumerate(raw_roads):
        where = f"roads[{position}]"
        if (
            not isinstance(raw, list)
            or len(raw) != 2
            or not all(isinstance(end, str) for end in raw)
        ):
            raise _fail(where, "expected a pair of city ids")
        for end in raw:
            if end not in cities:
                raise _fail(where, f"unknown city {end!r}")
        if raw[0] == raw[1]:
            raise _fail(where, f"a road joins two different cities, found {raw[0]!r} twice")
        pair = frozenset(raw)
        if pair in roads:
            raise _fail(where, f"duplicate road {raw[0]}-{raw[1]}")
        roads.add(pair)

    adjacent: dict[CityId, set[CityId]] = {city: set() for city in cities}
    for a, b in (tuple(road) for road in roads):
        adjacent[a].add(b)
        adjacent[b].add(a)
    parts = connected_parts(adjacent)
    if len(parts) > 1:
        raise _fail(
            "roads",
            f"the road network is not connected; parts start at {[part[0] for part in parts]}",
        )

    linked = {frozenset(cities[city].province for city in road) for road in roads}
    declared = document.get("province_neighbours", [])
    if not isinstance(declared, list):
        raise _fail("province_neighbours", "expected a list of pairs of province ids")
    for position, pair in enumerate(declared):
        where = f"province_neighbours[{position}]"
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(p, str) and p in province_ids for p in pair)
            or pair[0] == pair[1]
        ):
            raise _fail(where, "expected a pair of two different province ids")
        if frozenset(pair) not in linked:
            raise _fail(
                where,
                f"provinces {pair[0]} and {pair[1]} are declared neighbours but no road joins them",
            )

    neighbours = {city: frozenset(adjacent[city]) for city in cities}
    return Board(
        name=name,
        provinces=MappingProxyType(provinces),
        cities=MappingProxyType(cities),
        roads=frozenset(roads),
        agra=agra,
        neighbours=MappingProxyType(neighbours),
    )


def connected_parts(adjacent: Mapping[CityId, set[CityId]]) -> list[list[CityId]]:
    """The connected parts of a road network given as each city's neighbours: each part's
    cities sorted, the parts in the order of their first city."""
    unseen = set(adjacent)
    parts = []
    while unseen:
        start = min(unseen)
        part, frontier = {start}, [start]
        while frontier:
            for city in adjacent[frontier.pop()]:
                if city not in part:
                    part.add(city)
                    frontier.append(city)
        unseen -= part
        parts.append(sorted(part))
    return parts
