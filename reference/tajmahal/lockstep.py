"""Playing one game through two engines in lockstep and naming their first disagreement.

The reference plays in this process; the other engine runs as a child process spoken to
in the engine protocol (:class:`tajmahal.foreign.ForeignEngine`, ``docs/protocol.md``).
Before every decision the legal actions are compared (count and digest; the lists give
the missing and extra actions), after every step the success of ``apply``, the state
digest and the scores. A disagreement is a :class:`Divergence`: the step, the fields
that differ with both values, the differing parts of the two state documents, and the
clause ids behind the step (the reference's events, :func:`tajmahal.tags.step_clauses`),
with the likely ones singled out by the parts that differ.

A game is a :class:`GamePlan`: the player count, the rule set, the seeds of the setup and
of the reshuffles, and one *choice index* per decision (an index into the sorted legal
actions, taken modulo their number), so that any list of choices is a valid game (which
is what :mod:`tajmahal.differential` shrinks over). :class:`LockstepEngine` compares the
same way step by step for a game the caller plays itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from tajmahal.actions import Action, parse_action
from tajmahal.components import Components
from tajmahal.digest import legal_digest, state_digest
from tajmahal.engine import apply, apply_with_events, legal_actions, random_reshuffle
from tajmahal.errors import IllegalActionError, TajMahalError
from tajmahal.events import Event, EventKind
from tajmahal.foreign import EngineFailure, ForeignEngine
from tajmahal.rules import RuleSet
from tajmahal.serialize import state_to_json
from tajmahal.setup import SetupOutcome, new_game, random_setup
from tajmahal.state import GameState
from tajmahal.tags import step_clauses
from tajmahal.trace import Record, Recorder, setup_to_json
from tajmahal.verify import json_differences

FIELDS = ("legal", "apply", "state_digest", "scores")
"""What is compared, in the order it is compared at each step."""

OPTIONAL_FIELDS = frozenset({"legal", "state_digest", "scores"})
"""The comparisons that can be left out (``apply`` succeeding is always compared)."""

_FIELD_EVENTS: dict[str, frozenset[EventKind]] = {
    name: frozenset(EventKind(kind) for kind in kinds.split())
    for name, kinds in {
        "start_player": "visit",
        "visit": "visit end",
        "deck": "draw reshuffle",
        "discard": "discard reshuffle",
        "display": "draw take visit",
        "specials_on_table": "exchange take",
        "court_influence": "win no-majority exchange forfeit visit",
        "crown_in_court": "win no-majority visit",
        "court_province_tile": "win no-majority unwon visit",
        "bonus_on_board": "palace bonus",
        "palaces": "palace crown forfeit",
        "withdrawal": "withdraw win no-majority palace crown forfeit",
        "seats.hand": "play discard take draw exchange",
        "seats.played": "play discard",
        "seats.colour": "play visit",
        "seats.withdrawn": "withdraw visit",
        "seats.withdrawn_counts": "withdraw visit",
        "seats.influence": "win no-majority exchange forfeit",
        "seats.province_tiles": "win score",
        "seats.goods_tiles": "bonus",
        "seats.score": "score bonus hand",
        "scores": "score bonus hand",
    }.items()
}
"""The kinds of event that can change each part of the state document; the clauses of
those events in the disagreeing step are the likeliest culprits."""


@attrs.frozen(slots=True)
class GamePlan:
    """One game of a diff run, replayable exactly."""

    players: int
    """3, 4 or 5."""
    rules: RuleSet
    """The rule set both engines play under."""
    setup_seed: int
    """The seed :func:`tajmahal.setup.random_setup` draws the setup from."""
    chance_seed: int
    """The seed of the reshuffles (one generator per chance step, see :func:`chance_rng`)."""
    choices: tuple[int, ...] = ()
    """One index per decision into the sorted legal actions (taken modulo their number)."""


@attrs.frozen(slots=True)
class Divergence:
    """The first disagreement of a game."""

    step: int
    """The 0-based index of the step: for ``legal``, the step about to be taken."""
    field: str
    """The first field that differs (one of :data:`FIELDS`)."""
    fields: tuple[str, ...]
    """Every field that differs at this step."""
    action: str | None
    """The action of the step (None for ``legal``: the engines disagree before it)."""
    actor: int | None
    """The seat to move at the step (None at a chance step)."""
    expected: str
    """The reference's value, shortened."""
    actual: str
    """The other engine's value, shortened."""
    details: tuple[str, ...]
    """What differs: missing or extra actions, differing paths of the state documents."""
    clauses: tuple[str, ...]
    """The clause and ruling ids behind the step."""
    foreign_clause: str | None = None
    """The clause the other engine named when it refused an action."""
    likely: tuple[str, ...] = ()
    """Of :attr:`clauses`, those of the events that change the parts that differ."""


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
    """How many steps both engines took."""


