"""Game records: the versioned JSON trace format, written once and published as is.

A record holds everything needed to replay a game with no random generator: the player
count, the rule set, the digest of the component set, every setup outcome, and every
step (each decision and each chance outcome) as a canonical action string. From version
2 on, each step also carries what a checking engine must reproduce: the seat to move,
the number and digest of the legal actions at a decision, every seat's score and the
digest of the whole position after the step, the clauses that decided it and the edge
cases it reaches. ``--full`` records add the legal actions themselves and the public
position after every step, as OpenSpiel's playthroughs do.

The schemas ``specs/schemas/trace.schema.json`` (version 2) and
``trace-v1.schema.json`` are the one statement of a record's shape: a document is
validated against the schema of its version first, then checked for what a schema
cannot say. ``docs/trace-format.md`` defines every field, digest and automatic step.

Errors name the file, the step and the field. Malformed input raises
:class:`~tajmahal.errors.RecordError`; a record whose steps or expectations the
reference does not reproduce raises :class:`VerificationError`.
"""

from __future__ import annotations

import json
import operator
import os
import stat
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs

from tajmahal.actions import Action, parse_action
from tajmahal.components import Components
from tajmahal.digest import action_strings, legal_digest, sha256_text, state_digest
from tajmahal.engine import apply_with_events, legal_actions
from tajmahal.errors import (
    ActionSyntaxError,
    IllegalActionError,
    RecordError,
    TajMahalError,
    located,
)
from tajmahal.events import Event
from tajmahal.inputs import (
    RECORD_LIMITS,
    STDIN,
    InputError,
    check_record_limits,
    json_path,
    read_json_document,
)
from tajmahal.rules import RuleSet
from tajmahal.schemas import field_path, first_violation
from tajmahal.serialize import state_to_json
from tajmahal.setup import SetupOutcome, new_game, validate_setup
from tajmahal.state import GameState, Step
from tajmahal.tags import edge_tags, step_clauses

TRACE_FORMAT = "tajmahal-trace"
"""The ``format`` tag of a record."""
TRACE_VERSION = 2
"""The version written; see "Versions" in ``docs/trace-format.md``."""
READABLE_VERSIONS: tuple[int, ...] = (1, 2)
"""Versions this reader understands (each has its schema in ``specs/schemas``)."""
SCHEMA_BY_VERSION: Mapping[int, str] = {1: "trace-v1", 2: "trace"}
"""The schema name of each readable version."""
CHANCE = "chance"
"""The ``actor`` of a chance step."""


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
        """The 0-based index of the diverging step, or None for the record as a whole."""
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
class RecordStep:
    """One step of a record: the action and what the state looks like after it."""

    actor: int | None
    """The seat that acted (the seat to move before the step), or None for chance."""
    action: str
    """The canonical action string."""
    scores: tuple[int, ...] | None = None
    """Every seat's score after the step, when recorded."""
    clauses: tuple[str, ...] = ()
    """Clause and ruling ids that decided the step (``step_clauses``), when recorded."""
    tags: tuple[str, ...] | None = None
    """Edge tags the step reaches (``edge_tags``), when recorded (version 2)."""
    legal_count: int | None = None
    """How many legal actions the actor had (decision steps, version 2)."""
    legal_digest: str | None = None
    """Digest of those legal actions (decision steps, version 2)."""
    state_digest: str | None = None
    """Digest of the whole position after the step (version 2)."""
    legal: tuple[str, ...] | None = None
    """The legal actions themselves (full records)."""
    public: Mapping[str, Any] | None = attrs.field(default=None, hash=False)
    """The public position after the step (full records)."""


