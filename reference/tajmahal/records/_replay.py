"""Replaying game records: every step applied again and every expectation checked.

The reference applies each recorded action to the state after setup and compares what
the record says after the step (the actor, the legal actions' count and digest, the
scores, the state digest, the public position and the tags) with what the replay
gives (a record's clauses are informative and never compared: docs/trace-format.md);
the first step that differs raises :class:`VerificationError`, listing every field of
that step that differs as a :class:`Mismatch`. This is the check the
``verify`` command, the corpus and the fuzzer's round trip run, and the one hot loop of
the record modules, apart from reading and writing. The names are imported from
:mod:`tajmahal.records`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import attrs

from tajmahal.engine import apply_with_events, new_game, validate_setup
from tajmahal.errors import (
    ActionSyntaxError,
    IllegalActionError,
    RecordError,
    TajMahalError,
    located,
)
from tajmahal.model import Action, Components, Event, GameState, parse_action
from tajmahal.notation import legal_digest, legal_strings, state_digest
from tajmahal.records._model import CHANCE, Record, RecordStep, public_to_json
from tajmahal.records._tags import edge_tags


@attrs.frozen(slots=True)
class Mismatch:
    """One expectation of a record step that the replay does not reproduce."""

    field: str
    """The step field: ``actor``, ``legal_count``, ``legal_digest``, ``legal``, ``action``,
    ``scores``, ``state_digest``, ``public`` or ``tags`` (or ``action`` for an illegal
    action)."""
    expected: Any
    """What the record says (JSON value)."""
    actual: Any
    """What the reference replay gives (JSON value)."""


class VerificationError(TajMahalError):
    """A record does not replay as it says: an expectation differs, an action is illegal,
    or the record stops early or runs on after the end."""

    def __init__(
        self,
        message: str,
        *,
        source: str,
        step: int | None,
        field: str,
        mismatches: tuple[Mismatch, ...] = (),
        clause: str | None = None,
        replayed: ReplayedStep | None = None,
    ) -> None:
        self.source = source
        """The file the record came from."""
        self.step = step
        """The number of the diverging step (step N is ``steps[N-1]``, counted from 1:
        ``docs/trace-format.md``, "Step numbers"), or None for the record as a whole."""
        self.field = field
        """The first field that diverges."""
        self.detail = message
        """The bare description, without the location prefix."""
        self.mismatches = mismatches
        """Every expectation of the step that differs (empty for record-level problems)."""
        self.clause = clause
        """The rule forbidding the action, when the record's action is illegal."""
        self.replayed = replayed
        """The reference's replay of the diverging step, when it could be applied."""
        super().__init__(located(message, source, step, field))


@attrs.frozen
class ReplayedStep:
    """One replayed step: the state before it, the action, the state after, the events."""

    index: int
    """The step's index in the record's ``steps`` (0 for the first step)."""
    before: GameState
    """The position in which the action was taken."""
    action: Action
    """The parsed action."""
    after: GameState
    """The position after the action and everything automatic that follows it."""
    events: tuple[Event, ...]
    """What happened, in order."""

    @property
    def number(self) -> int:
        """The step's number, counted from 1 (``docs/trace-format.md``, "Step numbers"):
        :attr:`after` is the position after step ``number``."""
        return self.index + 1


def initial_state(record: Record, components: Components, source: str = "") -> GameState:
    """The state after setup; checks the components digest and the setup outcome."""
    if record.components_digest != components.digest:
        raise RecordError(
            f"the record was played with component set {record.components_digest}, but the "
            f"components loaded are {components.digest} ({components.name}); pass the same "
            "files with --components",
            source=source,
            field="components.digest",
        )
    validate_setup(components, record.players, record.setup, source)
    return new_game(components, record.players, record.setup, record.rules)


