"""The rules engine: ``legal_actions(state)`` and ``apply(state, action)``.

Both are pure functions over frozen :class:`~tajmahal.model.GameState` values. ``apply``
copies the state into a private working copy (:mod:`~tajmahal.engine`), carries
out the action and every automatic consequence (scoring, discarding, drawing, ending a
visit) until the game next waits for a decision or a chance outcome, and freezes the
result.

The package follows the rulebooks' order, one module per clause area of
``specs/clauses``: :mod:`~tajmahal.engine` (a turn: playing cards),
:mod:`~tajmahal.engine` (withdrawing, the majorities, the discard and the
display picks; :mod:`~tajmahal.engine` the event of each force),
:mod:`~tajmahal.engine` (palaces and the crown palace),
:mod:`~tajmahal.engine` (bonus tiles, province tiles, palaces),
:mod:`~tajmahal.engine` (special cards changing hands),
:mod:`~tajmahal.engine` (the end of a visit, the next one, drawing) and
:mod:`~tajmahal.engine` (the end of the game). This module dispatches on the
:class:`~tajmahal.model.Step` and runs the automatic sequence.

The legal-action generators read every decision from tables built once per component
set and are generic over what the tables hold (:mod:`~tajmahal.engine`):
:func:`legal_actions` lists the action objects, :func:`legal_choices` whatever a
:class:`ChoiceTables` holds instead (an action space's integer ids).

Chance is explicit: when a card must be drawn from an empty deck, the game stops at a
``SHUFFLE`` step and waits for a :class:`~tajmahal.model.Reshuffle` action naming the
new deck order. :func:`random_reshuffle` makes one from a random generator; a record
stores it, so replays need no generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tajmahal.engine._choices import ChoiceTables, action_tables
from tajmahal.engine._play import play_actions, play_state, play_state_with_events
from tajmahal.engine._reward import (
    apply_crown,
    apply_palace,
    crown_cities,
    forfeit_impossible,
    palace_cities,
    placement_actions,
)
from tajmahal.engine._score import score_withdrawal
from tajmahal.engine._visit import apply_reshuffle, perform_draw
from tajmahal.engine._withdraw import (
    apply_withdraw,
    discard_played,
    finish_withdrawal,
    last_player_takes,
    take_actions,
    take_state,
)
from tajmahal.engine._work import ChoiceT, Work, next_active
from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    Action,
    CardId,
    Event,
    GameState,
    PlaceCrown,
    PlacePalace,
    Play,
    Reshuffle,
    Step,
    Take,
    Withdraw,
)

_PLAY, _PLACE, _TAKE, _SHUFFLE, _OVER = Step.PLAY, Step.PLACE, Step.TAKE, Step.SHUFFLE, Step.OVER
"""Enum members as module names: reading a member from its enum class goes through the
enum's metaclass, several times slower than reading a global, and this is the hot path."""

