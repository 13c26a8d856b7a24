"""Edge tags and deciding clauses of one step, from its structured events.

A consumer of the golden traces filters on edge tags (as test262 does with features),
and a record's per-step ``clauses`` name what actually decided the step. Both are
computed here from the state before the step, the action, the events and the state
after, so that they describe what happened rather than the action's type.

The tags (:data:`TAGS`) are defined in docs/trace-format.md, "Edge tags": from the
position before the step, its action, the position after it and what happened inside
it, in terms an engine written from that page alone can compute. This module computes
them from the events, which record what happened. A record's ``clauses`` are informative
(the page says so): they are the ids this package's events name, and no other engine is
asked to reproduce them.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter

from tajmahal.model import (
    Action,
    Event,
    EventKind,
    GameState,
    PlaceCrown,
    PlacePalace,
    Play,
    PointSource,
    Reshuffle,
    Step,
    Symbol,
    Take,
    Withdraw,
)

TAGS = (
    "tie",
    "tie-broken",
    "zero-symbols",
    "crown-on-fortress",
    "crown-on-occupied",
    "crown-beside-palace",
    "placement-refused",
    "unplaceable-palace",
    "unplaceable-crown",
    "deck-exhausted",
    "discard-exhausted",
    "short-display",
    "one-card-take",
    "reshuffle-mid-withdrawal",
    "card-bonus-empty-deck",
    "special-changes-hands",
    "pairs-collide",
    "colour-change-first-turn",
    "withdraw-without-playing",
    "last-player-alone",
    "unwon-tile",
    "tied-winners",
    "plus-two",
)
"""The tag vocabulary, in the order of the module's list."""


def action_clauses(action: Action) -> tuple[str, ...]:
    """The clause that makes an action of this kind possible at all."""
    if isinstance(action, Play):
        return (
            ("TM.PLAY.ONE_COLOURED",)
            if action.extra is None
            else (
                "TM.PLAY.ONE_COLOURED",
                "TM.PLAY.EXTRA_CARD",
            )
        )
    if isinstance(action, Withdraw):
        return ("TM.WITHDRAW.FINAL",)
    if isinstance(action, PlacePalace):
        return ("TM.REWARD.INFLUENCE.PALACE",)
    if isinstance(action, PlaceCrown):
        return ("TM.REWARD.CROWN.PALACE",)
    if isinstance(action, Take):
        return ("TM.WITHDRAW.PICK_TWO",)
    if isinstance(action, Reshuffle):
        return ("TM.VISIT.NEXT.RESHUFFLE",)
    return ()


def step_clauses(action: Action, events: Iterable[Event]) -> tuple[str, ...]:
    """The clauses and rulings that decided a step: the action's own clause and every
    event's, sorted and without duplicates."""
    key = (action_clauses(action), *map(_CLAUSES, events))
    try:
        found = _STEP_CLAUSES.get(key)
    except TypeError:  # a clause list that is not a tuple of strings: no memo
        found = None
    if found is not None:
        return found
    found = tuple(sorted(set().union(*key)))
    try:
        if len(_STEP_CLAUSES) >= 4096:
            _STEP_CLAUSES.clear()
        _STEP_CLAUSES[key] = found
    except TypeError:
        pass
    return found


_CLAUSES = attrgetter("clauses")
"""An event's clauses (read in C by ``map``)."""
_WITHDRAWN = attrgetter("withdrawn")
"""Whether a seat has withdrawn (read in C by ``map``)."""
_STEP_CLAUSES: dict[tuple[tuple[str, ...], ...], tuple[str, ...]] = {}
""":func:`step_clauses` by the clause tuples it was given (the action's, then each
event's, in order): the same few combinations recur step after step."""


def edge_tags(
    before: GameState, action: Action, events: Iterable[Event], after: GameState
) -> frozenset[str]:
    """The edge tags (see the module docstring) that the step shows."""
    return frozenset(_tags(before, action, events, after))


def sorted_edge_tags(
    before: GameState, action: Action, events: Iterable[Event], after: GameState
) -> tuple[str, ...]:
    """:func:`edge_tags` sorted by code point, as records list them (most steps show
    none, and get the empty tuple without a sort)."""
    tags = _tags(before, action, events, after)
    return tuple(sorted(tags)) if tags else ()


