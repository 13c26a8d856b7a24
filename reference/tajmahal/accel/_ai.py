"""The AI interfaces' drop-ins: legal ids listed from tables of ids, game configurations
shared by the seeds of a parameter set, observation dicts whose tensor is written when
first read, and the observation tensor rewritten part by part between successive states.

- :func:`legal_ids`, a drop-in for ``ActionSpace.legal_ids`` (:mod:`tajmahal.ai`): the
  engine's legal-action generators (``legal_choices``) reading tables of ids instead
  of tables of actions, so that no action is built or looked up (every adapter loop of
  ``tools/bench/adapter_speed.py``);
- :func:`legal_mask`, a drop-in for :func:`tajmahal.ai.pettingzoo.legal_mask`: those
  ids set in a copy of a zero mask through a memory view (the PettingZoo loops);
- :func:`shared_across_seeds`, which makes the drop-in for
  :func:`tajmahal.ai.openspiel.game_config`: the configuration of parameter sets that
  differ only in their seed built once (the ``openspiel-seeded`` loop loads a game per
  seed);
- :func:`lazy_masked_observation`, a drop-in for :func:`tajmahal.ai.masked_observation`
  (PettingZoo's observation dict): PettingZoo's standard loop asks for the mover's
  observation at every step, and a player that reads only the mask never pays for the
  tensor (the ``pettingzoo-observe`` loop of ``tools/bench/adapter_speed.py``);
- :class:`PartwiseObserver`, a drop-in for :class:`tajmahal.ai.TensorObserver`: the
  tensor of a state written from the last one's, only the parts a step replaced
  rewritten (the ``pettingzoo-tensors`` loop).

:mod:`tajmahal.ai` stands above this layer, so it pairs its own functions with these
drop-ins and chooses them (``tajmahal.ai.FAST_PATHS``, and
``tajmahal.ai.openspiel.FAST_PATHS`` for the OpenSpiel adapter, an optional extra);
``tests/accel/test_pin_ai.py`` pins them to those functions. What each buys is in
``docs/ai.md`` (Speed). They are written against the model and the engine's tables alone.
"""

from __future__ import annotations

import copy
import threading
import weakref
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

import attrs

from tajmahal.accel._engine import ChoiceTables, action_tables, legal_choices
from tajmahal.model import (
    COLOURS,
    INFLUENCE_SYMBOLS,
    Action,
    Components,
    GameState,
    PlayerState,
    Step,
)

# ---------------------------------------------------------------------------------------
# The legal ids of an action space


class Numbering(Protocol):
    """What :func:`legal_ids` reads of an action space (``ActionSpace``, :mod:`tajmahal.ai`)."""

    @property
    def components(self) -> Components: ...

    @property
    def ids(self) -> Mapping[Action, int]: ...


_ID_TABLES: weakref.WeakKeyDictionary[Any, ChoiceTables[int]] = weakref.WeakKeyDictionary()
"""By action space: the engine's tables of decisions holding the space's ids (made on
the space's first call, let go with the space)."""


def legal_ids(space: Numbering, state: GameState) -> list[int]:
    """``ActionSpace.legal_ids`` (:mod:`tajmahal.ai`), listed by the engine's legal-action
    generators (``legal_choices``) reading tables that hold the space's ids instead
    of actions (``ChoiceTables.mapped``, made once per space): no action is built or
    looked up, the same rules give the same decisions as numbers.

    Buys 5 to 10 % of every adapter loop of ``tools/bench/adapter_speed.py``
    (``docs/ai.md``, Speed)."""
    if state.config.components != space.components:
        raise ValueError("the state's component set is not this action space's")
    tables = _ID_TABLES.get(space)
    if tables is None:
        tables = _ID_TABLES[space] = action_tables(space.components).mapped(space.ids.get)
    found = legal_choices(state, tables)
    found.sort()
    return found


_ZERO_MASKS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
"""By action space: an int8 mask of zeros, never changed (copied for every mask)."""