@attrs.frozen
class Record:
    """A complete game record."""

    players: int
    """3, 4 or 5."""
    rules: RuleSet
    """The rule set the game was played under."""
    components_digest: str
    """Digest of the component set (see :attr:`tajmahal.components.Components.digest`)."""
    components_name: str
    """Label of the component set, informational."""
    setup: SetupOutcome
    """Every chance outcome of the setup."""
    steps: tuple[RecordStep, ...]
    """Every decision and chance outcome, in order."""
    final_scores: tuple[int, ...] | None = None
    """Final scores, when the game was finished."""
    winners: tuple[int, ...] | None = None
    """Winning seats, when the game was finished."""
    seed: int | None = None
    """The seed the setup and chance were drawn from, informational only."""
    names: tuple[str, ...] | None = None
    """The players' names (for the account), informational only."""
    id: str | None = None
    """A stable name for the record (the golden corpus's manifest uses it)."""
    description: str | None = None
    """What the record shows, for people."""
    version: int = TRACE_VERSION
    """The version the record was read in (records are always written in the newest)."""


def public_to_json(state: GameState) -> dict[str, Any]:
    """The public part of a position (``position.schema.json#/$defs/public``): the state
    document without its header fields, each hand and the deck replaced by their sizes."""
    document = state_to_json(state)
    for key in ("format", "version", "players", "ruleset", "components"):
        del document[key]
    document["deck_size"] = len(document.pop("deck"))
    seats = []
    for seat in document["seats"]:
        hand = seat.pop("hand")
        seats.append({"hand_size": len(hand), **seat})
    document["seats"] = seats
    return document


# ---------------------------------------------------------------------------------------
# Writing


def setup_to_json(setup: SetupOutcome) -> dict[str, Any]:
    """The ``setup`` object of a record."""
    return {
        "province_tiles": dict(sorted(setup.province_tiles.items())),
        "bonus_tiles": dict(sorted(setup.bonus_tiles.items())),
        "hands": [list(hand) for hand in setup.hands],
        "display": list(setup.display),
        "deck": list(setup.deck),
        "start_player": setup.start_player,
    }


def step_to_json(step: RecordStep) -> dict[str, Any]:
    """The JSON object of one step (keys in the documented order)."""
    entry: dict[str, Any] = {
        "actor": CHANCE if step.actor is None else step.actor,
        "action": step.action,
    }
    if step.legal_count is not None:
        entry["legal_count"] = step.legal_count
    if step.legal_digest is not None:
        entry["legal_digest"] = step.legal_digest
    if step.legal is not None:
        entry["legal"] = list(step.legal)
    if step.scores is not None:
        entry["scores"] = list(step.scores)
    if step.state_digest is not None:
        entry["state_digest"] = step.state_digest
    if step.clauses:
        entry["clauses"] = list(step.clauses)
    if step.tags is not None:
        entry["tags"] = list(step.tags)
    if step.public is not None:
        entry["public"] = dict(step.public)
    return entry


def record_to_json(record: Record) -> dict[str, Any]:
    """The JSON document of a record, always in the newest version (keys in a fixed,
    readable order)."""
    document: dict[str, Any] = {"format": TRACE_FORMAT, "version": TRACE_VERSION}
    if record.id is not None:
        document["id"] = record.id
    if record.description is not None:
        document["description"] = record.description
    document["players"] = record.players
    document["ruleset"] = record.rules.to_json()
    document["components"] = {"name": record.components_name, "digest": record.components_digest}
    if record.seed is not None:
        document["seed"] = record.seed
    if record.names is not None:
        document["names"] = list(record.names)
    document["setup"] = setup_to_json(record.setup)
    document["steps"] = [step_to_json(step) for step in record.steps]
    if record.final_scores is not None and record.winners is not None:
        document["result"] = {"scores": list(record.final_scores), "winners": list(record.winners)}
    return document