def chance_rng(plan: GamePlan, step: int) -> random.Random:
    """The generator of the reshuffle at ``step``: seeded from the plan and the step, so
    a reshuffle does not depend on how many were drawn before it."""
    return random.Random(plan.chance_seed * 1_000_003 + step)


Chooser = Callable[[GameState, tuple[Action, ...]], int]
"""Picks the index of an action among the legal actions (never empty)."""


# ---------------------------------------------------------------------------------------
# Playing one game through both engines


def _short(value: Any, limit: int = 100) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _differing_parts(expected: dict[str, Any], actual: dict[str, Any]) -> set[str]:
    """The top-level keys of two state documents that differ, ``seats.KEY`` for a key of
    any seat."""
    parts: set[str] = set()
    for key in set(expected) | set(actual):
        left, right = expected.get(key), actual.get(key)
        if left == right:
            continue
        if key == "seats" and isinstance(left, list) and isinstance(right, list):
            for mine, theirs in zip(left, right, strict=False):
                if isinstance(mine, dict) and isinstance(theirs, dict):
                    parts.update(
                        f"seats.{name}"
                        for name in set(mine) | set(theirs)
                        if mine.get(name) != theirs.get(name)
                    )
            if len(left) != len(right):
                parts.add("seats")
        else:
            parts.add(key)
    return parts


def likely_clauses(parts: set[str], events: tuple[Event, ...]) -> tuple[str, ...]:
    """The clauses of the events that can change the ``parts`` that differ."""
    kinds: set[EventKind] = set()
    for part in parts:
        kinds.update(_FIELD_EVENTS.get(part, ()))
    return tuple(sorted({c for event in events if event.kind in kinds for c in event.clauses}))


def _document_diff(expected: Any, actual: Any) -> list[str]:
    """The paths where two JSON documents differ, with both values (the leaves of
    :func:`tajmahal.verify.json_differences`; lists of plain values as what is missing
    and what is extra)."""
    lines = []
    for difference in json_differences(expected, actual):
        where, left, right = difference.path, difference.expected, difference.actual
        if difference.kind == "missing":
            lines.append(f"{where}: missing (expected {_short(left, 60)})")
            continue
        if difference.kind == "unexpected":
            lines.append(f"{where}: unexpected {_short(right, 60)}")
            continue
        if isinstance(left, list) and isinstance(right, list):
            missing = [item for item in left if item not in right]
            extra = [item for item in right if item not in left]
            if missing or extra:
                parts = [
                    f"missing {_short(missing, 50)}" if missing else "",
                    f"extra {_short(extra, 50)}" if extra else "",
                ]
                lines.append(f"{where}: " + ", ".join(part for part in parts if part))
                continue
        lines.append(f"{where}: expected {_short(left, 60)}, found {_short(right, 60)}")
    return lines


def refusal_clauses(state: GameState, text: str) -> tuple[str, ...]:
    """The clause or ruling the reference names when it refuses ``text`` in ``state``
    (none when it accepts the action or cannot read it)."""
    try:
        apply(state, parse_action(text))
    except IllegalActionError as error:
        return (error.clause,) if error.clause else ()
    except TajMahalError:
        return ()
    return ()


def _new_request(plan: GamePlan, setup: SetupOutcome, components: Components) -> dict[str, Any]:
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
    try:
        return _play(plan, engine, components, choose, actions, compare)
    except EngineFailure as error:
        error.step = len(actions)
        raise