def _json(value: Any) -> Any:
    """A tuple-free copy for comparing and reporting (tuples become lists)."""
    if isinstance(value, tuple | list):
        return [_json(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _json(item) for key, item in value.items()}
    return value


def _expectation_mismatches(
    step: RecordStep, replayed: ReplayedStep, annotations: bool, functions: ReplayFunctions
) -> list[Mismatch]:
    """The recorded expectations after the step that the replay does not reproduce
    (``annotations``: compare the tags too, which version 1 records do not have). The
    clauses are never compared: they are informative, for readers of the record."""
    after = replayed.after
    found: list[Mismatch] = []
    if step.scores is not None and step.scores != after.scores:
        found.append(Mismatch("scores", list(step.scores), list(after.scores)))
    if step.state_digest is not None:
        actual_digest = functions.state_digest(after)
        if step.state_digest != actual_digest:
            found.append(Mismatch("state_digest", step.state_digest, actual_digest))
    if step.public is not None:
        public = public_to_json(after)
        # Equal as given, or once the record's tuples (if any) are lists.
        if step.public != public and _json(step.public) != public:
            found.append(Mismatch("public", _json(step.public), public))
    if step.tags is not None and annotations:
        tags = sorted(functions.edge_tags(replayed.before, replayed.action, replayed.events, after))
        if list(step.tags) != tags:
            found.append(Mismatch("tags", list(step.tags), tags))
    return found


def _describe(mismatches: list[Mismatch]) -> str:
    first = mismatches[0]
    more = f" (and {', '.join(m.field for m in mismatches[1:])})" if mismatches[1:] else ""
    return (
        f"the record says {json.dumps(first.expected)}, "
        f"the reference {json.dumps(first.actual)}{more}"
    )


@attrs.frozen
class ReplayFunctions:
    """The functions the replay calls at every step, the core's by default.

    Each field may be given a drop-in (same arguments, same results, same errors), so that
    a faster function replays the same records the same way; the accelerated layer's
    choice is :data:`tajmahal.accel.REPLAY`, which ``tajmahal verify`` passes."""

    parse_action: Callable[[str], Action] = parse_action
    """The step's action read from its string (:func:`tajmahal.model.parse_action`)."""
    apply_with_events: Callable[[GameState, Action], tuple[GameState, tuple[Event, ...]]] = (
        apply_with_events
    )
    """The step itself (:func:`tajmahal.engine.apply_with_events`)."""
    legal_strings: Callable[[GameState], list[str]] = legal_strings
    """The legal actions' strings, sorted (:func:`tajmahal.notation.legal_strings`)."""
    legal_digest: Callable[[Iterable[Action | str]], str] = legal_digest
    """Their digest (:func:`tajmahal.notation.legal_digest`)."""
    state_digest: Callable[[GameState], str] = state_digest
    """The digest of the state after a step (:func:`tajmahal.notation.state_digest`)."""
    edge_tags: Callable[[GameState, Action, Iterable[Event], GameState], frozenset[str]] = edge_tags
    """The edge tags of a step (:func:`tajmahal.records.edge_tags`)."""


PLAIN_REPLAY = ReplayFunctions()
"""The core's functions."""


def replay_steps(
    record: Record,
    components: Components,
    source: str = "",
    *,
    functions: ReplayFunctions = PLAIN_REPLAY,
) -> Iterator[ReplayedStep]:
    """Replay a record step by step, checking every recorded expectation.

    Raises :class:`RecordError` for an unparsable step, and :class:`VerificationError`
    at the first step where the replay differs from the record: the actor, the legal
    actions, an illegal action, the scores, the state digest, the public position or the
    tags (every differing field of that step is listed), or a step after the end of the
    game. The clauses are not compared. ``functions``: what the replay calls at every
    step.
    """
    state = initial_state(record, components, source)
    annotations = record.version >= 2
    for index, step in enumerate(record.steps):
        if state.is_over:
            raise VerificationError(
                "the game is already over; the record has extra steps",
                source=source,
                step=index + 1,
                field="action",
            )
        try:
            action = functions.parse_action(step.action)
        except ActionSyntaxError as error:
            raise RecordError(str(error), source=source, step=index + 1, field="action") from None
        found = _before_mismatches(step, state, functions)
        try:
            after, events = functions.apply_with_events(state, action)
        except IllegalActionError as error:
            found.append(Mismatch("action", step.action, f"illegal: {error}"))
            raise VerificationError(
                f"illegal action {step.action!r}: {error}",
                source=source,
                step=index + 1,
                field=found[0].field,
                mismatches=tuple(found),
                clause=getattr(error, "clause", None),
            ) from None
        replayed = ReplayedStep(index, state, action, after, events)
        found.extend(_expectation_mismatches(step, replayed, annotations, functions))
        if found:
            raise VerificationError(
                _describe(found),
                source=source,
                step=index + 1,
                field=found[0].field,
                mismatches=tuple(found),
                replayed=replayed,
            )
        yield replayed
        state = after


def _before_mismatches(
    step: RecordStep, state: GameState, functions: ReplayFunctions
) -> list[Mismatch]:
    """The recorded expectations of the position before the step that the replay does
    not reproduce: who acts, and the legal actions (their count, digest and list)."""
    found: list[Mismatch] = []
    expected_actor = None if state.is_chance else state.to_move
    if step.actor != expected_actor:
        found.append(
            Mismatch(
                "actor",
                CHANCE if step.actor is None else step.actor,
                CHANCE if expected_actor is None else expected_actor,
            )
        )
    if step.legal_count is not None or step.legal is not None:
        strings = functions.legal_strings(state)
        if step.legal_count != len(strings):
            found.append(Mismatch("legal_count", step.legal_count, len(strings)))
        digest = functions.legal_digest(strings)
        if step.legal_digest != digest:
            found.append(Mismatch("legal_digest", step.legal_digest, digest))
        if step.legal is not None and list(step.legal) != strings:
            found.append(Mismatch("legal", list(step.legal), strings))
    return found


def replay(
    record: Record,
    components: Components,
    source: str = "",
    *,
    functions: ReplayFunctions = PLAIN_REPLAY,
) -> GameState:
    """The final state of a record (see :func:`replay_steps` for the checks made)."""
    state: GameState | None = None
    for replayed in replay_steps(record, components, source, functions=functions):
        state = replayed.after
    return initial_state(record, components, source) if state is None else state


def check_result(record: Record, state: GameState, source: str = "") -> None:
    """Check that a replayed record that states a result is complete and that the result
    holds. A record without ``result`` is a fragment: it may stop after any step (the
    hello-world record, a ``diff`` divergence), and only its steps are checked."""
    if record.final_scores is None and record.winners is None:
        return
    if not state.is_over:
        raise VerificationError(
            f"the record states a result but stops in visit {state.visit} before the game ends",
            source=source,
            step=None,
            field="steps",
        )
    if record.final_scores is not None and record.final_scores != state.scores:
        raise VerificationError(
            f"recorded final scores {list(record.final_scores)} differ from "
            f"the replay's {list(state.scores)}",
            source=source,
            step=None,
            field="result.scores",
            mismatches=(Mismatch("result.scores", list(record.final_scores), list(state.scores)),),
        )
    if record.winners is not None and record.winners != state.winners():
        raise VerificationError(
            f"recorded winners {list(record.winners)} differ from the "
            f"replay's {list(state.winners())}",
            source=source,
            step=None,
            field="result.winners",
            mismatches=(Mismatch("result.winners", list(record.winners), list(state.winners())),),
        )


def verify(
    record: Record,
    components: Components,
    source: str = "",
    *,
    functions: ReplayFunctions = PLAIN_REPLAY,
) -> GameState:
    """Replay a record and check that it is complete and its stated result holds (see
    :func:`check_result`)."""
    state = replay(record, components, source, functions=functions)
    check_result(record, state, source)
    return state


# The functions and classes are documented under tajmahal.records, which users import them
# from; only the constant, whose docstring cannot go with it, is listed here.
__all__ = ["PLAIN_REPLAY"]
