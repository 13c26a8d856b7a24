"""Playing one game through two engines in lockstep and stopping at their first disagreement.

The reference plays in this process; the other engine runs as a child process spoken to
in the engine protocol (:class:`tajmahal.conformance.ForeignEngine`, ``docs/protocol.md``).
Before every decision the legal actions are compared (count and digest; the lists give
the missing and extra actions), after every step the success of ``apply``, the state
digest and the scores. A disagreement is a :class:`~tajmahal.conformance.Divergence`,
built and described in :mod:`tajmahal.conformance` (whose public names this module
re-exports, as it always offered them).

A game is a :class:`GamePlan`: the player count, the rule set, the seeds of the setup and
of the reshuffles, and one *choice index* per decision (an index into the sorted legal
actions, taken modulo their number), so that any list of choices is a valid game (which
is what :mod:`tajmahal.conformance` shrinks over). :class:`LockstepEngine` compares the
same way step by step for a game the caller plays itself.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from tajmahal.accel import state_digest
from tajmahal.conformance._divergence import (
    FIELDS,
    OPTIONAL_FIELDS,
    Divergence,
    describe,
    legal_divergence,
    likely_clauses,
    refusal_clauses,
    refused_new_game,
    step_divergence,
)
from tajmahal.conformance._foreign import EngineFailure, ForeignEngine
from tajmahal.engine import (
    SetupOutcome,
    apply,
    apply_with_events,
    legal_actions,
    new_game,
    random_reshuffle,
    random_setup,
)
from tajmahal.model import Action, Components, GameState, RuleSet
from tajmahal.notation import state_to_json
from tajmahal.records import Record, Recorder, RecordStep, edge_tags, setup_to_json
from tajmahal.verification import HypothesisTester, StepPlayed


@attrs.frozen(slots=True)
class GamePlan:
    """One game of a diff run, replayable exactly."""

    players: int
    """3, 4 or 5."""
    rules: RuleSet
    """The rule set both engines play under."""
    setup_seed: int
    """The seed :func:`tajmahal.engine.random_setup` draws the setup from."""
    chance_seed: int
    """The seed of the reshuffles (one generator per chance step, see :func:`chance_rng`)."""
    choices: tuple[int, ...] = ()
    """One index per decision into the sorted legal actions (taken modulo their number)."""
    finish: bool = False
    """When the choices run out: True plays on to the end of the game taking the last
    legal action at each decision (withdrawing, at a play step); False stops there."""
    start: tuple[Action, ...] = ()
    """The first steps of the game, played by the reference alone: the other engine is
    given the position after them (``new`` with ``state``) instead of the setup, and
    :attr:`choices` are the decisions after them. Empty: both start from the setup."""


@attrs.frozen(slots=True)
class Played:
    """A game played through both engines, up to its end or its first disagreement."""

    plan: GamePlan
    """The plan with exactly the choices consumed."""
    setup: SetupOutcome
    """The setup outcome both engines started from."""
    actions: tuple[Action, ...]
    """Every action applied to the reference (chance steps included)."""
    divergence: Divergence | None
    """The first disagreement, if any."""
    steps: int
    """How many steps the game has, counted from the setup (the number of its last
    step; those of ``plan.start`` included)."""
    tags: frozenset[str] = frozenset()
    """The edge tags the game's steps reached (:func:`tajmahal.records.edge_tags`)."""

    @property
    def start(self) -> int:
        """The step after which the other engine was given the position (``new`` with
        ``state``); 0: it started from the setup."""
        return len(self.plan.start)

    @property
    def length(self) -> int:
        """How many steps both engines played: those after :attr:`start`."""
        return self.steps - self.start


RECENT = 24
"""How many steps before a disagreement are kept to find where the engines parted (a
visit has at most about 20 steps for 5 players)."""


def chance_rng(plan: GamePlan, step: int) -> random.Random:
    """The generator of the reshuffle at ``step``: seeded from the plan and the step, so
    a reshuffle does not depend on how many were drawn before it."""
    return random.Random(plan.chance_seed * 1_000_003 + step)


Chooser = Callable[[GameState, tuple[Action, ...]], int]
"""Picks the index of an action among the legal actions (never empty)."""


def plan_action(plan: GamePlan, legal: Sequence[Action], used: int) -> Action | None:
    """The action of the plan's decision number ``used`` (0-based) among ``legal``: its
    choice taken modulo the number of actions; once the choices run out, the last action
    if the plan finishes the game, else None (the game stops)."""
    if used < len(plan.choices):
        return legal[plan.choices[used] % len(legal)]
    return legal[-1] if plan.finish else None