__all__ = [
    "ChoiceTables",
    "action_tables",
    "apply",
    "apply_with_events",
    "chance_cards",
    "crown_cities",
    "legal_actions",
    "legal_choices",
    "palace_cities",
    "random_reshuffle",
]


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every action the player to move may take, sorted by canonical string, no duplicates.

    Empty when the game is over and at a chance step (where the next action is a
    :class:`~tajmahal.model.Reshuffle`; see :func:`chance_cards`).
    """
    # Generated in canonical order already: hands, displays and province cities are sorted,
    # ids never contain a space, and "crown" < "palace", "play" < "withdraw".
    return tuple(legal_choices(state, action_tables(state.config.components)))


def legal_choices(state: GameState, tables: ChoiceTables[ChoiceT]) -> list[ChoiceT]:
    """What ``tables`` hold for every action the player to move may take, in the order
    of :func:`legal_actions` (a new list; empty where it is empty).

    ``legal_choices(state, action_tables(state.config.components))`` lists the actions
    themselves; an action space passes tables of integer ids built from those (see
    :meth:`ChoiceTables.mapped`) to list the legal ids without looking each action up.
    """
    step = state.step
    seat = state.to_move
    if seat is None or step is _OVER or step is _SHUFFLE:
        return []
    if step is _PLAY:
        return play_actions(state, seat, tables.plays)
    if step is _PLACE:
        return placement_actions(state, seat, tables.placements)
    return take_actions(state, tables.takes, tables.short_take)


def chance_cards(state: GameState) -> tuple[CardId, ...]:
    """At a chance step, the cards a ``reshuffle`` must order (the discard pile); else ()."""
    return state.discard if state.step is _SHUFFLE else ()


def random_reshuffle(state: GameState, rng: random.Random) -> Reshuffle:
    """A uniformly random reshuffle outcome for a chance step."""
    order = list(chance_cards(state))
    rng.shuffle(order)
    return Reshuffle(tuple(order))


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``; raises :class:`IllegalActionError` saying why it is illegal.

    A play at a play step (the commonest step) and a display pick at a take step are
    built from the frozen values (they trigger nothing automatic); every other step
    goes through the working copy (:func:`_apply`).
    """
    step = state.step
    try:
        if step is _PLAY and isinstance(action, Play):
            return play_state(state, action)
        if step is _TAKE and isinstance(action, Take):
            return take_state(state, action)[0]
        return _apply(state, action, recording=False).freeze()
    except _BROKEN_SHAPE:
        _refuse_malformed(action)
        raise  # a well-formed action: a fault of the engine, not of the caller


