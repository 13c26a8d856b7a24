"""Canonical JSON for any game state, the way FEN writes down a chess position.

``state_from_json(state_to_json(state), components) == state`` for every state, and
:func:`canonical_json` gives one exact text per state (sorted keys, no spaces), so a
digest of it identifies a position. The components are not embedded: the document
names their digest, and loading checks it against the component set supplied.

This module gathers the public names; each concern lives in a module of its own:

- :mod:`tajmahal.writing`: the document (:func:`state_to_json`,
  :data:`~tajmahal.writing.STATE_FORMAT`, :data:`~tajmahal.writing.STATE_VERSION`,
  :data:`~tajmahal.writing.DRAW_REASONS`);
- :mod:`tajmahal.canonical` and :mod:`tajmahal.canonical_parts`: the canonical text and
  its digest (:func:`canonical_json`, :func:`state_digest`);
- :mod:`tajmahal.reading`: reading a document back (:func:`state_from_json`,
  :func:`reads_back`, :func:`position_from_json`, :func:`read_position`);
- :mod:`tajmahal.validation` and :mod:`tajmahal.validation_visit`: whether a state
  could arise in play (:func:`validate_state`).
"""

from __future__ import annotations

from tajmahal.canonical import canonical_json, state_digest
from tajmahal.reading import position_from_json, read_position, reads_back, state_from_json
from tajmahal.validation import validate_state
from tajmahal.writing import DRAW_REASONS, STATE_FORMAT, STATE_VERSION, state_to_json

__all__ = [
    "DRAW_REASONS",
    "STATE_FORMAT",
    "STATE_VERSION",
    "canonical_json",
    "position_from_json",
    "read_position",
    "reads_back",
    "state_digest",
    "state_from_json",
    "state_to_json",
    "validate_state",
]
