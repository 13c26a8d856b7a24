"""Fuzzing the engine: seeded campaigns of games checked against the invariants.

``tajmahal fuzz`` is the command line of this package. A campaign plays many games
between built-in players (edge seekers among them), checks the step invariants of
:mod:`tajmahal.testing.invariants` after every step of every game and the deep ones (views,
serialization, replay) after every step of one game in ``deep_every``, counts the rare
situations reached (the tags of :func:`tajmahal.records.edge_tags`), keeps records of the
games reaching the tags asked for, and writes, then shrinks, every counterexample. See
``docs/fuzzing.md``.
"""

from tajmahal.testing.fuzz._campaign import (
    CHUNK,
    ChunkResult,
    Failure,
    Progress,
    run_campaign,
    run_chunk,
)
from tajmahal.testing.fuzz._counterexamples import (
    entry_of,
    replay_counterexample,
    safe_name,
    with_files_on_disk,
    write_counterexample,
    write_json,
)
from tajmahal.testing.fuzz._games import (
    CRASH,
    Checks,
    Follower,
    GameSpec,
    Outcome,
    Script,
    play_script,
    play_spec,
    record_of,
)
from tajmahal.testing.fuzz._options import (
    DRY_MIX,
    DRY_TABLES,
    MIX,
    SHARD_STRIDE,
    Options,
    check_options,
    checks_for,
    spec_for,
)
from tajmahal.testing.fuzz._shrink import Shrunk, failure_key, shrink
from tajmahal.testing.fuzz._summary import CounterexampleEntry, Summary, merge

__all__ = [
    "CHUNK",
    "CRASH",
    "DRY_MIX",
    "DRY_TABLES",
    "MIX",
    "SHARD_STRIDE",
    "Checks",
    "ChunkResult",
    "CounterexampleEntry",
    "Failure",
    "Follower",
    "GameSpec",
    "Options",
    "Outcome",
    "Progress",
    "Script",
    "Shrunk",
    "Summary",
    "check_options",
    "checks_for",
    "entry_of",
    "failure_key",
    "merge",
    "play_script",
    "play_spec",
    "record_of",
    "replay_counterexample",
    "run_campaign",
    "run_chunk",
    "safe_name",
    "shrink",
    "spec_for",
    "with_files_on_disk",
    "write_counterexample",
    "write_json",
]
