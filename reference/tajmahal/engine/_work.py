"""The working copy: a mutable, copy-on-write mirror of one frozen state.

``apply`` never changes a :class:`~tajmahal.model.GameState`. It wraps the state in a
:class:`Work`, lets the rule modules change the working copy, and freezes the result.
Collections are copied from the frozen state only when first changed and only changed
parts are rebuilt (and re-sorted) on :meth:`Work.freeze`: most actions touch one player
and a counter or two, so this is what keeps ``apply`` fast.

No rule lives here; the helpers at the end are the few facts every rule module needs
(who moves next, which card is the colour-change card).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from tajmahal.model import (
    CardId,
    CityId,
    Components,
    Event,
    GameState,
    Palace,
    PlayerState,
    SpecialKind,
    Step,
    Symbol,
)

SYMBOL_ORDER: tuple[Symbol, ...] = tuple(Symbol)
"""Every symbol in canonical order: ``SYMBOL_ORDER.index`` is the sort key of influence
tiles, as ``SYMBOL_INDEX`` is, without hashing enum members (which runs Python code)."""


class WorkPlayer:
    """Mutable mirror of :class:`~tajmahal.model.PlayerState` used inside one ``apply``."""

    __slots__ = (
        "colour",
        "goods_tiles",
        "hand",
        "influence",
        "original",
        "played",
        "province_tiles",
        "score",
        "withdrawn",
        "withdrawn_counts",
    )

    def __init__(self, player: PlayerState) -> None:
        self.original = player
        """The frozen player this copy was made from."""
        self.hand = list(player.hand)
        self.played = list(player.played)
        self.colour = player.colour
        self.withdrawn = player.withdrawn
        self.withdrawn_counts = player.withdrawn_counts
        self.influence = list(player.influence)
        # Tuples: won tiles are only ever added (``+=``), so they need no copy.
        self.province_tiles = player.province_tiles
        self.goods_tiles = player.goods_tiles
        self.score = player.score

    def freeze(self) -> PlayerState:
        """The frozen player (hands and influence tiles are kept sorted on insertion).

        A collection that ends as it began is the original's tuple again, not an equal
        copy, so that what is unchanged stays shared (the canonical text reuses the
        texts of parts it has seen, by identity)."""
        original = self.original
        hand = tuple(self.hand)
        if hand == original.hand:
            hand = original.hand
        played = tuple(self.played)
        if played == original.played:
            played = original.played
        influence = tuple(self.influence)  # kept in canonical order by insort
        if influence == original.influence:
            influence = original.influence
        # Positional, in field order: this runs once per changed seat per action.
        return PlayerState(
            hand,
            played,
            self.colour,
            self.withdrawn,
            self.withdrawn_counts,
            influence,
            self.province_tiles,
            self.goods_tiles,
            self.score,
        )


class Work:
    """Mutable, copy-on-write mirror of :class:`~tajmahal.model.GameState` plus the events
    of one ``apply`` (recorded only when ``recording`` is true)."""

    __slots__ = (
        "_bonus",
        "_lists",
        "_players",
        "components",
        "count",
        "court_province_tile",
        "crown_in_court",
        "draw",
        "events",
        "recording",
        "rules",
        "start_player",
        "state",
        "step",
        "to_move",
        "visit",
        "withdrawal",
    )

    def __init__(self, state: GameState, recording: bool = True) -> None:
        self.state = state
        self.recording = recording
        """False when the caller discards events: they are then not built at all."""
        config = state.config
        self.components: Components = config.components
        self.rules = config.rules
        self.count = config.players
        self.visit = state.visit
        self.step = state.step
        self.to_move = state.to_move
        self.start_player = state.start_player
        self._players: dict[int, WorkPlayer] = {}
        self.crown_in_court = state.crown_in_court
        self.court_province_tile = state.court_province_tile
        self.withdrawal = state.withdrawal
        self.draw = state.draw
        self.events: list[Event] = []
        self._lists: dict[str, list[Any]] = {}
        self._bonus: dict[CityId, str] | None = None

    # Copy-on-write access ---------------------------------------------------------------

    def player(self, seat: int) -> WorkPlayer:
        """The mutable copy of a seat's holdings (made on first use)."""
        player = self._players.get(seat)
        if player is None:
            player = self._players[seat] = WorkPlayer(self.state.players[seat])
        return player

    @property
    def players(self) -> list[WorkPlayer]:
        """Mutable copies of every seat (use :meth:`player` or :meth:`peek` when one
        seat is enough)."""
        return [self.player(seat) for seat in range(self.count)]

    def peek(self, seat: int) -> WorkPlayer | PlayerState:
        """A seat's holdings for reading only (no copy is made)."""
        player = self._players.get(seat)
        return player if player is not None else self.state.players[seat]

    def read(self, name: str) -> list[Any] | tuple[Any, ...]:
        """A collection for reading only: the working copy if one was made, else the
        frozen original (so that reading does not mark it as changed)."""
        items = self._lists.get(name)
        return items if items is not None else getattr(self.state, name)

    def _list(self, name: str) -> list[Any]:
        items = self._lists.get(name)
        if items is None:
            items = self._lists[name] = list(getattr(self.state, name))
        return items

    @property
    def deck(self) -> list[CardId]:
        """The draw pile, top card first (copied on first use)."""
        return self._list("deck")

    @property
    def discard(self) -> list[CardId]:
        """The discard pile (copied on first use; sorted when frozen)."""
        return self._list("discard")

    @property
    def display(self) -> list[CardId]:
        """The face-up display (copied on first use; sorted when frozen)."""
        return self._list("display")

    @property
    def specials_on_table(self) -> list[CardId]:
        """Special cards nobody has earned yet (copied on first use)."""
        return self._list("specials_on_table")

    @property
    def court_influence(self) -> list[Symbol]:
        """Influence tiles still in the court (copied on first use)."""
        return self._list("court_influence")

    @property
    def palaces(self) -> list[Palace]:
        """Palaces on the board, kept in canonical order (copied on first use)."""
        return self._list("palaces")

    @property
    def bonus_on_board(self) -> dict[CityId, str]:
        """Bonus tiles still on the board by city (copied on first use)."""
        if self._bonus is None:
            self._bonus = dict(self.state.bonus_on_board)
        return self._bonus

    def bonus_at(self, city: CityId) -> str | None:
        """The bonus tile lying in ``city``, if any, for reading only (no copy is made)."""
        if self._bonus is not None:
            return self._bonus.get(city)
        for where, tile in self.state.bonus_on_board:
            if where == city:
                return tile
        return None

    def freeze(self) -> GameState:
        """The frozen state: unchanged parts are shared with the original."""
        state = self.state
        players = state.players
        if self._players:
            seats = list(players)
            for seat, player in self._players.items():
                seats[seat] = player.freeze()
            players = tuple(seats)
        deck = state.deck
        discard = state.discard
        display = state.display
        specials_on_table = state.specials_on_table
        court_influence = state.court_influence
        palaces = state.palaces
        lists = self._lists
        if lists:
            if "deck" in lists:
                deck = tuple(lists["deck"])
            if "discard" in lists:
                discard = tuple(sorted(lists["discard"]))
            if "display" in lists:
                display = tuple(sorted(lists["display"]))
            if "specials_on_table" in lists:
                specials_on_table = tuple(sorted(lists["specials_on_table"]))
            if "court_influence" in lists:
                court_influence = tuple(sorted(lists["court_influence"], key=SYMBOL_ORDER.index))
            if "palaces" in lists:
                palaces = tuple(lists["palaces"])  # kept sorted by insort
        # Positional, in field order: this runs once per action.
        return GameState(
            state.config,
            self.visit,
            self.step,
            self.to_move,
            self.start_player,
            players,
            deck,
            discard,
            display,
            specials_on_table,
            court_influence,
            self.crown_in_court,
            self.court_province_tile,
            state.province_order,
            tuple(sorted(self._bonus.items())) if self._bonus is not None else state.bonus_on_board,
            palaces,
            self.withdrawal,
            self.draw,
        )

    def record(self, event: Event) -> None:
        """Keep an event (call only when :attr:`recording`: build no event otherwise)."""
        self.events.append(event)

    @property
    def province(self) -> str:
        """The province of the current visit."""
        return self.state.province_order[self.visit - 1]


