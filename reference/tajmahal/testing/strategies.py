"""Hypothesis strategies and a state machine for testing Taj Mahal engines.

Install the ``testing`` extra (``pip install 'tajmahal-reference[testing]'``), then in
your own test suite::

    from hypothesis import given
    from tajmahal.testing.strategies import GameMachine, games, positions

    @given(positions())
    def test_my_evaluator_accepts_any_position(state): ...

    TestGames = GameMachine.TestCase      # random legal play, invariants after each step

Games are driven by a drawn seed, player count (3 to 5), rule set (every option of
every ruling) and a list of choice indices: each index picks one of the legal actions,
modulo their number, and chance steps draw a reshuffle from the seed. Deleting indices
shortens a game and lowering them keeps it legal, so failing examples shrink to short
games (hypothesis's advice for strategies that shrink well).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import attrs
from hypothesis import strategies as st
from hypothesis import target
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tajmahal.engine import (
    SetupOutcome,
    apply,
    apply_with_events,
    legal_actions,
    new_game,
    random_reshuffle,
    random_setup,
)
from tajmahal.model import (
    RULE_OPTIONS,
    Action,
    Components,
    GameState,
    Reshuffle,
    RuleSet,
    default_components,
)
from tajmahal.testing.invariants._catalogue import (
    STATE_INVARIANTS,
    STEP_INVARIANTS,
    check_state,
    check_step,
)
from tajmahal.testing.invariants._model import Transition, Violation

__all__ = [
    "Game",
    "GameMachine",
    "InvariantBroken",
    "damaged_records",
    "drive",
    "games",
    "legal_actions_of",
    "positions",
    "rule_sets",
    "setups",
]

_COMPONENTS: list[Components] = []


def _components() -> Components:
    if not _COMPONENTS:
        _COMPONENTS.append(default_components())
    return _COMPONENTS[0]


def rule_sets() -> st.SearchStrategy[RuleSet]:
    """Every rule set: each configurable ruling at any of its options."""
    return st.fixed_dictionaries(
        {name: st.sampled_from(values) for name, values in sorted(RULE_OPTIONS.items())}
    ).map(RuleSet.from_json)


def setups(players: st.SearchStrategy[int] | None = None) -> st.SearchStrategy[SetupOutcome]:
    """Setup outcomes (drawn from a seed, as :func:`tajmahal.engine.random_setup` does) for
    3 to 5 players; the player count is ``len(setup.hands)``."""
    counts = players if players is not None else st.integers(3, 5)
    return st.builds(
        lambda count, seed: random_setup(_components(), count, seed),
        counts,
        st.integers(0, 2**32 - 1),
    )


@attrs.frozen
class Game:
    """A driven game: how it was drawn, the states passed through and the actions taken."""

    players: int
    """3, 4 or 5."""
    seed: int
    """Seed of the setup, of the reshuffles and of the decisions after the choices."""
    rules: RuleSet
    """The rule set."""
    choices: tuple[int, ...]
    """The drawn choice indices, one per decision."""
    extra: int
    """Decisions taken after the choices, drawn from the seed."""
    states: tuple[GameState, ...]
    """Every state, the initial one first (one more than ``actions``)."""
    actions: tuple[Action, ...]
    """Every action applied, chance outcomes included."""


def drive(
    players: int,
    seed: int,
    rules: RuleSet,
    choices: tuple[int, ...],
    extra: int,
    components: Components | None = None,
) -> Game:
    """Play one decision per choice index, then ``extra`` decisions drawn from the seed
    (and every chance step on the way); stops early if the game ends."""
    parts = components or _components()
    state = new_game(parts, players, random_setup(parts, players, seed), rules)
    chance = random.Random(seed)
    more = random.Random(seed + 1)
    states = [state]
    actions: list[Action] = []
    pending = list(choices)
    left = len(choices) + extra
    while left and not state.is_over:
        if state.is_chance:
            action: Action = random_reshuffle(state, chance)
        else:
            legal = legal_actions(state)
            index = pending.pop(0) if pending else more.randrange(1000)
            action = legal[index % len(legal)]
            left -= 1
        state = apply(state, action)
        actions.append(action)
        states.append(state)
    return Game(players, seed, rules, choices, extra, tuple(states), tuple(actions))


@st.composite
def _games(draw: st.DrawFn, max_choices: int, max_extra: int) -> Game:
    players = draw(st.integers(3, 5), label="players")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    rules = draw(rule_sets(), label="rules")
    choices = draw(st.lists(st.integers(0, 1000), max_size=max_choices), label="choices")
    extra = draw(st.integers(0, max_extra), label="extra")
    return drive(players, seed, rules, tuple(choices), extra)


def games(max_choices: int = 60, max_extra: int = 400) -> st.SearchStrategy[Game]:
    """Games from random setups under every rule set: drawn choice indices, then up to
    ``max_extra`` further decisions drawn from the seed (400 reach the end of most games)."""
    return _games(max_choices, max_extra)


def positions(max_choices: int = 60, max_extra: int = 400) -> st.SearchStrategy[GameState]:
    """Reachable positions: a state of a drawn game (see :func:`games`)."""
    return games(max_choices, max_extra).flatmap(lambda game: st.sampled_from(game.states))


def legal_actions_of(state: GameState) -> st.SearchStrategy[Action]:
    """One legal action of ``state``; at a chance step, any order of the discard pile.
    Fails (``st.nothing()``) when the game is over."""
    if state.is_chance:
        return st.permutations(state.discard).map(lambda order: Reshuffle(tuple(order)))
    legal = legal_actions(state)
    return st.sampled_from(legal) if legal else st.nothing()


# ---------------------------------------------------------------------------------------
# Damaged records

_JSON_VALUES: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 200)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["red-01", "white-03", "Agra", "chance", "withdraw"]),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)

_ACTION_TEXTS = st.text(max_size=30) | st.sampled_from(
    [
        "withdraw",
        "play red-01",
        "take red-01 red-02",
        "crown Agra",
        "palace A1",
        "reshuffle red-01",
        "play  red-01",
        "take b a",
    ]
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON document (long lists sampled)."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        indexes = range(len(value)) if len(value) <= 12 else (0, 1, len(value) // 2, len(value) - 1)
        for index in indexes:
            found.extend(_paths(value[index], (*prefix, index)))
    return found


def _at(document: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        document = document[key]
    return document


@st.composite
def _damaged(draw: st.DrawFn, original: dict[str, Any]) -> dict[str, Any]:
    document = copy.deepcopy(original)
    kind = draw(st.sampled_from(["replace", "delete", "action", "steps"]), label="damage")
    steps = document.get("steps")
    if kind in ("action", "steps") and (not isinstance(steps, list) or not steps):
        kind = "replace"
    if kind == "replace":
        path = draw(st.sampled_from(_paths(original)), label="path")
        _at(document, path)[path[-1]] = draw(_JSON_VALUES, label="value")
    elif kind == "delete":
        path = draw(st.sampled_from(_paths(original)), label="path")
        del _at(document, path)[path[-1]]
    elif kind == "action":
        assert isinstance(steps, list)
        index = draw(st.integers(0, len(steps) - 1), label="step")
        steps[index]["action"] = draw(_ACTION_TEXTS, label="action")
    else:
        assert isinstance(steps, list)
        first = draw(st.integers(0, len(steps) - 1), label="first")
        second = draw(st.integers(0, len(steps) - 1), label="second")
        steps[first], steps[second] = steps[second], steps[first]
        document["steps"] = steps[: draw(st.integers(0, len(steps)), label="keep")]
    return document


def damaged_records(record: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Copies of a record's JSON document damaged in one way: a value replaced by
    arbitrary JSON, a field deleted, an action string rewritten, or two steps swapped
    and the steps cut short. A reader must refuse each with a clear error or accept it."""
    return _damaged(record)