# ---------------------------------------------------------------------------------------
# Playing one game through both engines


def new_request(plan: GamePlan, setup: SetupOutcome, components: Components) -> dict[str, Any]:
    return {
        "op": "new",
        "players": plan.players,
        "ruleset": plan.rules.to_json(),
        "components": components.digest,
        "setup": setup_to_json(setup),
    }


def play_plan(
    plan: GamePlan,
    engine: ForeignEngine,
    components: Components,
    choose: Sequence[Chooser] | None = None,
    compare: frozenset[str] = OPTIONAL_FIELDS,
) -> Played:
    """Play ``plan`` through both engines until the end, the plan's last choice, or the
    first disagreement in one of the ``compare`` fields (or a refused action). With
    ``choose`` (one chooser per seat), choices are made as the game goes and the returned
    plan records them; otherwise the plan's choices are used."""
    actions: list[Action] = []
    progress = [0]  # the number of the step in progress (0: starting the game)
    try:
        return _play(plan, engine, components, choose, actions, compare, progress)
    except EngineFailure as error:
        error.step = progress[0]
        raise


def _play(
    plan: GamePlan,
    engine: ForeignEngine,
    components: Components,
    choose: Sequence[Chooser] | None,
    actions: list[Action],
    compare: frozenset[str],
    progress: list[int],
) -> Played:
    setup = random_setup(components, plan.players, plan.setup_seed)
    state = new_game(components, plan.players, setup, plan.rules)
    recent: collections.deque[tuple[GameState, Action]] = collections.deque(maxlen=RECENT)
    for taken in plan.start:  # the reference alone, up to the position given
        recent.append((state, taken))
        actions.append(taken)
        state = apply(state, taken)
    if plan.start:
        reply = engine.request({"op": "new", "state": state_to_json(state)})
    else:
        reply = engine.request(new_request(plan, setup, components))
    choices = list(plan.choices) if choose is None else []
    used = 0
    tags: set[str] = set()

    def done(divergence: Divergence | None) -> Played:
        final = attrs.evolve(plan, choices=tuple(choices[:used]))
        return Played(final, setup, tuple(actions), divergence, len(actions), frozenset(tags))

    if not reply.get("ok"):
        return done(refused_new_game(reply))
    name = engine.name or "the engine"
    expected_digest = state_digest(state)
    if "state_digest" in compare and reply.get("state_digest") != expected_digest:
        return done(
            step_divergence(
                engine, state, None, (), reply, len(actions), expected_digest, compare, name
            )
        )
    while not state.is_over:
        step = len(actions)  # the index of the step in progress; its number is step + 1
        progress[0] = step + 1
        legal = legal_actions(state)
        strings = [str(action) for action in legal]
        if "legal" in compare:
            answer = engine.request({"op": "legal"})
            divergence = legal_divergence(
                state,
                strings,
                answer,
                step + 1,
                name=name,
                history=functools.partial(_history, step, tuple(recent)),
            )
            if divergence is not None:
                return done(divergence)
        action: Action
        if state.is_chance:
            action = random_reshuffle(state, chance_rng(plan, step))
        else:
            if choose is None:
                picked = plan_action(plan, legal, used)
                if picked is None:
                    break
                action = picked
            else:
                assert state.to_move is not None
                index = choose[state.to_move](state, legal)
                choices.append(index)
                action = legal[index]
            used += 1
        after, events = apply_with_events(state, action)
        tags.update(edge_tags(state, action, events, after))
        actions.append(action)
        answer = engine.request({"op": "apply", "action": str(action)})
        digest = state_digest(after)
        if (
            not answer.get("ok")
            or ("state_digest" in compare and answer.get("state_digest") != digest)
            or ("scores" in compare and answer.get("scores") != list(after.scores))
        ):
            return done(
                step_divergence(
                    engine,
                    state,
                    action,
                    after.scores,
                    answer,
                    step + 1,
                    digest,
                    compare,
                    name,
                    tuple(recent),
                )
            )
        recent.append((state, action))
        state = after
    return done(None)


def _history(step: int, recent: Sequence[tuple[GameState, Action]]) -> list[StepPlayed]:
    """The steps of ``recent`` (the last is step ``step``), replayed with their events,
    only once a disagreement needs them."""
    return [
        StepPlayed.of(step - len(recent) + 1 + offset, position, action)
        for offset, (position, action) in enumerate(recent)
    ]


