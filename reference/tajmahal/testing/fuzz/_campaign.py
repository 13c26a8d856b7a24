"""A fuzzing campaign: many seeded games, checked, tagged, with counterexamples kept.

The campaign is a function of its options alone. Game ``i`` is drawn from
``random.Random(f"{seed}:{i}")`` (player count, rule set, player types, the game's own
seed), so a game can be played again from its index, shards split the index range, and
``--jobs`` only changes how fast the same games are played: games run in chunks of
:data:`CHUNK` indices, and chunk results are merged in index order whatever the number
of processes.

Output folder (``--out``)::

    summary.json                        the figures (see tajmahal.testing.fuzz)
    counterexamples/<name>.json         the game record (trace) up to the failing step
    counterexamples/<name>.why.json     what broke, where, and the script to replay it
    counterexamples/<name>-shrunk.*     the same for the shrunk game
    found/<tag>/game-<index>.json       records of the first games reaching a --find tag

Counterexamples are written the moment they are found (by the process that found them),
before shrinking; the summary is rewritten as the campaign goes, so stopping the
campaign, or a crash of the tool, loses nothing found so far.

This module runs the campaign: the chunks, the processes, the summary, shrinking. What
the games are (:class:`~tajmahal.testing.fuzz.Options`, :func:`~tajmahal.testing.fuzz.spec_for`) is
defined in :mod:`tajmahal.testing.fuzz`, the counterexample files (writing, replaying) in
:mod:`tajmahal.testing.fuzz`; their names stay importable from here.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from multiprocessing.pool import AsyncResult

import attrs

from tajmahal.model import default_components
from tajmahal.records import write_record
from tajmahal.testing.fuzz._counterexamples import (
    entry_of,
    replay_counterexample,
    safe_name,
    write_counterexample,
    write_json,
)
from tajmahal.testing.fuzz._games import (
    Checks,
    Follower,
    GameSpec,
    Script,
    Tagger,
    game_line_hash,
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
from tajmahal.testing.fuzz._shrink import failure_key, shrink
from tajmahal.testing.fuzz._summary import CounterexampleEntry, Summary
from tajmahal.testing.invariants._catalogue import STATE_INVARIANTS, STEP_INVARIANTS

CHUNK = 20
"""Games per unit of work (fixed, so results do not depend on the number of processes)."""


# ---------------------------------------------------------------------------------------
# Work units


@attrs.frozen(slots=True)
class Failure:
    """A failing game as a chunk reports it."""

    spec: GameSpec
    """The game."""
    key: str
    """What broke (see :func:`tajmahal.testing.fuzz.failure_key`)."""
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
game's time). Only when the collector runs changes, never what a game does.

What each game leaves behind (the entries of the checks' memos) is frozen out of the
collector too, after every game of the chunk (``gc.freeze()``; the states of a deep game
are freed by their reference counts when it ends): the collector walked those entries
again in every older-generation collection, about 4 ms of a deep game. Anything frozen
goes back to the oldest generation when the chunk ends."""


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
        gc.freeze()  # what the game left (memo entries) is not walked again; see below
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
            entry = attrs.evolve(entry_of(outcome), game=index)
            if options.out is not None:
                entry = write_counterexample(
                    options.out / "counterexamples", f"{safe_name(key)}-game-{index}", outcome, spec
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
        return attrs.evolve(entry_of(result.outcome), game=failure.spec.index)
    name = f"{safe_name(failure.key)}-game-{failure.spec.index}-shrunk"
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
    check_options(options)
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
    firsts = _first_of_each(failures)
    for failure, entry in zip(firsts, shrunk, strict=True):
        if entry is not None:
            summary = summary.with_shrunk(entry)
        else:
            note = "not shrunk: the failure did not come back when the game was replayed"
            summary = summary.with_note(failure.spec.index, note)
    shrunk_in = {failure.key: failure.spec.index for failure in firsts}
    for failure in failures:
        if failure not in firsts:
            note = (
                f"not shrunk: the same failure ({failure.key}) as game "
                f"{shrunk_in[failure.key]}, shrunk there"
            )
            summary = summary.with_note(failure.spec.index, note)
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
    """Play game ``index`` again and write its record under ``found/<tag>/``; the
    record's description says which step first reached the tag (its steps carry their
    tags too)."""
    spec = spec_for(options, index)
    outcome = play_spec(spec, Checks())
    if options.out is None:
        return f"game-{index}"
    path = options.out / "found" / safe_name(tag) / f"game-{index}.json"
    record = record_of(outcome, default_components(), spec.agents)
    step = next(
        (number for number, step in enumerate(record.steps, 1) if tag in (step.tags or ())), None
    )
    reached = f"reaches {tag} at step {step}" if step is not None else f"reaches {tag}"
    description = f"Game {index} of the fuzz campaign of seed {options.seed}: {reached}."
    write_record(attrs.evolve(record, description=description), path)
    return str(path.relative_to(options.out))


# Options and spec_for are documented under tajmahal.testing.fuzz (which users import them from)
# and importable from here as before; the constants where they are defined.
__all__ = [
    "CHUNK",
    "DRY_MIX",
    "DRY_TABLES",
    "GC_FIRST_THRESHOLD",
    "MIX",
    "SHARD_STRIDE",
    "ChunkResult",
    "Failure",
    "Progress",
    "checks_for",
    "replay_counterexample",
    "run_campaign",
    "run_chunk",
    "write_counterexample",
    "write_json",
]
