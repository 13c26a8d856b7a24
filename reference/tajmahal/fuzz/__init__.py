"""Fuzzing the engine: seeded campaigns of games checked against the invariants.

``tajmahal fuzz`` is the command line of this package. A campaign plays many games
between built-in players (edge seekers among them), checks the step invariants of
:mod:`tajmahal.invariants` after every step of every game and the deep ones (views,
serialization, replay) after every step of one game in ``deep_every``, counts the rare
situations reached (the tags of :func:`tajmahal.tags.edge_tags`), keeps records of the
games reaching the tags asked for, and writes, then shrinks, every counterexample. See
``docs/fuzzing.md``.
"""

from tajmahal.fuzz.campaign import Options, run_campaign, spec_for
from tajmahal.fuzz.games import (
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
from tajmahal.fuzz.shrink import Shrunk, failure_key, shrink
from tajmahal.fuzz.summary import CounterexampleEntry, Summary, merge

__all__ = [
    "CRASH",
    "Checks",
    "CounterexampleEntry",
    "Follower",
    "GameSpec",
    "Options",
    "Outcome",
    "Script",
    "Shrunk",
    "Summary",
    "failure_key",
    "merge",
    "play_script",
    "play_spec",
    "record_of",
    "run_campaign",
    "shrink",
    "spec_for",
]