def _tags(before: GameState, action: Action, events: Iterable[Event], after: GameState) -> set[str]:
    """The tags of :func:`edge_tags`, in a set of their own."""
    happened = tuple(events)
    tags: set[str] = set()
    exchanging: set[int | None] | None = None
    for event in happened:
        kind = event.kind
        if kind is _NO_MAJORITY:
            if "RUL.MAJORITY.ZERO_SYMBOLS" in event.clauses:
                tags.add("zero-symbols")
            elif "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL" in event.clauses:
                tags.add("tie")
        elif kind is _PLAY:
            if "TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN" in event.clauses:
                tags.add("colour-change-first-turn")
        elif kind is _TAKE or kind is _DISCARD or kind is _PALACE or kind is _VISIT:
            continue  # common kinds that show no tag
        elif kind is _WIN:
            if "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL" in event.clauses:
                tags.add("tie-broken")
        elif kind is _SCORE:
            if event.source is _PLUS_TWO:
                tags.add("plus-two")
        elif kind is _CROWN:
            if before.config.components.board.cities[event.cities[0]].fortress:
                tags.add("crown-on-fortress")
            if event.seats:
                tags.add("crown-on-occupied")
            if event.seat in event.seats:
                tags.add("crown-beside-palace")
        elif kind is _FORFEIT:
            tags.add("unplaceable-crown" if event.symbol is _MOGUL else "unplaceable-palace")
        elif kind is _DRAW:
            if event.counts:
                tags.update(("deck-exhausted", "discard-exhausted"))
                if event.seat is None:
                    tags.add("short-display")
        elif kind is _BONUS:
            if event.source is None and _deck_ran_dry(happened, after):
                tags.add("card-bonus-empty-deck")
        elif kind is _EXCHANGE:
            if event.seats:
                tags.add("special-changes-hands")
            if exchanging is None:
                exchanging = set()
            exchanging.add(event.seat)
        elif kind is _WITHDRAW:
            if "TM.WITHDRAW.WITHOUT_PLAYING.NOTHING" in event.clauses:
                tags.add("withdraw-without-playing")
        elif kind is _UNWON:
            tags.add("unwon-tile")
        elif kind is _END and len(event.seats) > 1:
            tags.add("tied-winners")
    if after.step is _SHUFFLE:
        tags.add("deck-exhausted")
    if exchanging is not None and len(exchanging) > 1:
        tags.add("pairs-collide")
    if isinstance(action, Take):
        if len(action.cards) == 1:
            tags.add("one-card-take")
        if len(action.cards) < 2:
            tags.add("short-display")
    elif isinstance(action, Reshuffle):
        if before.withdrawal is not None:
            tags.add("reshuffle-mid-withdrawal")
    elif isinstance(action, _ACTS) and before.to_move is not None:
        seat = before.to_move
        players = before.players
        if sum(map(_WITHDRAWN, players)) == len(players) - 1 + players[seat].withdrawn:
            tags.add("last-player-alone")
    return tags


_ACTS = (Play, Withdraw)
"""The decisions of a player in the visit (``last-player-alone``)."""
(_PLAY, _SCORE, _NO_MAJORITY, _WIN, _CROWN, _FORFEIT, _DRAW, _BONUS, _EXCHANGE, _WITHDRAW) = (
    EventKind.PLAY,
    EventKind.SCORE,
    EventKind.NO_MAJORITY,
    EventKind.WIN,
    EventKind.CROWN,
    EventKind.FORFEIT,
    EventKind.DRAW,
    EventKind.BONUS,
    EventKind.EXCHANGE,
    EventKind.WITHDRAW,
)
_UNWON, _END, _SHUFFLE = EventKind.UNWON, EventKind.END, Step.SHUFFLE
_TAKE, _DISCARD, _PALACE, _VISIT = (
    EventKind.TAKE,
    EventKind.DISCARD,
    EventKind.PALACE,
    EventKind.VISIT,
)
_PLUS_TWO, _MOGUL = PointSource.PLUS_TWO, Symbol.MOGUL
"""Enum members as module names (reading a member from its enum class goes through the
enum's metaclass, slower than reading a global). The loop tests the kinds commonest
first (on the golden corpus: no-majority, play, take, win, withdraw, score, discard,
palace), and passes over the common kinds that show no tag at once."""


def _deck_ran_dry(events: tuple[Event, ...], after: GameState) -> bool:
    """True when a card bonus's draw found the deck empty: the step ends waiting for a
    reshuffle for that card, or the draw came up short (a later draw of the same step,
    such as the next visit's display, may wait for a reshuffle instead)."""
    if after.step is Step.SHUFFLE and after.draw is not None and after.draw.reason == "bonus-card":
        return True
    return any(
        e.kind is EventKind.DRAW and e.counts and "TM.SCORE.BONUS.CARD" in e.clauses for e in events
    )
