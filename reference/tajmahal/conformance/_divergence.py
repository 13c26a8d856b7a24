"""What a disagreement between two engines is, and how it is found and described.

:class:`Divergence` is the first disagreement of a game played in lockstep
(:mod:`tajmahal.conformance`): the step, the fields that differ with both values, and
its :class:`~tajmahal.verification.Explanation`, the one ``tajmahal verify`` gives a
record (what differs in both directions, the differing fields of the two state
documents, where the engines parted and the rules likeliest involved). Building it is
apart from playing the game: the players of :mod:`tajmahal.conformance` only decide
*when* the engines disagree and hand the two answers here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from tajmahal.conformance._foreign import ForeignEngine
from tajmahal.model import Action, Event, EventKind, GameState
from tajmahal.notation import legal_digest, state_to_json
from tajmahal.records import step_clauses
from tajmahal.verification import (
    FIELD_EVENTS,
    Explanation,
    Hypothesis,
    LegalView,
    StepPlayed,
    explain_after,
    explain_legal,
    explain_refused,
    json_differences,
    refusal,
)

FIELDS = ("legal", "apply", "state_digest", "scores")
"""What is compared, in the order it is compared at each step."""

OPTIONAL_FIELDS = frozenset({"legal", "state_digest", "scores"})
"""The comparisons that can be left out (``apply`` succeeding is always compared)."""


@attrs.frozen(slots=True)
class Divergence:
    """The first disagreement of a game."""

    step: int
    """The number of the step (counted from 1, as in ``docs/trace-format.md``, "Step
    numbers"; 0: the start of the game): for ``legal``, the step about to be taken."""
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
    """What differs: every missing and every extra action, the differing paths of the
    state documents."""
    clauses: tuple[str, ...]
    """The clause and ruling ids behind the step."""
    foreign_clause: str | None = None
    """The clause the other engine named when it refused an action."""
    likely: tuple[str, ...] = ()
    """The rules the explanation ranks likeliest (at most three)."""
    explanation: Explanation | None = None
    """Why the engines disagree (what differs, where they parted, the rules)."""
    answer: dict[str, Any] | None = attrs.field(default=None, eq=False)
    """The other engine's reply that disagrees (to ``legal``, ``apply`` or ``new``)."""

    def with_hypotheses(self, hypotheses: Sequence[Hypothesis]) -> Divergence:
        """This disagreement with ``hypotheses`` added to its explanation
        (:meth:`tajmahal.verification.Explanation.with_hypotheses`), :attr:`likely`
        following the explanation's ranked rules."""
        if self.explanation is None:
            return self
        explanation = self.explanation.with_hypotheses(hypotheses)
        likely = tuple(rule.id for rule in explanation.rules)
        return attrs.evolve(self, explanation=explanation, likely=likely)


def _short(value: Any, limit: int = 100) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _refusal(reply: dict[str, Any]) -> str:
    """How the other engine's refusal reads: its error code and the start of its message."""
    return f"{reply.get('error')}: {_short(reply.get('message', ''))}"


def likely_clauses(parts: set[str], events: tuple[Event, ...]) -> tuple[str, ...]:
    """The clauses of the events that can change the ``parts`` of the state document
    that differ (``seats.KEY`` for a key of any seat), sorted: every candidate, where an
    :class:`~tajmahal.verification.Explanation` ranks at most three."""
    kinds: set[EventKind] = set()
    for part in parts:
        kinds.update(FIELD_EVENTS.get(part, ()))
    return tuple(sorted({c for event in events if event.kind in kinds for c in event.clauses}))


def _document_diff(expected: Any, actual: Any) -> list[str]:
    """The paths where two JSON documents differ, with both values (the leaves of
    :func:`tajmahal.verification.json_differences`; lists of plain values as what is missing
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
    found = refusal(state, text)
    return (found[0],) if found is not None and found[0] else ()


def refused_new_game(reply: dict[str, Any]) -> Divergence:
    """The disagreement when the other engine refuses to start from the setup
    (``reply`` is its answer to ``new``)."""
    return Divergence(
        step=0,
        field="apply",
        fields=("apply",),
        action=None,
        actor=None,
        expected="the game starts",
        actual=_refusal(reply),
        details=("the engine refused to start the game from the setup",),
        clauses=("TM.SETUP.HANDS",),
        answer=reply,
    )


def _seat(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def legal_divergence(
    state: GameState,
    strings: list[str],
    answer: dict[str, Any],
    step: int,
    previous: StepPlayed | None = None,
    name: str = "the engine",
    history: Sequence[StepPlayed] | Callable[[], Sequence[StepPlayed]] = (),
) -> Divergence | None:
    """The disagreement over the legal actions ``strings`` of ``state`` at the start of
    step ``step``, given the other engine's ``answer`` to ``legal``; None when count and
    digest agree. ``history`` holds the steps before (the last one last; or a function
    giving them, called only for a disagreement; ``previous`` alone, the step before),
    where the engines may have parted; ``name`` is how the explanation names the other
    engine."""
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
            actual=_refusal(answer),
            details=("the engine refused to list the legal actions",),
            clauses=(),
            answer=answer,
        )
    if answer.get("digest") == expected and answer.get("count") == len(strings):
        return None
    listed = answer.get("actions")
    actions = tuple(sorted({str(item) for item in listed})) if isinstance(listed, list) else None
    kind = answer.get("step")
    count = answer.get("count")
    view = LegalView(
        kind if isinstance(kind, str) else None,
        _seat(answer.get("to_move")),
        count if isinstance(count, int) and not isinstance(count, bool) else None,
        actions,
    )
    steps = history() if callable(history) else history  # replayed only now, if need be
    explanation = explain_legal(
        step, state, view, other_name=name, previous=previous, history=steps
    )
    details = [f"missing: {text}" for text in explanation.missing]
    details += [f"extra: {text}" for text in explanation.extra]
    clauses: set[str] = set()
    for _, clause, _ in explanation.refusals:
        if clause:
            clauses.add(clause)
    if explanation.parted is not None:
        clauses.update(explanation.parted.clauses)
    return Divergence(
        step,
        "legal",
        ("legal",),
        None,
        actor,
        f"{len(strings)} actions, {expected}",
        f"{answer.get('count')} actions, {answer.get('digest')}",
        tuple(details),
        tuple(sorted(clauses | {rule.id for rule in explanation.rules})),
        likely=tuple(rule.id for rule in explanation.rules),
        explanation=explanation,
        answer=answer,
    )


def step_divergence(
    engine: ForeignEngine,
    before: GameState,
    action: Action | None,
    scores: tuple[int, ...],
    answer: dict[str, Any],
    step: int,
    digest: str,
    compare: frozenset[str],
    name: str = "the engine",
    recent: Sequence[tuple[GameState, Action]] = (),
) -> Divergence:
    """The disagreement after ``action`` from ``before`` (None: the start of the game),
    given the other engine's ``answer`` and the reference's ``scores`` and ``digest``
    after it; the other engine's full state is asked for to name the differing fields.
    ``name`` is how the explanation names the other engine; ``recent`` holds the
    positions and actions of the steps just before (the last one last), where the
    engines may have parted when the comparison left out the state digest."""
    actor = None if before.is_chance else before.to_move
    played = StepPlayed.of(step, before, action) if action is not None else None
    events: tuple[Event, ...] = played.events if played is not None else ()
    after = played.after if played is not None else before
    clauses = step_clauses(action, events) if action is not None else ()
    text = str(action) if action is not None else None
    if not answer.get("ok"):
        explanation = None
        if played is not None:
            clause = answer.get("clause")
            explanation = explain_refused(
                played,
                other_name=name,
                message=_refusal(answer),
                clause=clause if isinstance(clause, str) else None,
            )
        return Divergence(
            step=step,
            field="apply",
            fields=("apply",),
            action=text,
            actor=actor,
            expected="the action is legal",
            actual=_refusal(answer),
            details=(f"the engine refused {text}",),
            clauses=clauses,
            foreign_clause=answer.get("clause"),
            likely=() if explanation is None else tuple(r.id for r in explanation.rules),
            explanation=explanation,
            answer=answer,
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
    if "scores" in fields:
        details.append(f"scores: expected {list(scores)}, found {answer.get('scores')}")
    documents = None
    full = engine.request({"op": "state", "full": True})
    if full.get("ok") and isinstance(full.get("state"), dict):
        document = state_to_json(after)
        details.extend(_document_diff(document, full["state"]))
        if document != full["state"]:
            documents = (document, full["state"])
    explanation = None
    if played is not None:
        found_scores = answer.get("scores") if "scores" in fields else None
        history = [
            StepPlayed.of(step - len(recent) + offset, position, earlier)
            for offset, (position, earlier) in enumerate(recent)
        ]  # the last of ``recent`` is step ``step - 1``
        explanation = explain_after(
            played,
            other_name=name,
            history=history,
            scores=found_scores if isinstance(found_scores, list) else None,
            documents=documents,
            digests=(digest, str(answer.get("state_digest")))
            if documents is None and "state_digest" in fields
            else None,
        )
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
        tuple(details),
        clauses,
        likely=() if explanation is None else tuple(rule.id for rule in explanation.rules),
        explanation=explanation,
        answer=answer,
    )


def describe(divergence: Divergence) -> str:
    """One line naming the step, the field, both values, the first details and the
    likeliest rules (else the step's clauses)."""
    action = f" ({divergence.action})" if divergence.action else ""
    details = "; ".join(divergence.details[:3])
    clauses = ", ".join(divergence.likely or divergence.clauses)
    return (
        f"step {divergence.step}{action}: {divergence.field} differs: expected "
        f"{divergence.expected}, found {divergence.actual}"
        + (f"; {details}" if details else "")
        + (f" [{clauses}]" if clauses else "")
    )


# Divergence, describe, likely_clauses and refusal_clauses are documented under
# tajmahal.conformance, which users import them from; listed here are the constants (whose
# docstrings cannot go with them) and the builders only this package uses.
__all__ = [
    "FIELDS",
    "OPTIONAL_FIELDS",
    "legal_divergence",
    "refused_new_game",
    "step_divergence",
]
