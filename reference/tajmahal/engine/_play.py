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
- A play changes one player and whose turn it is, so it is computed on the frozen
  player (:func:`played`).
"""

from __future__ import annotations

import attrs

from tajmahal.engine._work import Work, next_in_visit, without
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


def play_actions(state: GameState) -> list[Action]:
    """Every play open to the player to move, then ``withdraw``, in canonical order.

    Each coloured card of the player's colour (any colour before the first play of the
    visit) alone or with each white or special card in hand; a card of another colour
    only together with the colour-change card. Withdrawing is always possible, with or
    without cards in hand.

    Implements: TM.TURN.CHOICE, TM.PLAY.ONE_COLOURED, TM.PLAY.FIRST_ANY_COLOUR,
    TM.PLAY.COLOUR_LOCK, TM.PLAY.EXTRA_CARD, TM.PLAY.NEVER_ALONE, TM.PLAY.THREE_FORMS,
    TM.SPECIAL.PLAY_LIKE_WHITE, TM.SPECIAL.ONE_PER_TURN, TM.SPECIAL.COLOUR_CHANGE,
    TM.TURN.NO_LEGAL_PLAY, TM.WITHDRAW.EMPTY_HANDED, RUL.SPECIAL.ONE_PER_TURN
    """
    assert state.to_move is not None
    components = state.config.components
    player = state.players[state.to_move]
    extras = [card for card in player.hand if colour_of(components, card) is None]
    colour_change = _special(components, SpecialKind.COLOUR_CHANGE)
    actions: list[Action] = []
    for card in player.hand:
        colour = colour_of(components, card)
        if colour is None:
            continue
        if player.colour in (None, colour):
            actions.append(Play(card))
            actions += [Play(card, extra) for extra in extras]
        elif colour_change in extras:
            actions.append(Play(card, colour_change))
    actions.append(WITHDRAW)
    return actions


def colour_of(components: Components, card: CardId) -> CardColour | None:
    """The colour of a coloured card; None for a white or special card."""
    regular = components.cards.get(card)
    if regular is None or not regular.colour.is_coloured:
        return None
    return regular.colour


def play(work: Work, action: Play) -> None:
    """The player to move plays ``action`` (:func:`played`); the turn passes clockwise to
    the next player still in the visit, which is the same player when they are the last.

    Implements: TM.TURN.CLOCKWISE, TM.TURN.LAST_PLAYER_CONTINUES
    """
    seat = work.to_move
    assert seat is not None
    before = work.players[seat]
    assert isinstance(before, PlayerState)  # a play is the only change of its step
    work.players[seat] = played(before, seat, action, work.components, work.rules)
    work.to_move = next_in_visit(work.players, seat)
    work.record(play_event, work.components, seat, action, before.colour, work.to_move == seat)
    if action.extra == _special(work.components, SpecialKind.PLUS_TWO):
        work.record(plus_two_event, seat, action.extra)


def played(
    player: PlayerState, seat: int, action: Play, components: Components, rules: RuleSet
) -> PlayerState:
    """Seat ``seat`` after playing ``action``: the cards moved from hand to the table, the
    colour fixed, the +2 card's points scored (refused as :func:`check_play` says).

    The first coloured card of the visit fixes the colour, unless it comes with the
    colour-change card and the rule set leaves the colour to the next card.

    Implements: TM.PLAY.FIRST_ANY_COLOUR, TM.PLAY.NO_TAKE_BACK, TM.SPECIAL.PLUS_TWO,
    TM.SPECIAL.COLOUR_CHANGE.ONE_TURN, TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN,
    RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN
    """
    colour = check_play(player, seat, action, components)
    breaks_colour = action.extra == _special(components, SpecialKind.COLOUR_CHANGE)
    leaves_colour_open = (
        breaks_colour and rules.colour_change_first_turn is ColourChangeFirstTurn.NEXT_CARD
    )
    plus_two = action.extra == _special(components, SpecialKind.PLUS_TWO)
    return attrs.evolve(
        player,
        hand=without(player.hand, action.cards),
        played=player.played + action.cards,
        colour=colour if player.colour is None and not leaves_colour_open else player.colour,
        score=player.score + 2 if plus_two else player.score,
    )


def check_play(player: PlayerState, seat: int, action: Play, components: Components) -> CardColour:
    """Refuse, in this order (docs/refusals.md, rows 7 to 12), a first card not in hand, a
    first card that is not coloured (no coloured card at all, or the coloured card named
    second), a second card not in hand, a second coloured card, and a card of the wrong
    colour (unless the colour-change card comes with it); return the colour of the
    coloured card. An id that names no card of the game is a card not in hand.

    Implements: TM.PLAY.ONE_COLOURED, TM.PLAY.FROM_HAND, TM.PLAY.COLOUR_LOCK,
    TM.PLAY.NEVER_ALONE, TM.PLAY.THREE_FORMS, TM.PLAY.EXTRA_CARD, TM.SPECIAL.COLOUR_CHANGE,
    TM.SPECIAL.NO_EFFECT_IN_HAND
    """
    coloured, extra = action.coloured, action.extra
    if coloured not in player.hand:
        raise IllegalActionError(f"{coloured} is not in P{seat}'s hand", clause="TM.PLAY.FROM_HAND")
    colour = colour_of(components, coloured)
    if colour is None:
        raise IllegalActionError(
            f"a play starts with exactly one coloured card; {coloured} is not coloured",
            clause=(
                "TM.PLAY.THREE_FORMS"
                if extra is not None and colour_of(components, extra) is not None
                else "TM.PLAY.NEVER_ALONE"
            ),
        )
    if extra is not None and extra not in player.hand:
        raise IllegalActionError(f"{extra} is not in P{seat}'s hand", clause="TM.PLAY.FROM_HAND")
    extra_colour = None if extra is None else colour_of(components, extra)
    if extra_colour is not None:
        raise IllegalActionError(
            f"only one coloured card per play; the second card must be white or special, "
            f"{extra} is {extra_colour.value}",
            clause="TM.PLAY.ONE_COLOURED",
        )
    breaks_colour = extra == _special(components, SpecialKind.COLOUR_CHANGE)
    if player.colour not in (None, colour) and not breaks_colour:
        assert player.colour is not None
        raise IllegalActionError(
            f"P{seat} must play {player.colour.value} this visit; {coloured} is "
            f"{colour.value} (only the colour-change card breaks the colour)",
            clause="TM.PLAY.COLOUR_LOCK",
        )
    return colour


def _special(components: Components, kind: SpecialKind) -> CardId:
    """The id of the special card of ``kind``."""
    return components.special_of_kind(kind).id


def play_event(
    components: Components, seat: int, action: Play, previous: CardColour | None, alone: bool
) -> Event:
    """The ``play`` event of a legal play, with the clauses that decided it: the colour
    lock or its absence (``previous`` is the player's colour before the play), the
    colour-change card, the last player playing on ``alone``.

    Implements: TM.PLAY.ONE_COLOURED
    """
    extra = action.extra
    clauses = ["TM.PLAY.ONE_COLOURED"]
    if extra is not None:
        clauses.append("TM.PLAY.EXTRA_CARD")
    breaks_colour = extra == _special(components, SpecialKind.COLOUR_CHANGE)
    if previous is None:
        clauses.append("TM.PLAY.FIRST_ANY_COLOUR")
        if breaks_colour:
            clauses += [
                "TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN",
                "RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN",
            ]
    elif breaks_colour and colour_of(components, action.coloured) is not previous:
        clauses += ["TM.SPECIAL.COLOUR_CHANGE", "TM.SPECIAL.COLOUR_CHANGE.ONE_TURN"]
    else:
        clauses.append("TM.PLAY.COLOUR_LOCK")
    if alone:
        clauses.append("TM.TURN.LAST_PLAYER_CONTINUES")
    return Event(EventKind.PLAY, seat, cards=action.cards, clauses=tuple(clauses))


def plus_two_event(seat: int, card: CardId) -> Event:
    """The +2 card's points, scored as it is played.

    Implements: TM.SPECIAL.PLUS_TWO
    """
    return Event(
        EventKind.SCORE,
        seat,
        2,
        PointSource.PLUS_TWO,
        cards=(card,),
        clauses=("TM.SPECIAL.PLUS_TWO",),
    )
