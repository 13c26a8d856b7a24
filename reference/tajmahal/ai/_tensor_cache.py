"""Observation tensors of successive states, updated part by part (numpy).

An environment asks for one tensor per step, and consecutive states share almost every
part: a step replaces the mover's seat, a few counters, now and then the display, the
court, the discard pile or the palaces. :class:`TensorCache` keeps one tensor written
for the last state asked about, with every seat in its own slot (seat ``s`` in slot
``s``), and when asked about another state rewrites only the parts that are not the very
same objects as last time. The tensor of one viewer is then a fixed reordering of that
tensor (:func:`viewer_order`: the seat slots turned so that the viewer is slot 0), plus
the viewer's own hand.

Why this is the tensor :meth:`tajmahal.ai._encoding.TensorEncoder.encode` writes (and so
:func:`tajmahal.ai.observation_tensor` of the view; ``tests/ai/
test_tensor_cache.py`` compares them at every step of random games, for every seat):

- every value the encoder writes belongs to exactly one part below, and the parts write
  disjoint sections; a part's values depend only on its objects (frozen values and
  tuples, never changed) and on the player count;
- a part is kept only when each of its objects *is* (``is``, not ``==``) the object it
  was written from, and the cache holds those objects, so none of them can be freed and
  its identity given to another object meanwhile (palaces alone are also compared with
  ``==``, which suffices: a palace's indices depend only on its value);
- a rewritten part first clears exactly the indices it had set, then writes its new ones
  (the palaces count how many palaces set each index, and clear one only at zero);
- the values that depend on the viewer are the seat slots (rotated by the reordering,
  the rotation :meth:`TensorEncoder.encode` applies index by index) and the hand
  (written after the reordering, from the viewer's seat).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from itertools import compress, count
from operator import is_not
from typing import Any

import numpy as np

from tajmahal.ai._encoding import TensorEncoder
from tajmahal.ai._tensor import MAX_SEATS, SEAT_SECTIONS, STEPS, Section
from tajmahal.model import GameState, Palace, PlayerState

_ROTATED = ("to_move", "start_player", *SEAT_SECTIONS)
"""Sections indexed by seat slot first (shape ``(MAX_SEATS, ...)``): the seats' holdings
and, unlike :class:`~tajmahal.ai._encoding.TensorEncoder`'s rotation (which writes these two
by the viewer's slot directly), the seat to move and the start player, which the cache
writes by absolute seat like everything else before rotating the whole tensor."""

_ROTATED_LAST = ("palaces", "crowned")
"""Sections indexed by city, then seat slot (shape ``(cities, MAX_SEATS)``)."""


def viewer_order(sections: tuple[Section, ...], players: int, viewer: int) -> Any:
    """The index array ``order`` with ``viewer_tensor = seat_tensor[order]``: slot ``k``
    of the viewer's tensor is slot ``(viewer + k) % players`` of the tensor with every
    seat in its own slot (slots from ``players`` on are empty in both)."""
    size = sections[-1].offset + sections[-1].size
    order = np.arange(size, dtype=np.intp)
    for section in sections:
        if section.name in _ROTATED:
            stride = section.size // MAX_SEATS
            for k in range(players):
                seat = (viewer + k) % players
                for x in range(stride):
                    order[section.offset + k * stride + x] = section.offset + seat * stride + x
        elif section.name in _ROTATED_LAST:
            for city in range(section.size // MAX_SEATS):
                base = section.offset + city * MAX_SEATS
                for k in range(players):
                    order[base + k] = base + (viewer + k) % players
    return order


_UNSET = object()
"""What a slot holds before it is first written (never one of a state's objects)."""


class _Slot:
    """What one seat's slot of the tensor holds, field by field: the objects each field
    was written from and the indices it set (a step usually changes a few fields of
    the mover only)."""

    __slots__ = (
        "colour",
        "colour_index",
        "goods",
        "goods_ones",
        "influence",
        "influence_counts",
        "played",
        "played_ones",
        "player",
        "tiles",
        "tiles_ones",
    )

    def __init__(self) -> None:
        self.player: object = _UNSET
        self.played: object = _UNSET
        self.played_ones: list[int] = []
        self.colour: object = _UNSET
        self.colour_index: int | None = None
        self.tiles: object = _UNSET
        self.tiles_ones: list[int] = []
        self.goods: object = _UNSET
        self.goods_ones: list[int] = []
        self.influence: object = _UNSET
        self.influence_counts: list[int] = []

    def clear(self, cells: Any, at: Mapping[str, int], seat: int) -> None:
        """Zero every index the slot set (its seat is gone: fewer players)."""
        for index in (
            *self.played_ones,
            *self.tiles_ones,
            *self.goods_ones,
            *self.influence_counts,
            at["hand_size"] + seat,
            at["withdrawn"] + seat,
            at["score"] + seat,
        ):
            cells[index] = 0.0
        if self.colour_index is not None:
            cells[self.colour_index] = 0.0


class TensorCache:
    """The tensors of the states of one game for any viewer, rewritten part by part.

    One per environment (it follows one sequence of states); :meth:`encode` of any state
    is always correct, merely faster when the state shares parts with the last one.
    """

    __slots__ = (
        "_at",
        "_colours",
        "_court_tiles",
        "_discard",
        "_discards",
        "_display",
        "_encoder",
        "_hands",
        "_offsets",
        "_orders",
        "_palace_counts",
        "_palaces",
        "_parts",
        "_provinces",
        "_scalars",
        "_seat_offsets",
        "_seats",
        "_specials",
        "_steps",
        "_tensor",
        "_writer",
        "lock",
    )

    def __init__(self, encoder: TensorEncoder) -> None:
        self._encoder = encoder
        layout = encoder.layout
        self._at = at = layout.offsets
        tensor: Any = np.zeros(layout.size, np.float32)
        self._tensor = tensor
        self._writer: Any = memoryview(tensor)
        self._orders = {
            (players, viewer): viewer_order(layout.sections, players, viewer)
            for players in range(3, MAX_SEATS + 1)
            for viewer in range(players)
        }
        # Enum members by identity: hashing one by value runs Python code.
        self._steps = {id(step): at["step"] + number for number, step in enumerate(STEPS)}
        self._colours = tuple(
            {id(colour): index for colour, index in table.items()} for table in encoder._colour
        )
        self._offsets = (
            at["players"] - 3,
            at["visit"] - 1,
            at["start_player"],
            at["to_move"],
            at["deck_size"],
            at["crown_in_court"],
        )
        """The state's offsets read at every step, as one tuple unpacked at once (the
        player count's and the visit's less their first values, 3 and 1)."""
        self._seat_offsets = (at["hand_size"], at["withdrawn"], at["score"])
        """The offsets of a seat's counts, read for every changed seat."""
        self._provinces = {p: at["current_province"] + n for p, n in layout.provinces.items()}
        self._court_tiles = {
            t: at["court_province_tile"] + n for t, n in layout.province_tiles.items()
        }
        self._display = {card: at["display"] + n for card, n in layout.cards.items()}
        self._specials = {card: at["specials_on_table"] + n for card, n in layout.cards.items()}
        self._hands = {card: at["hand"] + n for card, n in layout.cards.items()}
        self._discards = {card: at["discard"] + n for card, n in layout.cards.items()}
        self._scalars: list[int] = []
        """The one-hot indices of the counters written last."""
        self._parts: dict[str, tuple[object, list[int]]] = dict.fromkeys(
            ("display", "specials", "court", "board"), (_UNSET, [])
        )
        """By part name: the object written from and the indices set to 1."""
        self._palaces: object = _UNSET
        """The palaces written."""
        self._palace_counts: dict[int, int] = {}
        """How many palaces written set each index."""
        self._discard: tuple[object, Any] = (_UNSET, np.zeros(0, np.intp))
        """The discard pile written from and the index array set to 1."""
        self._seats: list[_Slot] = []
        """By seat: what its slot holds."""
        self.lock = threading.Lock()
        """Held by a caller that may share the cache with other threads while it calls
        :meth:`encode` (observations written on first use may be read from any thread,
        see :mod:`tajmahal.ai`); :meth:`encode` itself does not take it."""

    def __deepcopy__(self, memo: dict[int, object]) -> TensorCache:
        """A new, empty cache: what it holds is only a shortcut."""
        return TensorCache(self._encoder)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled empty (identities mean nothing in another process)."""
        return (TensorCache, (self._encoder,))

    def _part(self, name: str, owner: object, ones: list[int]) -> None:
        """Clear the indices part ``name`` set, then set ``ones`` (a few: one by one)."""
        cells = self._writer
        for index in self._parts[name][1]:
            cells[index] = 0.0
        for index in ones:
            cells[index] = 1.0
        self._parts[name] = (owner, ones)

    def _rewrite(self, old: Any, owner: object, ones: list[int]) -> tuple[object, Any]:
        """Clear the index array ``old``, then set ``ones`` (many: as an index array)."""
        tensor = self._tensor
        tensor[old] = 0.0
        indices = np.array(ones, np.intp)
        tensor[indices] = 1.0
        return (owner, indices)

    def _board_ones(self, order: tuple[str, ...], bonus: tuple[tuple[str, str], ...]) -> list[int]:
        """The indices set by the province order and the bonus tiles on the board."""
        layout = self._encoder.layout
        at = self._at
        provinces, cities, tiles = layout.provinces, layout.cities, layout.bonus_tiles
        ones = [
            at["province_order"] + provinces[province] * 12 + visit
            for visit, province in enumerate(order)
        ]
        ones.extend(at["bonus_on_board"] + tiles[t] * len(cities) + cities[c] for c, t in bonus)
        return ones

    def _seat(self, slot: _Slot, player: PlayerState, seat: int) -> None:
        """Rewrite the fields of seat ``seat``'s slot that are not the objects it holds."""
        cells = self._writer
        encoder = self._encoder
        played = player.played
        old = slot.played
        if played is not old:
            # A play appends one or two cards to the cards played: only they are set
            # (the cards before them are the same, compared in C, so their indices are).
            held = slot.played_ones
            size = len(held)
            if size and len(played) > size and played[:size] == old:
                table = encoder._played[seat]
                added = [table[card] for card in played[size:]]
                for index in added:
                    cells[index] = 1.0
                slot.played_ones = held + added
            else:
                slot.played_ones = _set_ones(cells, held, encoder._played[seat], played)
            slot.played = played
        colour = player.colour
        if colour is not slot.colour:
            if slot.colour_index is not None:
                cells[slot.colour_index] = 0.0
            place = None if colour is None else self._colours[seat][id(colour)]
            if place is not None:
                cells[place] = 1.0
            slot.colour_index = place
            slot.colour = colour
        tiles = player.province_tiles
        if tiles is not slot.tiles:
            slot.tiles_ones = _set_ones(cells, slot.tiles_ones, encoder._tiles[seat], tiles)
            slot.tiles = tiles
        goods = player.goods_tiles
        if goods is not slot.goods:
            slot.goods_ones = _set_ones(cells, slot.goods_ones, encoder._goods[seat], goods)
            slot.goods = goods
        influence = player.influence
        if influence is not slot.influence:
            for index in slot.influence_counts:
                cells[index] = 0.0
            counts: dict[int, float] = {}
            symbols = encoder._influence[seat]  # by identity: enum members are singletons
            for symbol in influence:
                index = symbols[id(symbol)]
                counts[index] = counts.get(index, 0.0) + 1.0
            for index, times in counts.items():
                cells[index] = times
            slot.influence_counts = list(counts)
            slot.influence = influence
        hand_size, withdrawn, score = self._seat_offsets
        cells[hand_size + seat] = float(len(player.hand))
        cells[withdrawn + seat] = float(player.withdrawn)
        cells[score + seat] = float(player.score)
        slot.player = player

    def _place(self, palaces: tuple[Palace, ...]) -> None:
        """Write the palaces that differ from those written last, after clearing those
        no longer there. A placement inserts one palace or replaces one by its crowned
        self, the others being the same objects, so the difference is found by the
        first position where the objects differ; any other change is written whole."""
        old = self._palaces
        removed: tuple[Palace, ...] = ()
        added = palaces
        if isinstance(old, tuple):
            common = min(len(palaces), len(old))
            at = next(compress(count(), map(is_not, palaces, old)), common)
            if len(palaces) == len(old) + 1 and palaces[at + 1 :] == old[at:]:
                added = (palaces[at],)
            elif len(palaces) == len(old) and palaces[at + 1 :] == old[at + 1 :]:
                removed, added = old[at : at + 1], palaces[at : at + 1]
            else:
                removed = old
        # Tuples compare equal objects as equal (``==``), and a palace's indices depend
        # only on its value; an index is cleared only when no palace written sets it.
        cells = self._writer
        counts = self._palace_counts
        for palace in removed:
            for index in self._palace_indices(palace):
                counts[index] -= 1
                if not counts[index]:
                    del counts[index]
                    cells[index] = 0.0
        for palace in added:
            for index in self._palace_indices(palace):
                counts[index] = counts.get(index, 0) + 1
                cells[index] = 1.0
        self._palaces = palaces

    def _palace_indices(self, palace: Palace) -> tuple[int, ...]:
        """The indices a palace sets (its city and seat; crowned or not)."""
        city = self._encoder.layout.cities[palace.city] * MAX_SEATS + palace.seat
        if palace.crowned:
            return (self._at["palaces"] + city, self._at["crowned"] + city)
        return (self._at["palaces"] + city,)

    def _update(self, state: GameState) -> None:
        """Make the seat-slot tensor that of ``state``."""
        cells = self._writer
        seats = state.players
        players, visit, start, to_move, deck, crown = self._offsets
        scalars = [
            players + len(seats),
            visit + state.visit,
            self._steps[id(state.step)],
            start + state.start_player,
            self._provinces[state.province_order[state.visit - 1]],
        ]
        if state.to_move is not None:
            scalars.append(to_move + state.to_move)
        if state.court_province_tile is not None:
            scalars.append(self._court_tiles[state.court_province_tile])
        if scalars != self._scalars:
            for index in self._scalars:
                cells[index] = 0.0
            for index in scalars:
                cells[index] = 1.0
            self._scalars = scalars
        cells[deck] = float(len(state.deck))
        cells[crown] = float(state.crown_in_court)
        parts = self._parts
        display = state.display
        if parts["display"][0] is not display:
            table = self._display
            self._part("display", display, [table[card] for card in display])
        specials = state.specials_on_table
        if parts["specials"][0] is not specials:
            table = self._specials
            self._part("specials", specials, [table[card] for card in specials])
        court = state.court_influence
        if parts["court"][0] is not court:
            self._part("court", court, self._encoder._court(court))
        order, bonus = state.province_order, state.bonus_on_board
        board = parts["board"][0]
        if not (isinstance(board, tuple) and board[0] is order and board[1] is bonus):
            self._part("board", (order, bonus), self._board_ones(order, bonus))
        if self._palaces is not state.palaces:
            self._place(state.palaces)
        discard = state.discard
        if self._discard[0] is not discard:
            table = self._discards
            ones = [table[card] for card in discard]
            self._discard = self._rewrite(self._discard[1], discard, ones)
        held = self._seats
        if len(held) != len(seats):
            while len(held) < len(seats):
                held.append(_Slot())
            for seat in range(len(seats), len(held)):
                held[seat].clear(cells, self._at, seat)
            del held[len(seats) :]
        for seat, player in enumerate(seats):
            slot = held[seat]
            if slot.player is not player:
                self._seat(slot, player, seat)

    def encode(self, state: GameState, viewer: int) -> Any:
        """A new float32 array: ``viewer``'s observation tensor of ``state``."""
        self._update(state)
        # Seat 0's slots are the seats' own: a copy; any other viewer's, a reordering.
        # Every index of an order is in range, so ``wrap`` (which skips numpy's bounds
        # check, about a sixth faster) gathers the same values.
        tensor = self._tensor
        if viewer == 0:
            out = tensor.copy()
        else:
            out = tensor.take(self._orders[len(state.players), viewer], mode="wrap")
        cells: Any = memoryview(out)
        hands = self._hands
        for card in state.players[viewer].hand:
            cells[hands[card]] = 1.0
        return out


def _set_ones(cells: Any, old: list[int], table: dict[str, int], ids: tuple[str, ...]) -> list[int]:
    """Clear the indices ``old`` of ``cells``, set those of ``ids`` (through ``table``)
    to one, and return them: one of a seat's card or tile sets rewritten."""
    for index in old:
        cells[index] = 0.0
    ones = [table[item] for item in ids]
    for index in ones:
        cells[index] = 1.0
    return ones