class LockstepEngine:
    """Another engine driven in lockstep with a game the caller plays on the reference.

    :meth:`start` sends the setup, :meth:`step` each action with the reference's state
    after it; both compare the state digest, the scores and the legal actions of the new
    position (as :func:`play_plan` does) and return a one-line description of the first
    disagreement, or None. This is the follower ``tajmahal fuzz --engine`` plays with.

    With ``hypotheses`` (:func:`tajmahal.conformance.catalogue_tester`), every
    disagreement is tested against them on the game so far (:func:`observed_record`);
    what they find is added to the explanation and leads the description (``your engine
    plays as if ...: RULE; step N ...``). A shrinker, which replays hundreds of games,
    plays them :meth:`untested` and replays only the game it keeps with the tests.
    """

    def __init__(
        self,
        engine: ForeignEngine,
        components: Components,
        compare: frozenset[str] = OPTIONAL_FIELDS,
        hypotheses: HypothesisTester | None = None,
    ) -> None:
        self.engine = engine
        """The running foreign engine (started by the caller)."""
        self.components = components
        """The component set both engines play with."""
        self.compare = compare
        """The comparisons made (``apply`` succeeding always is)."""
        self.state: GameState | None = None
        """The reference's current position."""
        self.steps = 0
        """Steps applied in the current game."""
        self.last: tuple[GameState, Action] | None = None
        """The position and action of the last step applied."""
        self.divergence: Divergence | None = None
        """The last disagreement found, with its explanation (None: none yet)."""
        self.hypotheses = hypotheses
        """The tester of hypotheses (None: none are tested)."""
        self.testing = True
        """Whether disagreements are tested against :attr:`hypotheses` now (see
        :meth:`untested`)."""
        self._game: tuple[int, RuleSet, SetupOutcome] | None = None
        self._actions: list[Action] = []

    def _found(self, divergence: Divergence | None) -> str | None:
        """Keep ``divergence`` (with the hypotheses found for it) and describe it in one
        line, the likeliest hypothesis first."""
        if divergence is not None and self.testing:
            divergence = self._explained(divergence)
        self.divergence = divergence
        if divergence is None:
            return None
        explanation = divergence.explanation
        lead = (
            f"{explanation.hypotheses[0].text}: {explanation.hypotheses[0].rule}; "
            if explanation is not None and explanation.hypotheses
            else ""
        )
        return lead + describe(divergence)

    def _explained(self, divergence: Divergence) -> Divergence:
        """``divergence`` with the hypotheses the tester finds for the game so far."""
        if self.hypotheses is None or divergence.explanation is None or self._game is None:
            return divergence
        players, rules, setup = self._game
        played = Played(
            GamePlan(players, rules, 0, 0),
            setup,
            tuple(self._actions),
            divergence,
            len(self._actions),
        )
        record = observed_record(played, self.components, self.compare)
        return divergence.with_hypotheses(self.hypotheses(record, divergence.explanation))

    @contextlib.contextmanager
    def untested(self) -> Iterator[None]:
        """Within the block, disagreements are described without testing hypotheses:
        for a shrinker's replays, of which only the game kept needs them (``fuzz``
        replays it once more afterwards)."""
        testing, self.testing = self.testing, False
        try:
            yield
        finally:
            self.testing = testing

    @property
    def _name(self) -> str:
        return self.engine.name or "the engine"

    @property
    def field(self) -> str | None:
        """The first field that differed in the last disagreement found (one of
        :data:`~tajmahal.conformance.FIELDS`), or None after an agreement (``fuzz``
        names a counterexample after it)."""
        return None if self.divergence is None else self.divergence.field

    def start(self, players: int, rules: RuleSet, setup: SetupOutcome) -> str | None:
        """Begin a game from ``setup``; a description of a disagreement, or None."""
        plan = GamePlan(players, rules, 0, 0)
        state = new_game(self.components, players, setup, rules)
        self.state, self.steps, self.last, self.divergence = state, 0, None, None
        self._game, self._actions = (players, rules, setup), []
        reply = self.engine.request(new_request(plan, setup, self.components))
        if not reply.get("ok"):
            return self._found(refused_new_game(reply))
        digest = state_digest(state)
        if "state_digest" in self.compare and reply.get("state_digest") != digest:
            return self._found(
                step_divergence(
                    self.engine,
                    state,
                    None,
                    (),
                    reply,
                    0,
                    digest,
                    self.compare,
                    self._name,
                )
            )
        return self._legal(state)

    def step(self, action: Action, after: GameState) -> str | None:
        """Apply ``action``; compare with the reference's ``after``; None if they agree."""
        self.divergence = None
        before = self.state
        assert before is not None, "start a game first"
        answer = self.engine.request({"op": "apply", "action": str(action)})
        digest = state_digest(after)
        step = self.steps + 1  # the number of this step
        self.state, self.steps, self.last = after, step, (before, action)
        self._actions.append(action)
        if (
            not answer.get("ok")
            or ("state_digest" in self.compare and answer.get("state_digest") != digest)
            or ("scores" in self.compare and answer.get("scores") != list(after.scores))
        ):
            return self._found(
                step_divergence(
                    self.engine,
                    before,
                    action,
                    after.scores,
                    answer,
                    step,
                    digest,
                    self.compare,
                    self._name,
                )
            )
        return self._legal(after)

    def _legal(self, state: GameState) -> str | None:
        if "legal" not in self.compare or state.is_over:
            return None
        strings = [str(action) for action in legal_actions(state)]
        answer = self.engine.request({"op": "legal"})
        previous = None if self.last is None else StepPlayed.of(self.steps, *self.last)
        return self._found(
            legal_divergence(state, strings, answer, self.steps + 1, previous, self._name)
        )