def dumps_record(record: Record) -> str:
    """The text of a record: one top-level field and one step per line, so that two
    records can be compared with an ordinary line diff."""
    document = record_to_json(record)
    steps = document.pop("steps")
    result = document.pop("result", None)
    parts = [
        f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
        for key, value in document.items()
    ]
    step_lines = ",\n".join("  " + json.dumps(step, ensure_ascii=False) for step in steps)
    parts.append(' "steps": [\n' + step_lines + "\n ]" if steps else ' "steps": []')
    if result is not None:
        parts.append(' "result": ' + json.dumps(result, ensure_ascii=False))
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text_atomic(text: str, path: str | Path) -> None:
    """Write ``text`` whole or not at all (a temporary file renamed into place).

    Only a regular file is ever replaced: a folder, a device node or another special
    file at the path is refused (the error names it), and so is an empty path. A
    symbolic link is followed, so the file it points to is replaced and the link kept.
    An existing file keeps its permission bits; a new one gets the usual ``0666`` less
    the umask.
    """
    source = str(path)
    if not source:
        raise RecordError("an empty path names no file to write", source="''")
    if "\0" in source:
        raise RecordError("a path cannot hold a NUL character", source=repr(source))
    target = Path(os.path.realpath(path))
    try:
        info: os.stat_result | None = target.stat()
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise RecordError(f"cannot be written: {error.strerror}", source=source) from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise RecordError(f"{kind}; output is written only to a regular file", source=source)
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
        )
    except OSError as error:
        raise RecordError(f"cannot be written: {error.strerror}", source=source) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise RecordError(f"cannot be written: {error.strerror}", source=source) from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_record(record: Record, path: str | Path) -> None:
    """Write a record whole or not at all (a temporary file renamed into place)."""
    write_text_atomic(dumps_record(record), path)


# ---------------------------------------------------------------------------------------
# Reading: the schema first, then what a schema cannot say


def _schema_error(
    document: Any, schema_name: str, source: str, plain_json: bool
) -> RecordError | None:
    violation = first_violation(schema_name, document, plain_json=plain_json)
    if violation is None:
        return None
    path = violation.path
    if len(path) >= 2 and path[0] == "steps" and isinstance(path[1], int):
        return RecordError(
            violation.message,
            source=source,
            step=path[1],
            field=field_path(path[2:]) if len(path) > 2 else "(step)",
        )
    return RecordError(violation.message, source=source, field=violation.field)


def setup_from_json(document: Mapping[str, Any]) -> SetupOutcome:
    """Build a record's ``setup`` object (already schema-valid; :func:`validate_setup`
    checks its contents)."""
    return SetupOutcome(
        province_tiles=dict(document["province_tiles"]),
        bonus_tiles=dict(document["bonus_tiles"]),
        hands=tuple(tuple(hand) for hand in document["hands"]),
        display=tuple(document["display"]),
        deck=tuple(document["deck"]),
        start_player=document["start_player"],
    )


def _step_from_json(raw: Mapping[str, Any], index: int, players: int, source: str) -> RecordStep:
    get = raw.get
    actor = raw["actor"]
    if actor == CHANCE:
        actor = None
    elif actor >= players:
        raise RecordError(
            f"expected a seat from 0 to {players - 1} or 'chance', found {actor!r}",
            source=source,
            step=index,
            field="actor",
        )
    scores = get("scores")
    if scores is not None:
        if len(scores) != players:
            raise RecordError(
                f"expected {players} scores, found {len(scores)}",
                source=source,
                step=index,
                field="scores",
            )
        scores = tuple(scores)
    legal = get("legal")
    if legal is not None:
        if len(legal) != raw["legal_count"] or legal_digest(legal) != raw["legal_digest"]:
            raise RecordError(
                "the legal actions listed do not match legal_count and legal_digest",
                source=source,
                step=index,
                field="legal",
            )
        legal = tuple(legal)
    tags = get("tags")
    clauses = get("clauses")
    return RecordStep(  # positional, in the order of the fields
        actor,
        raw["action"],
        scores,
        () if clauses is None else tuple(clauses),
        None if tags is None else tuple(tags),
        get("legal_count"),
        get("legal_digest"),
        get("state_digest"),
        legal,
        get("public"),
    )


