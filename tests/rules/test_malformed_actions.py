"""An action built by hand with a field of the wrong type is refused, naming the field.

A program may build ``Take((5,))`` or ``PlacePalace(["A1"])`` whatever the type hints
say. Where such a field makes the rules fail, ``apply`` answers with an
:class:`IllegalActionError` that says which field is not of its type (no clause: the
action is not a move of the game at all), never with the ``TypeError`` underneath.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from positions import fresh_game, run, table

from tajmahal.engine import apply, apply_with_events, legal_actions, random_reshuffle
from tajmahal.errors import IllegalActionError
from tajmahal.model import GameState, PlacePalace, Reshuffle, Step, Take


def _by_hand(kind: Any, *fields: Any) -> Any:
    """An action built with fields of any type (as a program may, whatever its types say)."""
    return kind(*fields)


def _finished() -> GameState:
    state = fresh_game()
    rng = random.Random(3)
    while not state.is_over:
        state = apply(
            state, random_reshuffle(state, rng) if state.is_chance else legal_actions(state)[0]
        )
    return state


def _placing() -> GameState:
    """Seat 0 has withdrawn with a majority and owes a palace."""
    state = run(table(("red-05", "white-01"), ("yellow-19",)), "withdraw")
    assert state.step is Step.PLACE
    return state


def _refusal(state: GameState, action: Any) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)
    with pytest.raises(IllegalActionError) as recorded:
        apply_with_events(state, action)
    assert str(recorded.value) == str(caught.value)
    return caught.value


TAKE_OF_NUMBERS = "malformed action: the cards of take are a tuple of card ids (strings)"


@pytest.mark.parametrize("cards", [(5,), (5, 6), ([1],)], ids=["one", "two", "a-list"])
def test_a_take_of_numbers_is_refused_for_its_cards_at_any_step(cards: tuple[Any, ...]) -> None:
    for state in (fresh_game(), _placing(), _finished()):
        refusal = _refusal(state, _by_hand(Take, cards))
        assert str(refusal) == TAKE_OF_NUMBERS
        assert refusal.clause is None


def test_a_reshuffle_of_numbers_is_refused_for_its_order() -> None:
    refusal = _refusal(_finished(), _by_hand(Reshuffle, (1, 2)))
    assert str(refusal) == (
        "malformed action: the cards of reshuffle are a tuple of card ids (strings)"
    )
    assert refusal.clause is None


def test_a_placement_in_a_list_is_refused_naming_the_type_it_got() -> None:
    refusal = _refusal(_placing(), _by_hand(PlacePalace, ["A1"]))
    assert str(refusal) == (
        "malformed action: a placement's city is a city id (a string), not a list"
    )
    assert refusal.clause is None


def test_a_well_formed_action_is_refused_by_its_rule_not_as_malformed() -> None:
    refusal = _refusal(fresh_game(), Take(("red-01",)))
    assert not str(refusal).startswith("malformed")
    assert refusal.clause is not None
