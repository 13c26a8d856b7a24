"""The memos that make the deep invariants affordable never change a verdict.

The view walk remembers the strings inside tuples it has seen (not whether they were
hidden), and the position reader remembers seats and palace lists it has read without
error (never a refusal), keyed so that values of other types are never confused.
"""

from __future__ import annotations

import contextlib
import copy
from typing import Any, cast

import attrs
import pytest
from positions import COMPONENTS, game

from tajmahal.errors import StateFormatError
from tajmahal.model import GameState, View, view
from tajmahal.model._view import Picks
from tajmahal.notation import state_from_json, state_to_json
from tajmahal.testing.invariants import _secrets as invariants_secrets
from tajmahal.testing.invariants import check_state


@pytest.mark.clause("TM.PLAY.HANDS_SECRET")
def test_a_remembered_tuple_is_checked_again_against_the_cards_hidden_now(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = game(3)
    shown = state.display  # public in ``state``: the walk remembers its strings

    def stale(seen_state: GameState, player: int, picks: Picks | None = None) -> View:
        return attrs.evolve(view(seen_state, player, picks), display=shown)

    monkeypatch.setattr(invariants_secrets, "view", stale)
    assert check_state(state) == ()
    # The same tuple object, shown after its cards went back into the deck, leaks them.
    buried = attrs.evolve(state, deck=state.deck + state.display, display=())
    assert any(
        v.invariant == "views-hide-secrets" and "shows hidden cards" in v.message
        for v in check_state(buried)
    )


def _document() -> dict[str, Any]:
    return state_to_json(game(3))


def test_a_seat_read_once_reads_the_same_again() -> None:
    document = _document()
    first = state_from_json(document, COMPONENTS)
    again = state_from_json(copy.deepcopy(document), COMPONENTS)
    assert first == again == game(3)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("hand", "tuple", "seats[1].hand: expected a list of strings"),
        ("score", True, "seats[1].score: expected an integer"),
        ("score", 0.0, "seats[1].score: expected an integer"),
        ("withdrawn", 0, "seats[1].withdrawn: expected true or false"),
    ],
)
def test_a_seat_like_one_read_before_but_of_another_type_is_refused_every_time(
    field: str, value: Any, message: str
) -> None:
    document = _document()
    state_from_json(document, COMPONENTS)  # every seat of it is now remembered
    seat = document["seats"][1]
    for _ in range(2):
        damaged = copy.deepcopy(document)
        damaged["seats"][1][field] = tuple(seat[field]) if value == "tuple" else value
        with pytest.raises(StateFormatError, match=message.replace("[", r"\[").replace("]", r"\]")):
            state_from_json(damaged, COMPONENTS)


def test_a_palace_list_of_another_type_is_refused_though_an_equal_one_was_read() -> None:
    document = _document()
    document["palaces"] = [["A1", 0, False]]
    with contextlib.suppress(StateFormatError):  # the list is read, whatever follows
        state_from_json(document, COMPONENTS)
    damaged = copy.deepcopy(document)
    damaged["palaces"] = [("A1", 0, False)]
    with pytest.raises(StateFormatError, match=r"palaces\[0\]: expected \[city, seat, crowned\]"):
        state_from_json(damaged, COMPONENTS)


@pytest.mark.clause("TM.PLAY.HANDS_SECRET")
def test_a_tuple_holding_something_that_may_change_is_walked_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = game(3)
    box: list[str] = []
    shown = cast(Any, (box,))  # a tuple, but its list may change: never remembered

    def boxed(seen_state: GameState, player: int, picks: Picks | None = None) -> View:
        return attrs.evolve(view(seen_state, player, picks), display=shown)

    monkeypatch.setattr(invariants_secrets, "view", boxed)
    assert check_state(state) == ()
    box.append(state.deck[0])
    assert any(v.invariant == "views-hide-secrets" for v in check_state(state))
