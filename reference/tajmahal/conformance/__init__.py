"""The conformance kit: position cases, perft, the engine protocol and live differential testing.

- :func:`run_cases` runs the language-neutral position cases of ``specs/cases`` against an
  engine (``python -m tajmahal.conformance``);
- :func:`perft` and :func:`divide` count move paths (``docs/perft.md``);
- :class:`Session` and :func:`serve` answer the JSON-lines engine protocol
  (``docs/protocol.md``); :class:`ForeignEngine` speaks it to another engine;
- :func:`run_diff` plays games through another engine and this one in lockstep and
  describes their first disagreement (:class:`Divergence`);
- :data:`MISREADINGS` is the catalogue of plausible misreadings of the rules, each an
  engine (:class:`Misreading`) that ``tajmahal serve --misread NAME`` serves;
  :func:`catalogue_tester` tries the other readings (an option set otherwise, a
  catalogue entry: :class:`Reading`) on a disagreement and says first which one
  reproduces it (the explanation's hypotheses, ``docs/misreadings.md``).
"""

from tajmahal.conformance._cases import ReferenceEngine, load_cases, main, run_cases
from tajmahal.conformance._differential import (
    DRY_POLICIES,
    DRY_TABLES,
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
from tajmahal.conformance._hypotheses import (
    Reading,
    catalogue_tester,
    readings,
    replays_record,
    reproducing_record,
)
from tajmahal.conformance._local import LocalEngine
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
from tajmahal.conformance._misreadings import MISREADINGS, Citation, Misreading, misread_engine
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
    "DRY_POLICIES",
    "DRY_TABLES",
    "ENGINE_NAME",
    "FIELDS",
    "MAX_LINE_BYTES",
    "MISREADINGS",
    "OPTIONAL_FIELDS",
    "POLICIES",
    "PROTOCOL_VERSION",
    "STDERR_LINES",
    "VIEW_FORMAT",
    "Chooser",
    "Citation",
    "DiffResult",
    "Divergence",
    "EdgeSeeker",
    "Engine",
    "EngineFailure",
    "ErrorCode",
    "ForeignEngine",
    "GamePlan",
    "LocalEngine",
    "LockstepEngine",
    "Misreading",
    "Op",
    "Played",
    "ProtocolError",
    "Reading",
    "ReferenceEngine",
    "Session",
    "Shrunk",
    "catalogue_tester",
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
    "misread_engine",
    "observed_record",
    "perft",
    "play_plan",
    "readings",
    "refusal_clauses",
    "refused_new_game",
    "replays_record",
    "reproducing_record",
    "run_cases",
    "run_diff",
    "serve",
    "shrink",
    "status",
    "step_divergence",
    "view_document",
]
