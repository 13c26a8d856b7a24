"""Reading game records: the schema first, then what a schema cannot say.

A document is read under the bounds of :mod:`tajmahal.inputs`, validated against the
schema of its version (``specs/schemas/trace.schema.json``, ``trace-v1.schema.json``),
then checked for what a schema cannot say (seats beyond the player count, counts that
disagree, listed legal actions that do not match their digest) and built into a
:class:`~tajmahal.records.Record`. Every failure is a :class:`~tajmahal.errors.RecordError`
naming the file, the step and the field. Reading is apart from replaying: a record read
here is well formed, not yet checked against the rules. The names are imported from
:mod:`tajmahal.records`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tajmahal.engine import SetupOutcome
from tajmahal.errors import RecordError
from tajmahal.inputs import (
    RECORD_LIMITS,
    InputError,
    check_document,
    check_record_limits,
    field_path,
    first_violation,
    json_path,
    read_json_document,
    source_name,
)
from tajmahal.model import RuleSet
from tajmahal.notation import legal_digest
from tajmahal.records._model import (
    CHANCE,
    READABLE_VERSIONS,
    SCHEMA_BY_VERSION,
    TRACE_FORMAT,
    Record,
    RecordStep,
)


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
            step=path[1] + 1,
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


def _steps_from_json(raws: list[Any], players: int, source: str) -> tuple[RecordStep, ...]:
    """The record's steps (already schema-valid), in one loop: a record has up to
    :data:`~tajmahal.inputs.MAX_STEPS` of them, so no call is made per step but the
    :class:`RecordStep` built; the first step that says what a schema cannot (a seat
    beyond the players, scores of the wrong length, listed legal actions that do not
    match their count and digest) raises, naming the step and the field."""
    steps: list[RecordStep] = []
    append = steps.append
    step = RecordStep
    for index, raw in enumerate(raws):
        get = raw.get
        actor = raw["actor"]
        if actor == CHANCE:
            actor = None
        elif actor >= players:
            raise RecordError(
                f"expected a seat from 0 to {players - 1} or 'chance', found {actor!r}",
                source=source,
                step=index + 1,
                field="actor",
            )
        scores = get("scores")
        if scores is not None:
            if len(scores) != players:
                raise RecordError(
                    f"expected {players} scores, found {len(scores)}",
                    source=source,
                    step=index + 1,
                    field="scores",
                )
            scores = tuple(scores)
        legal = get("legal")
        if legal is not None:
            if len(legal) != raw["legal_count"] or legal_digest(legal) != raw["legal_digest"]:
                raise RecordError(
                    "the legal actions listed do not match legal_count and legal_digest",
                    source=source,
                    step=index + 1,
                    field="legal",
                )
            legal = tuple(legal)
        tags = get("tags")
        clauses = get("clauses")
        append(
            step(  # positional, in the order of the fields
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
        )
    return tuple(steps)


def record_from_json(document: Any, source: str = "", *, plain_json: bool = False) -> Record:
    """Parse a record document of any readable version; raises :class:`RecordError`
    naming file, step and field.

    ``plain_json``: the document was parsed by :mod:`tajmahal.inputs` and its numbers
    are all short integers (:attr:`tajmahal.inputs.Parsed.plain_numbers`), so a
    compiled schema validator may confirm it valid first (see
    :func:`tajmahal.inputs.first_violation`); the result is the same either way.
    Any other document may have been built in Python, and is first held to the limits
    of a record read from a file (:func:`tajmahal.inputs.check_document`: nesting,
    JSON types only, finite numbers), so that no value makes it fail otherwise."""
    if not plain_json:  # perhaps built in Python: nothing has bounded it yet
        try:
            check_document(document, RECORD_LIMITS, "")
        except InputError as refused:
            raise RecordError(refused.detail, source=source, field=refused.field) from None
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
    steps = _steps_from_json(document["steps"], players, source)
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
    source = source_name(path)
    try:
        parsed = read_json_document(path, RECORD_LIMITS)
        document = parsed.document
        check_record_limits(document, source)
    except InputError as error:
        step: int | None = None
        field = error.field
        if len(error.path) >= 2 and error.path[0] == "steps" and isinstance(error.path[1], int):
            step = error.path[1] + 1
            field = json_path(error.path[2:])
        raise RecordError(error.detail, source=source, step=step, field=field) from None
    return record_from_json(document, source, plain_json=parsed.plain_numbers)


# Every name here is documented under tajmahal.records, which users import it from.
__all__: list[str] = []
