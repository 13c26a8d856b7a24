"""A fuzzing campaign: many seeded games, checked, tagged, with counterexamples kept.

The campaign is a function of its options alone. Game ``i`` is drawn from
``random.Random(f"{seed}:{i}")`` (player count, rule set, player types, the game's own
seed), so a game can be played again from its index, shards split the index range, and
``--jobs`` only changes how fast the same games are played: games run in chunks of
:data:`CHUNK` indices, and chunk results are merged in index order whatever the number
of processes.

Output folder (``--out``)::

    summary.json                        the figures (see tajmahal.fuzz.summary)
    counterexamples/<name>.json         the game record (trace) up to the failing step
    counterexamples/<name>.why.json     what broke, where, and the script to replay it
    counterexamples/<name>-shrunk.*     the same for the shrunk game
    found/<tag>/game-<index>.json       records of the first games reaching a --find tag

Counterexamples are written the moment they are found (by the process that found them),
before shrinking; the summary is rewritten as the campaign goes, so stopping the
campaign, or a crash of the tool, loses nothing found so far.
"""

from __future__ import annotations

import contextlib
import gc
import json
import multiprocessing
import os
import random
import tempfile
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from multiprocessing.pool import AsyncResult
from pathlib import Path
from typing import Any

import attrs

from tajmahal.components import default_components
from tajmahal.fuzz.games import (
    Checks,
    Follower,
    GameSpec,
    Outcome,
    Script,
    Tagger,
    game_line_hash,
    play_script,
    play_spec,
    record_of,
)
from tajmahal.fuzz.shrink import failure_key, shrink
from tajmahal.fuzz.summary import CounterexampleEntry, Summary
from tajmahal.invariants import STATE_INVARIANTS, STEP_INVARIANTS
from tajmahal.players import PLAYER_TYPES
from tajmahal.rules import RULE_OPTIONS, RuleSet
from tajmahal.tags import TAGS
from tajmahal.trace import write_record

CHUNK = 20
"""Games per unit of work (fixed, so results do not depend on the number of processes)."""

MIX: tuple[tuple[str, int], ...] = (
    ("random", 3),
    ("edge", 4),
    ("hoarder", 1),
    ("stubborn", 1),
    ("tie-seeker", 2),
    ("crown-chaser", 1),
)
"""Player types drawn for each seat when ``--agents`` is not given, with their weights."""

DRY_TABLES = 0.2
"""The share of games (without ``--agents``) whose seats are all drawn from
:data:`DRY_MIX` instead: tables that run the deck and the discard pile dry."""

DRY_MIX: tuple[tuple[str, int], ...] = (("hoarder", 5), ("stubborn", 1))
"""Player types of a dry table, with their weights."""

SHARD_STRIDE = 10**12
"""First index of shard ``I`` of a time-bounded campaign: ``I * SHARD_STRIDE``."""


