"""The engine's fast paths: the legal actions looked up in tables built once per
component set, and ``apply`` building a play or a display pick straight from frozen
values.

- :func:`legal_actions` is :func:`tajmahal.engine.legal_actions` with every decision of a
  component set built once (:func:`action_tables`): listing a step's decisions then looks
  actions up instead of building them. The generators are generic over what the tables
  hold (:func:`legal_choices`), so that an action space lists its integer ids, or a
  replay its strings, by the same listing (:meth:`ChoiceTables.mapped`).
- :func:`apply` is :func:`tajmahal.engine.apply` with the two commonest decisions, a play
  and a display pick, built from the frozen state without a working copy (they set off
  nothing automatic); every other action goes to the core.
- :func:`apply_with_events` is :func:`tajmahal.engine.apply_with_events` the same way, the
  events of a play or a pick built by the core's own builders (``play_event``,
  ``plus_two_event``, ``take_event`` with the clauses of ``check_take``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

import attrs

from tajmahal import engine as core
from tajmahal.accel._path import FastPath
from tajmahal.engine import crown_cities, next_in_visit, palace_cities
from tajmahal.model import (
    WITHDRAW,
    Action,
    CardColour,
    CardId,
    CityId,
    ColourChangeFirstTurn,
    Components,
    Event,
    GameState,
    PlaceCrown,
    PlacePalace,
    Play,
    PlayerState,
    SpecialKind,
    Step,
    Take,
)

ChoiceT = TypeVar("ChoiceT")
"""What the tables hold for each decision: the actions, or anything that stands one for
one for them (an action space's ids, a replay's strings)."""
OtherT = TypeVar("OtherT")
"""What :meth:`ChoiceTables.mapped` makes them hold."""


@attrs.frozen(slots=True)
class PlayTable(Generic[ChoiceT]):
    """The plays of a component set, each built once."""

    colour_of: Mapping[CardId, CardColour]
    """The colour of every coloured card (white and special cards are not in it)."""
    colour_change: CardId
    """The colour-change card's id."""
    plus_two: CardId
    """The +2 card's id."""
    alone: Mapping[CardId, ChoiceT]
    """``play c`` for every coloured card ``c``."""
    pairs: Mapping[CardId, Mapping[CardId, ChoiceT]]
    """``play c x`` for every coloured card ``c`` and every white or special card ``x``."""
    withdraw: ChoiceT
    """``withdraw``."""


@attrs.frozen(slots=True)
class ChoiceTables(Generic[ChoiceT]):
    """Every decision of a component set, each held once as a ``ChoiceT``."""

    plays: PlayTable[ChoiceT]
    """``play`` decisions and ``withdraw``."""
    takes: Mapping[CardId, Mapping[CardId, ChoiceT]]
    """``take a b`` by ``a`` then ``b``, ``a < b``."""
    short_take: Callable[[tuple[CardId, ...]], ChoiceT]
    """``take`` of a whole display of one or two cards, from the display."""
    crowns: Mapping[CityId, ChoiceT]
    """``crown c`` for every city ``c``."""
    palaces: Mapping[CityId, ChoiceT]
    """``palace c`` for every city ``c``."""

    def mapped(self, convert: Callable[[ChoiceT], OtherT | None]) -> ChoiceTables[OtherT]:
        """The same tables holding ``convert(c)`` for every ``c`` (``short_take``
        converts on each call, as a short display is rare). An entry that ``convert``
        maps to None is left out: a decision that can never be legal, such as taking a
        special card (the take table pairs every card id, but a display holds regular
        cards only)."""
        plays = self.plays
        short_take = self.short_take
        withdraw = convert(plays.withdraw)
        if withdraw is None:
            raise ValueError("withdraw has no counterpart")

        def short(display: tuple[CardId, ...]) -> OtherT:
            found = convert(short_take(display))
            if found is None:
                raise KeyError(display)
            return found

        return ChoiceTables(
            PlayTable(
                plays.colour_of,
                plays.colour_change,
                plays.plus_two,
                _converted(plays.alone, convert),
                {card: _converted(row, convert) for card, row in plays.pairs.items()},
                withdraw,
            ),
            {first: _converted(row, convert) for first, row in self.takes.items()},
            short,
            _converted(self.crowns, convert),
            _converted(self.palaces, convert),
        )


_Key = TypeVar("_Key")


def _converted(
    row: Mapping[_Key, ChoiceT], convert: Callable[[ChoiceT], OtherT | None]
) -> dict[_Key, OtherT]:
    """``row`` with every value converted, those converted to None left out."""
    pairs = ((key, convert(value)) for key, value in row.items())
    return {key: value for key, value in pairs if value is not None}


