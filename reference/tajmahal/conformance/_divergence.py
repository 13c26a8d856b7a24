"""What a disagreement between two engines is, and how it is found and described.

:class:`Divergence` is the first disagreement of a game played in lockstep
(:mod:`tajmahal.conformance`): the step, the fields that differ with both values, the
differing parts of the two state documents, and the clause ids behind the step (the
reference's events, :func:`tajmahal.records.step_clauses`), with the likely ones singled
out by the parts that differ. Building it (comparing the legal actions, diffing the state
documents, finding the clauses) is apart from playing the game: the players of
:mod:`tajmahal.conformance` only decide *when* the engines disagree and hand the two answers
here.
"""

from __future__ import annotations

from typing import Any

import attrs

from tajmahal.conformance._foreign import ForeignEngine
from tajmahal.engine import apply, apply_with_events
from tajmahal.errors import IllegalActionError, TajMahalError
from tajmahal.model import Action, Event, EventKind, GameState, parse_action
from tajmahal.notation import legal_digest, state_to_json
from tajmahal.records import step_clauses
from tajmahal.verification import json_differences

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
    """What differs: missing or extra actions, differing paths of the state documents."""
    clauses: tuple[str, ...]
    """The clause and ruling ids behind the step."""
    foreign_clause: str | None = None
    """The clause the other engine named when it refused an action."""
    likely: tuple[str, ...] = ()
    """Of :attr:`clauses`, those of the events that change the parts that differ."""


def _short(value: Any, limit: int = 100) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _refusal(reply: dict[str, Any]) -> str:
    """How the other engine's refusal reads: its error code and the start of its message."""
    return f"{reply.get('error')}: {_short(reply.get('message', ''))}"


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
    try:
        apply(state, parse_action(text))
    except IllegalActionError as error:
        return (error.clause,) if error.clause else ()
    except TajMahalError:
        return ()
    return ()


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
    )


def legal_divergence(
    state: GameState, strings: list[str], answer: dict[str, Any], step: int
) -> Divergence | None:
    """The disagreement over the legal actions ``strings`` of ``state`` at ``step``, given
    the other engine's ``answer`` to ``legal``; None when count and digest agree."""
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


def step_divergence(
    engine: ForeignEngine,
    before: GameState,
    action: Action | None,
    scores: tuple[int, ...],
    answer: dict[str, Any],
    step: int,
    digest: str,
    compare: frozenset[str],
) -> Divergence:
    """The disagreement after ``action`` from ``before`` (None: the start of the game),
    given the other engine's ``answer`` and the reference's ``scores`` and ``digest``
    after it; the other engine's full state is asked for to name the differing parts."""
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
            actual=_refusal(answer),
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
