"""Replaying game records: every step applied again and every expectation checked.

The reference applies each recorded action to the state after setup and compares what
the record says after the step (the actor, the legal actions' count and digest, the
scores, the state digest, the public position, the clauses and the tags) with what the
replay gives; the first step that differs raises :class:`VerificationError`, listing
every field of that step that differs as a :class:`Mismatch`. This is the check the
``verify`` command, the corpus and the fuzzer's round trip run, and the one hot loop of
the record modules, apart from reading and writing. The names are imported from
:mod:`tajmahal.records`.
"""

from __future__ import annotations

import functools
import json
import operator
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs

from tajmahal.engine import (
    ChoiceTables,
    action_tables,
    apply_with_events,
    legal_choices,
    new_game,
    validate_setup,
)
from tajmahal.errors import (
    ActionSyntaxError,
    IllegalActionError,
    RecordError,
    TajMahalError,
    located,
)
from tajmahal.model import Action, Components, Event, GameState, Step, parse_action
from tajmahal.notation import legal_digest, state_digest
from tajmahal.records._model import CHANCE, Record, RecordStep, public_to_json
from tajmahal.records._tags import sorted_edge_tags, step_clauses


@attrs.frozen(slots=True)
class Mismatch:
    """One expectation of a record step that the replay does not reproduce."""

    field: str
    """The step field: ``actor``, ``legal_count``, ``legal_digest``, ``legal``, ``action``,
    ``scores``, ``state_digest``, ``public``, ``clauses`` or ``tags``."""
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


def _public_differs(expected: Any, after: GameState) -> bool:
    """Whether a recorded public position differs from the replay's. Equal as given is
    equal without tuples (a tuple never equals a list, and the replay's has none), so
    the tuple-free copy is made only when they differ as given."""
    public = public_to_json(after)
    return bool(expected != public and _json(expected) != public)


def _expectation_mismatches(
    step: RecordStep, replayed: ReplayedStep, annotations: bool
) -> list[Mismatch]:
    """The recorded expectations after the step that the replay does not reproduce
    (``annotations``: compare the clauses and tags too; version 1's clauses were only
    an aid, named by the action's type)."""
    after = replayed.after
    found: list[Mismatch] = []
    if step.scores is not None and step.scores != after.scores:
        found.append(Mismatch("scores", list(step.scores), list(after.scores)))
    if step.state_digest is not None:
        actual_digest = state_digest(after)
        if step.state_digest != actual_digest:
            found.append(Mismatch("state_digest", step.state_digest, actual_digest))
    if step.public is not None and _public_differs(step.public, after):
        found.append(Mismatch("public", _json(step.public), public_to_json(after)))
    if step.clauses and annotations:
        clauses = step_clauses(replayed.action, replayed.events)
        if step.clauses != clauses:
            found.append(Mismatch("clauses", list(step.clauses), list(clauses)))
    if step.tags is not None and annotations:
        tags = list(sorted_edge_tags(replayed.before, replayed.action, replayed.events, after))
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


_ACTIONS: dict[str, Action] = {}
"""Action strings already parsed (actions are frozen values, so one object can stand for
every occurrence of its string)."""
_ACTIONS_KEPT = 4096
"""Action strings remembered at most (emptied when full)."""


def _parse_action(text: str) -> Action:
    """:func:`parse_action`, remembering the strings it has parsed."""
    if not isinstance(text, str):
        return parse_action(text)
    action = _ACTIONS.get(text)
    if action is None:
        action = parse_action(text)
        if len(_ACTIONS) >= _ACTIONS_KEPT:
            _ACTIONS.clear()
        _ACTIONS[text] = action
    return action


def _plain_legal_digest(strings: Sequence[str]) -> str:
    """The :func:`~tajmahal.notation.legal_digest` of the actions written ``strings``."""
    return legal_digest(strings)


def _legal_digest(strings: Sequence[str]) -> str:
    """:func:`_plain_legal_digest`, remembered by the strings.

    The same lists of legal actions recur: a player left only ``withdraw``, the same
    display, the same cities open in a province (on the golden corpus 7,490 different
    lists among 18,295 decision steps). The key is the tuple of the strings, whose
    hashes Python keeps with each string (they come from the tables of
    :func:`_string_tables`, one string object per action)."""
    key = tuple(strings)
    found = _LEGAL.get(key)
    if found is None:
        found = _plain_legal_digest(key)
        if len(_LEGAL) >= LEGAL_KEPT:
            _LEGAL.clear()
        _LEGAL[key] = found
    return found


_LEGAL: dict[tuple[str, ...], str] = {}
"""The digest of each list of legal actions met, by its strings (see
:func:`_legal_digest`)."""
LEGAL_KEPT = 16384
"""Lists of legal actions remembered at most (emptied when full)."""


@functools.lru_cache(maxsize=8)
def _string_tables(components: Components) -> ChoiceTables[str]:
    """The engine's legal-action tables of a component set holding each action's
    canonical string instead of the action (:meth:`ChoiceTables.mapped`), built once per
    set: the replay lists the legal actions of a decision by
    :func:`~tajmahal.engine.legal_choices` with these, so that it has their strings, in
    the order of :func:`~tajmahal.engine.legal_actions`, without the action objects."""
    return action_tables(components).mapped(str)


