"""The rules engine: ``legal_actions(state)`` and ``apply(state, action)``.

Both are pure functions over frozen :class:`~tajmahal.model.GameState` values. What the
game does at each :class:`~tajmahal.model.Step` is written once, in :data:`STEPS`: the
decisions it offers, and the rule that carries out each kind of action it waits for.
``apply`` makes a working copy of the state (:class:`~tajmahal.engine._work.Work`),
carries out the action by its rule, then everything automatic that follows (placements
without a legal city, scoring, discarding, drawing, the display picks of the last
player, the end of a visit) until the game next waits for a decision or a chance
outcome, and freezes the result.

Chance is explicit: when a card must be drawn from an empty deck, the game stops at a
``SHUFFLE`` step and waits for a :class:`~tajmahal.model.Reshuffle` action naming the
new deck order. :func:`random_reshuffle` makes one from a random generator; a record
stores it, so replays need no generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from tajmahal.engine._play import play, play_actions
from tajmahal.engine._reward import (
    forfeit_impossible,
    place_crown,
    place_palace,
    placement_actions,
)
from tajmahal.engine._score import score_withdrawal
from tajmahal.engine._visit import perform_draw, reshuffle
from tajmahal.engine._withdraw import (
    discard_played,
    finish_withdrawal,
    last_player_takes,
    take,
    take_actions,
    withdraw,
)
from tajmahal.engine._work import Work, next_in_visit
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


@attrs.frozen
class StepRules:
    """What the game does at one step."""

    actions: Callable[[GameState], Sequence[Action]]
    """Every decision open to the player to move, sorted by canonical string."""
    rules: Mapping[type, Callable[[Work, Any], None]]
    """The rule that carries out each kind of action the step waits for."""


def _no_decision(state: GameState) -> Sequence[Action]:
    """No decision: the game is over, or waits for a chance outcome."""
    return ()


STEPS: Mapping[Step, StepRules] = {
    Step.PLAY: StepRules(play_actions, {Play: play, Withdraw: withdraw}),
    Step.PLACE: StepRules(placement_actions, {PlacePalace: place_palace, PlaceCrown: place_crown}),
    Step.TAKE: StepRules(take_actions, {Take: take}),
    Step.SHUFFLE: StepRules(_no_decision, {Reshuffle: reshuffle}),
    Step.OVER: StepRules(_no_decision, {}),
}
"""Each step's decisions and rules (the lists come sorted: hands, displays and the
cities of a province are sorted, ids never contain a space, and "crown" < "palace",
"play" < "withdraw")."""


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every action the player to move may take, sorted by canonical string, no duplicates.

    Empty when the game is over and at a chance step (where the next action is a
    :class:`~tajmahal.model.Reshuffle`; see :func:`chance_cards`).
    """
    return tuple(STEPS[state.step].actions(state))


def chance_cards(state: GameState) -> tuple[CardId, ...]:
    """At a chance step, the cards a ``reshuffle`` must order (the discard pile); else ()."""
    return state.discard if state.step is Step.SHUFFLE else ()


def random_reshuffle(state: GameState, rng: random.Random) -> Reshuffle:
    """A uniformly random reshuffle outcome for a chance step."""
    order = list(chance_cards(state))
    rng.shuffle(order)
    return Reshuffle(tuple(order))


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``; raises :class:`IllegalActionError` saying why it is illegal."""
    try:
        return _carry_out(Work(state, recording=False), action).freeze()
    except _BROKEN_SHAPE:
        _refuse_malformed(action)
        raise  # a well-formed action: a fault of the engine, not of the caller


def apply_with_events(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """Like :func:`apply`, also returning what happened (for the readable account)."""
    try:
        work = _carry_out(Work(state, recording=True), action)
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


def _carry_out(work: Work, action: Action) -> Work:
    """Carry out ``action`` by the rule of the step the game waits at, then everything
    automatic that follows."""
    rule = STEPS[work.step].rules.get(type(action))
    if rule is None:
        raise _refusal(work, action)
    rule(work, action)
    _continue(work)
    return work


def _refusal(work: Work, action: Action) -> IllegalActionError:
    """Why the game does not take ``action`` now: it is over, it waits for a chance
    outcome, no reshuffle is due, or the player to move must do something else."""
    if work.step is Step.OVER:
        return IllegalActionError(
            f"the game is over; no action is possible ({action})", clause="TM.END.AFTER_TWELVE"
        )
    if work.step is Step.SHUFFLE:
        return IllegalActionError(
            f"the game waits for a chance outcome (reshuffle of the {len(work.discard)} "
            f"discarded cards), not {action}",
            clause="RUL.DECK.RESHUFFLE_TIMING",
        )
    if isinstance(action, Reshuffle):
        return IllegalActionError(
            "no reshuffle is due: the deck is not being drawn from empty",
            clause="RUL.DECK.RESHUFFLE_TIMING",
        )
    must, clause = _WAITS_FOR[work.step]
    return IllegalActionError(f"P{work.to_move} must {must} now, not {action}", clause=clause)


_WAITS_FOR: Mapping[Step, tuple[str, str]] = {
    Step.PLAY: ("play cards or withdraw", "TM.TURN.CHOICE"),
    Step.PLACE: ("place a palace or the crown palace", "TM.REWARD.PLACE_AT_ONCE"),
    Step.TAKE: ("take cards from the display", "TM.WITHDRAW.PICK_TWO"),
}
"""What the player to move must do at each decision step, and the clause that says so."""


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
            if work.step is not Step.OVER:
                work.step = Step.PLAY
                if work.to_move is None:  # a reshuffle interrupted a new visit's display
                    work.to_move = work.start_player
            return
        seat = withdrawal.seat
        if withdrawal.palaces_owed or withdrawal.crown_owed:
            if forfeit_impossible(work):
                continue
            work.step = Step.PLACE
            work.to_move = seat
            return
        if not withdrawal.scored:
            score_withdrawal(work)
            discard_played(work)
            continue
        if next_in_visit(work.players, seat) is None:
            last_player_takes(work, seat)
        elif work.display:
            work.step = Step.TAKE
            work.to_move = seat
            return
        finish_withdrawal(work, seat)
        if work.step is Step.OVER:
            return
