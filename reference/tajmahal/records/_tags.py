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
    clauses = set(action_clauses(action))
    for event in events:
        clauses.update(event.clauses)
    return tuple(sorted(clauses))


def edge_tags(
    before: GameState, action: Action, events: Iterable[Event], after: GameState
) -> frozenset[str]:
    """The edge tags (see the module docstring) that the step shows: the action's own
    (:func:`action_tags`), each event's (:func:`event_tags`), and two of the whole step
    (:func:`step_tags`)."""
    happened = tuple(events)
    tags = set(action_tags(before, action))
    for event in happened:
        tags.update(event_tags(before, event, happened, after))
    tags.update(step_tags(happened, after))
    return frozenset(tags)


def action_tags(before: GameState, action: Action) -> tuple[str, ...]:
    """The tags the action itself shows, in the position it was taken in."""
    if isinstance(action, Take):
        if len(action.cards) == 1:
            return ("one-card-take", "short-display")
        return ("short-display",) if len(action.cards) < 2 else ()
    if isinstance(action, Reshuffle):
        return ("reshuffle-mid-withdrawal",) if before.withdrawal is not None else ()
    if isinstance(action, (Play, Withdraw)) and before.to_move is not None:
        others = before.players[: before.to_move] + before.players[before.to_move + 1 :]
        if all(player.withdrawn for player in others):
            return ("last-player-alone",)
    return ()


def event_tags(
    before: GameState, event: Event, events: tuple[Event, ...], after: GameState
) -> tuple[str, ...]:
    """The tags one event of a step shows (``events`` are all the step's, in order)."""
    kind = event.kind
    if kind is EventKind.NO_MAJORITY:
        if "RUL.MAJORITY.ZERO_SYMBOLS" in event.clauses:
            return ("zero-symbols",)
        if "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL" in event.clauses:
            return ("tie",)
    elif kind is EventKind.WIN:
        if "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL" in event.clauses:
            return ("tie-broken",)
    elif kind is EventKind.CROWN:
        return _crown_tags(before, event)
    elif kind is EventKind.FORFEIT:
        return ("unplaceable-crown" if event.symbol is Symbol.MOGUL else "unplaceable-palace",)
    elif kind is EventKind.DRAW:
        if event.counts:
            if event.seat is None:
                return ("deck-exhausted", "discard-exhausted", "short-display")
            return ("deck-exhausted", "discard-exhausted")
    elif kind is EventKind.BONUS:
        if event.source is None and _deck_ran_dry(events, after):
            return ("card-bonus-empty-deck",)
    elif kind is EventKind.EXCHANGE:
        if event.seats:
            return ("special-changes-hands",)
    elif kind is EventKind.PLAY:
        if "TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN" in event.clauses:
            return ("colour-change-first-turn",)
    elif kind is EventKind.WITHDRAW:
        if "TM.WITHDRAW.WITHOUT_PLAYING.NOTHING" in event.clauses:
            return ("withdraw-without-playing",)
    elif kind is EventKind.UNWON:
        return ("unwon-tile",)
    elif kind is EventKind.END:
        if len(event.seats) > 1:
            return ("tied-winners",)
    elif kind is EventKind.SCORE and event.source is PointSource.PLUS_TWO:
        return ("plus-two",)
    return ()


def step_tags(events: tuple[Event, ...], after: GameState) -> tuple[str, ...]:
    """The tags of the step as a whole: pairs of two or more players exchanged at once,
    and a reshuffle due at its end."""
    tags: list[str] = []
    if len({event.seat for event in events if event.kind is EventKind.EXCHANGE}) > 1:
        tags.append("pairs-collide")
    if after.step is Step.SHUFFLE:
        tags.append("deck-exhausted")
    return tuple(tags)


def _crown_tags(before: GameState, crown: Event) -> tuple[str, ...]:
    """Where the crown palace went: a fortress, an occupied city, beside its owner's own."""
    tags: list[str] = []
    if before.config.components.board.cities[crown.cities[0]].fortress:
        tags.append("crown-on-fortress")
    if crown.seats:
        tags.append("crown-on-occupied")
    if crown.seat in crown.seats:
        tags.append("crown-beside-palace")
    return tuple(tags)


def _deck_ran_dry(events: tuple[Event, ...], after: GameState) -> bool:
    """True when a card bonus's draw found the deck empty: the step ends waiting for a
    reshuffle for that card, or the draw came up short (a later draw of the same step,
    such as the next visit's display, may wait for a reshuffle instead)."""
    if after.step is Step.SHUFFLE and after.draw is not None and after.draw.reason == "bonus-card":
        return True
    return any(
        e.kind is EventKind.DRAW and e.counts and "TM.SCORE.BONUS.CARD" in e.clauses for e in events
    )