def turn_passed(
    state: GameState,
    to_move: int | None,
    players: tuple[PlayerState, ...],
    display: tuple[CardId, ...],
) -> GameState:
    """``state`` after a decision that needs no working copy (a play, a display pick that
    passes the turn): the game waits for a play by ``to_move``, with these players and
    display; nothing else changed. Neither decision leaves a withdrawal being resolved
    or a draw pending (a play step never has either, as the position format requires).
    Built positionally (the hot path)."""
    return GameState(
        state.config,
        state.visit,
        _PLAY,
        to_move,
        state.start_player,
        players,
        state.deck,
        state.discard,
        display,
        state.specials_on_table,
        state.court_influence,
        state.crown_in_court,
        state.court_province_tile,
        state.province_order,
        state.bonus_on_board,
        state.palaces,
        None,
        None,
    )


def with_hand(player: PlayerState, hand: tuple[CardId, ...]) -> PlayerState:
    """``player`` holding ``hand`` instead (built positionally, faster than
    ``attrs.evolve``: the hot path)."""
    return PlayerState(
        hand,
        player.played,
        player.colour,
        player.withdrawn,
        player.withdrawn_counts,
        player.influence,
        player.province_tiles,
        player.goods_tiles,
        player.score,
    )


_PLAY = Step.PLAY
"""Read as a module name: an enum member read from its class goes through the metaclass."""

