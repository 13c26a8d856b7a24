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

This module gathers the public names; each concern lives in a module of its own:

- :mod:`tajmahal.trace_model`: the record as values (:class:`Record`,
  :class:`RecordStep`, :func:`public_to_json`, the format constants);
- :mod:`tajmahal.trace_writing`: its JSON document and text, written whole
  (:func:`record_to_json`, :func:`dumps_record`, :func:`write_record`,
  :func:`write_text_atomic`);
- :mod:`tajmahal.trace_reading`: reading a document back, the schema first
  (:func:`record_from_json`, :func:`read_record`);
- :mod:`tajmahal.trace_replay`: replaying a record and checking every expectation
  (:func:`replay_steps`, :func:`replay`, :func:`verify`, :class:`VerificationError`);
- :mod:`tajmahal.trace_recorder`: building a record while a game is played
  (:class:`Recorder`).
"""

from __future__ import annotations

from tajmahal.trace_model import (
    CHANCE,
    READABLE_VERSIONS,
    TRACE_FORMAT,
    TRACE_VERSION,
    Record,
    RecordStep,
    public_to_json,
)
from tajmahal.trace_model import SCHEMA_BY_VERSION as SCHEMA_BY_VERSION
from tajmahal.trace_reading import read_record, record_from_json
from tajmahal.trace_reading import setup_from_json as setup_from_json
from tajmahal.trace_recorder import Recorder
from tajmahal.trace_replay import (
    Mismatch,
    ReplayedStep,
    VerificationError,
    check_result,
    initial_state,
    replay,
    replay_steps,
    replayed_states,
    verify,
)
from tajmahal.trace_writing import (
    dumps_record,
    record_to_json,
    step_to_json,
    write_record,
    write_text_atomic,
)
from tajmahal.trace_writing import setup_to_json as setup_to_json

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
