"""Game records: the versioned JSON trace format, written once and published as is.

A record holds everything needed to replay a game with no random generator: the player
count, the rule set, the digest of the component set, every setup outcome, and every
step (each decision and each chance outcome) as a canonical action string. Each step
also carries the scores after it, so another implementation can name the first step
where it diverges. The schema is ``specs/trace.schema.json``.

Errors name the file, the step and the field. Malformed or illegal input raises
:class:`~tajmahal.errors.RecordError`; a record that replays but disagrees with its
own stated scores or result raises :class:`VerificationError`.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from tajmahal.actions import (
    Action,
    PlaceCrown,
    PlacePalace,
    Play,
    Reshuffle,
    Take,
    Withdraw,
    parse_action,
)
from tajmahal.components import Components
from tajmahal.engine import apply_with_events
from tajmahal.errors import ActionSyntaxError, IllegalActionError, RecordError, TajMahalError
from tajmahal.events import Event
from tajmahal.inputs import (
    RECORD_LIMITS,
    STDIN,
    InputError,
    check_record_limits,
    json_path,
    read_json,
)
from tajmahal.rules import RuleSet
from tajmahal.setup import SetupOutcome, new_game, validate_setup
from tajmahal.state import GameState

TRACE_FORMAT = "tajmahal-trace"
"""The ``format`` tag of a record."""
TRACE_VERSION = 1
"""The version of the record layout; readers refuse versions they do not know."""
CHANCE = "chance"
"""The ``actor`` of a chance step."""


class VerificationError(TajMahalError):
    """A record replays, but a score or result it states differs from the replay."""

    def __init__(self, message: str, *, source: str, step: int | None, field: str) -> None:
        self.source = source
        self.step = step
        self.field = field
        where = [
            part for part in (source, f"step {step}" if step is not None else "", field) if part
        ]
        super().__init__(f"{': '.join(where)}: {message}")


@attrs.frozen
class RecordStep:
    """One step of a record."""

    actor: int | None
    """The seat that acted, or None for a chance outcome."""
    action: str
    """The canonical action string."""
    scores: tuple[int, ...] | None = None
    """Every seat's score after the step, when recorded."""
    clauses: tuple[str, ...] = ()
    """Clause ids the step exercises (an aid for naming divergences)."""


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


_CLAUSES_BY_ACTION: dict[type, tuple[str, ...]] = {
    Play: ("TM.TURN.CHOICE", "TM.PLAY.ONE_COLOURED", "TM.PLAY.COLOUR_LOCK"),
    Withdraw: ("TM.TURN.CHOICE", "TM.WITHDRAW.COMPARE", "TM.WITHDRAW.MAJORITY.STRICT"),
    PlacePalace: ("TM.REWARD.INFLUENCE.PALACE", "TM.REWARD.FORTRESS.BONUS"),
    PlaceCrown: ("TM.REWARD.CROWN.PALACE",),
    Take: ("TM.WITHDRAW.PICK_TWO",),
    Reshuffle: ("TM.VISIT.NEXT.RESHUFFLE",),
}


def clauses_for(action: Action) -> tuple[str, ...]:
    """The clause ids a step of this kind exercises first (recorded with each step)."""
    return _CLAUSES_BY_ACTION[type(action)]


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


def record_to_json(record: Record) -> dict[str, Any]:
    """The JSON document of a record (keys in a fixed, readable order)."""
    document: dict[str, Any] = {
        "format": TRACE_FORMAT,
        "version": TRACE_VERSION,
        "players": record.players,
        "ruleset": record.rules.to_json(),
        "components": {"name": record.components_name, "digest": record.components_digest},
    }
    if record.seed is not None:
        document["seed"] = record.seed
    if record.names is not None:
        document["names"] = list(record.names)
    document["setup"] = setup_to_json(record.setup)
    steps = []
    for step in record.steps:
        entry: dict[str, Any] = {
            "actor": CHANCE if step.actor is None else step.actor,
            "action": step.action,
        }
        if step.scores is not None:
            entry["scores"] = list(step.scores)
        if step.clauses:
            entry["clauses"] = list(step.clauses)
        steps.append(entry)
    document["steps"] = steps
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