def build_action_tables(components: Components) -> ChoiceTables[Action]:
    """The :class:`ChoiceTables` of a component set holding the actions themselves."""
    colour_of = {
        card.id: card.colour for card in components.cards.values() if card.colour.is_coloured
    }
    extras = [card for card in (*components.cards, *components.specials) if card not in colour_of]
    cards = sorted((*components.cards, *components.specials))
    cities = components.board.cities
    return ChoiceTables(
        PlayTable(
            colour_of,
            components.special_of_kind(SpecialKind.COLOUR_CHANGE).id,
            components.special_of_kind(SpecialKind.PLUS_TWO).id,
            {card: Play(card) for card in colour_of},
            {card: {extra: Play(card, extra) for extra in extras} for card in colour_of},
            WITHDRAW,
        ),
        {
            first: {second: Take((first, second)) for second in cards[index + 1 :]}
            for index, first in enumerate(cards)
        },
        Take,
        {city: PlaceCrown(city) for city in cities},
        {city: PlacePalace(city) for city in cities},
    )


class _PerComponents:
    """The action tables of each component set met, built on first use; the set asked
    for last is recognised by identity, so the usual look-up hashes nothing (a
    component set hashes its digest in Python code)."""

    def __init__(self) -> None:
        self._tables: dict[Components, ChoiceTables[Action]] = {}
        self._last: Components | None = None
        self._last_tables: ChoiceTables[Action] | None = None

    def __call__(self, components: Components) -> ChoiceTables[Action]:
        if components is self._last and self._last_tables is not None:
            return self._last_tables
        tables = self._tables.get(components)
        if tables is None:
            tables = self._tables[components] = build_action_tables(components)
        self._last, self._last_tables = components, tables
        return tables


action_tables = _PerComponents()
"""The :class:`ChoiceTables` of a component set holding the actions (built once per set)."""


def legal_choices(state: GameState, tables: ChoiceTables[ChoiceT]) -> list[ChoiceT]:
    """What ``tables`` hold for every action the player to move may take, in the order
    of :func:`tajmahal.engine.legal_actions` (a new list; empty where it is empty)."""
    step = state.step
    seat = state.to_move
    if seat is None:
        return []
    if step is Step.PLAY:
        return _plays(state.players[seat], tables.plays)
    if step is Step.PLACE:
        withdrawal = state.withdrawal
        assert withdrawal is not None
        found: list[ChoiceT] = []
        if withdrawal.crown_owed:
            found.extend(map(tables.crowns.__getitem__, crown_cities(state, seat)))
        if withdrawal.palaces_owed:
            found.extend(map(tables.palaces.__getitem__, palace_cities(state, seat)))
        return found
    display = state.display
    if len(display) <= 2:
        return [tables.short_take(display)] if display else []
    takes = tables.takes
    found = []
    for index, first in enumerate(display):
        found.extend(map(takes[first].__getitem__, display[index + 1 :]))
    return found


def _plays(player: PlayerState, table: PlayTable[ChoiceT]) -> list[ChoiceT]:
    """:func:`tajmahal.engine._play.play_actions` read from ``table``."""
    colour_of = table.colour_of
    hand = player.hand
    extras = [card for card in hand if card not in colour_of]
    alone = table.alone
    pairs = table.pairs
    lock = player.colour
    found: list[ChoiceT] = []
    colour_change = table.colour_change if table.colour_change in extras else None
    for card in hand:
        colour = colour_of.get(card)
        if colour is None:
            continue
        if lock is None or colour is lock:
            found.append(alone[card])
            if extras:
                found.extend(map(pairs[card].__getitem__, extras))
        elif colour_change is not None:
            found.append(pairs[card][colour_change])
    found.append(table.withdraw)
    return found


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """:func:`tajmahal.engine.legal_actions`, looked up in :func:`action_tables`."""
    return tuple(legal_choices(state, action_tables(state.config.components)))


def apply(state: GameState, action: Action) -> GameState:
    """:func:`tajmahal.engine.apply`, with a play at a play step and a display pick at a
    take step built from the frozen state."""
    step = state.step
    kind = type(action)
    after = None
    if step is Step.PLAY and kind is Play:
        after = _after_play(state, action)  # type: ignore[arg-type]
    elif step is Step.TAKE and kind is Take:
        after = _after_take(state, action)  # type: ignore[arg-type]
    return core.apply(state, action) if after is None else after


