"""One fuzzed game: how it is chosen, played, checked and written down.

A game of a campaign is named by a :class:`GameSpec` (index, seed, player count, rule
set, player types), so any game can be played again from its summary line. While it is
played, every decision is also written down as an index into the legal actions: the
:class:`Script` of the game. A script replays without the players, and deleting or
lowering its indices gives smaller games that are still legal, which is what the shrinker
works on.

Chance is explicit everywhere: setups come from :func:`tajmahal.engine.random_setup` with
the game's seed, reshuffles from ``random.Random(chance_seed)`` in the order they occur.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import attrs

import tajmahal.accel
from tajmahal.agents import PLAYER_TYPES, Player
from tajmahal.engine import SetupOutcome, new_game, random_reshuffle, random_setup
from tajmahal.model import Action, Components, Event, GameState, RuleSet, default_components
from tajmahal.records import Record, Recorder
from tajmahal.testing.invariants._catalogue import (
    GAME_INVARIANTS,
    STATE_INVARIANTS,
    STEP_INVARIANTS,
    check_game,
    check_state,
    check_step,
)
from tajmahal.testing.invariants._model import Transition, Violation

Tagger = Callable[[GameState, Action, tuple[Event, ...], GameState], frozenset[str]]
"""Names the rare situations a step reaches (:func:`tajmahal.records.edge_tags`)."""

CRASH = "crash"
"""The invariant name of a counterexample where the engine raised instead of answering."""

ENGINE = "engine-"
"""The start of the name of a counterexample where a followed engine disagreed: the field
that differed follows (``engine-legal``, ``engine-apply``, ``engine-state_digest``,
``engine-scores``; ``engine-disagrees`` when the follower does not say which)."""

ENGINE_FAILED = "engine-failed"
"""The name of a counterexample where a followed engine crashed, hung or broke the
protocol."""


class Follower(Protocol):
    """A second engine played in lockstep with the reference (a foreign engine).

    It receives the same setup and actions and reports, after each step, the digests the
    reference's must equal (``tajmahal.notation``); a difference is a counterexample. A
    follower that also has a ``field`` attribute (as
    :class:`tajmahal.conformance.LockstepEngine` has) names the field that differed in
    its last answer, and the counterexample is named after it (``engine-<field>``). A
    follower with an ``untested()`` method (a context manager, as
    :class:`~tajmahal.conformance.LockstepEngine` has) is shrunk with it, so that
    hypotheses are tested on the shrunk game alone, replayed once more at the end.
    """

    def start(self, players: int, rules: RuleSet, setup: SetupOutcome) -> str | None:
        """Begin a game; returns a description of a disagreement, or None."""
        ...

    def step(self, action: Action, after: GameState) -> str | None:
        """Apply ``action``; compare with the reference's ``after``; None if they agree."""
        ...


@attrs.frozen(slots=True)
class GameSpec:
    """One game of a campaign, reproducible from these fields alone."""

    index: int
    """The game's number in the campaign (shards split campaigns by index)."""
    seed: int
    """Seed of the setup, of the reshuffles (``seed * 1_000_003 + 7``) and of the players
    (``seed * 10 + seat``)."""
    players: int
    """3, 4 or 5."""
    rules: RuleSet
    """The rule set."""
    agents: tuple[str, ...]
    """The player type of each seat (names of :data:`tajmahal.agents.PLAYER_TYPES`)."""

    @property
    def chance_seed(self) -> int:
        """Seed of the generator that draws the reshuffles."""
        return self.seed * 1_000_003 + 7

    def to_json(self) -> dict[str, Any]:
        """A JSON object of the fields."""
        return {
            "index": self.index,
            "seed": self.seed,
            "players": self.players,
            "ruleset": self.rules.to_json(),
            "agents": list(self.agents),
        }


@attrs.frozen(slots=True)
class Script:
    """A game as choice indices: at the ``k``-th decision the action taken is
    ``legal[choices[k] % len(legal)]``; the game stops when the choices run out (after
    any chance steps that follow the last one)."""

    players: int
    """3, 4 or 5."""
    rules: RuleSet
    """The rule set."""
    setup_seed: int
    """Seed of :func:`tajmahal.engine.random_setup`."""
    chance_seed: int
    """Seed of the generator drawing the reshuffles."""
    choices: tuple[int, ...]
    """One index per decision."""
    finish: bool = False
    """When the choices run out: True plays on to the end of the game taking the last
    legal action at each decision (withdrawing, at a play step); False stops there."""

    def to_json(self) -> dict[str, Any]:
        """A JSON object of the fields (``finish`` only when set)."""
        document: dict[str, Any] = {
            "players": self.players,
            "ruleset": self.rules.to_json(),
            "setup_seed": self.setup_seed,
            "chance_seed": self.chance_seed,
            "choices": list(self.choices),
        }
        if self.finish:
            document["finish"] = True
        return document

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> Script:
        """Parse :meth:`to_json` output."""
        return cls(
            int(document["players"]),
            RuleSet.from_json(document["ruleset"]),
            int(document["setup_seed"]),
            int(document["chance_seed"]),
            tuple(int(choice) for choice in document["choices"]),
            bool(document.get("finish", False)),
        )


