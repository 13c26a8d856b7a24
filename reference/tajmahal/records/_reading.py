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

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tajmahal.engine import SetupOutcome
from tajmahal.errors import RecordError
from tajmahal.inputs import (
    RECORD_LIMITS,
    InputError,
    Parse,
    check_document,
    check_record_limits,
    field_path,
    first_violation,
    json_path,
    parse_json_document,
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

SchemaVouch = Callable[[str, Any], bool]
"""A quicker check that may vouch for a document being valid against a published schema
(``vouch(schema_name, document)`` is True); ``jsonschema`` decides every document it does
not vouch for, and writes every message. The accelerated layer's compiled validator
(``jsonschema-rs``) is one."""


def _schema_error(
    document: Any, schema_name: str, source: str, vouch: SchemaVouch | None
) -> RecordError | None:
    if vouch is not None and vouch(schema_name, document):
        return None
    violation = first_violation(schema_name, document)
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


def _step_from_json(raw: dict[str, Any], index: int, players: int, source: str) -> RecordStep:
    """One step of a record (already schema-valid); what a schema cannot say (a seat
    beyond the players, scores of the wrong length, listed legal actions that do not
    match their count and digest) raises, naming the step and the field."""
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
    scores = raw.get("scores")
    if scores is not None and len(scores) != players:
        raise RecordError(
            f"expected {players} scores, found {len(scores)}",
            source=source,
            step=index + 1,
            field="scores",
        )
    legal = raw.get("legal")
    if legal is not None and (
        len(legal) != raw["legal_count"] or legal_digest(legal) != raw["legal_digest"]
    ):
        raise RecordError(
            "the legal actions listed do not match legal_count and legal_digest",
            source=source,
            step=index + 1,
            field="legal",
        )
    clauses = raw.get("clauses")
    tags = raw.get("tags")
    return RecordStep(
        actor=actor,
        action=raw["action"],
        scores=None if scores is None else tuple(scores),
        clauses=() if clauses is None else tuple(clauses),
        tags=None if tags is None else tuple(tags),
        legal_count=raw.get("legal_count"),
        legal_digest=raw.get("legal_digest"),
        state_digest=raw.get("state_digest"),
        legal=None if legal is None else tuple(legal),
        public=raw.get("public"),
    )


def record_from_json(
    document: Any, source: str = "", *, vouch: SchemaVouch | None = None, bounded: bool = False
) -> Record:
    """Parse a record document of any readable version; raises :class:`RecordError`
    naming file, step and field.

    ``vouch``: a quicker schema check asked first (see ``SchemaVouch``), to be given
    only for a document parsed by :mod:`tajmahal.inputs` whose numbers are plain
    (:attr:`tajmahal.inputs.Parsed.plain_numbers`): on those, a validator that reads
    ``4.0`` as an integer, or holds numbers as doubles, agrees with this package's.
    The result is the same with or without it. ``bounded``: the document was parsed
    by :mod:`tajmahal.inputs` under the record limits (as :func:`read_record` reads a
    file). Any other document may have been built in Python, and is first held to the
    limits of a record read from a file (:func:`tajmahal.inputs.check_document`:
    nesting, JSON types only, finite numbers), so that no value makes it fail otherwise."""
    if not bounded:  # perhaps built in Python: nothing has bounded it yet
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
    error = _schema_error(document, SCHEMA_BY_VERSION[version], source, vouch)
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


def read_record(
    path: str | Path,
    *,
    parse: Parse = parse_json_document,
    vouch: SchemaVouch | None = None,
) -> Record:
    """Read and parse a record file (``-``: standard input); every failure is a
    :class:`RecordError` naming the file. Reading is bounded (see :mod:`tajmahal.inputs`).

    ``parse``: the parser of the file's text under the limits; ``vouch``: a quicker
    schema check (``SchemaVouch``), asked first about a record whose numbers are
    plain (see :func:`record_from_json`)."""
    source = source_name(path)
    try:
        parsed = read_json_document(path, RECORD_LIMITS, parse=parse)
        document = parsed.document
        check_record_limits(document, source)
    except InputError as error:
        step: int | None = None
        field = error.field
        if len(error.path) >= 2 and error.path[0] == "steps" and isinstance(error.path[1], int):
            step = error.path[1] + 1
            field = json_path(error.path[2:])
        raise RecordError(error.detail, source=source, step=step, field=field) from None
    return record_from_json(
        document, source, vouch=vouch if parsed.plain_numbers else None, bounded=True
    )


# The functions are documented under tajmahal.records, which users import them from; only
# the type, whose docstring cannot go with it, is listed here.
__all__ = ["SchemaVouch"]
