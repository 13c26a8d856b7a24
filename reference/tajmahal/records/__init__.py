"""Game records: the versioned trace format, its replay, edge tags and the account.

A record holds everything needed to replay a game with no random generator, and from
version 2 on what a checking engine must reproduce after every step. ``docs/trace-format.md``
defines every field; ``specs/schemas/trace.schema.json`` is the one statement of its shape.

- :class:`Record`, :class:`RecordStep`: a record as values; :func:`read_record`,
  :func:`write_record`: reading (the schema first) and writing (whole or not at all);
- :func:`replay_steps`, :func:`replay`, :func:`verify`: every step applied again and every
  expectation checked (:class:`VerificationError`), with the functions of
  :class:`ReplayFunctions`;
- :class:`Recorder`: a record built while a game is played;
- :func:`edge_tags`, :func:`step_clauses`: the edge cases a step reaches (the action's own,
  :func:`action_tags`; each event's, :func:`event_tags`; the whole step's, :func:`step_tags`)
  and the clauses that decided it;
- :func:`event_lines`: the readable, visit-by-visit account; :func:`step_account`: one
  step's lines as ``replay`` prints them, numbered (:func:`numbered_lines`).
"""

from tajmahal.records._account import (
    closing_lines,
    event_lines,
    numbered_lines,
    opening_lines,
    player_label,
    step_account,
)
from tajmahal.records._model import (
    CHANCE,
    READABLE_VERSIONS,
    SCHEMA_BY_VERSION,
    TRACE_FORMAT,
    TRACE_VERSION,
    Record,
    RecordStep,
    public_to_json,
)
from tajmahal.records._reading import (
    SchemaVouch,
    read_record,
    record_from_json,
    setup_from_json,
)
from tajmahal.records._recorder import Recorder
from tajmahal.records._replay import (
    PLAIN_REPLAY,
    Mismatch,
    ReplayedStep,
    ReplayFunctions,
    VerificationError,
    check_result,
    initial_state,
    replay,
    replay_steps,
    verify,
)
from tajmahal.records._tags import TAGS, action_tags, edge_tags, event_tags, step_clauses, step_tags
from tajmahal.records._writing import (
    dumps_record,
    record_to_json,
    setup_to_json,
    step_to_json,
    write_record,
    write_text_atomic,
)

__all__ = [
    "CHANCE",
    "PLAIN_REPLAY",
    "READABLE_VERSIONS",
    "SCHEMA_BY_VERSION",
    "TAGS",
    "TRACE_FORMAT",
    "TRACE_VERSION",
    "Mismatch",
    "Record",
    "RecordStep",
    "Recorder",
    "ReplayFunctions",
    "ReplayedStep",
    "SchemaVouch",
    "VerificationError",
    "action_tags",
    "check_result",
    "closing_lines",
    "dumps_record",
    "edge_tags",
    "event_lines",
    "event_tags",
    "initial_state",
    "numbered_lines",
    "opening_lines",
    "player_label",
    "public_to_json",
    "read_record",
    "record_from_json",
    "record_to_json",
    "replay",
    "replay_steps",
    "setup_from_json",
    "setup_to_json",
    "step_account",
    "step_clauses",
    "step_tags",
    "step_to_json",
    "verify",
    "write_record",
    "write_text_atomic",
]