def apply_with_events(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """:func:`tajmahal.engine.apply_with_events`, with a play at a play step and a display
    pick at a take step built from the frozen state, and their events by the core's
    builders."""
    step = state.step
    kind = type(action)
    if step is Step.PLAY and kind is Play:
        play: Play = action  # type: ignore[assignment]
        after = _after_play(state, play)
        if after is not None:
            return after, _play_events(state, play, after)
    elif step is Step.TAKE and kind is Take:
        pick: Take = action  # type: ignore[assignment]
        after = _after_take(state, pick)
        if after is not None:
            return after, _take_events(state, pick)
    return core.apply_with_events(state, action)


def _after_play(state: GameState, action: Play) -> GameState | None:
    """The state after a play (the core's :func:`~tajmahal.engine._play.play`); None for a
    play the core refuses (it says why)."""
    seat = state.to_move
    assert seat is not None
    config = state.config
    table = action_tables(config.components).plays
    player = state.players[seat]
    hand = player.hand
    coloured, extra = action.coloured, action.extra
    colour_of = table.colour_of
    colour = colour_of.get(coloured)
    lock = player.colour
    if (
        colour is None
        or coloured not in hand
        or (extra is not None and (extra not in hand or extra in colour_of))
        or (lock is not None and colour is not lock and extra != table.colour_change)
    ):
        return None
    remaining = list(hand)
    remaining.remove(coloured)
    if extra is None:
        played = (*player.played, coloured)
    else:
        remaining.remove(extra)
        played = (*player.played, coloured, extra)
    if lock is None and (
        extra != table.colour_change
        or config.rules.colour_change_first_turn is ColourChangeFirstTurn.PLAYED_CARD
    ):
        lock = colour
    players = list(state.players)
    players[seat] = PlayerState(
        tuple(remaining),
        played,
        lock,
        player.withdrawn,
        player.withdrawn_counts,
        player.influence,
        player.province_tiles,
        player.goods_tiles,
        player.score + 2 if extra == table.plus_two else player.score,
    )
    return _turn_passed(state, next_in_visit(players, seat), tuple(players), state.display)


def _play_events(state: GameState, action: Play, after: GameState) -> tuple[Event, ...]:
    """The events of a legal play (the core's :func:`~tajmahal.engine._play.play`): the
    play, and the +2 card's points when it comes with it."""
    seat = state.to_move
    assert seat is not None
    components = state.config.components
    play = core.play_event(
        components, seat, action, state.players[seat].colour, after.to_move == seat
    )
    extra = action.extra
    if extra is not None and extra == action_tables(components).plays.plus_two:
        return (play, core.plus_two_event(seat, extra))
    return (play,)


def _after_take(state: GameState, action: Take) -> GameState | None:
    """The state after a display pick at a take step (the core's
    :func:`~tajmahal.engine._withdraw.take`); None for a pick the core refuses."""
    withdrawal = state.withdrawal
    assert withdrawal is not None
    seat = withdrawal.seat
    display, cards = state.display, action.cards
    if not (
        cards == display
        if len(display) <= 2
        else len(cards) == 2
        and cards[0] != cards[1]
        and cards[0] in display
        and cards[1] in display
    ):
        return None
    players = list(state.players)
    player = players[seat]
    players[seat] = PlayerState(
        tuple(sorted((*player.hand, *cards))),
        player.played,
        player.colour,
        player.withdrawn,
        player.withdrawn_counts,
        player.influence,
        player.province_tiles,
        player.goods_tiles,
        player.score,
    )
    following = next_in_visit(players, seat)
    rest = list(display)
    for card in cards:
        rest.remove(card)
    return _turn_passed(state, following, tuple(players), tuple(rest))


def _take_events(state: GameState, action: Take) -> tuple[Event, ...]:
    """The event of a legal display pick, with the clauses the core's
    :func:`~tajmahal.engine.check_take` names for it."""
    withdrawal = state.withdrawal
    assert withdrawal is not None
    clauses = core.check_take(state.display, action, withdrawal.seat)
    return (core.take_event(withdrawal.seat, action.cards, clauses),)


def _turn_passed(
    state: GameState,
    to_move: int | None,
    players: tuple[PlayerState, ...],
    display: tuple[CardId, ...],
) -> GameState:
    """``state`` waiting for a play by ``to_move``, with these players and display;
    nothing else changed (built positionally)."""
    return GameState(
        state.config,
        state.visit,
        Step.PLAY,
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


LEGAL_ACTIONS = FastPath(
    core=core.legal_actions,
    fast=legal_actions,
    buys="21 % of `tools/bench/bench.py` games/s (cachegrind, 12 random 4-player games, "
    "the tables built beforehand: 540 to 429 million instructions with the core apply, "
    "489 to 377 with the fast one)",
)
APPLY = FastPath(
    core=core.apply,
    fast=apply,
    buys="10 % of `tools/bench/bench.py` games/s (cachegrind, 12 random 4-player games: "
    "540 to 489 million instructions with the core legal_actions, 429 to 377 with the "
    "fast one)",
)
APPLY_WITH_EVENTS = FastPath(
    core=core.apply_with_events,
    fast=apply_with_events,
    buys="with the replay's other two (parse_action, edge_tags), measured together: "
    "`tajmahal verify` steps/s 11 % (cachegrind: 561,000 to 506,000 instructions a "
    "verified step; this one alone 15,000)",
)
# The engine's fast paths (joined with the other parts' in tajmahal.accel.FAST_PATHS).
FAST_PATHS = (LEGAL_ACTIONS, APPLY, APPLY_WITH_EVENTS)