def _play(
    plan: GamePlan,
    engine: ForeignEngine,
    components: Components,
    choose: Sequence[Chooser] | None,
    actions: list[Action],
    compare: frozenset[str],
) -> Played:
    setup = random_setup(components, plan.players, plan.setup_seed)
    state = new_game(components, plan.players, setup, plan.rules)
    reply = engine.request(_new_request(plan, setup, components))
    choices = list(plan.choices) if choose is None else []
    used = 0

    def done(divergence: Divergence | None) -> Played:
        final = attrs.evolve(plan, choices=tuple(choices[:used]))
        return Played(final, setup, tuple(actions), divergence, len(actions))

    if not reply.get("ok"):
        return done(_refused_new(reply))
    expected_digest = state_digest(state)
    if "state_digest" in compare and reply.get("state_digest") != expected_digest:
        return done(_after_step(engine, state, None, (), reply, 0, expected_digest, compare))
    while not state.is_over:
        step = len(actions)
        legal = legal_actions(state)
        strings = [str(action) for action in legal]
        if "legal" in compare:
            answer = engine.request({"op": "legal"})
            divergence = _compare_legal(state, strings, answer, step)
            if divergence is not None:
                return done(divergence)
        action: Action
        if state.is_chance:
            action = random_reshuffle(state, chance_rng(plan, step))
        else:
            if choose is None:
                if used >= len(choices):
                    break
                index = choices[used] % len(legal)
            else:
                assert state.to_move is not None
                index = choose[state.to_move](state, legal)
                choices.append(index)
            used += 1
            action = legal[index]
        after = apply(state, action)
        actions.append(action)
        answer = engine.request({"op": "apply", "action": str(action)})
        digest = state_digest(after)
        if (
            not answer.get("ok")
            or ("state_digest" in compare and answer.get("state_digest") != digest)
            or ("scores" in compare and answer.get("scores") != list(after.scores))
        ):
            return done(
                _after_step(engine, state, action, after.scores, answer, step, digest, compare)
            )
        state = after
    return done(None)


def _refused_new(reply: dict[str, Any]) -> Divergence:
    return Divergence(
        step=0,
        field="apply",
        fields=("apply",),
        action=None,
        actor=None,
        expected="the game starts",
        actual=f"{reply.get('error')}: {_short(reply.get('message', ''))}",
        details=("the engine refused to start the game from the setup",),
        clauses=("TM.SETUP.HANDS",),
    )


def _compare_legal(
    state: GameState, strings: list[str], answer: dict[str, Any], step: int
) -> Divergence | None:
    expected = legal_digest(strings)
    actor = state.to_move
    if not answer.get("ok"):
        return Divergence(
            step=step,
            field="legal",
            fields=("legal",),
            action=None,
            actor=actor,
            expected=f"{len(strings)} actions",
            actual=f"{answer.get('error')}: {_short(answer.get('message', ''))}",
            details=("the engine refused to list the legal actions",),
            clauses=(),
        )
    if answer.get("digest") == expected and answer.get("count") == len(strings):
        return None
    listed = answer.get("actions")
    details: list[str] = []
    clauses: set[str] = set()
    if isinstance(listed, list):
        theirs = {str(item) for item in listed}
        ours = set(strings)
        for text in sorted(ours - theirs):
            details.append(f"missing: {text}")
            action = parse_action(text)
            clauses.update(step_clauses(action, apply_with_events(state, action)[1]))
        for text in sorted(theirs - ours):
            details.append(f"extra: {text}")
            clauses.update(refusal_clauses(state, text))
    return Divergence(
        step,
        "legal",
        ("legal",),
        None,
        actor,
        f"{len(strings)} actions, {expected}",
        f"{answer.get('count')} actions, {answer.get('digest')}",
        tuple(details[:20]),
        tuple(sorted(clauses)),
    )


