"""The observation tensor: its fixed layout and how a seat's view fills it.

:func:`~tajmahal.ai.observation_tensor` encodes a :class:`~tajmahal.model.View`
as a fixed-length vector of floats whose layout
(:func:`~tajmahal.ai.tensor_layout`, listed in ``docs/ai.md``) depends only on
the component set. Seats are encoded relative to the viewer: slot ``k`` is seat
``(viewer + k) % players``, slots past the player count stay zero, so one layout serves
3, 4 and 5 players. (Its functions and classes are documented under
:mod:`tajmahal.ai`, which users import them from.)

This is the numeric encoding the adapters feed to learning code, and its definition:
:func:`fill_observation_tensor` writes a seat's view value by value. The adapters write
the tensor of a state for a seat with :class:`TensorObserver` (the same function of the
seat's view), and hand PettingZoo's observation dict out with
:func:`masked_observation`; the accelerated layer's faster drop-ins for both are pinned
to them by ``tests/accel/``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

import attrs

from tajmahal.model import (
    COLOURS,
    INFLUENCE_SYMBOLS,
    CardId,
    Components,
    GameState,
    Step,
    View,
    view,
)

MAX_SEATS = 5
"""Seat slots in the tensor (Taj Mahal is for 3 to 5 players, TM.SETUP.PLAYER_COUNT)."""

SEAT_SECTIONS = (
    "hand_size",
    "played",
    "colour",
    "withdrawn",
    "influence",
    "province_tiles_won",
    "goods_tiles",
    "score",
)
"""The sections of the seats' holdings, indexed by seat slot first (shape
``(MAX_SEATS, ...)``; see :func:`~tajmahal.ai.tensor_layout`)."""

STEPS: tuple[Step, ...] = (Step.PLAY, Step.PLACE, Step.TAKE, Step.SHUFFLE, Step.OVER)
"""The order of the ``step`` one-hot."""


@attrs.frozen(slots=True)
class Section:
    """One named slice of the observation tensor."""

    name: str
    """What it encodes (see ``docs/ai.md``)."""
    offset: int
    """Index of its first value."""
    shape: tuple[int, ...]
    """Its shape, row-major; the slice holds the product of the shape values."""

    @property
    def size(self) -> int:
        """Number of values."""
        size = 1
        for length in self.shape:
            size *= length
        return size


@attrs.frozen(eq=False)
class TensorLayout:
    """The sections of the observation tensor for one component set."""

    sections: tuple[Section, ...]
    """In order; each starts where the previous one ends."""
    cards: Mapping[CardId, int]
    """Index of every card id (regular and special, sorted) in card-indexed sections."""
    cities: Mapping[str, int]
    """Index of every city (sorted)."""
    provinces: Mapping[str, int]
    """Index of every province (sorted)."""
    province_tiles: Mapping[str, int]
    """Index of every province tile (sorted)."""
    bonus_tiles: Mapping[str, int]
    """Index of every bonus tile (sorted)."""
    steps: tuple[Step, ...] = STEPS
    """The order of the ``step`` one-hot (:data:`STEPS`)."""

    @property
    def size(self) -> int:
        """Length of the tensor."""
        last = self.sections[-1]
        return last.offset + last.size

    @property
    def offsets(self) -> Mapping[str, int]:
        """The offset of every section by name."""
        return {section.name: section.offset for section in self.sections}

    def section(self, name: str) -> Section:
        """The section called ``name``."""
        for section in self.sections:
            if section.name == name:
                return section
        raise KeyError(name)


def _index(ids: Any) -> Mapping[str, int]:
    return {item: number for number, item in enumerate(sorted(ids))}


def tensor_layout(components: Components) -> TensorLayout:
    """The layout of :func:`observation_tensor` for a component set (worked out at each
    call: keep it, as the adapters do, where it is needed often)."""
    cards = _index([*components.cards, *components.specials])
    cities = _index(components.board.cities)
    provinces = _index(components.board.provinces)
    tiles = _index(components.province_tiles)
    bonus = _index(components.bonus_tiles)
    c, s = len(cards), MAX_SEATS
    shapes: list[tuple[str, tuple[int, ...]]] = [
        ("players", (3,)),
        ("visit", (12,)),
        ("step", (len(STEPS),)),
        ("to_move", (s,)),
        ("start_player", (s,)),
        ("hand", (c,)),
        ("hand_size", (s,)),
        ("played", (s, c)),
        ("colour", (s, len(COLOURS))),
        ("withdrawn", (s,)),
        ("influence", (s, len(INFLUENCE_SYMBOLS))),
        ("province_tiles_won", (s, len(tiles))),
        ("goods_tiles", (s, len(bonus))),
        ("score", (s,)),
        ("display", (c,)),
        ("discard", (c,)),
        ("specials_on_table", (c,)),
        ("deck_size", (1,)),
        ("court_influence", (len(INFLUENCE_SYMBOLS),)),
        ("crown_in_court", (1,)),
        ("court_province_tile", (len(tiles),)),
        ("current_province", (len(provinces),)),
        ("province_order", (len(provinces), 12)),
        ("bonus_on_board", (len(bonus), len(cities))),
        ("palaces", (len(cities), s)),
        ("crowned", (len(cities), s)),
    ]
    sections: list[Section] = []
    offset = 0
    for name, shape in shapes:
        section = Section(name, offset, shape)
        sections.append(section)
        offset += section.size
    return TensorLayout(tuple(sections), cards, cities, provinces, tiles, bonus)


class Writable(Protocol):
    """A zero-filled buffer of floats (a list, a numpy array)."""

    def __getitem__(self, index: int, /) -> Any: ...

    def __setitem__(self, index: int, value: float, /) -> None: ...


BufferT = TypeVar("BufferT", bound=Writable)


def observation_tensor(seen: View, components: Components) -> list[float]:
    """The view as a flat list of :func:`tensor_layout` ``(components).size`` floats.

    One-hots and 0/1 flags, except ``hand_size``, ``score``, ``deck_size`` and
    ``influence`` (plain counts). Seats are relative to the viewer.
    """
    layout = tensor_layout(components)
    return fill_observation_tensor(seen, layout, [0.0] * layout.size)


def fill_observation_tensor(seen: View, layout: TensorLayout, out: BufferT) -> BufferT:
    """Write :func:`observation_tensor` of ``seen`` into the zero-filled buffer ``out`` (a
    whole tensor of ``layout``) and return it (the adapters fill numpy arrays in place)."""
    at = layout.offsets
    cards, cities = layout.cards, layout.cities
    players = len(seen.players)
    c = len(cards)

    def slot(seat: int | None) -> int | None:
        return None if seat is None else (seat - seen.viewer) % players

    out[at["players"] + players - 3] = 1.0
    out[at["visit"] + seen.visit - 1] = 1.0
    out[at["step"] + STEPS.index(seen.step)] = 1.0
    moving = slot(seen.to_move)
    if moving is not None:
        out[at["to_move"] + moving] = 1.0
    out[at["start_player"] + (seen.start_player - seen.viewer) % players] = 1.0
    own = seen.players[seen.viewer].hand or ()
    for card in own:
        out[at["hand"] + cards[card]] = 1.0
    colours = {colour: number for number, colour in enumerate(COLOURS)}
    symbols = {symbol: number for number, symbol in enumerate(INFLUENCE_SYMBOLS)}
    tiles, bonus = layout.province_tiles, layout.bonus_tiles
    for seat, player in enumerate(seen.players):
        k = (seat - seen.viewer) % players
        out[at["hand_size"] + k] = float(player.hand_size)
        for card in player.played:
            out[at["played"] + k * c + cards[card]] = 1.0
        if player.colour is not None:
            out[at["colour"] + k * len(COLOURS) + colours[player.colour]] = 1.0
        out[at["withdrawn"] + k] = float(player.withdrawn)
        for symbol in player.influence:
            out[at["influence"] + k * len(symbols) + symbols[symbol]] += 1.0
        for tile in player.province_tiles:
            out[at["province_tiles_won"] + k * len(tiles) + tiles[tile]] = 1.0
        for tile in player.goods_tiles:
            out[at["goods_tiles"] + k * len(bonus) + bonus[tile]] = 1.0
        out[at["score"] + k] = float(player.score)
    for name, group in (
        ("display", seen.display),
        ("discard", seen.discard),
        ("specials_on_table", seen.specials_on_table),
    ):
        for card in group:
            out[at[name] + cards[card]] = 1.0
    out[at["deck_size"]] = float(seen.deck_size)
    for symbol in seen.court_influence:
        out[at["court_influence"] + symbols[symbol]] = 1.0
    out[at["crown_in_court"]] = float(seen.crown_in_court)
    if seen.court_province_tile is not None:
        out[at["court_province_tile"] + tiles[seen.court_province_tile]] = 1.0
    provinces = layout.provinces
    out[at["current_province"] + provinces[seen.province]] = 1.0
    for visit, province in enumerate(seen.province_order):
        out[at["province_order"] + provinces[province] * 12 + visit] = 1.0
    for city, tile in seen.bonus_on_board:
        out[at["bonus_on_board"] + bonus[tile] * len(cities) + cities[city]] = 1.0
    for palace in seen.palaces:
        k = (palace.seat - seen.viewer) % players
        out[at["palaces"] + cities[palace.city] * MAX_SEATS + k] = 1.0
        if palace.crowned:
            out[at["crowned"] + cities[palace.city] * MAX_SEATS + k] = 1.0
    return out


class TensorWriter(Protocol):
    """What writes the observation tensor of a state for a seat: a
    :class:`TensorObserver`, or the accelerated layer's drop-in for it."""

    def write(self, state: GameState, seat: int, out: Any, /) -> Any:
        """Write ``seat``'s tensor of ``state`` into the zero-filled ``out``; return it."""
        ...


