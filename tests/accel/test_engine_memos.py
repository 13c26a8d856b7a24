"""The engine's remembered values are the values it would compute afresh.

The majority events of a withdrawal are remembered by everything that decides them
(``tajmahal.engine``); here every step of random games under every kind of rule
set is applied with the memo and again with a memo that remembers nothing, and the
states and events must be equal.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tajmahal.engine import _majority as majority
from tajmahal.engine import (
    apply_with_events,
    legal_actions,
    new_game,
    random_reshuffle,
    random_setup,
)
from tajmahal.model import (
    Action,
    Event,
    EventKind,
    GameState,
    MajorityScope,
    RuleSet,
    Symbol,
    Withdraw,
    default_components,
)
from tajmahal.testing.strategies import rule_sets

COMPONENTS = default_components()


class Forgetful(dict[tuple[object, ...], Event]):
    """A memo that never remembers: every look-up computes the event afresh."""

    def __setitem__(self, key: tuple[object, ...], value: Event) -> None:
        pass


def steps(players: int, seed: int, rules: RuleSet) -> Iterator[tuple[GameState, Action]]:
    """Every state of a random game with the action taken in it."""
    rng = random.Random(seed)
    state = new_game(COMPONENTS, players, random_setup(COMPONENTS, players, seed), rules)
    while not state.is_over:
        if state.is_chance:
            action: Action = random_reshuffle(state, rng)
        else:
            action = rng.choice(legal_actions(state))
        yield state, action
        state = apply_with_events(state, action)[0]


def compare_withdrawals(
    players: int, seed: int, rules: RuleSet, monkeypatch: pytest.MonkeyPatch
) -> int:
    """Apply every withdrawal of a game with the memo and without; return how many
    majority events were compared."""
    compared = 0
    for state, action in steps(players, seed, rules):
        if not isinstance(action, Withdraw):
            continue
        remembered = apply_with_events(state, action)
        with monkeypatch.context() as patch:
            patch.setattr(majority, "_MAJORITY_EVENTS", Forgetful())
            fresh = apply_with_events(state, action)
        assert remembered == fresh
        compared += sum(event.kind in (EventKind.WIN, EventKind.NO_MAJORITY) for event in fresh[1])
    return compared


@pytest.mark.parametrize(
    "rules", [RuleSet(), RuleSet(majority_scope=MajorityScope.ALL)], ids=["default", "all"]
)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_remembered_majority_events_are_the_events_built_afresh(
    players: int, rules: RuleSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two games each: the second meets the events the first left in the memo.
    compared = sum(compare_withdrawals(players, seed, rules, monkeypatch) for seed in (1, 2))
    assert compared > 50


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1), rules=rule_sets())
def test_remembered_majority_events_under_any_rule_set(
    players: int, seed: int, rules: RuleSet
) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        compare_withdrawals(players, seed, rules, monkeypatch)


class Watched(dict[tuple[object, ...], Event]):
    """A memo that notes the most entries it ever held."""

    most = 0

    def __setitem__(self, key: tuple[object, ...], value: Event) -> None:
        super().__setitem__(key, value)
        self.most = max(self.most, len(self))


def test_a_full_memo_starts_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    # The memo is emptied when full, so it holds its bound at most (and reaches it: these
    # games meet far more than 40 different comparisons), and the events found after it
    # started afresh are still the events built afresh.
    monkeypatch.setattr(majority, "MAJORITY_EVENTS_KEPT", 40)
    memo = Watched()
    monkeypatch.setattr(majority, "_MAJORITY_EVENTS", memo)
    for seed in range(3):
        compare_withdrawals(5, seed, RuleSet(), monkeypatch)
    assert memo.most == 40


def test_the_same_comparison_gives_the_very_same_event() -> None:
    # The memo is used: a withdrawal applied twice builds its majority events once.
    def majorities(events: tuple[Event, ...]) -> list[Event]:
        return [e for e in events if e.kind in (EventKind.WIN, EventKind.NO_MAJORITY)]

    state, action = next((s, a) for s, a in steps(4, 1, RuleSet()) if isinstance(a, Withdraw))
    first = majorities(apply_with_events(state, action)[1])
    again = majorities(apply_with_events(state, action)[1])
    assert len(first) == len(Symbol) == 6  # one comparison per force
    assert all(new is old for old, new in zip(first, again, strict=True))


SEAT_COLLECTIONS = ("hand", "played", "influence")
"""The collections of a seat the working copy copies into lists and freezes again."""


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1), rules=rule_sets())
def test_a_seat_collection_left_as_it_was_stays_the_same_tuple(
    players: int, seed: int, rules: RuleSet
) -> None:
    """After every step, a seat's hand, played cards and influence tiles that equal
    those before the step are the very tuples of the state before (the working copy
    gives back the original when its list ends as it began)."""
    shared = 0
    for state, action in steps(players, seed, rules):
        after, _ = apply_with_events(state, action)
        for before_seat, after_seat in zip(state.players, after.players, strict=True):
            for name in SEAT_COLLECTIONS:
                old, new = getattr(before_seat, name), getattr(after_seat, name)
                if new == old:
                    assert new is old
                    shared += 1
    assert shared > 0