def _after_step(
    engine: ForeignEngine,
    before: GameState,
    action: Action | None,
    scores: tuple[int, ...],
    answer: dict[str, Any],
    step: int,
    digest: str,
    compare: frozenset[str],
) -> Divergence:
    actor = None if before.is_chance else before.to_move
    events: tuple[Event, ...] = ()
    after = before
    if action is not None:
        after, events = apply_with_events(before, action)
    clauses = step_clauses(action, events) if action is not None else ()
    text = str(action) if action is not None else None
    if not answer.get("ok"):
        return Divergence(
            step=step,
            field="apply",
            fields=("apply",),
            action=text,
            actor=actor,
            expected="the action is legal",
            actual=f"{answer.get('error')}: {_short(answer.get('message', ''))}",
            details=(f"the engine refused {text}",),
            clauses=clauses,
            foreign_clause=answer.get("clause"),
        )
    fields = tuple(
        name
        for name, differs in (
            ("state_digest", answer.get("state_digest") != digest),
            ("scores", action is not None and answer.get("scores") != list(scores)),
        )
        if differs and name in compare
    )
    details: list[str] = []
    parts: set[str] = set()
    if "scores" in fields:
        details.append(f"scores: expected {list(scores)}, found {answer.get('scores')}")
        parts.add("scores")
    full = engine.request({"op": "state", "full": True})
    if full.get("ok") and isinstance(full.get("state"), dict):
        document = state_to_json(after)
        details.extend(_document_diff(document, full["state"]))
        parts |= _differing_parts(document, full["state"])
    field = fields[0]
    expected, actual = (
        (digest, str(answer.get("state_digest")))
        if field == "state_digest"
        else (str(list(scores)), str(answer.get("scores")))
    )
    return Divergence(
        step,
        field,
        fields,
        text,
        actor,
        expected,
        actual,
        tuple(details[:12]),
        clauses,
        likely=likely_clauses(parts, events),
    )


def describe(divergence: Divergence) -> str:
    """One line naming the step, the field, both values, the first details and clauses."""
    action = f" ({divergence.action})" if divergence.action else ""
    details = "; ".join(divergence.details[:3])
    clauses = ", ".join(divergence.clauses)
    return (
        f"step {divergence.step}{action}: {divergence.field} differs: expected "
        f"{divergence.expected}, found {divergence.actual}"
        + (f"; {details}" if details else "")
        + (f" [{clauses}]" if clauses else "")
    )


class LockstepEngine:
    """Another engine driven in lockstep with a game the caller plays on the reference.

    :meth:`start` sends the setup, :meth:`step` each action with the reference's state
    after it; both compare the state digest, the scores and the legal actions of the new
    position (as :func:`play_plan` does) and return a one-line description of the first
    disagreement, or None. This is the follower ``tajmahal fuzz --engine`` plays with.
    """

    def __init__(
        self,
        engine: ForeignEngine,
        components: Components,
        compare: frozenset[str] = OPTIONAL_FIELDS,
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

    def start(self, players: int, rules: RuleSet, setup: SetupOutcome) -> str | None:
        """Begin a game from ``setup``; a description of a disagreement, or None."""
        plan = GamePlan(players, rules, 0, 0)
        state = new_game(self.components, players, setup, rules)
        self.state, self.steps = state, 0
        reply = self.engine.request(_new_request(plan, setup, self.components))
        if not reply.get("ok"):
            return describe(_refused_new(reply))
        digest = state_digest(state)
        if "state_digest" in self.compare and reply.get("state_digest") != digest:
            return describe(
                _after_step(self.engine, state, None, (), reply, 0, digest, self.compare)
            )
        return self._legal(state)

    def step(self, action: Action, after: GameState) -> str | None:
        """Apply ``action``; compare with the reference's ``after``; None if they agree."""
        before = self.state
        assert before is not None, "start a game first"
        answer = self.engine.request({"op": "apply", "action": str(action)})
        digest = state_digest(after)
        step = self.steps
        self.state, self.steps = after, step + 1
        if (
            not answer.get("ok")
            or ("state_digest" in self.compare and answer.get("state_digest") != digest)
            or ("scores" in self.compare and answer.get("scores") != list(after.scores))
        ):
            return describe(
                _after_step(
                    self.engine, before, action, after.scores, answer, step, digest, self.compare
                )
            )
        return self._legal(after)

    def _legal(self, state: GameState) -> str | None:
        if "legal" not in self.compare or state.is_over:
            return None
        strings = [str(action) for action in legal_actions(state)]
        answer = self.engine.request({"op": "legal"})
        divergence = _compare_legal(state, strings, answer, self.steps)
        return None if divergence is None else describe(divergence)


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
    "play_plan",
    "refusal_clauses",
]