def write_record(record: Record, path: str | Path) -> None:
    """Write a record whole or not at all (a temporary file renamed into place).

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
        raise RecordError(f"{kind}; a record is written only to a regular file", source=source)
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
    text = dumps_record(record)
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


# ---------------------------------------------------------------------------------------
# Reading


def _require(
    condition: bool, message: str, source: str, field: str, step: int | None = None
) -> None:
    if not condition:
        raise RecordError(message, source=source, step=step, field=field)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _string_list(value: Any, source: str, field: str) -> tuple[str, ...]:
    _require(
        isinstance(value, list) and all(isinstance(item, str) for item in value),
        "expected a list of strings",
        source,
        field,
    )
    return tuple(value)


def _int_list(value: Any, source: str, field: str, step: int | None = None) -> tuple[int, ...]:
    _require(
        isinstance(value, list) and all(_is_int(item) for item in value),
        "expected a list of integers",
        source,
        field,
        step,
    )
    return tuple(value)


def _string_map(value: Any, source: str, field: str) -> dict[str, str]:
    _require(isinstance(value, dict), "expected an object", source, field)
    for key, item in value.items():
        _require(isinstance(item, str), "expected a string", source, f"{field}.{key}")
    return dict(value)


def setup_from_json(document: Any, source: str = "") -> SetupOutcome:
    """Parse a record's ``setup`` object (shape only; :func:`validate_setup` checks contents)."""
    _require(isinstance(document, dict), "expected an object", source, "setup")
    for key in ("province_tiles", "bonus_tiles", "hands", "display", "deck", "start_player"):
        _require(key in document, f"missing field '{key}'", source, "setup")
    hands = document["hands"]
    _require(isinstance(hands, list), "expected a list of hands", source, "setup.hands")
    start = document["start_player"]
    _require(_is_int(start), "expected an integer", source, "setup.start_player")
    return SetupOutcome(
        province_tiles=_string_map(document["province_tiles"], source, "setup.province_tiles"),
        bonus_tiles=_string_map(document["bonus_tiles"], source, "setup.bonus_tiles"),
        hands=tuple(
            _string_list(hand, source, f"setup.hands[{seat}]") for seat, hand in enumerate(hands)
        ),
        display=_string_list(document["display"], source, "setup.display"),
        deck=_string_list(document["deck"], source, "setup.deck"),
        start_player=start,
    )


def record_from_json(document: Any, source: str = "") -> Record:
    """Parse a record document; raises :class:`RecordError` naming file, step and field."""
    _require(isinstance(document, dict), "expected a JSON object", source, "(root)")
    _require(
        document.get("format") == TRACE_FORMAT,
        f"expected format {TRACE_FORMAT!r}, found {document.get('format')!r}",
        source,
        "format",
    )
    version = document.get("version")
    _require(
        version == TRACE_VERSION,
        f"this reader understands version {TRACE_VERSION}, found {version!r}",
        source,
        "version",
    )
    players = document.get("players")
    if not (_is_int(players) and players in (3, 4, 5)):
        raise RecordError(f"expected 3, 4 or 5, found {players!r}", source=source, field="players")
    rules = RuleSet.from_json(document.get("ruleset", {}), source=source, field="ruleset")
    components = document.get("components")
    if not (isinstance(components, dict) and isinstance(components.get("digest"), str)):
        raise RecordError(
            "expected an object with a 'digest' string", source=source, field="components"
        )
    _require("setup" in document, "missing field 'setup'", source, "setup")
    setup = setup_from_json(document["setup"], source)
    raw_steps = document.get("steps")
    if not isinstance(raw_steps, list):
        raise RecordError("expected a list of steps", source=source, field="steps")
    steps = []
    for index, raw in enumerate(raw_steps):
        _require(isinstance(raw, dict), "expected an object", source, "", index)
        actor = raw.get("actor")
        _require(
            actor == CHANCE or (_is_int(actor) and 0 <= actor < players),
            f"expected a seat from 0 to {players - 1} or 'chance', found {actor!r}",
            source,
            "actor",
            index,
        )
        action = raw.get("action")
        _require(
            isinstance(action, str), "expected a canonical action string", source, "action", index
        )
        scores = None
        if "scores" in raw:
            scores = _int_list(raw["scores"], source, "scores", index)
            _require(len(scores) == players, f"expected {players} scores", source, "scores", index)
        clauses: tuple[str, ...] = ()
        if "clauses" in raw:
            clauses = _string_list(raw["clauses"], source, f"steps[{index}].clauses")
        steps.append(RecordStep(None if actor == CHANCE else actor, action, scores, clauses))
    final_scores = winners = None
    if "result" in document:
        result = document["result"]
        _require(isinstance(result, dict), "expected an object", source, "result")
        final_scores = _int_list(result.get("scores"), source, "result.scores")
        winners = _int_list(result.get("winners"), source, "result.winners")
    seed = document.get("seed")
    _require(seed is None or _is_int(seed), "expected an integer", source, "seed")
    names = document.get("names")
    return Record(
        players=players,
        rules=rules,
        components_digest=components["digest"],
        components_name=str(components.get("name", "")),
        setup=setup,
        steps=tuple(steps),
        final_scores=final_scores,
        winners=winners,
        seed=seed,
        names=_string_list(names, source, "names") if names is not None else None,
    )