def apply_with_events(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """Like :func:`apply`, also returning what happened (for the readable account)."""
    step = state.step
    try:
        if step is _PLAY and isinstance(action, Play):
            return play_state_with_events(state, action)
        if step is _TAKE and isinstance(action, Take):
            return take_state(state, action, recording=True)
        work = _apply(state, action, recording=True)
    except _BROKEN_SHAPE:
        _refuse_malformed(action)
        raise  # a well-formed action: a fault of the engine, not of the caller
    return work.freeze(), tuple(work.events)


_BROKEN_SHAPE = (TypeError, AttributeError, ValueError, KeyError, IndexError)
"""What an action built by hand with a field of the wrong type (``Take((5,))``, a list
where a tuple belongs) makes the rules raise; :func:`_refuse_malformed` then says what
is wrong with it, as an :class:`IllegalActionError`."""


def _kind(value: object) -> str:
    return f"a {type(value).__name__}"


def _refuse_malformed(action: object) -> None:
    """Raise :class:`IllegalActionError` naming the field of ``action`` that is not of
    its type (card and city ids are strings; the cards of a take and the order of a
    reshuffle are tuples of strings); return when every field is (so that the caller
    raises the original exception: a fault of the engine, never hidden)."""
    problem = None
    if isinstance(action, Play):
        if not isinstance(action.coloured, str):
            problem = (
                f"a play's coloured card is a card id (a string), not {_kind(action.coloured)}"
            )
        elif action.extra is not None and not isinstance(action.extra, str):
            problem = f"a play's extra card is a card id (a string), not {_kind(action.extra)}"
    elif isinstance(action, PlacePalace | PlaceCrown):
        if not isinstance(action.city, str):
            problem = f"a placement's city is a city id (a string), not {_kind(action.city)}"
    elif isinstance(action, Take | Reshuffle):
        cards = action.cards if isinstance(action, Take) else action.order
        if not isinstance(cards, tuple) or not all(isinstance(card, str) for card in cards):
            problem = (
                f"the cards of {type(action).__name__.lower()} are a tuple of card ids (strings)"
            )
    elif not isinstance(action, Withdraw):
        problem = f"not an action: {_kind(action)}"
    if problem is not None:
        raise IllegalActionError(f"malformed action: {problem}") from None


def _apply(state: GameState, action: Action, *, recording: bool) -> Work:
    """Dispatch on the step the game waits at, then run the automatic sequence.

    Every action but a play at a play step and a display pick at a take step (which
    :func:`apply` and :func:`apply_with_events` build from frozen values) comes here:
    the steps that set off something automatic, and every refusal of a wrong kind of
    action."""
    if state.step is _OVER:
        raise IllegalActionError(
            f"the game is over; no action is possible ({action})", clause="TM.END.AFTER_TWELVE"
        )
    work = Work(state, recording)
    expected = _HANDLERS.get(type(action))
    if expected is not None and expected[0] is state.step:  # the usual case
        expected[1](work, action)
        _continue(work)
        return work
    if state.step is _SHUFFLE:
        if not isinstance(action, Reshuffle):
            raise IllegalActionError(
                f"the game waits for a chance outcome (reshuffle of the {len(state.discard)} "
                f"discarded cards), not {action}",
                clause="RUL.DECK.RESHUFFLE_TIMING",
            )
        apply_reshuffle(work, action)
    elif isinstance(action, Reshuffle):
        raise IllegalActionError(
            "no reshuffle is due: the deck is not being drawn from empty",
            clause="RUL.DECK.RESHUFFLE_TIMING",
        )
    elif state.step is _PLAY:
        if isinstance(action, Withdraw):
            apply_withdraw(work)
        else:  # a play never comes here (see apply)
            raise IllegalActionError(
                f"player {state.to_move} must play cards or withdraw now, not {action}",
                clause="TM.TURN.CHOICE",
            )
    elif state.step is _PLACE:
        if isinstance(action, PlacePalace):
            apply_palace(work, action.city)
        elif isinstance(action, PlaceCrown):
            apply_crown(work, action.city)
        else:
            raise IllegalActionError(
                f"player {state.to_move} must place a palace or the crown palace now, not {action}",
                clause="TM.REWARD.PLACE_AT_ONCE",
            )
    else:  # a take step: a display pick never comes here (see apply)
        raise IllegalActionError(
            f"player {state.to_move} must take cards from the display now, not {action}",
            clause="TM.WITHDRAW.PICK_TWO",
        )
    _continue(work)
    return work


_HANDLERS: dict[type, tuple[Step, Callable[[Work, Any], None]]] = {
    Reshuffle: (Step.SHUFFLE, apply_reshuffle),
    Withdraw: (Step.PLAY, lambda work, _action: apply_withdraw(work)),
    PlacePalace: (Step.PLACE, lambda work, action: apply_palace(work, action.city)),
    PlaceCrown: (Step.PLACE, lambda work, action: apply_crown(work, action.city)),
}
"""Each kind of action: the step that expects it and the rule that carries it out. One
look-up on the hot path (by type: enum members hash slowly); an action at any other step
goes through :func:`_apply`'s checks, which say why it is refused."""


def _continue(work: Work) -> None:
    """Carry out everything automatic until a decision, a chance outcome or the end.

    After a withdrawal: drop placements without a legal city, wait for each placement,
    score, discard, draw what is owed, then the display picks (automatic for the last
    player), then the next player or the end of the visit. A reshuffle interrupts the
    sequence at the draw and resumes it where it stopped.
    """
    while True:
        if work.draw is not None and not perform_draw(work):
            return
        withdrawal = work.withdrawal
        if withdrawal is None:
            if work.step is _OVER:
                return
            work.step = _PLAY
            if work.to_move is None:  # a reshuffle interrupted the display draw of a new visit
                work.to_move = work.start_player
            return
        seat = withdrawal.seat
        if withdrawal.palaces_owed or withdrawal.crown_owed:
            if forfeit_impossible(work):
                continue
            work.step = _PLACE
            work.to_move = seat
            return
        if not withdrawal.scored:
            score_withdrawal(work)
            discard_played(work)
            continue
        if next_active(work, seat) is None:
            last_player_takes(work, seat)
        elif work.read("display"):
            work.step = _TAKE
            work.to_move = seat
            return
        finish_withdrawal(work, seat)
        if work.step is _OVER:
            return