def record_from_json(document: Any, source: str = "", *, plain_json: bool = False) -> Record:
    """Parse a record document of any readable version; raises :class:`RecordError`
    naming file, step and field.

    ``plain_json``: the document was parsed by :mod:`tajmahal.inputs` and its numbers
    are all short integers (:attr:`tajmahal.inputs.Parsed.plain_numbers`), so a
    compiled schema validator may confirm it valid first (see
    :func:`tajmahal.schemas.first_violation`); the result is the same either way."""
    if not isinstance(document, dict):
        raise RecordError("expected a JSON object", source=source, field="(root)")
    if document.get("format") != TRACE_FORMAT:
        raise RecordError(
            f"expected format {TRACE_FORMAT!r}, found {document.get('format')!r}",
            source=source,
            field="format",
        )
    version = document.get("version")
    if type(version) is not int or version not in READABLE_VERSIONS:
        raise RecordError(
            f"this reader understands versions {', '.join(map(str, READABLE_VERSIONS))}, "
            f"found {version!r}",
            source=source,
            field="version",
        )
    error = _schema_error(document, SCHEMA_BY_VERSION[version], source, plain_json)
    if error is not None:
        raise error
    players: int = document["players"]
    rules = RuleSet.from_json(document.get("ruleset", {}), source=source, field="ruleset")
    names = document.get("names")
    if names is not None and len(names) != players:
        raise RecordError(
            f"expected {players} names, found {len(names)}", source=source, field="names"
        )
    steps = tuple(
        _step_from_json(raw, index, players, source) for index, raw in enumerate(document["steps"])
    )
    final_scores = winners = None
    if "result" in document:
        final_scores = tuple(document["result"]["scores"])
        winners = tuple(document["result"]["winners"])
        if len(final_scores) != players:
            raise RecordError(f"expected {players} scores", source=source, field="result.scores")
        if any(seat >= players for seat in winners):
            raise RecordError(
                f"winners are seats from 0 to {players - 1}", source=source, field="result.winners"
            )
    components = document["components"]
    return Record(
        players=players,
        rules=rules,
        components_digest=components["digest"],
        components_name=components.get("name", ""),
        setup=setup_from_json(document["setup"]),
        steps=steps,
        final_scores=final_scores,
        winners=winners,
        seed=document.get("seed"),
        names=tuple(names) if names is not None else None,
        id=document.get("id"),
        description=document.get("description"),
        version=version,
    )


def read_record(path: str | Path) -> Record:
    """Read and parse a record file (``-``: standard input); every failure is a
    :class:`RecordError` naming the file. Reading is bounded (see :mod:`tajmahal.inputs`)."""
    source = "(standard input)" if str(path) == STDIN else str(path)
    try:
        parsed = read_json_document(path, RECORD_LIMITS)
        document = parsed.document
        check_record_limits(document, source)
    except InputError as error:
        step: int | None = None
        field = error.field
        if len(error.path) >= 2 and error.path[0] == "steps" and isinstance(error.path[1], int):
            step = error.path[1]
            field = json_path(error.path[2:])
        raise RecordError(error.detail, source=source, step=step, field=field) from None
    return record_from_json(document, source, plain_json=parsed.plain_numbers)


# ---------------------------------------------------------------------------------------
# Replaying