@attrs.frozen(slots=True)
class Checks:
    """What to check while a game is played."""

    deep: bool = False
    """Also the state invariants after every step and the game invariants at the end."""
    tagger: Tagger | None = None
    """Names the situations reached; None: no tags."""
    follower: Follower | None = None
    """A foreign engine to compare with, step by step; None: none."""


@attrs.frozen(slots=True)
class Outcome:
    """What playing one game found."""

    steps: int
    """Steps applied (decisions and chance outcomes)."""
    decisions: int
    """Decisions among them."""
    tags: frozenset[str]
    """The situations reached."""
    violations: tuple[Violation, ...]
    """What the first failing step broke (empty if nothing)."""
    failed_step: int | None
    """The number of that step (counted from 1, as in ``docs/trace-format.md``, "Step
    numbers"; 0: the position after setup), or None."""
    script: Script
    """The game's choices up to the end or the failing step."""
    final_digest: str
    """``state_digest`` of the last state reached."""
    setup: SetupOutcome
    """The setup the game was played from."""
    actions: tuple[Action, ...]
    """Every action applied, in order (the record's steps)."""
    states: tuple[GameState, ...]
    """The states passed through, kept only when the caller asks (see :func:`play`)."""

    @property
    def failed(self) -> bool:
        """True when something broke."""
        return bool(self.violations)


Chooser = Callable[[GameState, tuple[Action, ...], int], int]
"""Picks the index of the action to take (state, legal actions, decision number)."""


def agents_chooser(spec: GameSpec) -> Chooser:
    """The choices of the spec's players, as indices."""
    players: list[Player] = [
        PLAYER_TYPES[name](spec.seed * 10 + seat) for seat, name in enumerate(spec.agents)
    ]

    def choose(state: GameState, legal: tuple[Action, ...], _: int) -> int:
        assert state.to_move is not None
        action = players[state.to_move].choose(state, legal)
        return legal.index(action)

    return choose


def play(
    components: Components,
    players: int,
    rules: RuleSet,
    setup_seed: int,
    chance_seed: int,
    chooser: Chooser,
    checks: Checks,
    *,
    limit: int | None = None,
    keep_states: bool = False,
) -> Outcome:
    """Play one game to its end (or ``limit`` decisions, or the first broken invariant),
    checking the invariants after every step.

    The engine is the accelerated layer's choice, looked up as
    ``tajmahal.accel.legal_actions`` and ``tajmahal.accel.apply_with_events`` when the
    game starts: the layer's drop-ins, pinned to the core functions by ``tests/accel/``,
    or the core functions themselves under ``TAJMAHAL_PLAIN=1``. A test plants a fault
    by replacing those attributes.
    """
    legal_actions = tajmahal.accel.legal_actions
    apply_with_events = tajmahal.accel.apply_with_events
    setup = random_setup(components, players, setup_seed)
    state = new_game(components, players, setup, rules)
    chance = random.Random(chance_seed)
    tagger = checks.tagger
    deep = checks.deep or keep_states
    step_invariants = STEP_INVARIANTS
    choices: list[int] = []
    actions: list[Action] = []
    states: list[GameState] = [state]
    step_events: list[tuple[Event, ...]] = []
    step_legal: list[tuple[Action, ...]] = []
    tags: set[str] = set()
    violations: tuple[Violation, ...] = ()
    failed_step: int | None = None
    follower = checks.follower
    if follower is not None:
        problem = _follow(follower, lambda: follower.start(players, rules, setup))
        if problem is not None:
            violations = (attrs.evolve(problem, message=f"at the start: {problem.message}"),)
            failed_step = 0
    if not violations:
        violations = check_step(Transition.of(state, (), None, state), step_invariants)
    if checks.deep and not violations:
        violations = check_state(state, STATE_INVARIANTS)
    failed_step = 0 if violations else None
    steps = 0
    while not violations and not state.is_over:
        legal: tuple[Action, ...] = ()
        doing = "legal_actions"
        try:
            if state.is_chance:
                action: Action = random_reshuffle(state, chance)
            else:
                if limit is not None and len(choices) >= limit:
                    break
                legal = legal_actions(state)
                index = chooser(state, legal, len(choices)) if legal else 0
                choices.append(index)
                action = legal[index % len(legal)] if legal else _no_action(state)
            doing = str(action)
            after, events = apply_with_events(state, action)
        except Exception as error:  # a crash of the engine is a finding, kept as data
            violations = (Violation(CRASH, (), f"{doing}: {type(error).__name__}: {error}"),)
            failed_step = steps + 1
            break
        steps += 1
        actions.append(action)
        violations = check_step(Transition.of(state, legal, action, after), step_invariants)
        if not violations and checks.deep:
            violations = check_state(after, STATE_INVARIANTS)
        if not violations and follower is not None:
            problem = _follow(follower, functools.partial(follower.step, action, after))
            if problem is not None:
                violations = (problem,)
        if violations:
            failed_step = steps
        if tagger is not None and not violations:
            try:
                tags.update(tagger(state, action, events, after))
            except Exception as error:  # the tags come from the engine's events
                message = f"{action}: tagging: {type(error).__name__}: {error}"
                violations = (Violation(CRASH, (), message),)
                failed_step = steps
        if deep:
            states.append(after)
            step_events.append(events)
            step_legal.append(legal)
        state = after
    script = Script(players, rules, setup_seed, chance_seed, tuple(choices))
    if not violations and checks.deep:
        violations = check_game(
            setup, states, actions, GAME_INVARIANTS, events=step_events, legal=step_legal
        )
        failed_step = steps if violations else None
    return Outcome(
        steps=steps,
        decisions=len(choices),
        tags=frozenset(tags),
        violations=violations,
        failed_step=failed_step,
        script=script,
        final_digest=tajmahal.accel.state_digest(state),
        setup=setup,
        actions=tuple(actions),
        states=tuple(states) if keep_states else (),
    )