def divergence_record(played: Played, components: Components) -> Record:
    """The disagreeing game as a game record: every step up to and including the step
    that disagrees (for a ``legal`` disagreement, the steps before it)."""
    plan = played.plan
    recorder = Recorder(components, plan.players, played.setup, plan.rules, seed=plan.setup_seed)
    state = new_game(components, plan.players, played.setup, plan.rules)
    for action in played.actions:
        after = apply(state, action)
        recorder.add(state, action, after)
        state = after
    return recorder.record()


def observed_record(
    played: Played, components: Components, compare: frozenset[str] = OPTIONAL_FIELDS
) -> Record:
    """The disagreeing game as the other engine saw it, as a record: every step before
    the disagreement with the values both engines agreed on (only those compared:
    ``compare``), and the step that disagrees with the other engine's values (its scores,
    and its state digest when it was compared, after an action; its legal-action count
    and digest, with one of its actions, for a disagreement over the legal actions).
    Replaying it under a variant of the rules tells whether the variant does what the
    other engine did (see ``tajmahal.verification.HypothesisTester``)."""
    record = divergence_record(played, components)
    steps = [
        attrs.evolve(
            step,
            legal_count=step.legal_count if "legal" in compare else None,
            legal_digest=step.legal_digest if "legal" in compare else None,
            legal=step.legal if "legal" in compare else None,
            state_digest=step.state_digest if "state_digest" in compare else None,
            scores=step.scores if "scores" in compare else None,
        )
        for step in record.steps
    ]
    record = attrs.evolve(record, steps=tuple(steps))
    divergence = played.divergence
    answer = divergence.answer if divergence is not None else None
    if divergence is None or answer is None or not answer.get("ok"):
        return record
    if divergence.field == "legal":
        listed = answer.get("actions")
        actions = sorted(str(item) for item in listed) if isinstance(listed, list) else []
        count, digest = answer.get("count"), answer.get("digest")
        if not actions or not isinstance(count, int) or not isinstance(digest, str):
            return record
        seat = answer.get("to_move")  # the seat to move as the engine reports it, if it does
        actor = seat if isinstance(seat, int) and not isinstance(seat, bool) else None
        steps.append(RecordStep(actor, actions[0], legal_count=count, legal_digest=str(digest)))
    elif steps:
        scores = answer.get("scores")
        digest = answer.get("state_digest")
        steps[-1] = attrs.evolve(
            steps[-1],
            scores=tuple(scores) if isinstance(scores, list) else None,
            state_digest=digest
            if isinstance(digest, str) and "state_digest" in divergence.fields
            else None,
            clauses=(),
            tags=None,
        )
    return attrs.evolve(record, steps=tuple(steps))


__all__ = [
    "FIELDS",
    "OPTIONAL_FIELDS",
    "Chooser",
    "Divergence",
    "GamePlan",
    "LockstepEngine",
    "Played",
    "chance_rng",
    "describe",
    "divergence_record",
    "likely_clauses",
    "new_request",
    "observed_record",
    "plan_action",
    "play_plan",
    "refusal_clauses",
]