class TensorObserver:
    """Writes the observation tensor of a state for a seat:
    :func:`fill_observation_tensor` of the seat's view (:func:`tajmahal.model.view`).

    What the adapters write (OpenSpiel's observation tensors, PettingZoo's
    observations), one per game or environment. The accelerated layer's drop-in,
    :class:`tajmahal.accel.PartwiseObserver`, writes the same values faster.
    """

    def __init__(self, layout: TensorLayout) -> None:
        self.layout = layout
        """The layout written."""

    def write(self, state: GameState, seat: int, out: BufferT) -> BufferT:
        """Write ``seat``'s observation tensor of ``state`` into the zero-filled buffer
        ``out`` (a whole tensor of :attr:`layout`) and return it."""
        return fill_observation_tensor(view(state, seat), self.layout, out)


OBSERVATION = "observation"
"""The key of the tensor in an observation dict (:func:`masked_observation`)."""

ACTION_MASK = "action_mask"
"""The key of the mask of legal action ids in an observation dict."""


def masked_observation(tensor: Callable[[], Any], mask: Any) -> dict[str, Any]:
    """The observation dict of the action-masking convention (PettingZoo's):
    ``{"observation": tensor(), "action_mask": mask}``.

    ``tensor`` makes the observation tensor. It is a function rather than a value so that
    the accelerated layer's drop-in (:func:`tajmahal.accel.lazy_masked_observation`) may
    call it only when the tensor is first read: many players read only the mask."""
    return {OBSERVATION: tensor(), ACTION_MASK: mask}


# The functions and classes are documented under tajmahal.ai, which users import
# them from; only the constants, whose docstrings cannot go with them, are listed here.
__all__ = ["ACTION_MASK", "MAX_SEATS", "OBSERVATION", "SEAT_SECTIONS", "STEPS"]
