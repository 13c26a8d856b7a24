"""The accelerated layer: fast drop-ins for named core functions, chosen in one place.

The core (:mod:`tajmahal.inputs`, :mod:`tajmahal.model`, :mod:`tajmahal.engine`,
:mod:`tajmahal.notation`, :mod:`tajmahal.records`, :mod:`tajmahal.agents`) is written the
plain way: it is what a reader, a maintainer or a porter reads, and it never imports this
package. What runs faster lives here instead, and every entry of :data:`FAST_PATHS`
(a :class:`FastPath`):

- is a drop-in for one named core function: same arguments, same results, same errors;
- is pinned to that function by the tests in ``tests/accel/``, which compare the two
  directly on many positions;
- earns its place: it buys at least 5% on a published benchmark (``docs/performance.md``),
  and its ``buys`` says what.

This package binds each chosen function to the core function's own name
(:func:`apply` is the fast :func:`tajmahal.engine.apply`, :func:`state_digest` the fast
:func:`tajmahal.notation.state_digest`), and offers the
bundle of functions the replay calls (:data:`REPLAY`) and the collector setting of ``verify``
(:func:`fewer_collections`). The layers above the core (verification, conformance, the
AI interfaces, testing, the command line) take what they want from here, explicitly;
nothing is patched into a core module.

With ``TAJMAHAL_PLAIN=1`` in the environment (:data:`PLAIN_VARIABLE`) every function of
this package is the core function itself and every setting leaves things as they are,
so the whole package runs on the plain core (CI verifies the golden corpus and runs the
position cases and perft that way too). A list of core function names instead
(``TAJMAHAL_PLAIN=state_digest,legal_digest``) switches off those fast paths alone, which
is how what each one buys is measured.
"""

from __future__ import annotations

from typing import Any

from tajmahal.accel import _engine, _inputs, _notation, _records, _view
from tajmahal.accel._ai import (
    LazyObservation,
    PartwiseObserver,
    lazy_masked_observation,
    legal_ids,
    legal_mask,
    shared_across_seeds,
)
from tajmahal.accel._collector import GENERATION_0_THRESHOLD, collect_less, fewer_collections
from tajmahal.accel._engine import ChoiceTables, action_tables, legal_choices
from tajmahal.accel._path import ENABLED, PLAIN_NAMES, PLAIN_VARIABLE, FastPath
from tajmahal.accel._secrets import hidden_cards_shown
from tajmahal.records import ReplayFunctions, SchemaVouch

FAST_PATHS: tuple[FastPath[Any], ...] = (
    *_engine.FAST_PATHS,
    *_inputs.FAST_PATHS,
    *_notation.FAST_PATHS,
    *_records.FAST_PATHS,
    *_view.FAST_PATHS,
)
"""Every fast path of the layer, each pinned to its core function by ``tests/accel/``."""

# The chosen functions, each under its core function's name.
legal_actions = _engine.LEGAL_ACTIONS.chosen()
apply = _engine.APPLY.chosen()
apply_with_events = _engine.APPLY_WITH_EVENTS.chosen()
parse_json_document = _inputs.PARSE_JSON_DOCUMENT.chosen()
canonical_json = _notation.CANONICAL_JSON.chosen()
state_digest = _notation.STATE_DIGEST.chosen()
legal_strings = _notation.LEGAL_STRINGS.chosen()
legal_digest = _notation.LEGAL_DIGEST.chosen()
read_record = _records.READ_RECORD.chosen()
parse_action = _records.PARSE_ACTION.chosen()
edge_tags = _records.EDGE_TAGS.chosen()
view = _view.VIEW.chosen()

schema_vouch: SchemaVouch | None = (
    _records.vouch if _records.READ_RECORD.chosen() is _records.READ_RECORD.fast else None
)
"""The quicker schema check that reading a record may ask first (the compiled validator,
see ``tajmahal.records.SchemaVouch``); None when the fast ``read_record`` is switched off
(``TAJMAHAL_PLAIN=1`` or ``TAJMAHAL_PLAIN=read_record``)."""

REPLAY = ReplayFunctions(
    parse_action=parse_action,
    apply_with_events=apply_with_events,
    state_digest=state_digest,
    legal_strings=legal_strings,
    legal_digest=legal_digest,
    edge_tags=edge_tags,
)
"""The functions the replay calls at every step, as chosen here (pass it as
``functions`` to :func:`tajmahal.records.replay_steps`)."""

# The drop-ins for functions of the AI interfaces and of the fuzzer's invariants, which
# stand above this layer, are paired with their functions, and chosen, there
# (tajmahal/ai/_fast_paths.py, for the OpenSpiel adapter tajmahal/ai/openspiel/_fast_paths.py,
# and tajmahal/testing/invariants/_fast_paths.py).
__all__ = [
    "ENABLED",
    "FAST_PATHS",
    "GENERATION_0_THRESHOLD",
    "PLAIN_NAMES",
    "PLAIN_VARIABLE",
    "REPLAY",
    "ChoiceTables",
    "FastPath",
    "LazyObservation",
    "PartwiseObserver",
    "action_tables",
    "apply",
    "apply_with_events",
    "canonical_json",
    "collect_less",
    "edge_tags",
    "fewer_collections",
    "hidden_cards_shown",
    "lazy_masked_observation",
    "legal_actions",
    "legal_choices",
    "legal_digest",
    "legal_ids",
    "legal_mask",
    "legal_strings",
    "parse_action",
    "parse_json_document",
    "read_record",
    "schema_vouch",
    "shared_across_seeds",
    "state_digest",
    "view",
]