@attrs.frozen(slots=True)
class Options:
    """Everything that defines a campaign (and how it is run)."""

    games: int | None = 1000
    """Games to play (the whole campaign, before sharding); None with ``minutes``."""
    minutes: float | None = None
    """Play for this long instead of a fixed number of games."""
    seed: int = 0
    """The campaign seed."""
    players: tuple[int, ...] = (3, 4, 5)
    """Player counts to draw from."""
    rules: str | tuple[str, ...] = "random"
    """``random`` (each option drawn per game), ``default``, or ``OPTION=VALUE`` strings."""
    agents: tuple[str, ...] | None = None
    """Player types round the table; None draws each seat from :data:`MIX`."""
    find: tuple[str, ...] = ()
    """Tags whose first games are kept as records."""
    keep: int = 3
    """Records kept per ``find`` tag."""
    jobs: int = 1
    """Processes."""
    shard: tuple[int, int] = (0, 1)
    """This run's shard ``(I, N)``, 0-based."""
    out: Path | None = None
    """Output folder; None writes nothing."""
    deep_every: int = 25
    """One game in this many (by index) also gets the state and game invariants (1: every
    game; a deep game costs about ten times another, see docs/fuzzing.md)."""
    max_counterexamples: int = 20
    """Stop after this many failing games."""
    shrink_budget: int = 3000
    """Games played at most while shrinking one counterexample."""

    def rule_set(self, rng: random.Random) -> RuleSet:
        """The rule set of one game."""
        if self.rules == "random":
            return RuleSet.from_json(
                {name: rng.choice(values) for name, values in sorted(RULE_OPTIONS.items())}
            )
        if self.rules == "default":
            return RuleSet()
        values = {}
        for option in self.rules:
            name, _, value = option.partition("=")
            values[name.replace("-", "_")] = value
        return RuleSet.from_json(values, source="--rules", field="rules")

    def describe(self) -> dict[str, Any]:
        """The options that define the games (a summary's ``campaign``)."""
        return {
            "seed": self.seed,
            "players": list(self.players),
            "rules": self.rules if isinstance(self.rules, str) else list(self.rules),
            "agents": list(self.agents) if self.agents is not None else "mix",
            "deep_every": self.deep_every,
        }

    def index_range(self) -> range:
        """The game indices of this shard (unbounded above for a timed campaign)."""
        shard, count = self.shard
        if self.games is None:
            return range(shard * SHARD_STRIDE, (shard + 1) * SHARD_STRIDE)
        return range(self.games * shard // count, self.games * (shard + 1) // count)


def spec_for(options: Options, index: int) -> GameSpec:
    """Game ``index`` of the campaign."""
    rng = random.Random(f"{options.seed}:{index}")
    players = rng.choice(options.players)
    rules = options.rule_set(rng)
    if options.agents is not None:
        agents = tuple(options.agents[seat % len(options.agents)] for seat in range(players))
    else:
        mix = DRY_MIX if rng.random() < DRY_TABLES else MIX
        names = [name for name, _ in mix]
        weights = [weight for _, weight in mix]
        agents = tuple(rng.choices(names, weights)[0] for _ in range(players))
    return GameSpec(index, rng.getrandbits(40), players, rules, agents)


def checks_for(options: Options, index: int, tagger: Tagger | None) -> Checks:
    """The checks of game ``index`` (deep for one game in ``deep_every``)."""
    return Checks(deep=index % options.deep_every == 0, tagger=tagger)


# ---------------------------------------------------------------------------------------
# Files


def write_json(path: Path, document: Any) -> None:
    """Write a JSON document whole or not at all (temporary file renamed into place)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(document, stream, indent=1, sort_keys=True, ensure_ascii=False)
            stream.write("\n")
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_counterexample(
    folder: Path,
    name: str,
    outcome: Outcome,
    spec: GameSpec | None,
    shrunk_from: str | None = None,
) -> CounterexampleEntry:
    """Write a failing game's record and its ``.why.json``; returns its summary entry."""
    components = default_components()
    record = record_of(outcome, components)
    trace = folder / f"{name}.json"
    write_record(record, trace)
    first = outcome.violations[0]
    why = {
        "format": "tajmahal-counterexample",
        "version": 1,
        "invariant": first.invariant,
        "key": failure_key(outcome),
        "clauses": list(first.clauses),
        "violations": [violation.to_json() for violation in outcome.violations],
        "step": outcome.failed_step,
        "trace": trace.name,
        "game": spec.to_json() if spec is not None else None,
        "script": outcome.script.to_json(),
        "shrunk_from": shrunk_from,
        "size": {
            "decisions": outcome.decisions,
            "steps": outcome.steps,
            "players": outcome.script.players,
        },
    }
    write_json(folder / f"{name}.why.json", why)
    return attrs.evolve(
        _entry_of(outcome), game=spec.index if spec is not None else None, file=trace.name
    )


def _entry_of(outcome: Outcome) -> CounterexampleEntry:
    return CounterexampleEntry(
        key=str(failure_key(outcome)),
        game=None,
        file="",
        decisions=outcome.decisions,
        steps=outcome.steps,
        players=outcome.script.players,
        message=outcome.violations[0].message,
    )


def _safe(key: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in key)


# ---------------------------------------------------------------------------------------
# Work units


@attrs.frozen(slots=True)
class Failure:
    """A failing game as a chunk reports it."""

    spec: GameSpec
    """The game."""
    key: str
    """What broke (see :func:`tajmahal.fuzz.shrink.failure_key`)."""
    script: Script
    """Its choices up to the failing step."""
    entry: CounterexampleEntry
    """Its summary entry (``file`` empty when no output folder)."""


@attrs.frozen(slots=True)
class ChunkResult:
    """The figures of one chunk of games."""

    start: int
    """First index."""
    stop: int
    """One past the last index."""
    steps: int
    """Steps applied."""
    decisions: int
    """Decisions among them."""
    tags: dict[str, int]
    """Games reaching each tag."""
    tag_games: dict[str, tuple[int, ...]]
    """For each tag, the first indices reaching it (at most ``keep``)."""
    failures: tuple[Failure, ...]
    """Failing games, by index."""
    digest: int
    """Sum (mod 2**256) of the games' line hashes."""


GC_FIRST_THRESHOLD = 10_000
"""Allocations between two collections of the youngest generation while a chunk is
played (Python's default is 700): a deep game keeps every state it passed through, and
with the default the collector walks them again and again (about an eighth of a deep
game's time). Only when the collector runs changes, never what a game does."""


@contextlib.contextmanager
def _fewer_collections() -> Iterator[None]:
    """Collect garbage less often inside the block, and leave out what existed before it;
    the old thresholds and generations afterwards."""
    before = gc.get_threshold()
    gc.freeze()  # what exists already (components, memos) is not walked again
    gc.set_threshold(max(before[0], GC_FIRST_THRESHOLD), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def run_chunk(
    options: Options, start: int, stop: int, tagger: Tagger | None, follower: Follower | None
) -> ChunkResult:
    """Play games ``start`` to ``stop - 1``; write each counterexample at once."""
    with _fewer_collections():
        return _run_chunk(options, start, stop, tagger, follower)


def _run_chunk(
    options: Options, start: int, stop: int, tagger: Tagger | None, follower: Follower | None
) -> ChunkResult:
    components = default_components()
    steps = decisions = digest = 0
    tags: Counter[str] = Counter()
    tag_games: dict[str, list[int]] = {}
    failures: list[Failure] = []
    for index in range(start, stop):
        spec = spec_for(options, index)
        checks = attrs.evolve(checks_for(options, index, tagger), follower=follower)
        outcome = play_spec(spec, checks, components)
        steps += outcome.steps
        decisions += outcome.decisions
        digest = (digest + game_line_hash(index, outcome)) % (1 << 256)
        for tag in outcome.tags:
            tags[tag] += 1
            first = tag_games.setdefault(tag, [])
            if len(first) < options.keep:
                first.append(index)
        if outcome.failed:
            key = str(failure_key(outcome))
            entry = attrs.evolve(_entry_of(outcome), game=index)
            if options.out is not None:
                entry = write_counterexample(
                    options.out / "counterexamples", f"{_safe(key)}-game-{index}", outcome, spec
                )
            failures.append(Failure(spec, key, outcome.script, entry))
    return ChunkResult(
        start,
        stop,
        steps,
        decisions,
        dict(tags),
        {tag: tuple(found) for tag, found in tag_games.items()},
        tuple(failures),
        digest,
    )


def _chunk_task(arguments: tuple[Options, int, int, Tagger | None]) -> ChunkResult:
    options, start, stop, tagger = arguments
    return run_chunk(options, start, stop, tagger, None)


def _shrink_task(
    arguments: tuple[Options, Failure], follower: Follower | None = None
) -> CounterexampleEntry | None:
    options, failure = arguments
    checks = attrs.evolve(checks_for(options, failure.spec.index, None), follower=follower)
    try:
        result = shrink(failure.script, checks, budget=options.shrink_budget)
    except ValueError:  # the failure did not come back on replay: nothing to shrink
        return None
    if options.out is None:
        return attrs.evolve(_entry_of(result.outcome), game=failure.spec.index)
    name = f"{_safe(failure.key)}-game-{failure.spec.index}-shrunk"
    origin = failure.entry.file or None
    return write_counterexample(
        options.out / "counterexamples", name, result.outcome, failure.spec, origin
    )


# ---------------------------------------------------------------------------------------
# The campaign


def _chunks(options: Options) -> Iterator[tuple[int, int]]:
    indices = options.index_range()
    for start in range(indices.start, indices.stop, CHUNK):
        yield start, min(start + CHUNK, indices.stop)


Progress = Callable[[Summary, bool], None]
"""Called after every chunk with the figures so far (and True once at the end)."""


def run_campaign(
    options: Options,
    *,
    tagger: Tagger | None = None,
    follower: Follower | None = None,
    progress: Progress | None = None,
) -> Summary:
    """Play the campaign; returns (and, with ``out``, writes) its summary.

    A ``follower`` (a foreign engine) makes the campaign run in this process only.
    """
    _check_options(options)
    summary = Summary.empty(
        options.describe(),
        [invariant.name for invariant in STEP_INVARIANTS],
        [invariant.name for invariant in STATE_INVARIANTS],
    )
    started = time.monotonic()
    deadline = started + options.minutes * 60 if options.minutes is not None else None
    kept: Counter[str] = Counter()
    failures: list[Failure] = []
    last_written = 0.0

    def take(result: ChunkResult) -> bool:
        nonlocal summary, last_written
        summary = summary.add_chunk(
            result.start,
            result.stop,
            result.steps,
            result.decisions,
            result.tags,
            result.digest,
        )
        for failure in result.failures:
            if len(failures) < options.max_counterexamples:
                failures.append(failure)
                summary = summary.with_counterexample(failure.entry)
        for tag in options.find:
            for index in result.tag_games.get(tag, ()):
                if kept[tag] < options.keep:
                    kept[tag] += 1
                    summary = summary.with_found(tag, _keep_record(options, tag, index))
        summary = attrs.evolve(summary, seconds=round(time.monotonic() - started, 3))
        if options.out is not None and time.monotonic() - last_written > 2:
            write_json(options.out / "summary.json", summary.to_json())
            last_written = time.monotonic()
        if progress is not None:
            progress(summary, False)
        return len(failures) < options.max_counterexamples

    chunks = _chunks(options)
    if options.jobs <= 1 or follower is not None:
        for start, stop in chunks:
            if deadline is not None and time.monotonic() >= deadline:
                break
            if not take(run_chunk(options, start, stop, tagger, follower)):
                break
        shrunk = [
            _shrink_task((options, failure), follower) for failure in _first_of_each(failures)
        ]
    else:
        context = multiprocessing.get_context(
            "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        )
        with context.Pool(options.jobs) as pool:
            pending: deque[AsyncResult[ChunkResult]] = deque()
            going = True
            while going:
                while len(pending) < options.jobs * 3:
                    if deadline is not None and time.monotonic() >= deadline:
                        break
                    chunk = next(chunks, None)
                    if chunk is None:
                        break
                    pending.append(pool.apply_async(_chunk_task, ((options, *chunk, tagger),)))
                if not pending:
                    break
                going = take(pending.popleft().get())
            shrunk = pool.map(
                _shrink_task, [(options, failure) for failure in _first_of_each(failures)]
            )
    for entry in shrunk:
        if entry is not None:
            summary = summary.with_shrunk(entry)
    summary = attrs.evolve(summary, seconds=round(time.monotonic() - started, 3))
    if options.out is not None:
        write_json(options.out / "summary.json", summary.to_json())
    if progress is not None:
        progress(summary, True)
    return summary


def _first_of_each(failures: list[Failure]) -> list[Failure]:
    seen: set[str] = set()
    first = []
    for failure in failures:
        if failure.key not in seen:
            seen.add(failure.key)
            first.append(failure)
    return first


def _keep_record(options: Options, tag: str, index: int) -> str:
    """Play game ``index`` again and write its record under ``found/<tag>/``."""
    spec = spec_for(options, index)
    outcome = play_spec(spec, Checks())
    if options.out is None:
        return f"game-{index}"
    path = options.out / "found" / _safe(tag) / f"game-{index}.json"
    write_record(record_of(outcome, default_components(), spec.agents), path)
    return str(path.relative_to(options.out))


def _check_options(options: Options) -> None:
    shard, count = options.shard
    if not 0 <= shard < count:
        raise ValueError(f"--shard: expected I/N with 0 <= I < N, found {shard}/{count}")
    if (options.games is None) == (options.minutes is None):
        raise ValueError("give either a number of games or a number of minutes")
    unknown = [name for name in options.agents or () if name not in PLAYER_TYPES]
    if unknown:
        raise ValueError(
            f"--agents: unknown player type(s) {', '.join(unknown)} "
            f"(known: {', '.join(PLAYER_TYPES)})"
        )
    unknown = [tag for tag in options.find if tag not in TAGS]
    if unknown:
        raise ValueError(f"--find: unknown tag(s) {', '.join(unknown)} (known: {', '.join(TAGS)})")
    if not options.players or any(count not in (3, 4, 5) for count in options.players):
        raise ValueError("--players: choose among 3, 4 and 5")
    if options.deep_every < 1 or options.jobs < 1 or options.keep < 0:
        raise ValueError("--deep-every, --jobs must be at least 1 and --keep not negative")
    options.rule_set(random.Random(0))


def replay_counterexample(why: dict[str, Any], *, deep: bool = True) -> Outcome:
    """Replay the script of a ``.why.json`` document with the engine as it is now."""
    return play_script(Script.from_json(why["script"]), Checks(deep=deep))
