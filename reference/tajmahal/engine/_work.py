"""The working copy: one state being changed by one action.

``apply`` never changes a :class:`~tajmahal.model.GameState`. It makes a :class:`Work`
of the state, lets the rules change it, and freezes it into the next state.

A :class:`Work` holds every field of the state as a plain attribute, each a frozen value
(a number, a tuple, a :class:`~tajmahal.model.PlayerState`): a rule reads a field by
reading it and changes it by giving it a new value (``work.display = ...``). A seat's
holdings are changed the same way, on the seat's own working copy
(:class:`WorkPlayer`), which :meth:`Work.edit` makes on first use. Nothing is copied
behind the reader's back, and whatever no rule touched is shared with the state it came
from. Beside the state, a work collects the events of the action, built only when they
are recorded.

No rule lives here. The helpers at the end are the few facts every rule module needs:
who moves next, and a collection with some items added or taken out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import ParamSpec, TypeVar

from tajmahal.model import (
    BonusTileId,
    CardColour,
    CardId,
    CityId,
    Components,
    Event,
    GameState,
    Palace,
    PendingDraw,
    PlayerState,
    ProvinceId,
    ProvinceTileId,
    RuleSet,
    Step,
    Symbol,
    Withdrawal,
)

EventArguments = ParamSpec("EventArguments")
"""The arguments of an event's builder (see :meth:`Work.record`)."""


class WorkPlayer:
    """A seat's holdings being changed: the fields of a
    :class:`~tajmahal.model.PlayerState` as plain attributes, each a frozen value that the
    rules replace."""

    __slots__ = (
        "colour",
        "goods_tiles",
        "hand",
        "influence",
        "played",
        "province_tiles",
        "score",
        "withdrawn",
        "withdrawn_counts",
    )

    def __init__(self, player: PlayerState) -> None:
        self.hand: tuple[CardId, ...] = player.hand
        self.played: tuple[CardId, ...] = player.played
        self.colour: CardColour | None = player.colour
        self.withdrawn: bool = player.withdrawn
        self.withdrawn_counts: tuple[int, ...] | None = player.withdrawn_counts
        self.influence: tuple[Symbol, ...] = player.influence
        self.province_tiles: tuple[ProvinceTileId, ...] = player.province_tiles
        self.goods_tiles: tuple[BonusTileId, ...] = player.goods_tiles
        self.score: int = player.score

    def freeze(self) -> PlayerState:
        """The seat's holdings as the rules left them."""
        return PlayerState(  # the fields in their order
            self.hand,
            self.played,
            self.colour,
            self.withdrawn,
            self.withdrawn_counts,
            self.influence,
            self.province_tiles,
            self.goods_tiles,
            self.score,
        )


Player = PlayerState | WorkPlayer
"""A seat's holdings, for reading: frozen, or being changed."""


