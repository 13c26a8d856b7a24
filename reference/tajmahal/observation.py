"""What each seat learns: views as JSON, a fixed-length tensor, per-seat observations.

Three layers, each built only from what the seat may know:

* :func:`view_to_json` writes a :class:`~tajmahal.view.View` as a JSON object, and
  :func:`observation_tensor` encodes it as a fixed-length vector of floats whose layout
  (:func:`tensor_layout`, listed in ``docs/ai.md``) depends only on the component set.
  Seats are encoded relative to the viewer: slot ``k`` is seat ``(viewer + k) % players``,
  slots past the player count stay zero, so one layout serves 3, 4 and 5 players.
* :func:`observe` turns one step ``(before, action, after)`` into one
  :class:`Observation` per seat: the action as everyone sees it (a reshuffle's order is
  hidden; which cards were shuffled is not, the discard pile being face up), the cards
  each seat received or gave up in the open, how many cards each seat drew face down,
  and the cards the seat itself drew (its ``private`` part: TM.PLAY.HANDS_SECRET).
* :class:`Knowledge` accumulates a seat's observations: the cards known to lie in each
  hand (taken from the face-up display, special cards earned or moved, minus cards
  played) and, for the cards whose place is unknown, which shuffle they last went
  through. That is what :func:`tajmahal.sampling.sample_consistent_state` needs.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping
from typing import Any, Protocol, TypeVar

import attrs

from tajmahal.actions import Action, Reshuffle
from tajmahal.components import CardId, Components
from tajmahal.engine import apply_with_events
from tajmahal.events import Event, EventKind
from tajmahal.state import GameState, PendingDraw, Step, Withdrawal
from tajmahal.symbols import COLOURS, INFLUENCE_SYMBOLS
from tajmahal.view import View

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
``(MAX_SEATS, ...)``; see :func:`tensor_layout`)."""

STEPS: tuple[Step, ...] = (Step.PLAY, Step.PLACE, Step.TAKE, Step.SHUFFLE, Step.OVER)
"""The order of the ``step`` one-hot."""


def view_to_json(seen: View) -> dict[str, Any]:
    """A JSON-ready object holding everything in a view (same field names as :class:`View`)."""
    return {
        "viewer": seen.viewer,
        "visit": seen.visit,
        "province": seen.province,
        "step": seen.step.value,
        "to_move": seen.to_move,
        "start_player": seen.start_player,
        "players": [
            {
                "hand": list(player.hand) if player.hand is not None else None,
                "hand_size": player.hand_size,
                "played": list(player.played),
                "colour": player.colour.value if player.colour is not None else None,
                "withdrawn": player.withdrawn,
                "influence": [symbol.value for symbol in player.influence],
                "province_tiles": list(player.province_tiles),
                "goods_tiles": list(player.goods_tiles),
                "score": player.score,
            }
            for player in seen.players
        ],
        "deck_size": seen.deck_size,
        "discard": list(seen.discard),
        "display": list(seen.display),
        "specials_on_table": list(seen.specials_on_table),
        "court_influence": [symbol.value for symbol in seen.court_influence],
        "crown_in_court": seen.crown_in_court,
        "court_province_tile": seen.court_province_tile,
        "province_order": list(seen.province_order),
        "bonus_on_board": [[city, tile] for city, tile in seen.bonus_on_board],
        "palaces": [[p.city, p.seat, p.crowned] for p in seen.palaces],
    }


# ---------------------------------------------------------------------------------------
# The tensor


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

    @property
    def size(self) -> int:
        """Length of the tensor."""
        last = self.sections[-1]
        return last.offset + last.size

    @functools.cached_property
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


@functools.lru_cache(maxsize=8)
def tensor_layout(components: Components) -> TensorLayout:
    """The layout of :func:`observation_tensor` for a component set."""
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
    return fill_observation_tensor(seen, components, [0.0] * tensor_layout(components).size)


def fill_observation_tensor(seen: View, components: Components, out: BufferT) -> BufferT:
    """Write :func:`observation_tensor` into the zero-filled buffer ``out`` and return it
    (the adapters fill numpy arrays in place)."""
    layout = tensor_layout(components)
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


# ---------------------------------------------------------------------------------------
# Per-seat observations of one step


