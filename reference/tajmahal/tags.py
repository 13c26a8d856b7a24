"""Edge tags and deciding clauses of a step, read from the states and events around it.

``edge_tags(before, action, events, after)`` names the edge cases a step reaches (the
vocabulary of :data:`EDGE_TAGS`, listed in ``docs/trace-format.md``);
``step_clauses(action, events)`` the clause and ruling ids that decided it, sorted and
unique. Records carry both with every step, and the golden corpus's manifest is built
from them.

This module reads the events' kinds and sentences; once events carry their own
``clauses`` and structured fields it reads those instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from tajmahal.actions import Action, PlaceCrown, PlacePalace, Play, Reshuffle, Take, Withdraw
from tajmahal.events import Event
from tajmahal.scoring import symbol_counts
from tajmahal.state import DISPLAY_SIZES, GameState, Step
from tajmahal.symbols import SYMBOL_INDEX, BonusKind, SpecialKind, Symbol

EDGE_TAGS: tuple[str, ...] = (
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
"""Every edge tag (``placement-refused`` belongs to refused actions, never to a record)."""

_ACTION_CLAUSES: dict[type, tuple[str, ...]] = {
    Play: ("TM.TURN.CHOICE", "TM.PLAY.ONE_COLOURED", "TM.PLAY.COLOUR_LOCK"),
    Withdraw: ("TM.TURN.CHOICE", "TM.WITHDRAW.COMPARE", "TM.WITHDRAW.MAJORITY.STRICT"),
    PlacePalace: ("TM.REWARD.INFLUENCE.PALACE", "TM.REWARD.PLACEMENT_ORDER"),
    PlaceCrown: ("TM.REWARD.CROWN.PALACE", "TM.REWARD.PLACEMENT_ORDER"),
    Take: ("TM.WITHDRAW.PICK_TWO",),
    Reshuffle: ("TM.VISIT.NEXT.RESHUFFLE",),
}

_EVENT_CLAUSES: dict[str, tuple[str, ...]] = {
    "win": ("TM.REWARD.INFLUENCE.TILE",),
    "bonus": ("TM.REWARD.FORTRESS.BONUS",),
    "discard": ("TM.WITHDRAW.DISCARD",),
    "take": ("TM.WITHDRAW.PICK_TWO",),
    "reshuffle": ("TM.VISIT.NEXT.RESHUFFLE", "RUL.DECK.RESHUFFLE_TIMING"),
    "forfeit": ("RUL.REWARD.NO_LEGAL_CITY",),
    "unwon": ("TM.VISIT.UNWON_PROVINCE",),
    "visit": ("TM.VISIT.END", "TM.VISIT.NEXT.DISPLAY", "TM.VISIT.NEXT.START_PLAYER"),
    "hand": ("TM.END.HAND.INCLUDES_LAST_PICKS",),
    "end": ("TM.END.AFTER_TWELVE", "TM.END.WINNER"),
}


def _event_clauses(event: Event) -> tuple[str, ...]:
    if event.kind == "win":
        if "crown" in event.text:
            return ("TM.REWARD.CROWN.TAKE",)
        if "province tile" in event.text:
            return ("TM.REWARD.ELEPHANT.PROVINCE",)
    if event.kind == "score":
        if "+2" in event.text:
            return ("TM.SPECIAL.PLUS_TWO",)
        if "province tile" in event.text:
            return ("TM.SCORE.PROVINCE", "TM.SCORE.ORDER")
        return ("TM.SCORE.PALACE.CURRENT", "TM.SCORE.ORDER")
    if event.kind == "exchange":
        if "keeps" in event.text:
            return ("TM.SPECIAL.ALREADY_HELD", "RUL.SPECIAL.ALREADY_HELD")
        if "from player" in event.text:
            return ("TM.SPECIAL.TAKE_FROM_HOLDER", "RUL.SPECIAL.CHANGES_HANDS")
        return ("TM.SPECIAL.EARN", "TM.SPECIAL.EXCHANGE_AT_VISIT_END")
    if event.kind == "draw":
        if "cannot draw" in event.text:
            return ("RUL.DECK.EXHAUSTED",)
        if "display" in event.text:
            return ("TM.VISIT.NEXT.DISPLAY",)
        if "extra-card" in event.text:
            return ("TM.WITHDRAW.WITHOUT_PLAYING", "RUL.WITHDRAW.WITHOUT_PLAYING")
        return ("TM.SCORE.BONUS.CARD",)
    if event.kind == "withdraw" and "without playing" in event.text:
        return ("TM.WITHDRAW.WITHOUT_PLAYING.NOTHING",)
    return _EVENT_CLAUSES.get(event.kind, ())


def step_clauses(action: Action, events: Sequence[Event]) -> tuple[str, ...]:
    """The clause and ruling ids that decided a step, sorted and unique."""
    ids = set(_ACTION_CLAUSES[type(action)])
    for event in events:
        ids.update(_event_clauses(event))
    return tuple(sorted(ids))


def _withdraw_tags(before: GameState, after: GameState) -> set[str]:
    tags: set[str] = set()
    seat = before.to_move
    assert seat is not None
    components = before.config.components
    me = before.players[seat]
    if not me.played:
        tags.add("withdraw-without-playing")
    others = [
        player
        for other, player in enumerate(before.players)
        if other != seat and not player.withdrawn
    ]
    if not others:
        tags.add("last-player-alone")
    mine = symbol_counts(components, me.played)
    compared = [symbol_counts(components, player.played) for player in others]
    if before.config.rules.majority_scope.value == "all":
        compared += [
            player.withdrawn_counts
            for other, player in enumerate(before.players)
            if other != seat and player.withdrawn and player.withdrawn_counts is not None
        ]
    earlier = [
        player.withdrawn_counts
        for other, player in enumerate(before.players)
        if other != seat and player.withdrawn and player.withdrawn_counts is not None
    ]
    for symbol in Symbol:
        index = SYMBOL_INDEX[symbol]
        if symbol is Symbol.MOGUL:
            available = before.crown_in_court
        elif symbol is Symbol.ELEPHANT:
            available = before.court_province_tile is not None
        else:
            available = symbol in before.court_influence
        if not available:
            continue
        best = max((counts[index] for counts in compared), default=0)
        if mine[index] and mine[index] == best:
            tags.add("tie")
        if mine[index] > best and any(counts[index] >= mine[index] for counts in earlier):
            tags.add("tie-broken")
        if me.played and mine[index] == 0 and best == 0:
            tags.add("zero-symbols")
    return tags


def edge_tags(
    before: GameState, action: Action, events: Sequence[Event], after: GameState
) -> frozenset[str]:
    """The edge tags a step reaches (see :data:`EDGE_TAGS`)."""
    tags: set[str] = set()
    components = before.config.components
    if isinstance(action, Play):
        extra = action.extra
        seat = before.to_move
        assert seat is not None
        if extra is not None and extra in components.specials:
            kind = components.specials[extra].kind
            if kind is SpecialKind.PLUS_TWO:
                tags.add("plus-two")
            if kind is SpecialKind.COLOUR_CHANGE and not before.players[seat].played:
                tags.add("colour-change-first-turn")
    elif isinstance(action, Withdraw):
        tags |= _withdraw_tags(before, after)
    elif isinstance(action, Take) and len(action.cards) == 1:
        tags.add("one-card-take")
    elif isinstance(action, Reshuffle) and before.withdrawal is not None:
        tags.add("reshuffle-mid-withdrawal")
    elif isinstance(action, PlaceCrown):
        here = [palace for palace in before.palaces if palace.city == action.city]
        seat = before.to_move
        if dict(before.bonus_on_board).get(action.city) is not None:
            tags.add("crown-on-fortress")
        if any(palace.seat != seat for palace in here):
            tags.add("crown-on-occupied")
        if any(palace.seat == seat for palace in here):
            tags.add("crown-beside-palace")
    elif isinstance(action, PlacePalace):
        tile = dict(before.bonus_on_board).get(action.city)
        if (
            tile is not None
            and components.bonus_tiles[tile].kind is BonusKind.CARD
            and not before.deck
        ):
            tags.add("card-bonus-empty-deck")
        if tile is not None and any(
            palace.city == action.city and palace.crowned for palace in before.palaces
        ):
            tags.add("crown-on-fortress")
    if before.deck and not after.deck:
        tags.add("deck-exhausted")
    exchanged: dict[str, int] = {}
    for event in events:
        if event.kind == "forfeit":
            tags.add("unplaceable-crown" if "crown" in event.text else "unplaceable-palace")
        elif event.kind == "draw" and "cannot draw" in event.text:
            tags.add("discard-exhausted")
        elif event.kind == "unwon":
            tags.add("unwon-tile")
        elif event.kind == "exchange":
            if "from player" in event.text:
                tags.add("special-changes-hands")
            symbol = event.text.split(" ")[2]
            exchanged[symbol] = exchanged.get(symbol, 0) + 1
        elif (
            event.kind == "visit"
            and len(after.display) < DISPLAY_SIZES[after.players_count]
            and after.step is not Step.SHUFFLE
        ):
            tags.add("short-display")
    if any(count > 1 for count in exchanged.values()):
        tags.add("pairs-collide")
    if after.is_over and len(after.winners()) > 1:
        tags.add("tied-winners")
    return frozenset(tags)


__all__ = ["EDGE_TAGS", "edge_tags", "step_clauses"]