@attrs.frozen
class ReplayedStep:
    """One replayed step: the state before it, the action, the state after, the events."""

    index: int
    """The step's index in the record."""
    before: GameState
    """The position in which the action was taken."""
    action: Action
    """The parsed action."""
    after: GameState
    """The position after the action and everything automatic that follows it."""
    events: tuple[Event, ...]
    """What happened, in order."""


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
        tags = sorted(edge_tags(replayed.before, replayed.action, replayed.events, after))
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
    for index, step in enumerate(record.steps):
        if state.step is _OVER:
            raise VerificationError(
                "the game is already over; the record has extra steps",
                source=source,
                step=index,
                field="action",
            )
        try:
            action = _parse_action(step.action)
        except ActionSyntaxError as error:
            raise RecordError(str(error), source=source, step=index, field="action") from None
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
            legal = action_strings(legal_actions(state))
            if step.legal_count != len(legal):
                found.append(Mismatch("legal_count", step.legal_count, len(legal)))
            digest = sha256_text("\n".join(legal))  # legal_digest(legal), already sorted
            if step.legal_digest != digest:
                found.append(Mismatch("legal_digest", step.legal_digest, digest))
            if step.legal is not None and list(step.legal) != legal:
                found.append(Mismatch("legal", list(step.legal), legal))
        try:
            after, events = apply_with_events(state, action)
        except IllegalActionError as error:
            found.append(Mismatch("action", step.action, f"illegal: {error}"))
            raise VerificationError(
                f"illegal action {step.action!r}: {error}",
                source=source,
                step=index,
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
                        and list(step.tags) != sorted(edge_tags(state, action, events, after))
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
                    step=index,
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


# ---------------------------------------------------------------------------------------
# Recording


class Recorder:
    """Builds a record while a game is played (see :func:`tajmahal.match.play_match`)."""

    def __init__(
        self,
        components: Components,
        players: int,
        setup: SetupOutcome,
        rules: RuleSet,
        *,
        seed: int | None = None,
        names: tuple[str, ...] | None = None,
        full: bool = False,
        record_id: str | None = None,
        description: str | None = None,
    ) -> None:
        self.components = components
        self.players = players
        self.setup = setup
        self.rules = rules
        self.seed = seed
        self.names = names
        self.full = full
        """Also write the legal actions and the public position of every step."""
        self.record_id = record_id
        self.description = description
        self.steps: list[RecordStep] = []

    def add(
        self,
        before: GameState,
        action: Action,
        after: GameState,
        events: tuple[Event, ...] | None = None,
        legal: tuple[Action, ...] | None = None,
    ) -> None:
        """Record one applied action with its events (applied again to find them when not
        given) and the legal actions of ``before`` (computed when not given)."""
        if events is None:
            events = apply_with_events(before, action)[1]
        strings: list[str] | None = None
        if not before.is_chance:
            strings = sorted(str(item) for item in (legal or legal_actions(before)))
        self.steps.append(
            RecordStep(
                actor=None if before.is_chance else before.to_move,
                action=str(action),
                scores=after.scores,
                clauses=step_clauses(action, events),
                tags=tuple(sorted(edge_tags(before, action, events, after))),
                legal_count=len(strings) if strings is not None else None,
                legal_digest=legal_digest(strings) if strings is not None else None,
                state_digest=state_digest(after),
                legal=tuple(strings) if strings is not None and self.full else None,
                public=public_to_json(after) if self.full else None,
            )
        )

    def record(self, final: GameState | None = None) -> Record:
        """The record so far; with the final state of a finished game, its result too."""
        finished = final is not None and final.is_over
        return Record(
            players=self.players,
            rules=self.rules,
            components_digest=self.components.digest,
            components_name=self.components.name,
            setup=self.setup,
            steps=tuple(self.steps),
            final_scores=final.scores if finished and final is not None else None,
            winners=final.winners() if finished and final is not None else None,
            seed=self.seed,
            names=self.names,
            id=self.record_id,
            description=self.description,
        )


__all__ = [
    "CHANCE",
    "READABLE_VERSIONS",
    "TRACE_FORMAT",
    "TRACE_VERSION",
    "Mismatch",
    "Record",
    "RecordStep",
    "Recorder",
    "ReplayedStep",
    "VerificationError",
    "check_result",
    "dumps_record",
    "initial_state",
    "public_to_json",
    "read_record",
    "record_from_json",
    "record_to_json",
    "replay",
    "replay_steps",
    "replayed_states",
    "step_to_json",
    "verify",
    "write_record",
    "write_text_atomic",
]