@attrs.frozen(slots=True)
class Observation:
    """What one seat learns from one step (the view after it comes on top)."""

    seat: int
    """The observing seat."""
    action: str
    """The action as everyone sees it: its canonical string, except that a reshuffle is
    written ``reshuffle`` (the new order is hidden; the shuffled cards were face up)."""
    gains: tuple[tuple[CardId, ...], ...]
    """Per seat, the cards it received in the open (from the display, or a special card)."""
    losses: tuple[tuple[CardId, ...], ...]
    """Per seat, the cards that left its hand in the open (played, or a special card
    taken by another player)."""
    hidden_draws: tuple[int, ...]
    """Per seat, how many cards it drew face down from the deck."""
    private: tuple[CardId, ...]
    """The cards this seat drew face down itself (known to it alone)."""
    reshuffled: tuple[CardId, ...]
    """The cards shuffled into a new deck in this step (sorted; empty without a reshuffle)."""
    withdrawal: Withdrawal | None
    """The public withdrawal record after the step (rewards still owed)."""
    draw: PendingDraw | None
    """The public pending draw after the step."""
    withdrawn_counts: tuple[tuple[int, ...] | None, ...]
    """Per seat, the public symbol counts recorded at withdrawal."""

    def to_text(self) -> str:
        """One line: the public action, the face-down draws, the seat's private cards."""
        parts = [self.action]
        if any(self.hidden_draws):
            parts.append("drawn " + ",".join(str(n) for n in self.hidden_draws))
        if self.private:
            parts.append("own " + ",".join(self.private))
        return "; ".join(parts)


def observe(
    before: GameState,
    action: Action,
    after: GameState,
    events: tuple[Event, ...] | None = None,
) -> tuple[Observation, ...]:
    """One :class:`Observation` per seat for the step ``before -> action -> after``.

    Derived from the step's structured events (:mod:`tajmahal.events`; computed with
    :func:`~tajmahal.engine.apply_with_events` when not given): ``take`` events and
    special cards earned in an ``exchange`` are open gains, ``play`` events and special
    cards taken from their holder are open losses, ``draw`` events into a hand are
    ``private`` to that seat (TM.PLAY.HANDS_SECRET).
    """
    if events is None:
        events = apply_with_events(before, action)[1]
    players = before.players_count
    gains: list[list[CardId]] = [[] for _ in range(players)]
    losses: list[list[CardId]] = [[] for _ in range(players)]
    hidden: list[list[CardId]] = [[] for _ in range(players)]
    for event in events:
        seat = event.seat
        if seat is None:
            continue
        kind = event.kind
        if kind is EventKind.TAKE:
            gains[seat].extend(event.cards)
        elif kind is EventKind.PLAY:
            losses[seat].extend(event.cards)
        elif kind is EventKind.DRAW and event.private:
            hidden[seat].extend(event.cards)
        elif kind is EventKind.EXCHANGE and "TM.SPECIAL.ALREADY_HELD" not in event.clauses:
            gains[seat].extend(event.cards)
            for holder in event.seats:
                losses[holder].extend(event.cards)
    reshuffled: tuple[CardId, ...] = ()
    public = str(action)
    if isinstance(action, Reshuffle):
        reshuffled = tuple(sorted(action.order))
        public = "reshuffle"
    counts = tuple(player.withdrawn_counts for player in after.players)
    open_gains = tuple(tuple(sorted(cards)) for cards in gains)
    open_losses = tuple(tuple(sorted(cards)) for cards in losses)
    drawn = tuple(len(cards) for cards in hidden)
    return tuple(
        Observation(
            seat=seat,
            action=public,
            gains=open_gains,
            losses=open_losses,
            hidden_draws=drawn,
            private=tuple(sorted(hidden[seat])),
            reshuffled=reshuffled,
            withdrawal=after.withdrawal,
            draw=after.draw,
            withdrawn_counts=counts,
        )
        for seat in range(players)
    )


# ---------------------------------------------------------------------------------------
# Accumulated knowledge


