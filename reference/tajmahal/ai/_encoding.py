"""The observation tensor straight from a state: the adapters' fast path (numpy).

:func:`tajmahal.ai.observation_tensor` encodes a :class:`~tajmahal.model.View`
value by value, which is clear but costs more than an engine step. The adapters
encode one state per step, so :class:`TensorEncoder` writes the same values
(``tests/ai/test_encoding.py`` compares them on whole random games) from the state
itself: every index is looked up in tables built once per component set, and the
indices of the parts a step leaves alone are remembered by the identity of the
state's own values, which consecutive states share.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from tajmahal.ai._observation import Knowledge
from tajmahal.ai._tensor import MAX_SEATS, SEAT_SECTIONS, STEPS, Section, tensor_layout
from tajmahal.model import (
    COLOURS,
    INFLUENCE_SYMBOLS,
    CardId,
    Components,
    GameState,
    Palace,
    PlayerState,
)

_CACHE_LIMIT = 256
"""Entries kept by a :class:`TensorEncoder` before it starts over. Small on purpose: the
parts worth remembering are those of the last few states, and every entry keeps its
part of an old state alive, which costs more in garbage collection than it saves
(measured: a game of PettingZoo with observations ran 20 % slower with 4096)."""


class TensorEncoder:
    """Writes ``observation_tensor(view(state, seat), components)`` straight from a state.

    The same values as :func:`~tajmahal.ai.fill_observation_tensor` of
    :func:`~tajmahal.model.view` (a test compares them on whole random games), without
    building the view. Index tables are computed once per component set. The seat
    sections are first indexed by absolute seat, then rotated to the viewer's slots by
    one table lookup per index (one rotation table per player count and viewer), so
    that what a seat holds is encoded once however many seats look at it. The indices
    of the parts a step leaves alone (the discard pile, a seat's holdings, the palaces,
    the board's tiles) are remembered by the identity of the state's own values, which
    consecutive states share.
    """

    __slots__ = (
        "_cache",
        "_card",
        "_colour",
        "_components",
        "_goods",
        "_influence",
        "_offsets",
        "_played",
        "_provinces",
        "_rotations",
        "_tiles",
        "layout",
    )

    def __init__(self, components: Components) -> None:
        self._components = components
        layout = tensor_layout(components)
        self.layout = layout
        """The layout written."""
        at = layout.offsets
        self._offsets = at
        cards = layout.cards
        c = len(cards)
        self._card = {
            name: {card: at[name] + number for card, number in cards.items()}
            for name in ("hand", "display", "discard", "specials_on_table")
        }
        # Per seat slot k: card, colour, symbol and tile ids to their index.
        self._played = tuple(
            {card: at["played"] + k * c + number for card, number in cards.items()}
            for k in range(MAX_SEATS)
        )
        self._colour = tuple(
            {colour: at["colour"] + k * len(COLOURS) + n for n, colour in enumerate(COLOURS)}
            for k in range(MAX_SEATS)
        )
        # Symbols by identity: enum members are singletons, and hashing one by value
        # runs Python code.
        symbols = len(INFLUENCE_SYMBOLS)
        self._influence = tuple(
            {id(s): at["influence"] + k * symbols + n for n, s in enumerate(INFLUENCE_SYMBOLS)}
            for k in range(MAX_SEATS)
        )
        tiles = layout.province_tiles
        self._tiles = tuple(
            {t: at["province_tiles_won"] + k * len(tiles) + n for t, n in tiles.items()}
            for k in range(MAX_SEATS)
        )
        bonus = layout.bonus_tiles
        self._goods = tuple(
            {t: at["goods_tiles"] + k * len(bonus) + n for t, n in bonus.items()}
            for k in range(MAX_SEATS)
        )
        self._provinces = layout.provinces
        self._rotations = tuple(
            tuple(_rotation(layout.sections, players, viewer) for viewer in range(players))
            for players in range(3, MAX_SEATS + 1)
        )
        self._cache: dict[tuple[Any, ...], tuple[object, Any]] = {}

    def __deepcopy__(self, memo: dict[int, object]) -> TensorEncoder:
        """Itself: a copy of the remembered parts would hold identities of objects it does
        not keep alive."""
        return self

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its component set, without the remembered parts (identities mean
        nothing in another process)."""
        return (TensorEncoder, (self._components,))

    def _remember(self, key: tuple[Any, ...], owner: object, value: Any) -> Any:
        # The entry keeps ``owner`` alive, so no other object can take its id while the
        # entry exists: a hit on (kind, id(owner), ...) is always the same object.
        cache = self._cache
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        cache[key] = (owner, value)
        return value

    def _cards(self, name: str, group: tuple[CardId, ...]) -> list[int]:
        hit = self._cache.get((name, id(group)))
        if hit is not None:
            return hit[1]  # type: ignore[no-any-return]
        ones = list(map(self._card[name].__getitem__, group))
        return self._remember((name, id(group)), group, ones)  # type: ignore[no-any-return]

    def _court(self, court: tuple[Any, ...]) -> list[int]:
        hit = self._cache.get(("court", id(court)))
        if hit is not None:
            return hit[1]  # type: ignore[no-any-return]
        start = self._offsets["court_influence"]
        ones = [start + INFLUENCE_SYMBOLS.index(symbol) for symbol in court]
        return self._remember(("court", id(court)), court, ones)  # type: ignore[no-any-return]

    def _seat(self, player: PlayerState, k: int) -> tuple[list[int], list[int], list[float]]:
        """Indices set to 1, then (index, value) pairs, of one seat's holdings in slot k."""
        key = ("seat", id(player), k)
        hit = self._cache.get(key)
        if hit is not None:
            return hit[1]  # type: ignore[no-any-return]
        at = self._offsets
        ones = list(map(self._played[k].__getitem__, player.played))
        if player.colour is not None:
            ones.append(self._colour[k][player.colour])
        ones += map(self._tiles[k].__getitem__, player.province_tiles)
        ones += map(self._goods[k].__getitem__, player.goods_tiles)
        where = [at["hand_size"] + k, at["withdrawn"] + k, at["score"] + k]
        values = [float(len(player.hand)), float(player.withdrawn), float(player.score)]
        if player.influence:
            counts: dict[int, float] = {}
            for index in map(self._influence[k].__getitem__, map(id, player.influence)):
                counts[index] = counts.get(index, 0.0) + 1.0
            where += counts
            values += counts.values()
        return self._remember(key, player, (ones, where, values))  # type: ignore[no-any-return]

    def _table(self, state: GameState) -> Any:
        """The indices set to 1 by the discard pile, the province order and the bonus
        tiles on the board, as one index array."""
        discard, order, bonus = state.discard, state.province_order, state.bonus_on_board
        key = ("table", id(discard), id(order), id(bonus))
        hit = self._cache.get(key)
        if hit is not None:
            return hit[1]
        at = self._offsets
        provinces, cities = self._provinces, self.layout.cities
        tiles = self.layout.bonus_tiles
        ones = self._cards("discard", discard)[:]
        ones.extend(
            at["province_order"] + provinces[province] * 12 + visit
            for visit, province in enumerate(order)
        )
        ones.extend(at["bonus_on_board"] + tiles[t] * len(cities) + cities[c] for c, t in bonus)
        return self._remember(key, (discard, order, bonus), np.array(ones, np.intp))

    def _palaces(self, palaces: tuple[Palace, ...], viewer: int, players: int) -> list[int]:
        """The palace indices in the viewer's slots (the palaces change seldom, so they
        are remembered per viewer rather than rotated at every step)."""
        key = ("palaces", id(palaces), viewer, players)
        hit = self._cache.get(key)
        if hit is not None:
            return hit[1]  # type: ignore[no-any-return]
        at = self._offsets
        cities = self.layout.cities
        ones = []
        for palace in palaces:
            k = (palace.seat - viewer) % players
            ones.append(at["palaces"] + cities[palace.city] * MAX_SEATS + k)
            if palace.crowned:
                ones.append(at["crowned"] + cities[palace.city] * MAX_SEATS + k)
        return self._remember(key, palaces, ones)  # type: ignore[no-any-return]

    def encode(self, state: GameState, viewer: int, out: Any) -> Any:
        """Write the tensor of ``viewer``'s view of ``state`` into the zero-filled numpy
        float array ``out`` and return it."""
        at = self._offsets
        get = self._cache.get
        seats = state.players
        players = len(seats)
        ones = [
            at["players"] + players - 3,
            at["visit"] + state.visit - 1,
            at["step"] + STEPS.index(state.step),
            at["start_player"] + (state.start_player - viewer) % players,
            at["current_province"] + self._provinces[state.province_order[state.visit - 1]],
        ]
        if state.to_move is not None:
            ones.append(at["to_move"] + (state.to_move - viewer) % players)
        if state.court_province_tile is not None:
            tile = self.layout.province_tiles[state.court_province_tile]
            ones.append(at["court_province_tile"] + tile)
        # Each part looked up here first (a hit is the common case), else built.
        hand = seats[viewer].hand
        hit = get(("hand", id(hand)))
        ones += hit[1] if hit is not None else self._cards("hand", hand)
        hit = get(("display", id(state.display)))
        ones += hit[1] if hit is not None else self._cards("display", state.display)
        specials = state.specials_on_table
        hit = get(("specials_on_table", id(specials)))
        ones += hit[1] if hit is not None else self._cards("specials_on_table", specials)
        hit = get(("court", id(state.court_influence)))
        ones += hit[1] if hit is not None else self._court(state.court_influence)
        # Seat sections by absolute seat, then rotated to the viewer's slots.
        by_seat: list[int] = []
        where: list[int] = []
        values: list[float] = []
        for seat, player in enumerate(seats):
            hit = get(("seat", id(player), seat))
            seat_ones, seat_where, seat_values = (
                hit[1] if hit is not None else self._seat(player, seat)
            )
            by_seat += seat_ones
            where += seat_where
            values += seat_values
        hit = get(("palaces", id(state.palaces), viewer, players))
        ones += hit[1] if hit is not None else self._palaces(state.palaces, viewer, players)
        rotate = self._rotations[players - 3][viewer].__getitem__
        ones += map(rotate, by_seat)
        # The long, slowly changing part as one remembered index array; the few dozen
        # other values one by one through a memory view, which is faster than numpy's
        # indexing with a list of that size.
        out[self._table(state)] = 1.0
        cells: Any = memoryview(out)
        for index in ones:
            cells[index] = 1.0
        cells[at["deck_size"]] = float(len(state.deck))
        cells[at["crown_in_court"]] = float(state.crown_in_court)
        for index, value in zip(map(rotate, where), values, strict=True):
            cells[index] = value
        return out

    def encode_known(self, knowledge: Knowledge, viewer: int, players: int, out: Any) -> Any:
        """Write the part :func:`~tajmahal.ai.information_tensor` adds (the
        cards known in each seat slot's hand) after the observation in ``out``."""
        start = self.layout.size
        cards = self.layout.cards
        ones = [
            start + ((seat - viewer) % players) * len(cards) + cards[card]
            for seat, known in enumerate(knowledge.known)
            for card in known
        ]
        out[ones] = 1.0
        return out


def _rotation(sections: tuple[Section, ...], players: int, viewer: int) -> list[int]:
    """Index by absolute seat to index by the viewer's slot (identity elsewhere)."""
    end = sections[-1].offset + sections[-1].size
    table = list(range(end))
    for section in sections:
        if section.name in SEAT_SECTIONS:
            stride = section.size // MAX_SEATS
            for seat in range(players):
                k = (seat - viewer) % players
                for x in range(stride):
                    table[section.offset + seat * stride + x] = section.offset + k * stride + x
    return table


@functools.lru_cache(maxsize=8)
def tensor_encoder(components: Components) -> TensorEncoder:
    """The shared :class:`TensorEncoder` of a component set."""
    return TensorEncoder(components)