def legal_mask(space: Numbering, state: GameState) -> Any:
    """:func:`tajmahal.ai.pettingzoo.legal_mask`: the ids of :func:`legal_ids` set in a
    copy of a zero mask kept per space, flag by flag through a memory view (faster than
    numpy's item assignment or its indexing with a short list).

    With :func:`legal_ids`, buys 15 to 20 % of the ``pettingzoo-masks`` and
    ``pettingzoo-observe`` loops of ``tools/bench/adapter_speed.py``, of which the memory
    view about 6 % (``docs/ai.md``, Speed)."""
    zeros: Any = _ZERO_MASKS.get(space)
    if zeros is None:
        import numpy as np

        zeros = _ZERO_MASKS[space] = np.zeros(len(space.ids), np.int8)
    mask: Any = zeros.copy()
    cells = memoryview(mask)
    for number in legal_ids(space, state):
        cells[number] = 1
    return mask


# ---------------------------------------------------------------------------------------
# Game configurations shared by the seeds of a parameter set

ConfigT = TypeVar("ConfigT")

KEPT_CONFIGURATIONS = 32
"""Parameter sets (seeds aside) whose configuration :func:`shared_across_seeds` keeps
before it starts over."""


def shared_across_seeds(
    game_config: Callable[[dict[str, Any]], ConfigT],
) -> Callable[[dict[str, Any]], ConfigT]:
    """A drop-in for ``game_config`` (:func:`tajmahal.ai.openspiel.game_config`) that
    builds the configuration of parameter sets differing only in their ``seed`` once.

    A configuration (an attrs value) depends on the seed only through its fields
    ``seed`` and ``parameters`` (the parameters, defaults filled in, sorted by name): a
    parameter set met before with another seed gets that configuration with the two
    replaced, as ``game_config`` would build them. Errors are those of ``game_config``
    (a set that fails is never kept). Buys most of the ``openspiel-seeded`` loop of
    ``tools/bench/adapter_speed.py``, which loads a game per seed: building a
    configuration numbers the whole action space (``docs/ai.md``, Speed)."""
    kept: dict[Any, ConfigT] = {}

    def shared_game_config(params: dict[str, Any]) -> ConfigT:
        others = ((name, type(value), value) for name, value in params.items() if name != "seed")
        try:
            key = (frozenset(others), "seed" in params)
            found = kept.get(key)
        except TypeError:  # a value that cannot be hashed: game_config judges it
            return game_config(params)
        if found is None:
            found = game_config(params)
            if len(kept) >= KEPT_CONFIGURATIONS:
                kept.clear()
            kept[key] = found
            return found
        if "seed" not in params:
            return found  # the same parameter set, the default seed
        sibling: Any = found
        seed = params["seed"]
        parameters = tuple(
            (name, seed if name == "seed" else value) for name, value in sibling.parameters
        )
        shared: ConfigT = attrs.evolve(sibling, seed=int(seed), parameters=parameters)
        return shared

    return shared_game_config


OBSERVATION = "observation"
"""The key of the tensor (:data:`tajmahal.ai.OBSERVATION`; the pinning tests compare the
dicts whole)."""

ACTION_MASK = "action_mask"
"""The key of the mask (:data:`tajmahal.ai.ACTION_MASK`)."""

_WRITING = threading.Lock()
"""Held while a pending tensor is written into its dict (it may be read from any thread)."""


def _writing(method: Callable[..., Any], both: bool = False) -> Callable[..., Any]:
    """``method`` of ``dict``, called after the tensor is written (and, with ``both``,
    after that of a :class:`LazyObservation` given as the first argument)."""

    def call(self: LazyObservation, *args: Any, **kwargs: Any) -> Any:
        self._write()
        if both and args and isinstance(args[0], LazyObservation):
            args[0]._write()
        return method(self, *args, **kwargs)

    call.__name__ = method.__name__
    call.__doc__ = f"``dict.{method.__name__}``, once the tensor is written."
    return call