@attrs.frozen(slots=True)
class Knowledge:
    """Everything a seat has learned about where the cards are, from the start on.

    ``known[s]`` are cards known to be in seat ``s``'s hand (for the seat itself, its whole
    hand). Every other card whose place the seat cannot see went last through shuffle
    ``pool_of.get(card, 0)`` (0 is the setup shuffle, ``k`` the k-th reshuffle), and
    ``hidden[s][k]`` counts the face-down cards of pool ``k`` in seat ``s``'s hand; the
    deck holds cards of the latest pool only (a reshuffle happens only on an empty deck,
    TM.VISIT.NEXT.RESHUFFLE).
    """

    seat: int
    """The seat this knowledge belongs to."""
    known: tuple[tuple[CardId, ...], ...]
    """Per seat, the cards known to be in its hand, sorted."""
    hidden: tuple[tuple[int, ...], ...]
    """Per seat, per pool, the number of face-down cards."""
    pool_of: Mapping[CardId, int]
    """The latest reshuffle each card went through (absent: none since setup)."""
    pools: int
    """Number of pools so far (1 + reshuffles)."""
    withdrawal: Withdrawal | None
    """Public: the withdrawal being resolved."""
    draw: PendingDraw | None
    """Public: the pending draw."""
    withdrawn_counts: tuple[tuple[int, ...] | None, ...]
    """Public: symbol counts recorded at withdrawal, per seat."""
    steps: int = 0
    """Number of observations folded in."""

    @classmethod
    def initial(cls, state: GameState, seat: int) -> Knowledge:
        """What ``seat`` knows at the start: its own hand; every other hand is face down."""
        players = state.players_count
        return cls(
            seat=seat,
            known=tuple(
                state.players[s].hand
                if s == seat
                else tuple(
                    c for c in state.players[s].hand if c in state.config.components.specials
                )
                for s in range(players)
            ),
            hidden=tuple(
                (0,)
                if s == seat
                else (
                    sum(
                        1
                        for c in state.players[s].hand
                        if c not in state.config.components.specials
                    ),
                )
                for s in range(players)
            ),
            pool_of={},
            pools=1,
            withdrawal=state.withdrawal,
            draw=state.draw,
            withdrawn_counts=tuple(player.withdrawn_counts for player in state.players),
        )

    def update(self, seen: Observation) -> Knowledge:
        """This knowledge after one more observation of the same seat."""
        pools = self.pools
        pool_of = self.pool_of
        if seen.reshuffled:
            pools += 1
            pool_of = {**pool_of, **{card: pools - 1 for card in seen.reshuffled}}
        latest = pools - 1
        known: list[tuple[CardId, ...]] = []
        hidden: list[tuple[int, ...]] = []
        for s in range(len(self.known)):
            counts = [*self.hidden[s], *([0] * (pools - len(self.hidden[s])))]
            hand = Counter(self.known[s])
            # Gains first: within one step a card may come back into a hand and leave it
            # again (a special card returned after a withdrawal, then exchanged away at
            # the end of the visit), never the other way round.
            for card in seen.gains[s]:
                hand[card] += 1
            for card in seen.losses[s]:
                if hand[card] > 0:
                    hand[card] -= 1
                else:
                    counts[pool_of.get(card, 0)] -= 1
            if s == self.seat:
                for card in seen.private:
                    hand[card] += 1
            else:
                counts[latest] += seen.hidden_draws[s]
            known.append(tuple(sorted(hand.elements())))
            hidden.append(tuple(counts))
        return Knowledge(
            seat=self.seat,
            known=tuple(known),
            hidden=tuple(hidden),
            pool_of=pool_of,
            pools=pools,
            withdrawal=seen.withdrawal,
            draw=seen.draw,
            withdrawn_counts=seen.withdrawn_counts,
            steps=self.steps + 1,
        )


def knowledge_of(
    initial: GameState, actions: tuple[Action, ...] | list[Action], seat: int
) -> tuple[GameState, Knowledge]:
    """Replay ``actions`` from ``initial``; the final state and what ``seat`` knows then."""
    from tajmahal.engine import apply

    state = initial
    knowledge = Knowledge.initial(initial, seat)
    for action in actions:
        after = apply(state, action)
        knowledge = knowledge.update(observe(state, action, after)[seat])
        state = after
    return state, knowledge


def information_tensor(seen: View, knowledge: Knowledge, components: Components) -> list[float]:
    """:func:`observation_tensor` followed by, per seat slot, the cards known in that hand
    (``MAX_SEATS`` times the card count more values)."""
    layout = tensor_layout(components)
    base = observation_tensor(seen, components)
    extra = [0.0] * (MAX_SEATS * len(layout.cards))
    players = len(seen.players)
    for seat, cards in enumerate(knowledge.known):
        k = (seat - seen.viewer) % players
        for card in cards:
            extra[k * len(layout.cards) + layout.cards[card]] = 1.0
    return base + extra


def information_tensor_size(components: Components) -> int:
    """Length of :func:`information_tensor`."""
    layout = tensor_layout(components)
    return layout.size + MAX_SEATS * len(layout.cards)
