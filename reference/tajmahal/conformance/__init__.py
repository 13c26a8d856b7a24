"""The conformance kit: position cases, perft, the engine protocol and live differential testing.

- :func:`run_cases` runs the language-neutral position cases of ``specs/cases`` against an
  engine (``python -m tajmahal.conformance``);
- :func:`perft` and :func:`divide` count move paths (``docs/perft.md``);
- :class:`Session` and :func:`serve` answer the JSON-lines engine protocol
  (``docs/protocol.md``); :class:`ForeignEngine` speaks it to another engine;
- :func:`run_diff` plays games through another engine and this one in lockstep and
  describes their first disagreement (:class:`Divergence`).
"""

from tajmahal.conformance._cases import ReferenceEngine, load_cases, main, run_cases
from tajmahal.conformance._differential import (
    POLICIES,
    DiffResult,
    EdgeSeeker,
    Shrunk,
    game_rules,
    run_diff,
    shrink,
)
from tajmahal.conformance._divergence import (
    FIELDS,
    OPTIONAL_FIELDS,
    Divergence,
    describe,
    legal_divergence,
    likely_clauses,
    refusal_clauses,
    refused_new_game,
    step_divergence,
)
from tajmahal.conformance._foreign import STDERR_LINES, EngineFailure, ForeignEngine
from tajmahal.conformance._lockstep import (
    Chooser,
    GamePlan,
    LockstepEngine,
    Played,
    chance_rng,
    divergence_record,
    observed_record,
    play_plan,
)
from tajmahal.conformance._perft import divide, perft
from tajmahal.conformance._protocol import (
    ENGINE_NAME,
    MAX_LINE_BYTES,
    PROTOCOL_VERSION,
    VIEW_FORMAT,
    Engine,
    ErrorCode,
    Op,
    ProtocolError,
    Session,
    document_digest,
    encode,
    serve,
    status,
    view_document,
)

__all__ = [
    "ENGINE_NAME",
    "FIELDS",
    "MAX_LINE_BYTES",
    "OPTIONAL_FIELDS",
    "POLICIES",
    "PROTOCOL_VERSION",
    "STDERR_LINES",
    "VIEW_FORMAT",
    "Chooser",
    "DiffResult",
    "Divergence",
    "EdgeSeeker",
    "Engine",
    "EngineFailure",
    "ErrorCode",
    "ForeignEngine",
    "GamePlan",
    "LockstepEngine",
    "Op",
    "Played",
    "ProtocolError",
    "ReferenceEngine",
    "Session",
    "Shrunk",
    "chance_rng",
    "describe",
    "divergence_record",
    "divide",
    "document_digest",
    "encode",
    "game_rules",
    "legal_divergence",
    "likely_clauses",
    "load_cases",
    "main",
    "observed_record",
    "perft",
    "play_plan",
    "refusal_clauses",
    "refused_new_game",
    "run_cases",
    "run_diff",
    "serve",
    "shrink",
    "status",
    "step_divergence",
    "view_document",
]
