"""Counterexample files: a failing game's record and its ``.why.json``, written whole.

A campaign writes every failing game the moment it is found, before shrinking, into
``counterexamples/`` of its output folder (``<name>.json``, the game record up to the
failing step; ``<name>.why.json``, what broke, where, and the script to replay it;
``docs/fuzzing.md`` gives the format). Writing and replaying these files is apart from
running the campaign (:mod:`tajmahal.testing.fuzz`), which only decides what to write.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import attrs

from tajmahal.errors import TajMahalError
from tajmahal.inputs import RECORD_LIMITS, read_json
from tajmahal.model import default_components
from tajmahal.records import write_record
from tajmahal.testing.fuzz._games import (
    Checks,
    Follower,
    GameSpec,
    Outcome,
    Script,
    play_script,
    record_of,
)
from tajmahal.testing.fuzz._shrink import failure_key
from tajmahal.testing.fuzz._summary import CounterexampleEntry, Summary


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
        entry_of(outcome), game=spec.index if spec is not None else None, file=trace.name
    )


def entry_of(outcome: Outcome) -> CounterexampleEntry:
    """The summary entry of a failing game, without its game index and file."""
    return CounterexampleEntry(
        key=str(failure_key(outcome)),
        game=None,
        file="",
        decisions=outcome.decisions,
        steps=outcome.steps,
        players=outcome.script.players,
        message=outcome.violations[0].message,
    )


def safe_name(key: str) -> str:
    """``key`` with every character but letters, digits, ``-`` and ``_`` made ``-`` (a
    file name)."""
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in key)


def _entry_from_why(why: Any, trace: str) -> CounterexampleEntry:
    """The summary entry of a counterexample, from its ``.why.json`` document."""
    game = why.get("game")
    size = why["size"]
    return CounterexampleEntry(
        key=str(why["key"]),
        game=int(game["index"]) if isinstance(game, dict) else None,
        file=trace,
        decisions=int(size["decisions"]),
        steps=int(size["steps"]),
        players=int(size["players"]),
        message=str(why["violations"][0]["message"]),
    )


def with_files_on_disk(folder: Path, summary: Summary) -> Summary:
    """``summary`` with what the campaign in ``folder`` wrote but did not list yet.

    Counterexamples are written the moment they are found, by the process that found
    them, and records kept for ``--find`` tags just before the summary is rewritten; a
    campaign stopped at any moment (killed, the machine down) may leave some of them out
    of its ``summary.json``. Each ``counterexamples/*.why.json`` whose record is there
    too, and each ``found/<tag>/game-*.json``, that the summary does not list is added to
    it (a ``.why.json`` with ``shrunk_from`` as a shrunk counterexample), so that what
    the campaign found is never lost to a merge or a resumed run."""
    listed = {entry.file for entry in (*summary.counterexamples, *summary.shrunk)}
    for path in sorted((folder / "counterexamples").glob("*.why.json")):
        try:
            why = read_json(path, RECORD_LIMITS)
            trace = why["trace"]
            if not isinstance(trace, str) or trace in listed:
                continue
            if not (folder / "counterexamples" / trace).is_file():
                continue  # stopped between the record and its why file
            entry = _entry_from_why(why, trace)
        except (TajMahalError, KeyError, TypeError, ValueError, IndexError):
            continue  # not a counterexample file this package wrote
        listed.add(trace)
        if why.get("shrunk_from") is not None:
            summary = summary.with_shrunk(entry)
        else:
            summary = summary.with_counterexample(entry)
    kept = {file for _, files in summary.found for file in files}
    for record in sorted((folder / "found").glob("*/game-*.json")):
        name = f"found/{record.parent.name}/{record.name}"
        if name not in kept and record.is_file():
            summary = summary.with_found(record.parent.name, name)
    return summary


def replay_counterexample(
    why: dict[str, Any], *, deep: bool = True, follower: Follower | None = None
) -> Outcome:
    """Replay the script of a ``.why.json`` document with the engine as it is now (and,
    with a ``follower``, another engine in lockstep, as ``fuzz --engine`` played it)."""
    return play_script(Script.from_json(why["script"]), Checks(deep=deep, follower=follower))


# write_json, write_counterexample and replay_counterexample are documented under
# tajmahal.testing.fuzz, which users import them from.
__all__ = ["entry_of", "safe_name", "with_files_on_disk"]