class Work:
    """The fields of a :class:`~tajmahal.model.GameState` as plain attributes, changed by
    the rules of one action, and the events of that action."""

    __slots__ = (
        "bonus_on_board",
        "components",
        "config",
        "court_influence",
        "court_province_tile",
        "crown_in_court",
        "deck",
        "discard",
        "display",
        "draw",
        "events",
        "palaces",
        "players",
        "province_order",
        "recording",
        "rules",
        "specials_on_table",
        "start_player",
        "step",
        "to_move",
        "visit",
        "withdrawal",
    )

    def __init__(self, state: GameState, *, recording: bool) -> None:
        self.config = state.config
        self.components: Components = state.config.components
        """The game's component set (from :attr:`config`)."""
        self.rules: RuleSet = state.config.rules
        """The game's rule set (from :attr:`config`)."""
        self.visit: int = state.visit
        self.step: Step = state.step
        self.to_move: int | None = state.to_move
        self.start_player: int = state.start_player
        self.players: list[Player] = list(state.players)
        """Each seat's holdings, for reading (:meth:`edit` gives one to change)."""
        self.deck: tuple[CardId, ...] = state.deck
        self.discard: tuple[CardId, ...] = state.discard
        self.display: tuple[CardId, ...] = state.display
        self.specials_on_table: tuple[CardId, ...] = state.specials_on_table
        self.court_influence: tuple[Symbol, ...] = state.court_influence
        self.crown_in_court: bool = state.crown_in_court
        self.court_province_tile: ProvinceTileId | None = state.court_province_tile
        self.province_order: tuple[ProvinceId, ...] = state.province_order
        self.bonus_on_board: tuple[tuple[CityId, BonusTileId], ...] = state.bonus_on_board
        self.palaces: tuple[Palace, ...] = state.palaces
        self.withdrawal: Withdrawal | None = state.withdrawal
        self.draw: PendingDraw | None = state.draw
        self.recording = recording
        """True when the caller wants the events: without it, none is built."""
        self.events: list[Event] = []
        """The events so far, in the order they happened."""

    def freeze(self) -> GameState:
        """The state as the rules left it."""
        return GameState(  # the fields in their order
            self.config,
            self.visit,
            self.step,
            self.to_move,
            self.start_player,
            tuple([p.freeze() if isinstance(p, WorkPlayer) else p for p in self.players]),
            self.deck,
            self.discard,
            self.display,
            self.specials_on_table,
            self.court_influence,
            self.crown_in_court,
            self.court_province_tile,
            self.province_order,
            self.bonus_on_board,
            self.palaces,
            self.withdrawal,
            self.draw,
        )

    def edit(self, seat: int) -> WorkPlayer:
        """``seat``'s holdings, to change: its working copy, made on the first call."""
        player = self.players[seat]
        if isinstance(player, PlayerState):
            player = self.players[seat] = WorkPlayer(player)
        return player

    def record(
        self,
        build: Callable[EventArguments, Event],
        *args: EventArguments.args,
        **kwargs: EventArguments.kwargs,
    ) -> None:
        """Keep the event ``build(*args, **kwargs)``, when events are recorded (it is not
        built otherwise)."""
        if self.recording:
            self.events.append(build(*args, **kwargs))

    def record_each(
        self,
        build: Callable[EventArguments, Iterable[Event]],
        *args: EventArguments.args,
        **kwargs: EventArguments.kwargs,
    ) -> None:
        """Keep each event of ``build(*args, **kwargs)``, when events are recorded (for
        events built together, such as those of one comparison)."""
        if self.recording:
            self.events.extend(build(*args, **kwargs))

    @property
    def current_province(self) -> ProvinceId:
        """The province being visited."""
        return self.province_order[self.visit - 1]


def next_in_visit(players: Sequence[Player], seat: int) -> int | None:
    """The next seat clockwise after ``seat`` still in the visit (``seat`` itself last);
    None when everybody has withdrawn.

    Implements: TM.TURN.CLOCKWISE, TM.TURN.WITHDRAWN_SKIPPED
    """
    count = len(players)
    for offset in range(1, count + 1):
        candidate = (seat + offset) % count
        if not players[candidate].withdrawn:
            return candidate
    return None


Item = TypeVar("Item")


def without(items: tuple[Item, ...], taken: Iterable[Item]) -> tuple[Item, ...]:
    """``items`` with one of each of ``taken`` taken out, the rest in their order."""
    rest = list(items)
    for item in taken:
        rest.remove(item)
    return tuple(rest)


def sorted_with(items: tuple[CardId, ...], added: Iterable[CardId]) -> tuple[CardId, ...]:
    """Cards ``items`` and ``added`` together, sorted (as hands, the display and the
    discard pile are kept)."""
    return tuple(sorted((*items, *added)))


def cards_into_hand(work: Work, seat: int, cards: Iterable[CardId]) -> None:
    """Put ``cards`` into ``seat``'s hand (kept sorted)."""
    player = work.edit(seat)
    player.hand = sorted_with(player.hand, cards)