_Table = TypeVar("_Table")

ChoiceT = TypeVar("ChoiceT")
"""What the legal-action tables hold for each decision: the action objects, or
anything that stands one for one for them, such as an action space's integer ids (the
generators :func:`~tajmahal.engine._play.play_actions`,
:func:`~tajmahal.engine._withdraw.take_actions` and
:func:`~tajmahal.engine._reward.placement_actions` are generic over it)."""


class PerComponents(Generic[_Table]):
    """One table per component set, built on first use by ``build``.

    The set asked for last is remembered by identity, so the usual look-up hashes
    nothing (a component set hashes its digest in Python code); other sets are kept by
    value (equal sets share one table).
    """

    __slots__ = ("_build", "_last", "_last_table", "_tables")

    def __init__(self, build: Callable[[Components], _Table]) -> None:
        self._build = build
        self._tables: dict[Components, _Table] = {}
        self._last: Components | None = None
        self._last_table: _Table | None = None

    def __call__(self, components: Components) -> _Table:
        """The table of ``components``."""
        if components is self._last:
            return self._last_table  # type: ignore[return-value]
        table = self._tables.get(components)
        if table is None:
            table = self._tables[components] = self._build(components)
        self._last = components
        self._last_table = table
        return table


def colour_change_id(components: Components) -> CardId:
    """The id of the colour-change special card."""
    return components.special_of_kind(SpecialKind.COLOUR_CHANGE).id


def next_active(work: Work, seat: int) -> int | None:
    """The next seat clockwise after ``seat`` still in the visit (``seat`` itself last).

    Implements: TM.TURN.CLOCKWISE, TM.TURN.WITHDRAWN_SKIPPED
    """
    count = work.count
    changed = work._players
    frozen = work.state.players
    for offset in range(1, count + 1):
        candidate = (seat + offset) % count
        player = changed.get(candidate)
        if not (player.withdrawn if player is not None else frozen[candidate].withdrawn):
            return candidate
    return None


def next_in_visit(players: Sequence[PlayerState], seat: int) -> int | None:
    """:func:`next_active` over frozen players.

    Implements: TM.TURN.CLOCKWISE, TM.TURN.WITHDRAWN_SKIPPED
    """
    count = len(players)
    for offset in range(1, count + 1):
        candidate = (seat + offset) % count
        if not players[candidate].withdrawn:
            return candidate
    return None
