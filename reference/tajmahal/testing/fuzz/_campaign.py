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
import multiprocessing
import os
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.pool import AsyncResult

import attrs

from tajmahal.errors import TajMahalError
from tajmahal.inputs import RECORD_LIMITS, InputError, read_json
from tajmahal.model import default_components
from tajmahal.records import write_record
from tajmahal.testing.fuzz._counterexamples import (
    entry_of,
    replay_counterexample,
    safe_name,
    with_files_on_disk,
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
from tajmahal.testing.fuzz._shrink import failure_key, shrink
from tajmahal.testing.fuzz._summary import CounterexampleEntry, Summary
from tajmahal.testing.invariants._catalogue import STATE_INVARIANTS, STEP_INVARIANTS
from tajmahal.verification import held_signals, start_worker_signals

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


def run_chunk(
    options: Options, start: int, stop: int, tagger: Tagger | None, follower: Follower | None
) -> ChunkResult:
    """Play games ``start`` to ``stop - 1``; write each counterexample at once."""
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
    untested = getattr(follower, "untested", None)
    try:
        with untested() if callable(untested) else contextlib.nullcontext():
            result = shrink(failure.script, checks, budget=options.shrink_budget)
    except ValueError:  # the failure did not come back on replay: nothing to shrink
        return None
    outcome = result.outcome
    if callable(untested):  # the shrunk game once more, its disagreement explained in full
        again = play_script(result.script, checks)
        if failure_key(again) == failure_key(outcome):
            outcome = again
    if options.out is None:
        return attrs.evolve(entry_of(outcome), game=failure.spec.index)
    name = f"{safe_name(failure.key)}-game-{failure.spec.index}-shrunk"
    origin = failure.entry.file or None
    return write_counterexample(
        options.out / "counterexamples", name, outcome, failure.spec, origin
    )


# ---------------------------------------------------------------------------------------
# The campaign


def _chunks(options: Options, first: int) -> Iterator[tuple[int, int]]:
    """The chunks of the campaign's games from index ``first`` (a chunk's start)."""
    indices = options.index_range()
    for start in range(first, indices.stop, CHUNK):
        yield start, min(start + CHUNK, indices.stop)


def _processes(options: Options, first: int) -> int:
    """Processes worth starting: ``jobs``, but never more than there are chunks left."""
    left = options.index_range().stop - first
    return max(1, min(options.jobs, -(-left // CHUNK)))


def _previous(options: Options, resume: bool) -> Summary | None:
    """The summary of the campaign already in the output folder, if it is to be resumed
    (with the files it wrote but did not list yet); None for a new campaign.

    A folder that holds a summary is another campaign's, or this one's stopped before
    its end: it is never written over, only resumed, and only by the same campaign."""
    assert options.out is not None
    path = options.out / "summary.json"
    if not path.exists():
        return None
    if not resume:
        raise TajMahalError(
            f"{options.out}: holds a campaign already (summary.json); continue it with "
            "--resume, or choose another folder"
        )
    try:
        document = read_json(path, RECORD_LIMITS)
    except InputError as error:
        raise TajMahalError(str(error)) from None
    summary = Summary.from_json(document, str(path))
    if summary.campaign != options.describe():
        raise TajMahalError(
            f"{path}: another campaign ({summary.campaign}); --resume continues the "
            "campaign with the same options"
        )
    indices = options.index_range()
    if summary.ranges and (
        len(summary.ranges) != 1
        or summary.ranges[0][0] != indices.start
        or summary.ranges[0][1] > indices.stop
    ):
        raise TajMahalError(
            f"{path}: games {summary.ranges} are not the start of this shard's games "
            f"({indices.start} onwards); only a campaign's own folder can be resumed"
        )
    return with_files_on_disk(options.out, summary)


def _earlier_failures(options: Options, summary: Summary) -> list[Failure]:
    """The counterexamples of a resumed campaign that were not shrunk yet, rebuilt from
    their ``.why.json`` files (their scripts), so that the resumed run shrinks them."""
    assert options.out is not None
    shrunk = {entry.key for entry in summary.shrunk}
    failures = []
    for entry in summary.counterexamples:
        if entry.key in shrunk or entry.game is None or not entry.file.endswith(".json"):
            continue
        why = options.out / "counterexamples" / (entry.file.removesuffix(".json") + ".why.json")
        try:
            script = Script.from_json(read_json(why, RECORD_LIMITS)["script"])
        except (TajMahalError, KeyError, TypeError, ValueError):
            continue  # its script cannot be read: it stays listed, unshrunk
        failures.append(Failure(spec_for(options, entry.game), entry.key, script, entry))
    return failures


Progress = Callable[[Summary, bool], None]
"""Called after every chunk with the figures so far (and True once at the end)."""


def run_campaign(
    options: Options,
    *,
    tagger: Tagger | None = None,
    follower: Follower | None = None,
    progress: Progress | None = None,
    resume: bool = False,
) -> Summary:
    """Play the campaign; returns (and, with ``out``, writes) its summary.

    A ``follower`` (a foreign engine) makes the campaign run in this process only.

    With ``out``, the summary is written before the first game and again whenever a
    counterexample or a kept record is added (else every few seconds), so that a
    campaign stopped at any moment leaves a summary that ``fuzz merge`` and ``resume``
    read. A folder that holds a summary already is refused, unless ``resume`` is set:
    then the campaign with the same options continues after the games it played (its
    counterexamples and kept records counted, those not shrunk yet shrunk at the end).
    """
    check_options(options)
    summary = Summary.empty(
        options.describe(),
        [invariant.name for invariant in STEP_INVARIANTS],
        [invariant.name for invariant in STATE_INVARIANTS],
    )
    first = options.index_range().start
    earlier: list[Failure] = []
    if options.out is not None:
        previous = _previous(options, resume)
        if previous is not None:
            summary = attrs.evolve(
                previous, invariants=summary.invariants, deep_invariants=summary.deep_invariants
            )
            first = previous.ranges[0][1] if previous.ranges else first
            earlier = _earlier_failures(options, previous)
        write_json(options.out / "summary.json", summary.to_json())
    started = time.monotonic()
    seconds_before = summary.seconds
    deadline = started + options.minutes * 60 if options.minutes is not None else None
    kept: Counter[str] = Counter({tag: len(files) for tag, files in summary.found})
    failures: list[Failure] = []
    found_before = len(summary.counterexamples)
    last_written = time.monotonic()

    def take(result: ChunkResult) -> bool:
        nonlocal summary, last_written
        listed = (len(summary.counterexamples), len(summary.found_files))
        summary = summary.add_chunk(
            result.start,
            result.stop,
            result.steps,
            result.decisions,
            result.tags,
            result.digest,
        )
        listed_files = {entry.file for entry in summary.counterexamples}
        for failure in result.failures:
            if found_before + len(failures) < options.max_counterexamples:
                failures.append(failure)
                if not failure.entry.file or failure.entry.file not in listed_files:
                    summary = summary.with_counterexample(failure.entry)
        for tag in options.find:
            for index in result.tag_games.get(tag, ()):
                if kept[tag] < options.keep:
                    kept[tag] += 1
                    summary = summary.with_found(tag, _keep_record(options, tag, index))
        summary = attrs.evolve(
            summary, seconds=round(seconds_before + time.monotonic() - started, 3)
        )
        changed = (len(summary.counterexamples), len(summary.found_files)) != listed
        if options.out is not None and (changed or time.monotonic() - last_written > 2):
            write_json(options.out / "summary.json", summary.to_json())
            last_written = time.monotonic()
        if progress is not None:
            progress(summary, False)
        return found_before + len(failures) < options.max_counterexamples

    chunks = _chunks(options, first)
    processes = _processes(options, first)
    going = found_before < options.max_counterexamples
    if processes <= 1 or follower is not None:
        for start, stop in chunks if going else ():
            if deadline is not None and time.monotonic() >= deadline:
                break
            if not take(run_chunk(options, start, stop, tagger, follower)):
                break
        to_shrink = _first_of_each(earlier + failures, {entry.key for entry in summary.shrunk})
        shrunk = [_shrink_task((options, failure), follower) for failure in to_shrink]
    else:
        context = multiprocessing.get_context(
            "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        )
        with held_signals():  # a signal in the middle of a fork would be lost
            pool = context.Pool(processes, _start_worker, (os.getpid(),))
        with pool:
            pending: deque[AsyncResult[ChunkResult]] = deque()
            while going:
                while len(pending) < processes * 3:
                    if deadline is not None and time.monotonic() >= deadline:
                        break
                    chunk = next(chunks, None)
                    if chunk is None:
                        break
                    pending.append(pool.apply_async(_chunk_task, ((options, *chunk, tagger),)))
                if not pending:
                    break
                going = take(pending.popleft().get())
            to_shrink = _first_of_each(earlier + failures, {entry.key for entry in summary.shrunk})
            shrunk = pool.map(_shrink_task, [(options, failure) for failure in to_shrink])
    for failure, entry in zip(to_shrink, shrunk, strict=True):
        if entry is not None:
            summary = summary.with_shrunk(entry)
        else:
            note = "not shrunk: the failure did not come back when the game was replayed"
            summary = summary.with_note(failure.spec.index, note)
    shrunk_in = {failure.key: failure.spec.index for failure in to_shrink}
    for failure in failures:
        if failure not in to_shrink and failure.key in shrunk_in:
            note = (
                f"not shrunk: the same failure ({failure.key}) as game "
                f"{shrunk_in[failure.key]}, shrunk there"
            )
            summary = summary.with_note(failure.spec.index, note)
    summary = attrs.evolve(summary, seconds=round(seconds_before + time.monotonic() - started, 3))
    if options.out is not None:
        write_json(options.out / "summary.json", summary.to_json())
    if progress is not None:
        progress(summary, True)
    return summary


def _start_worker(parent: int) -> None:
    """A worker process ignores Ctrl-C (the campaign ends the pool), ends quietly on
    SIGTERM (what ending the pool sends) and ends with the campaign's process however
    that ends (SIGKILL included: it would otherwise finish its chunk and fail, with a
    traceback, to hand it over); see :func:`tajmahal.verification.start_worker_signals`."""
    start_worker_signals(parent)


def _first_of_each(failures: list[Failure], done: Iterable[str] = ()) -> list[Failure]:
    """The first failure of each kind, but for the kinds in ``done`` (shrunk already)."""
    seen: set[str] = set(done)
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
