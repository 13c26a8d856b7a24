"""A turn: playing one or two cards (the rulebooks' "Giocare 1 o 2 carte", "A. Juega 1 o
2 cartas", "La Manche").

A play is one coloured card, alone or with one white or special card; the first
coloured card of a visit fixes the player's colour for the rest of the visit. The
special cards that act when played live here too, because they act through the play:
the colour-change card lifts the colour lock for one play and the +2 card scores at
once. Withdrawing is always offered beside the plays.

Notes on this implementation:

- A white card and a special card are never played together: the second card of a play
  is one card (RUL.PLAY.WHITE_AND_SPECIAL).
- The colour-change card played on a player's first turn of a visit does not fix a
  colour unless the rule set says so (RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN, option
  ``colour_change_first_turn``).
- A player with no legal play is left only the withdrawal (RUL.TURN.NO_LEGAL_PLAY).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Generic

import attrs

from tajmahal.engine._work import (
    ChoiceT,
    PerComponents,
    colour_change_id,
    next_in_visit,
    turn_passed,
)
from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    WITHDRAW,
    Action,
    CardColour,
    CardId,
    ColourChangeFirstTurn,
    Components,
    Event,
    EventKind,
    GameState,
    Play,
    PlayerState,
    PointSource,
    RuleSet,
    SpecialKind,
)


def play_actions(state: GameState, seat: int, table: PlayTable[ChoiceT]) -> list[ChoiceT]:
    """Every play open to ``seat``, then ``withdraw``, in canonical order, each as
    ``table`` holds it (:data:`play_table` holds the actions; an action space's table
    their ids, in the same order).

    Each coloured card of the player's colour (any colour before the first play of the
    visit) alone or with each white or special card in hand; a card of another colour
    only together with the colour-change card. Withdrawing is always possible, with or
    without cards in hand.

    Implements: TM.TURN.CHOICE, TM.PLAY.ONE_COLOURED, TM.PLAY.FIRST_ANY_COLOUR,
    TM.PLAY.COLOUR_LOCK, TM.PLAY.EXTRA_CARD, TM.PLAY.NEVER_ALONE, TM.PLAY.THREE_FORMS,
    TM.SPECIAL.PLAY_LIKE_WHITE, TM.SPECIAL.ONE_PER_TURN, TM.SPECIAL.COLOUR_CHANGE,
    TM.TURN.NO_LEGAL_PLAY, TM.WITHDRAW.EMPTY_HANDED, RUL.SPECIAL.ONE_PER_TURN
    """
    player = state.players[seat]
    colour_of = table.colour_of
    hand = player.hand
    extras = [card_id for card_id in hand if card_id not in colour_of]  # white or special
    alone = table.alone
    pairs = table.pairs
    lock = player.colour
    actions: list[ChoiceT] = []
    if lock is None:  # the first play of the visit: any colour
        for card_id in hand:
            if card_id in colour_of:
                actions.append(alone[card_id])
                if extras:
                    actions.extend(map(pairs[card_id].__getitem__, extras))
    else:
        colour_change = table.colour_change if table.colour_change in extras else None
        for card_id in hand:
            colour = colour_of.get(card_id)
            if colour is lock:
                actions.append(alone[card_id])
                if extras:
                    actions.extend(map(pairs[card_id].__getitem__, extras))
            elif colour is not None and colour_change is not None:
                actions.append(pairs[card_id][colour_change])
    actions.append(table.withdraw)
    return actions


@attrs.frozen(slots=True)
class PlayTable(Generic[ChoiceT]):
    """The plays of a component set, each built once: listing the plays of a hand then
    looks actions up instead of building them. Generic over what it holds for each
    decision (:data:`play_table`: the :class:`~tajmahal.model.Play` objects and
    ``withdraw``; an action space's copy: their ids), so that one
    :func:`play_actions` lists both."""

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


def build_play_table(components: Components) -> PlayTable[Action]:
    """The :class:`PlayTable` of a component set (:data:`play_table` keeps one per set)."""
    colour_of = {
        card: colour
        for card, colour in components.card_colours.items()
        if colour is not None and colour is not CardColour.WHITE
    }
    extras = [card for card in components.card_colours if card not in colour_of]
    return PlayTable(
        colour_of,
        colour_change_id(components),
        components.special_of_kind(SpecialKind.PLUS_TWO).id,
        {card: Play(card) for card in colour_of},
        {card: {extra: Play(card, extra) for extra in extras} for card in colour_of},
        WITHDRAW,
    )


play_table = PerComponents(build_play_table)
"""The :class:`PlayTable` of a component set, built on first use."""


def play_outcome(
    player: PlayerState, seat: int, action: Play, table: PlayTable[Action], rules: RuleSet
) -> PlayerState:
    """Seat ``seat`` after playing ``action``: the cards moved from hand to the table, the
    colour fixed, the +2 card's points scored.

    Refuses, in this order (docs/refusals.md, rows 7 to 12): a first card not in hand, a
    first card that is not coloured (no coloured card at all, or the coloured card named
    second), a second card not in hand, a second coloured card, and a card of the wrong
    colour (unless the colour-change card comes with it). An id
    that names no card of the game is a card not in hand. Works on frozen values, so that
    a play needs no working copy (see :func:`play_state`).

    Implements: TM.PLAY.ONE_COLOURED, TM.PLAY.FROM_HAND, TM.PLAY.NEVER_ALONE,
    TM.PLAY.THREE_FORMS, TM.PLAY.COLOUR_LOCK, TM.PLAY.FIRST_ANY_COLOUR,
    TM.PLAY.NO_TAKE_BACK, TM.SPECIAL.PLUS_TWO, TM.SPECIAL.COLOUR_CHANGE,
    TM.SPECIAL.COLOUR_CHANGE.ONE_TURN, TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN,
    TM.SPECIAL.NO_EFFECT_IN_HAND, RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN
    """
    hand = player.hand
    coloured = action.coloured
    colour_of = table.colour_of
    if coloured not in hand:
        raise IllegalActionError(
            f"{coloured} is not in player {seat}'s hand", clause="TM.PLAY.FROM_HAND"
        )
    colour = colour_of.get(coloured)
    if colour is None:
        raise IllegalActionError(
            f"a play starts with exactly one coloured card; {coloured} is not coloured",
            clause="TM.PLAY.THREE_FORMS" if action.extra in colour_of else "TM.PLAY.NEVER_ALONE",
        )
    extra = action.extra
    remaining = list(hand)
    remaining.remove(coloured)
    if extra is None:
        played = (*player.played, coloured)
    else:
        if extra not in hand:
            raise IllegalActionError(
                f"{extra} is not in player {seat}'s hand", clause="TM.PLAY.FROM_HAND"
            )
        extra_colour = colour_of.get(extra)
        if extra_colour is not None:
            raise IllegalActionError(
                f"only one coloured card per play; the second card must be white or special, "
                f"{extra} is {extra_colour.value}",
                clause="TM.PLAY.ONE_COLOURED",
            )
        remaining.remove(extra)
        played = (*player.played, coloured, extra)
    breaks_colour = extra == table.colour_change
    previous = player.colour
    if previous is not None and colour is not previous and not breaks_colour:
        raise IllegalActionError(
            f"player {seat} must play {previous.value} this visit; {coloured} is "
            f"{colour.value} (only the colour-change card breaks the colour)",
            clause="TM.PLAY.COLOUR_LOCK",
        )
    if previous is None and (
        not breaks_colour or rules.colour_change_first_turn is ColourChangeFirstTurn.PLAYED_CARD
    ):
        previous = colour
    # Positional, in field order (hot path).
    return PlayerState(
        tuple(remaining),
        played,
        previous,
        player.withdrawn,
        player.withdrawn_counts,
        player.influence,
        player.province_tiles,
        player.goods_tiles,
        player.score + 2 if extra == table.plus_two else player.score,
    )


def play_state(state: GameState, action: Play) -> GameState:
    """The state after ``action`` at a ``play`` step, built directly from frozen values
    (``apply`` without events: a play triggers nothing automatic).

    Implements: TM.TURN.CLOCKWISE, TM.TURN.LAST_PLAYER_CONTINUES
    """
    seat = state.to_move
    assert seat is not None
    config = state.config
    players = list(state.players)
    players[seat] = play_outcome(
        players[seat], seat, action, play_table(config.components), config.rules
    )
    return turn_passed(state, next_in_visit(players, seat), tuple(players), state.display)


def play_state_with_events(state: GameState, action: Play) -> tuple[GameState, tuple[Event, ...]]:
    """:func:`play_state` and the events of the play (:func:`play_events`): the same
    state and events as the working copy gives, without one.

    Implements: TM.TURN.CLOCKWISE, TM.TURN.LAST_PLAYER_CONTINUES
    """
    after = play_state(state, action)
    seat = state.to_move
    following = after.to_move
    assert seat is not None and following is not None
    table = play_table(state.config.components)
    return after, play_events(seat, action, table, state.players[seat].colour, following)


def play_events(
    seat: int, action: Play, table: PlayTable[Action], previous: CardColour | None, following: int
) -> tuple[Event, ...]:
    """What a legal play shows (for the account): the play, and the +2 card's points.
    ``previous`` is the player's colour before the play, ``following`` the player to
    move after it (:func:`play_state_with_events` records these).

    Implements: TM.PLAY.ONE_COLOURED, TM.SPECIAL.PLUS_TWO
    """
    extra = action.extra
    coloured = action.coloured
    play = Event(
        EventKind.PLAY,
        seat,
        cards=(coloured,) if extra is None else (coloured, extra),
        clauses=_play_clauses(
            extra,
            extra == table.colour_change,
            previous,
            table.colour_of[coloured],
            alone=following == seat,
        ),
    )
    if extra != table.plus_two:
        return (play,)
    return (
        play,
        Event(
            EventKind.SCORE,
            seat,
            2,
            PointSource.PLUS_TWO,
            cards=(extra,),
            clauses=("TM.SPECIAL.PLUS_TWO",),
        ),
    )


def _play_clauses(
    extra: CardId | None,
    breaks_colour: bool,
    previous: CardColour | None,
    colour: CardColour,
    *,
    alone: bool,
) -> tuple[str, ...]:
    """The clauses that decided a play (for its event): the colour lock or its absence,
    the colour-change card, the last player playing on alone."""
    clauses = ["TM.PLAY.ONE_COLOURED"]
    if extra is not None:
        clauses.append("TM.PLAY.EXTRA_CARD")
    if previous is None:
        clauses.append("TM.PLAY.FIRST_ANY_COLOUR")
        if breaks_colour:
            clauses += [
                "TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN",
                "RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN",
            ]
    elif breaks_colour and colour is not previous:
        clauses += ["TM.SPECIAL.COLOUR_CHANGE", "TM.SPECIAL.COLOUR_CHANGE.ONE_TURN"]
    else:
        clauses.append("TM.PLAY.COLOUR_LOCK")
    if alone:
        clauses.append("TM.TURN.LAST_PLAYER_CONTINUES")
    return tuple(clauses)