class LazyObservation(dict[str, Any]):
    """``{"observation": tensor, "action_mask": mask}``, the tensor written when first read.

    Until then the dict's own storage holds only ``"action_mask"``, read by the dict's own
    C look-up, so reading the mask costs what it costs in a plain dict. Every other
    method (``obs["observation"]`` through ``__missing__``, ``get``, ``in``, ``len``,
    iteration, ``keys``, ``values``, ``items``, ``reversed``, ``repr``, ``==``, ``|``,
    ``copy``, the changing methods, ``copy.copy``, ``copy.deepcopy`` and pickling) first
    writes the tensor into the storage, in the plain dict's key order, then is the dict's
    own. CPython's C code that takes a dict apart (``dict(obs)``, ``{**obs}``,
    ``f(**obs)``, ``d.update(obs)``, ``json``) goes through the overridden ``keys``,
    ``__iter__`` or ``items`` of a dict subclass. A copy, deep copy or pickle is a plain
    ``dict``.

    What differs from a plain dict: ``type(obs)`` is this class (``isinstance(obs, dict)``
    holds); C code reading the storage through CPython's concrete dict functions
    (``PyDict_Next``, ``PyDict_GetItem``) without calling a method sees only the mask
    until the tensor is read; ``pprint`` prints it on one line.
    """

    __slots__ = ("_pending",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """A plain dict of this class (nothing pending), as ``dict(...)`` makes one."""
        self._pending: Callable[[], Any] | None = None
        super().__init__(*args, **kwargs)

    def _write(self) -> None:
        """Write the tensor into the storage, before the mask (the plain dict's order)."""
        if self._pending is None:
            return
        with _WRITING:
            tensor = self._pending
            if tensor is None:  # written meanwhile by another thread
                return
            mask = dict.__getitem__(self, ACTION_MASK)
            dict.clear(self)
            dict.__setitem__(self, OBSERVATION, tensor())
            dict.__setitem__(self, ACTION_MASK, mask)
            self._pending = None

    @property
    def pending(self) -> bool:
        """True while the tensor is not written yet."""
        return self._pending is not None

    def __missing__(self, key: str) -> Any:
        if self._pending is None:
            raise KeyError(key)
        self._write()
        return self[key]

    def get(self, key: str, default: Any = None) -> Any:
        """``dict.get``; the tensor is written unless ``key`` is already there."""
        if self._pending is not None and not dict.__contains__(self, key):
            self._write()
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        if self._pending is not None and not dict.__contains__(self, key):
            self._write()
        return dict.__contains__(self, key)

    __len__ = _writing(dict.__len__)
    __iter__ = _writing(dict.__iter__)
    __reversed__ = _writing(dict.__reversed__)
    __repr__ = _writing(dict.__repr__)
    __sizeof__ = _writing(dict.__sizeof__)
    __setitem__ = _writing(dict.__setitem__)
    __delitem__ = _writing(dict.__delitem__)
    keys = _writing(dict.keys)
    values = _writing(dict.values)
    items = _writing(dict.items)
    setdefault = _writing(dict.setdefault)
    pop = _writing(dict.pop)
    popitem = _writing(dict.popitem)
    clear = _writing(dict.clear)
    # With another mapping: that one's tensor is written too, as the dict's method may
    # read its storage directly.
    __eq__ = _writing(dict.__eq__, both=True)
    __ne__ = _writing(dict.__ne__, both=True)
    __or__ = _writing(dict.__or__, both=True)
    __ror__ = _writing(dict.__ror__, both=True)
    __ior__ = _writing(dict.__ior__, both=True)
    update = _writing(dict.update, both=True)
    __hash__ = None

    def copy(self) -> dict[str, Any]:
        """A plain dict of the same items, as ``dict.copy`` gives."""
        self._write()
        return dict(dict.items(self))

    def __copy__(self) -> dict[str, Any]:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        """A plain dict of deep copies, as ``copy.deepcopy`` of a plain dict gives."""
        self._write()
        result: dict[str, Any] = {}
        memo[id(self)] = result
        for key, value in dict.items(self):
            result[copy.deepcopy(key, memo)] = copy.deepcopy(value, memo)
        return result

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        """Pickled as a plain dict of the same items."""
        self._write()
        return (dict, (), None, None, iter(dict.items(self)))

    def __reduce__(self) -> tuple[Any, ...]:
        return self.__reduce_ex__(2)


_new = dict.__new__
_put = dict.setdefault  # into an empty dict: what __setitem__ does, through a faster call


def lazy_masked_observation(tensor: Callable[[], Any], mask: Any) -> dict[str, Any]:
    """:func:`tajmahal.ai.masked_observation`, ``tensor()`` called when the tensor is first
    read (a :class:`LazyObservation`; made without its Python ``__init__``: one is made
    per step of PettingZoo's standard loop)."""
    observation: LazyObservation = _new(LazyObservation)
    _put(observation, ACTION_MASK, mask)
    observation._pending = tensor
    return observation


# ---------------------------------------------------------------------------------------
# The observation tensor, rewritten part by part


class Layout(Protocol):
    """What :class:`PartwiseObserver` reads of a :class:`tajmahal.ai.TensorLayout`."""

    @property
    def sections(self) -> tuple[Any, ...]: ...  # each with name, offset, shape, size

    @property
    def cards(self) -> Mapping[str, int]: ...

    @property
    def cities(self) -> Mapping[str, int]: ...

    @property
    def provinces(self) -> Mapping[str, int]: ...

    @property
    def province_tiles(self) -> Mapping[str, int]: ...

    @property
    def bonus_tiles(self) -> Mapping[str, int]: ...

    @property
    def steps(self) -> tuple[Step, ...]: ...

    @property
    def size(self) -> int: ...


Writes = list[tuple[int, float]]
"""The (index, value) pairs one part of a state sets in the tensor (values not zero)."""

_SEAT_FIRST = (
    "to_move",
    "start_player",
    "hand_size",
    "played",
    "colour",
    "withdrawn",
    "influence",
    "province_tiles_won",
    "goods_tiles",
    "score",
)
"""The sections indexed by seat slot first (shape ``(seats, ...)``)."""

_SEAT_LAST = ("palaces", "crowned")
"""The sections indexed by city, then seat slot (shape ``(cities, seats)``)."""


class PartwiseObserver:
    """:class:`tajmahal.ai.TensorObserver`, rewriting only what a step changed (numpy).

    Consecutive states of a game share almost every part: a step replaces the mover's
    seat and a few counters, now and then the display, the court, the palaces or the
    discard pile. The observer keeps one tensor written for the last state, with every
    seat in its own slot (seat ``s`` in slot ``s``), and for the next state rewrites a
    part only when its object is not the very object (``is``) it was written from, nor
    equal to it; it holds those objects, so none can be freed and its identity reused
    meanwhile. A viewer's tensor is then that tensor with the seat slots turned so that
    the viewer is slot 0 (one numpy ``take`` per player count and viewer), plus the
    viewer's hand.

    Every value belongs to exactly one part, parts set disjoint indices, and a part's
    values depend only on its object (frozen values, never changed): so the tensor is the
    same whatever states came before. Thread-safe (a lock around each write); a deep copy
    or a pickle starts empty.
    """

    def __init__(self, layout: Layout) -> None:
        import numpy as np

        self.layout = layout
        """The layout written."""
        at = {section.name: section for section in layout.sections}
        self._at = {name: section.offset for name, section in at.items()}
        seats = range(at["hand_size"].size)
        self._seats = len(seats)

        def index(name: str, *position: int) -> int:
            """The index of ``position`` in section ``name`` (row-major)."""
            flat = 0
            for number, length in zip(position, at[name].shape, strict=True):
                flat = flat * length + number
            return int(at[name].offset) + flat

        cards = layout.cards
        self._cards = {
            name: {card: index(name, n) for card, n in cards.items()}
            for name in ("hand", "display", "discard", "specials_on_table")
        }
        self._steps = {step: index("step", n) for n, step in enumerate(layout.steps)}
        self._provinces = {p: index("current_province", n) for p, n in layout.provinces.items()}
        self._court_tiles = {
            t: index("court_province_tile", n) for t, n in layout.province_tiles.items()
        }
        self._court = {s: index("court_influence", n) for n, s in enumerate(INFLUENCE_SYMBOLS)}
        self._order = {
            (p, visit): index("province_order", n, visit)
            for p, n in layout.provinces.items()
            for visit in range(12)
        }
        self._bonus = {
            (city, tile): index("bonus_on_board", t, c)
            for tile, t in layout.bonus_tiles.items()
            for city, c in layout.cities.items()
        }
        self._palace = {
            (city, seat): (index("palaces", c, seat), index("crowned", c, seat))
            for city, c in layout.cities.items()
            for seat in seats
        }
        self._played = [{card: index("played", s, n) for card, n in cards.items()} for s in seats]
        self._colours = [
            {colour: index("colour", s, n) for n, colour in enumerate(COLOURS)} for s in seats
        ]
        self._influence = [
            {symbol: index("influence", s, n) for n, symbol in enumerate(INFLUENCE_SYMBOLS)}
            for s in seats
        ]
        self._tiles = [
            {t: index("province_tiles_won", s, n) for t, n in layout.province_tiles.items()}
            for s in seats
        ]
        self._goods = [
            {t: index("goods_tiles", s, n) for t, n in layout.bonus_tiles.items()} for s in seats
        ]
        tensor: Any = np.zeros(layout.size, np.float32)
        self._tensor = tensor
        """Every seat in its own slot (seat ``s`` in slot ``s``), as last written."""
        self._cells: Any = memoryview(tensor)
        """Its values, written one by one (faster than numpy's item assignment)."""
        self._held: dict[object, tuple[object, Writes]] = {}
        """By part: the object written from and what it set."""
        self._orders = {
            (players, viewer): np.array(_viewer_order(layout, len(seats), players, viewer))
            for players in range(3, len(seats) + 1)
            for viewer in range(players)
        }
        """By player count and viewer: the index in the seat-slot tensor of each index of
        the viewer's tensor."""
        self._lock = threading.Lock()

    def __deepcopy__(self, memo: dict[int, object]) -> PartwiseObserver:
        """A new, empty observer: what it holds is only a shortcut."""
        return PartwiseObserver(self.layout)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled empty (identities mean nothing in another process)."""
        return (PartwiseObserver, (self.layout,))

    def write(self, state: GameState, seat: int, out: Any) -> Any:
        """What :meth:`tajmahal.ai.TensorObserver.write` writes, into a numpy array."""
        order = self._orders[len(state.players), seat]
        with self._lock:
            self._update(state)
            if out.dtype == self._tensor.dtype:
                self._tensor.take(order, out=out, mode="wrap")  # every index is in range
            else:
                out[:] = self._tensor.take(order)
        hand = self._cards["hand"]
        for card in state.players[seat].hand:
            out[hand[card]] = 1.0
        return out

    def _update(self, state: GameState) -> None:
        """Make the seat-slot tensor that of ``state``."""
        self._keep("counters", _counters(state), self._counter_writes)
        self._keep("display", state.display, self._card_writes)
        self._keep("specials_on_table", state.specials_on_table, self._card_writes)
        self._keep("discard", state.discard, self._card_writes)
        self._keep("court", state.court_influence, self._court_writes)
        self._keep("board", (state.province_order, state.bonus_on_board), self._board_writes)
        self._keep("palaces", state.palaces, self._palace_writes)
        seats = state.players
        for seat in range(self._seats):
            self._keep(seat, seats[seat] if seat < len(seats) else None, self._seat_writes)

    def _keep(self, part: Any, owner: Any, writes: Callable[[Any, Any], Writes]) -> None:
        """Rewrite ``part`` from ``owner`` (None: nothing) unless it was written from that
        very object or an equal one."""
        held = self._held.get(part)
        if held is not None and (held[0] is owner or held[0] == owner):
            return
        cells = self._cells
        if held is not None:
            for index, _value in held[1]:
                cells[index] = 0.0
        new = writes(part, owner) if owner is not None else []
        for index, value in new:
            cells[index] = value
        self._held[part] = (owner, new)

    def _counter_writes(self, _part: str, counters: tuple[Any, ...]) -> Writes:
        players, visit, step, to_move, start, province, tile, deck, crown = counters
        at = self._at
        writes = [
            (at["players"] + players - 3, 1.0),
            (at["visit"] + visit - 1, 1.0),
            (self._steps[step], 1.0),
            (at["start_player"] + start, 1.0),
            (self._provinces[province], 1.0),
            (at["deck_size"], float(deck)),
            (at["crown_in_court"], float(crown)),
        ]
        if to_move is not None:
            writes.append((at["to_move"] + to_move, 1.0))
        if tile is not None:
            writes.append((self._court_tiles[tile], 1.0))
        return writes

    def _card_writes(self, section: str, cards: tuple[str, ...]) -> Writes:
        index = self._cards[section]
        return [(index[card], 1.0) for card in cards]

    def _court_writes(self, _part: str, court: tuple[Any, ...]) -> Writes:
        return [(self._court[symbol], 1.0) for symbol in court]

    def _board_writes(self, _part: str, board: tuple[Any, Any]) -> Writes:
        order, bonus = board
        writes = [(self._order[province, visit], 1.0) for visit, province in enumerate(order)]
        writes += [(self._bonus[city, tile], 1.0) for city, tile in bonus]
        return writes

    def _palace_writes(self, _part: str, palaces: tuple[Any, ...]) -> Writes:
        writes = []
        for palace in palaces:
            normal, crowned = self._palace[palace.city, palace.seat]
            writes.append((normal, 1.0))
            if palace.crowned:
                writes.append((crowned, 1.0))
        return writes

    def _seat_writes(self, seat: int, player: PlayerState) -> Writes:
        at = self._at
        writes = [
            (at["hand_size"] + seat, float(len(player.hand))),
            (at["withdrawn"] + seat, float(player.withdrawn)),
            (at["score"] + seat, float(player.score)),
        ]
        played = self._played[seat]
        writes += [(played[card], 1.0) for card in player.played]
        if player.colour is not None:
            writes.append((self._colours[seat][player.colour], 1.0))
        counts: dict[int, float] = {}
        influence = self._influence[seat]
        for symbol in player.influence:
            counts[influence[symbol]] = counts.get(influence[symbol], 0.0) + 1.0
        writes += counts.items()
        tiles, goods = self._tiles[seat], self._goods[seat]
        writes += [(tiles[tile], 1.0) for tile in player.province_tiles]
        writes += [(goods[tile], 1.0) for tile in player.goods_tiles]
        return writes


def _counters(state: GameState) -> tuple[Any, ...]:
    """The state's counters: compared by value, as they are new objects at every step."""
    return (
        len(state.players),
        state.visit,
        state.step,
        state.to_move,
        state.start_player,
        state.province_order[state.visit - 1],
        state.court_province_tile,
        len(state.deck),
        state.crown_in_court,
    )


def _viewer_order(layout: Layout, seats: int, players: int, viewer: int) -> list[int]:
    """For each index of ``viewer``'s tensor, the index of the seat-slot tensor (seat
    ``s`` in slot ``s``) it is read from: slot ``k`` reads seat ``(viewer + k) % players``
    in every section indexed by seat; every other index reads itself."""
    order = list(range(layout.size))
    for section in layout.sections:
        if section.name in _SEAT_FIRST:
            stride = section.size // seats  # the values of one seat
            for k in range(players):
                seat = (viewer + k) % players
                for x in range(stride):
                    order[section.offset + k * stride + x] = section.offset + seat * stride + x
        elif section.name in _SEAT_LAST:
            for city in range(section.size // seats):
                row = section.offset + city * seats
                for k in range(players):
                    order[row + k] = row + (viewer + k) % players
    return order
