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

import functools
from collections.abc import Mapping

import attrs

from tajmahal.actions import WITHDRAW, Action, Play
from tajmahal.components import CardId, Components
from tajmahal.engine._work import Work, colour_change_id, next_active
from tajmahal.errors import IllegalActionError
from tajmahal.events import Event, EventKind, PointSource
from tajmahal.rules import ColourChangeFirstTurn
from tajmahal.state import GameState
from tajmahal.symbols import CardColour, SpecialKind


def play_actions(state: GameState, seat: int) -> list[Action]:
    """Every play open to ``seat``, then ``withdraw``, in canonical order.

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
    table = _play_table(state.config.components)
    colour_of = table.colour_of
    hand = player.hand
    extras = [card_id for card_id in hand if card_id not in colour_of]  # white or special
    colour_change = table.colour_change
    lock = player.colour
    actions: list[Action] = []
    for card_id in hand:
        colour = colour_of.get(card_id)
        if colour is None:
            continue
        if lock is None or colour is lock:
            actions.append(table.alone[card_id])
            if extras:
                actions.extend(map(table.pairs[card_id].__getitem__, extras))
        elif colour_change in extras:
            actions.append(table.pairs[card_id][colour_change])
    actions.append(WITHDRAW)
    return actions


class _Pairs(dict[CardId, Play]):
    """The plays of one coloured card with a second card, made on first use."""

    __slots__ = ("coloured",)

    def __init__(self, coloured: CardId) -> None:
        super().__init__()
        self.coloured = coloured

    def __missing__(self, extra: CardId) -> Play:
        play = self[extra] = Play(self.coloured, extra)
        return play


@attrs.frozen(slots=True)
class _PlayTable:
    """The plays of a component set, each built once: listing the plays of a hand then
    looks actions up instead of building them."""

    colour_of: Mapping[CardId, CardColour]
    """The colour of every coloured card (white and special cards are not in it)."""
    colour_change: CardId
    """The colour-change card's id."""
    plus_two: CardId
    """The +2 card's id."""
    alone: Mapping[CardId, Play]
    """``play c`` for every coloured card ``c``."""
    pairs: Mapping[CardId, _Pairs]
    """``play c x`` for every coloured card ``c`` and any second card ``x``."""


@functools.cache
def _play_table(components: Components) -> _PlayTable:
    """The :class:`_PlayTable` of a component set (one per set: sets compare by digest)."""
    colour_of = {
        card: colour
        for card, colour in components.card_colours.items()
        if colour is not None and colour is not CardColour.WHITE
    }
    coloured = list(colour_of)
    return _PlayTable(
        colour_of,
        colour_change_id(components),
        components.special_of_kind(SpecialKind.PLUS_TWO).id,
        {card: Play(card) for card in coloured},
        {card: _Pairs(card) for card in coloured},
    )


def apply_play(work: Work, action: Play) -> None:
    """Move the played cards from hand to the table, fix the colour, pass the turn.

    Refuses cards not in hand, a play without a coloured card, two coloured cards and a
    card of the wrong colour (unless the colour-change card comes with it). The +2 card
    scores its 2 points now. The turn passes clockwise to the next player still in the
    visit, the player themself when everybody else has withdrawn.

    Implements: TM.PLAY.ONE_COLOURED, TM.PLAY.COLOUR_LOCK, TM.PLAY.FIRST_ANY_COLOUR,
    TM.PLAY.NO_TAKE_BACK, TM.SPECIAL.PLUS_TWO, TM.SPECIAL.COLOUR_CHANGE,
    TM.SPECIAL.COLOUR_CHANGE.ONE_TURN, TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN,
    TM.TURN.CLOCKWISE, TM.TURN.LAST_PLAYER_CONTINUES, TM.SPECIAL.NO_EFFECT_IN_HAND,
    RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN
    """
    seat = work.to_move
    assert seat is not None
    components = work.components
    player = work.player(seat)
    coloured = components.cards.get(action.coloured)
    if action.coloured not in player.hand:
        raise IllegalActionError(
            f"{action.coloured} is not in player {seat}'s hand", clause="TM.PLAY.ONE_COLOURED"
        )
    if coloured is None or coloured.colour is CardColour.WHITE:
        raise IllegalActionError(
            f"a play starts with exactly one coloured card; {action.coloured} is not coloured",
            clause="TM.PLAY.NEVER_ALONE",
        )
    table = _play_table(components)
    colour_change = table.colour_change
    plus_two = table.plus_two
    extra = action.extra
    if extra is not None:
        if extra not in player.hand:
            raise IllegalActionError(
                f"{extra} is not in player {seat}'s hand", clause="TM.PLAY.EXTRA_CARD"
            )
        extra_card = components.cards.get(extra)
        if extra_card is not None and extra_card.colour is not CardColour.WHITE:
            raise IllegalActionError(
                f"only one coloured card per play; the second card must be white or special, "
                f"{extra} is {extra_card.colour.value}",
                clause="TM.PLAY.ONE_COLOURED",
            )
    breaks_colour = extra == colour_change
    previous = player.colour
    if previous is not None and coloured.colour is not previous and not breaks_colour:
        raise IllegalActionError(
            f"player {seat} must play {previous.value} this visit; {action.coloured} is "
            f"{coloured.colour.value} (only the colour-change card breaks the colour)",
            clause="TM.PLAY.COLOUR_LOCK",
        )
    player.hand.remove(action.coloured)
    player.played.append(action.coloured)
    if extra is not None:
        player.hand.remove(extra)
        player.played.append(extra)
    if previous is None and (
        not breaks_colour
        or work.rules.colour_change_first_turn is ColourChangeFirstTurn.PLAYED_CARD
    ):
        player.colour = coloured.colour
    following = next_active(work, seat)
    assert following is not None
    if work.recording:
        work.record(
            Event(
                EventKind.PLAY,
                seat,
                cards=(action.coloured,) if extra is None else (action.coloured, extra),
                clauses=_play_clauses(
                    extra, breaks_colour, previous, coloured.colour, alone=following == seat
                ),
            )
        )
    if extra == plus_two:
        work.score(seat, 2)
        if work.recording:
            work.record(
                Event(
                    EventKind.SCORE,
                    seat,
                    2,
                    PointSource.PLUS_TWO,
                    cards=(plus_two,),
                    clauses=("TM.SPECIAL.PLUS_TWO",),
                )
            )
    work.to_move = following


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
