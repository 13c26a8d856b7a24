"""Explaining why a record does not verify: the shared explanation, from a record.

:func:`explain_record` takes a record and the :class:`~tajmahal.records.VerificationError`
its replay raised, replays the steps before the one that diverged, and builds the
:class:`~tajmahal.verification.Explanation` of :mod:`tajmahal.verification`: a step the
record lacks or has too many is recognised as such first (its next steps replay once the
step is put back or taken out), then an action whose expectations are another action's,
then the legal actions at the start of the step (the seat to move, the count, the
digest, the list, an action the reference refuses) or the position after it (scores,
the public position field by field, and only as a last resort the digests).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import attrs

from tajmahal.engine import apply, legal_actions
from tajmahal.errors import TajMahalError, located
from tajmahal.model import Components, GameState, parse_action
from tajmahal.notation import count_of, state_digest
from tajmahal.records import (
    Record,
    RecordStep,
    VerificationError,
    initial_state,
    public_to_json,
    replay_steps,
)
from tajmahal.verification._explain import (
    Explanation,
    LegalView,
    RankedRule,
    StepPlayed,
    explain_after,
    explain_legal,
    explanation_at,
    rank_rules,
    refusal,
    step_kind_of,
)

THE_RECORD = "the record"
"""How explanations of a record name the side compared with the reference."""
STEPS_TO_FIT = 3
"""How many of a record's next steps must replay for a step to count as missing or as
one too many."""
STRUCTURAL = frozenset({"deleted-step", "inserted-step", "different-move"})
"""The kinds of explanation that say the record's steps themselves are wrong (a step
missing, a step too many, an action that is not the one its expectations describe)."""
HISTORY = 24
"""How many steps before the diverging one are looked at for where the engines parted
(a visit has at most about 20 steps for 5 players)."""
START_FIELDS = frozenset({"actor", "legal_count", "legal_digest", "legal", "action"})
"""The fields that concern the start of a step (the position it is played from)."""


def headline(error: VerificationError, explanation: Explanation | None) -> str:
    """The first line of a divergence: the error's own (file, step, field, both values);
    for a step missing or one too many, which one (the field where the rest of the
    record first fails to fit would mislead); for a public position, its first field
    that differs (not the whole position twice)."""
    if explanation is not None and explanation.kind in STRUCTURAL:
        return located(explanation.summary, error.source, error.step, explanation.kind)
    if explanation is not None and error.field == "public" and explanation.differences:
        # The first field that differs, not the two whole public positions.
        first, more = explanation.differences[0], len(explanation.differences) - 1
        message = (
            f"{first.path}: the record says {json.dumps(first.actual)}, the reference "
            f"{json.dumps(first.expected)}"
            + (f" (and {count_of(more, 'more field')})" if more else "")
        )
        return located(message, error.source, error.step, "public")
    return str(error)


def explain_record(
    record: Record, components: Components, error: VerificationError, source: str = ""
) -> Explanation | None:
    """Why ``record`` does not verify at ``error.step``; None for a problem with the
    record as a whole (it stops early, or its result differs)."""
    if error.step is None:
        return None
    number = error.step
    index = number - 1
    before, history = _position_before(record, components, index, source)
    fields = {mismatch.field for mismatch in error.mismatches} | {error.field}
    names = record.names
    structural = _deleted_step(record, components, index, before, names)
    if structural is None:
        structural = _inserted_step(record, components, index, before, names)
    if structural is not None:
        return structural
    step = record.steps[index]
    if fields & START_FIELDS:
        taken = step.action if "action" in fields else None
        other = LegalView(step_kind_of([step.action]), step.actor, step.legal_count, step.legal)
        return explain_legal(
            number, before, other, other_name=THE_RECORD, history=history, names=names, taken=taken
        )
    replayed = error.replayed
    if replayed is None:
        return None
    played = StepPlayed(number, replayed.before, replayed.action, replayed.after, replayed.events)
    if fields & {"scores", "state_digest", "public"}:
        moved = _different_move(before, step, played, names)
        if moved is not None:
            return moved
        return _explain_position(step, played, names, fields, history)
    return _explain_annotations(step, played, names)


def _position_before(
    record: Record, components: Components, index: int, source: str
) -> tuple[GameState, list[StepPlayed]]:
    """The reference's position after the record's first ``index`` steps (which
    verified), and the last :data:`HISTORY` of those steps as played (the last one
    last)."""
    state = initial_state(record, components, source)
    history: list[StepPlayed] = []
    for number, step in enumerate(record.steps[:index], start=1):
        played = StepPlayed.of(number, state, parse_action(step.action))
        history.append(played)
        if len(history) > HISTORY:
            del history[0]
        state = played.after
    return state, history


def _has_expectations(steps: Sequence[RecordStep]) -> bool:
    return any(
        step.scores is not None or step.state_digest is not None or step.legal_count is not None
        for step in steps
    )


def _fits(record: Record, components: Components, steps: tuple[RecordStep, ...], upto: int) -> bool:
    """Whether a record with ``steps`` replays, every expectation checked, at least up
    to and including its step ``upto`` (or to its end)."""
    trial = attrs.evolve(record, steps=steps)
    try:
        for replayed in replay_steps(trial, components):
            if replayed.number >= upto:
                return True
    except (VerificationError, TajMahalError):
        return False
    return True


def _acts_at(state: GameState, step: RecordStep) -> bool:
    """Cheap first test: ``step``'s actor moves at ``state``, its action is legal there
    and its legal count (if any) is the number of legal actions there."""
    expected_actor = None if state.is_chance else state.to_move
    if step.actor != expected_actor or state.is_over:
        return False
    try:
        action = parse_action(step.action)
        apply(state, action)
    except TajMahalError:
        return False
    return step.legal_count is None or step.legal_count == len(legal_actions(state))


def _deleted_step(
    record: Record,
    components: Components,
    index: int,
    before: GameState,
    names: Sequence[str] | None,
) -> Explanation | None:
    """The record lacks a step here: one legal action puts back a position from which
    its next steps replay."""
    following = record.steps[index : index + STEPS_TO_FIT]
    if before.is_chance or before.is_over or not _has_expectations(following):
        return None
    candidates = []
    for action in legal_actions(before):
        after = apply(before, action)
        if _acts_at(after, record.steps[index]):
            candidates.append(action)
    for action in candidates:
        inserted = RecordStep(before.to_move, str(action))
        steps = (*record.steps[:index], inserted, *record.steps[index:])
        if _fits(record, components, steps, index + 1 + len(following)):
            played = StepPlayed.of(index + 1, before, action)
            rules = rank_rules(played.events[:1], (), names, played.after)
            return explanation_at(
                "deleted-step",
                index + 1,
                before,
                THE_RECORD,
                f"a step is missing: the reference's step {index + 1} is {action}, which "
                "the record lacks",
                names,
                action=record.steps[index].action,
                detail=(
                    (
                        f"the reference's step {index + 1} is {action}; the record goes on with "
                        f"{record.steps[index].action}, its step {index + 1}, which is the "
                        f"reference's step {index + 2}: with {action} put back, the record's "
                        "next steps replay"
                    ),
                ),
                rules=rules,
            )
    return None


def _inserted_step(
    record: Record,
    components: Components,
    index: int,
    before: GameState,
    names: Sequence[str] | None,
) -> Explanation | None:
    """The record has a step too many here: without it, its next steps replay."""
    following = record.steps[index + 1 : index + 1 + STEPS_TO_FIT]
    if not following or not _has_expectations(following) or not _acts_at(before, following[0]):
        return None
    steps = (*record.steps[:index], *record.steps[index + 1 :])
    if not _fits(record, components, steps, index + len(following)):
        return None
    extra = record.steps[index]
    return explanation_at(
        "inserted-step",
        index + 1,
        before,
        THE_RECORD,
        f"a step too many: the record's step {index + 1} ({extra.action}) is not in the "
        "reference's game",
        names,
        action=extra.action,
        detail=(
            (
                f"without it, the record's steps from {index + 2} on replay: its step "
                f"{index + 2} ({following[0].action}) is the reference's step {index + 1}"
            ),
        ),
        rules=tuple(_refusal_rules(before, extra.action)),
    )


def _refusal_rules(state: GameState, text: str) -> list[RankedRule]:
    found = refusal(state, text)
    if found is None or not found[0]:
        return []
    return [RankedRule(found[0], f"the reference refuses {text} here: {found[1]}")]


def _different_move(
    before: GameState, step: RecordStep, played: StepPlayed, names: Sequence[str] | None
) -> Explanation | None:
    """The record's position after the step is another legal action's: the recording
    engine applied that action, or wrote the wrong one."""
    if step.state_digest is None and step.public is None:
        return None
    matches = []
    for action in legal_actions(before):
        if str(action) == step.action:
            continue
        after = apply(before, action)
        if step.state_digest is not None and step.state_digest != state_digest(after):
            continue
        if step.public is not None and _plain(step.public) != public_to_json(after):
            continue
        if step.scores is not None and step.scores != after.scores:
            continue
        matches.append(action)
    if len(matches) != 1:
        return None
    (action,) = matches
    moved = StepPlayed.of(played.number, before, action)
    return explanation_at(
        "different-move",
        played.number,
        before,
        THE_RECORD,
        f"the record's position after step {played.number} is what {action} gives, not "
        f"its action {step.action}",
        names,
        action=step.action,
        detail=(
            (
                f"the recording engine applied {action} (or wrote {step.action} for it): "
                f"every expectation after the step is {action}'s"
            ),
        ),
        rules=rank_rules(moved.events[:1], (), names, moved.after),
    )


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _explain_position(
    step: RecordStep,
    played: StepPlayed,
    names: Sequence[str] | None,
    fields: set[str],
    history: Sequence[StepPlayed],
) -> Explanation:
    after = played.after
    scores = step.scores if "scores" in fields else None
    documents = None
    hidden_only = False
    if step.public is not None:
        recorded = _plain(step.public)
        reference = public_to_json(after)
        if recorded != reference:
            documents = (reference, recorded)
        elif "state_digest" in fields:
            hidden_only = True
    digests = None
    if documents is None and "state_digest" in fields and step.state_digest is not None:
        digests = (state_digest(after), step.state_digest)
    return explain_after(
        played,
        other_name=THE_RECORD,
        names=names,
        scores=scores,
        documents=documents,
        digests=digests,
        hidden_only=hidden_only,
        history=history,
    )


def _explain_annotations(
    step: RecordStep, played: StepPlayed, names: Sequence[str] | None
) -> Explanation:
    """Only the clauses or tags the record names for the step differ."""
    explained = explain_after(played, other_name=THE_RECORD, names=names)
    return attrs.evolve(
        explained,
        kind="annotations",
        summary="the record names other clauses or edge tags for the step; the play agrees",
    )


# Documented under tajmahal.verification, which users import it from.
__all__: list[str] = []