def replay_steps(
    record: Record, components: Components, source: str = ""
) -> Iterator[ReplayedStep]:
    """Replay a record step by step, checking every recorded expectation.

    Raises :class:`RecordError` for an unparsable step, and :class:`VerificationError`
    at the first step where the replay differs from the record: the actor, the legal
    actions, an illegal action, the scores, the state digest, the public position, the
    clauses or the tags (every differing field of that step is listed), or a step after
    the end of the game.
    """
    for index, (before, action, after, events) in enumerate(_replay(record, components, source)):
        yield ReplayedStep(index, before, action, after, events)


def replayed_states(
    record: Record, components: Components, source: str = ""
) -> Iterator[GameState]:
    """The state after each step of :func:`replay_steps`, with the same checks and
    errors, for a caller that needs nothing else (``tajmahal verify``)."""
    return map(_AFTER, _replay(record, components, source))


_AFTER = operator.itemgetter(2)
"""The state after a step, in what :func:`_replay` yields."""
_OVER, _SHUFFLE = Step.OVER, Step.SHUFFLE
"""Read as module names: an enum member read from its class goes through the metaclass."""


def _replay(
    record: Record, components: Components, source: str
) -> Iterator[tuple[GameState, Action, GameState, tuple[Event, ...]]]:
    """:func:`replay_steps`' loop: each step's state before, action, state after and
    events, checked."""
    state = initial_state(record, components, source)
    annotations = record.version >= 2
    tables = _string_tables(state.config.components)
    for index, step in enumerate(record.steps):
        if state.step is _OVER:
            raise VerificationError(
                "the game is already over; the record has extra steps",
                source=source,
                step=index + 1,
                field="action",
            )
        try:
            action = _parse_action(step.action)
        except ActionSyntaxError as error:
            raise RecordError(str(error), source=source, step=index + 1, field="action") from None
        found: list[Mismatch] = []
        expected_actor = None if state.step is _SHUFFLE else state.to_move
        if step.actor != expected_actor:
            found.append(
                Mismatch(
                    "actor",
                    CHANCE if step.actor is None else step.actor,
                    CHANCE if expected_actor is None else expected_actor,
                )
            )
        if step.legal_count is not None or step.legal is not None:
            # The strings of what legal_actions(state) lists, in its order (the tables
            # looked up once per record).
            strings = legal_choices(state, tables)
            digest = _legal_digest(strings)
            if step.legal_count != len(strings):
                found.append(Mismatch("legal_count", step.legal_count, len(strings)))
            if step.legal_digest != digest:
                found.append(Mismatch("legal_digest", step.legal_digest, digest))
            if step.legal is not None and list(step.legal) != (legal := sorted(strings)):
                found.append(Mismatch("legal", list(step.legal), legal))
        try:
            after, events = apply_with_events(state, action)
        except IllegalActionError as error:
            found.append(Mismatch("action", step.action, f"illegal: {error}"))
            raise VerificationError(
                f"illegal action {step.action!r}: {error}",
                source=source,
                step=index + 1,
                field="action" if len(found) == 1 else found[0].field,
                mismatches=tuple(found),
                clause=getattr(error, "clause", None),
            ) from None
        # The expectations are compared here first, each computed once; only a step with
        # a difference (or a difference found above) is listed in full by
        # _expectation_mismatches, which computes the same values again.
        if (
            found
            or (step.public is not None and _public_differs(step.public, after))
            or (step.scores is not None and step.scores != after.scores)
            or (step.state_digest is not None and step.state_digest != state_digest(after))
            or (
                annotations
                and (
                    (step.clauses and step.clauses != step_clauses(action, events))
                    or (
                        step.tags is not None
                        and step.tags != sorted_edge_tags(state, action, events, after)
                    )
                )
            )
        ):
            replayed = ReplayedStep(index, state, action, after, events)
            found.extend(_expectation_mismatches(step, replayed, annotations))
            if found:
                raise VerificationError(
                    _describe(found),
                    source=source,
                    step=index + 1,
                    field=found[0].field,
                    mismatches=tuple(found),
                    replayed=replayed,
                )
        yield state, action, after, events
        state = after


def replay(record: Record, components: Components, source: str = "") -> GameState:
    """The final state of a record (see :func:`replay_steps` for the checks made)."""
    state: GameState | None = None
    for replayed in replay_steps(record, components, source):
        state = replayed.after
    return initial_state(record, components, source) if state is None else state


def check_result(record: Record, state: GameState, source: str = "") -> None:
    """Check that a replayed record is complete and its stated result holds."""
    if not state.is_over:
        raise VerificationError(
            f"the record stops in visit {state.visit} before the game ends",
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


def verify(record: Record, components: Components, source: str = "") -> GameState:
    """Replay a record and check that it is complete and its stated result holds."""
    state = replay(record, components, source)
    check_result(record, state, source)
    return state


# Every name here is documented under tajmahal.records, which users import it from.
__all__: list[str] = []