def _follow(follower: Follower, call: Callable[[], str | None]) -> Violation | None:
    """A follower's disagreement as a violation named after what broke; its failure (a
    crash, a hang) is one too."""
    try:
        problem = call()
    except Exception as error:  # the other engine failing is the finding
        return Violation(ENGINE_FAILED, (), f"{type(error).__name__}: {error}")
    if problem is None:
        return None
    field = getattr(follower, "field", None)
    return Violation(f"{ENGINE}{field if isinstance(field, str) else 'disagrees'}", (), problem)


def _no_action(state: GameState) -> Action:
    raise RuntimeError(f"no legal action at a {state.step.value} step")


def play_spec(spec: GameSpec, checks: Checks, components: Components | None = None) -> Outcome:
    """Play a campaign's game with its players."""
    return play(
        components or default_components(),
        spec.players,
        spec.rules,
        spec.seed,
        spec.chance_seed,
        agents_chooser(spec),
        checks,
    )


def play_script(script: Script, checks: Checks, components: Components | None = None) -> Outcome:
    """Replay a script (its decisions; when they run out, the game stops, or with
    ``finish`` plays on taking the last legal action at each decision)."""
    choices = script.choices

    def choose(state: GameState, legal: tuple[Action, ...], number: int) -> int:
        return choices[number] % len(legal) if number < len(choices) else len(legal) - 1

    return play(
        components or default_components(),
        script.players,
        script.rules,
        script.setup_seed,
        script.chance_seed,
        choose,
        checks,
        limit=None if script.finish else len(choices),
    )


def record_of(outcome: Outcome, components: Components, names: Iterable[str] = ()) -> Record:
    """The game record (trace) of a played game, replayed with the engine :func:`play`
    uses, as it is now (a planted fault included), up to and including the failing step."""
    first = new_game(components, outcome.script.players, outcome.setup, outcome.script.rules)
    labels = tuple(names)
    recorder = Recorder(
        components,
        outcome.script.players,
        outcome.setup,
        outcome.script.rules,
        seed=outcome.script.setup_seed,
        names=labels or None,
    )
    apply_with_events = tajmahal.accel.apply_with_events
    state = first
    for action in outcome.actions:
        try:
            after, _ = apply_with_events(state, action)
        except Exception:  # the crash itself: the record stops before it
            break
        recorder.add(state, action, after)
        state = after
    return recorder.record(state)


def game_line_hash(index: int, outcome: Outcome) -> int:
    """The game's contribution to a campaign digest: the SHA-256 (as an integer) of the
    line ``"<index> <steps> <final state digest>"``."""
    line = f"{index} {outcome.steps} {outcome.final_digest}"
    return int.from_bytes(hashlib.sha256(line.encode("utf-8")).digest(), "big")


def default_tagger() -> Tagger:
    """:func:`tajmahal.records.edge_tags`, as the accelerated layer chooses it."""
    return tajmahal.accel.edge_tags