# ---------------------------------------------------------------------------------------
# The state machine


class InvariantBroken(AssertionError):
    """Raised by :class:`GameMachine` when a step breaks an invariant."""

    def __init__(self, violations: tuple[Violation, ...]) -> None:
        super().__init__("; ".join(f"{v.invariant}: {v.message}" for v in violations))
        self.violations = violations
        """What broke."""


class GameMachine(RuleBasedStateMachine):
    """Random legal play from a random setup, 3 to 5 players, any rule set; the step
    invariants are checked after every step and the state invariants (views,
    serialization) after every step too.

    Subclass it to add your own rules or invariants (``self.state`` is the position);
    set :attr:`engine` to test another engine behind the same two functions.
    """

    engine: tuple[
        Callable[[GameState], tuple[Action, ...]],
        Callable[[GameState, Action], tuple[GameState, tuple[Any, ...]]],
    ] = (legal_actions, apply_with_events)
    """``(legal_actions, apply_with_events)`` of the engine under test."""

    def __init__(self) -> None:
        super().__init__()
        self.state: GameState | None = None
        """The current position (None before the first rule)."""
        self.steps = 0
        """Steps applied so far."""

    @initialize(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1), rules=rule_sets())
    def start(self, players: int, seed: int, rules: RuleSet) -> None:
        """A new game from a setup drawn from ``seed``."""
        components = _components()
        self.state = new_game(components, players, random_setup(components, players, seed), rules)
        self._raise(check_step(Transition.of(self.state, (), None, self.state), STEP_INVARIANTS))

    @precondition(lambda self: self.state is not None and not self.state.is_over)
    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        """Apply one legal action (or chance outcome) and check the step invariants."""
        state = self.state
        assert state is not None
        legal_of, apply_of = self.engine
        legal = () if state.is_chance else legal_of(state)
        if state.is_chance:
            action = data.draw(legal_actions_of(state), label="reshuffle")
        else:
            action = data.draw(st.sampled_from(legal), label="action")
        after, _ = apply_of(state, action)
        self._raise(check_step(Transition.of(state, legal, action, after), STEP_INVARIANTS))
        self.state = after
        self.steps += 1

    def teardown(self) -> None:
        """Steer the search towards long games and drawn-down decks (where the rare
        cases are), with ``hypothesis.target``."""
        if self.state is not None:
            target(float(self.steps), label="steps")
            target(float(-len(self.state.deck)), label="deck drawn down")

    @invariant()
    def state_invariants(self) -> None:
        """Views hide secrets; the state survives serialization."""
        if self.state is not None:
            self._raise(check_state(self.state, STATE_INVARIANTS))

    @staticmethod
    def _raise(violations: tuple[Violation, ...]) -> None:
        if violations:
            raise InvariantBroken(violations)