def read_record(path: str | Path) -> Record:
    """Read and parse a record file (``-``: standard input); every failure is a
    :class:`RecordError` naming the file. Reading is bounded (see :mod:`tajmahal.inputs`)."""
    source = "(standard input)" if str(path) == STDIN else str(path)
    try:
        document = read_json(path, RECORD_LIMITS)
        check_record_limits(document, source)
    except InputError as error:
        step: int | None = None
        field = error.field
        if len(error.path) >= 2 and error.path[0] == "steps" and isinstance(error.path[1], int):
            step = error.path[1]
            field = json_path(error.path[2:])
        raise RecordError(error.detail, source=source, step=step, field=field) from None
    return record_from_json(document, source)


# ---------------------------------------------------------------------------------------
# Replaying


@attrs.frozen
class ReplayedStep:
    """One replayed step: the state before it, the action, the state after, the events."""

    index: int
    before: GameState
    action: Action
    after: GameState
    events: tuple[Event, ...]


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


def replay_steps(
    record: Record, components: Components, source: str = ""
) -> Iterator[ReplayedStep]:
    """Replay a record step by step, checking every actor, action and recorded score.

    Raises :class:`RecordError` for an unparsable or illegal step and
    :class:`VerificationError` for a recorded score the replay does not reproduce.
    """
    state = initial_state(record, components, source)
    for index, step in enumerate(record.steps):
        if state.is_over:
            raise RecordError(
                "the game is already over; the record has extra steps",
                source=source,
                step=index,
                field="action",
            )
        expected_actor = None if state.is_chance else state.to_move
        if step.actor != expected_actor:
            wanted = "a chance outcome" if expected_actor is None else f"seat {expected_actor}"
            found = "chance" if step.actor is None else step.actor
            raise RecordError(
                f"expected {wanted} to act, the record says {found}",
                source=source,
                step=index,
                field="actor",
            )
        try:
            action = parse_action(step.action)
            after, events = apply_with_events(state, action)
        except ActionSyntaxError as error:
            raise RecordError(str(error), source=source, step=index, field="action") from None
        except IllegalActionError as error:
            raise RecordError(
                f"illegal action {step.action!r}: {error}",
                source=source,
                step=index,
                field="action",
            ) from None
        if step.scores is not None and step.scores != after.scores:
            raise VerificationError(
                f"recorded scores {list(step.scores)} differ from the replay's "
                f"{list(after.scores)}",
                source=source,
                step=index,
                field="scores",
            )
        yield ReplayedStep(index, state, action, after, events)
        state = after


def replay(record: Record, components: Components, source: str = "") -> GameState:
    """The final state of a record (see :func:`replay_steps` for the checks made)."""
    state = initial_state(record, components, source)
    for replayed in replay_steps(record, components, source):
        state = replayed.after
    return state


def verify(record: Record, components: Components, source: str = "") -> GameState:
    """Replay a record and check that it is complete and its stated result holds."""
    state = replay(record, components, source)
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
        )
    if record.winners is not None and record.winners != state.winners():
        raise VerificationError(
            f"recorded winners {list(record.winners)} differ from the "
            f"replay's {list(state.winners())}",
            source=source,
            step=None,
            field="result.winners",
        )
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
    ) -> None:
        self.components = components
        self.players = players
        self.setup = setup
        self.rules = rules
        self.seed = seed
        self.names = names
        self.steps: list[RecordStep] = []

    def add(self, before: GameState, action: Action, after: GameState) -> None:
        """Record one applied action."""
        self.steps.append(
            RecordStep(
                None if before.is_chance else before.to_move,
                str(action),
                after.scores,
                clauses_for(action),
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
        )


__all__ = [
    "CHANCE",
    "TRACE_FORMAT",
    "TRACE_VERSION",
    "Record",
    "RecordStep",
    "Recorder",
    "ReplayedStep",
    "VerificationError",
    "clauses_for",
    "dumps_record",
    "initial_state",
    "read_record",
    "record_from_json",
    "record_to_json",
    "replay",
    "replay_steps",
    "verify",
    "write_record",
]
