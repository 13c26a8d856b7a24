"""The engine's remembered values are the values it would compute afresh.

The majority events of a withdrawal are remembered by everything that decides them
(``tajmahal.engine.majority``), and so are the engine's other events
(``tajmahal.events.SHARED_EVENTS``); here every step of random games under every kind of
rule set, and of the golden corpus, is applied with the memos and again with memos that
remember nothing, and the states and events must be equal.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tajmahal import engine, events
from tajmahal.actions import Action, Withdraw
from tajmahal.components import default_components
from tajmahal.engine import (
    apply,
    apply_with_events,
    legal_actions,
    majority,
    play,
    random_reshuffle,
    reward,
    score,
    special,
    visit,
    withdraw,
)
from tajmahal.events import SHARED_EVENTS, Event, EventKind
from tajmahal.rules import MajorityScope, RuleSet
from tajmahal.setup import new_game, random_setup
from tajmahal.state import GameState
from tajmahal.symbols import Symbol
from tajmahal.testing import rule_sets

COMPONENTS = default_components()
CORPUS = Path(__file__).resolve().parent.parent / "specs" / "traces"


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


SHARING = (play, withdraw, reward, score, visit, special)
"""The engine modules that share equal events through :data:`SHARED_EVENTS`."""


def test_every_module_sharing_events_is_compared() -> None:
    # The comparisons below make every module in SHARING forget: no other engine module
    # may share events unseen.
    found = {
        module.__name__
        for module in map(importlib.import_module, engine_modules())
        if getattr(module, "_SHARED", None) is SHARED_EVENTS
    }
    assert found == {module.__name__ for module in SHARING}


def engine_modules() -> list[str]:
    """The names of the engine package's modules."""
    return [f"tajmahal.engine.{info.name}" for info in pkgutil.iter_modules(engine.__path__)]


def forgetting(patch: pytest.MonkeyPatch) -> None:
    """Every engine module that shares events (and the majority events) forgets them."""
    for module in SHARING:
        patch.setattr(module, "_SHARED", Forgetful())
    patch.setattr(majority, "_MAJORITY_EVENTS", Forgetful())


def compare_steps(
    game: Iterator[tuple[GameState, Action]], monkeypatch: pytest.MonkeyPatch
) -> Counter[EventKind]:
    """Apply every step with the shared events and again with every event built afresh;
    the states and events must be equal. Returns the events compared, by kind."""
    kinds: Counter[EventKind] = Counter()
    for state, action in game:
        shared = apply_with_events(state, action)
        with monkeypatch.context() as patch:
            forgetting(patch)
            fresh = apply_with_events(state, action)
        assert shared == fresh
        assert shared[0] == apply(state, action)
        kinds.update(event.kind for event in fresh[1])
    return kinds


@pytest.mark.parametrize("players", [3, 4, 5])
def test_shared_events_are_the_events_built_afresh(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two games each, so that the second meets events the first left in the memo; every
    # kind of event the engine shares is met.
    kinds = Counter[EventKind]()
    for seed in (1, 2):
        kinds += compare_steps(steps(players, seed, RuleSet()), monkeypatch)
    shared_kinds = {
        EventKind.PLAY,
        EventKind.WITHDRAW,
        EventKind.DISCARD,
        EventKind.TAKE,
        EventKind.PALACE,
        EventKind.CROWN,
        EventKind.BONUS,
        EventKind.SCORE,
        EventKind.VISIT,
        EventKind.DRAW,
        EventKind.EXCHANGE,
    }
    assert shared_kinds <= set(kinds)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1), rules=rule_sets())
def test_shared_events_under_any_rule_set(players: int, seed: int, rules: RuleSet) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        compare_steps(steps(players, seed, rules), monkeypatch)


def test_a_full_shared_memo_starts_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    # Emptied when full: it holds its bound at most and reaches it, and the events found
    # after it started afresh are still the events built afresh.
    monkeypatch.setattr(events, "SHARED_EVENTS_KEPT", 60)
    memo = Watched()
    for module in SHARING:
        monkeypatch.setattr(module, "_SHARED", memo)
    for seed in range(2):
        compare_steps(steps(5, seed, RuleSet()), monkeypatch)
    assert memo.most == 60


def test_an_equal_event_is_the_very_same_object() -> None:
    # The memo is used: a step applied twice builds its shared events once, and none of
    # them is the same object as an event of another kind or seat.
    state, action = next(
        (s, a)
        for s, a in steps(4, 1, RuleSet())
        if isinstance(a, Withdraw) and s.to_move is not None and s.players[s.to_move].played
    )
    first = apply_with_events(state, action)[1]
    again = apply_with_events(state, action)[1]
    assert len(first) > 2
    assert all(new is old for old, new in zip(first, again, strict=True))


def shared_kind(event: Event) -> bool:
    """Whether the engine shares events like this one (every kind but the rare ones:
    hands, the end, forfeits, unwon tiles, reshuffles, draws that came up short and
    pairs returned for a special card already held)."""
    if event.kind in (
        EventKind.HAND,
        EventKind.END,
        EventKind.FORFEIT,
        EventKind.UNWON,
        EventKind.RESHUFFLE,
    ):
        return False
    if event.kind is EventKind.DRAW:
        return not event.counts
    if event.kind is EventKind.EXCHANGE:
        return "TM.SPECIAL.ALREADY_HELD" not in event.clauses
    return True


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_step_applied_again_gives_the_very_same_events(players: int) -> None:
    # Every shared kind of event, at every place that builds one, is found again: each
    # step of a game applied a second time gives back the same objects.
    met: set[EventKind] = set()
    for state, action in steps(players, 3, RuleSet()):
        first = apply_with_events(state, action)[1]
        again = apply_with_events(state, action)[1]
        for old, new in zip(first, again, strict=True):
            assert new == old
            if shared_kind(new):
                assert new is old
                met.add(new.kind)
    assert len(met) >= 12
