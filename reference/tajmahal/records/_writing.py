"""Writing game records: the JSON document of a record and its text, written whole.

A record is always written in the newest version, with its keys in the documented order
and one step per line (``docs/trace-format.md``), so that two records compare with a
line diff. Writing is apart from reading: it needs no schema and no limits, and it is
what every tool that produces a file uses (:func:`write_text_atomic` writes any text
whole or not at all). The names are imported from :mod:`tajmahal.records`.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from tajmahal.engine import SetupOutcome
from tajmahal.errors import RecordError
from tajmahal.records._model import CHANCE, TRACE_FORMAT, TRACE_VERSION, Record, RecordStep


def setup_to_json(setup: SetupOutcome) -> dict[str, Any]:
    """The ``setup`` object of a record."""
    return {
        "province_tiles": dict(sorted(setup.province_tiles.items())),
        "bonus_tiles": dict(sorted(setup.bonus_tiles.items())),
        "hands": [list(hand) for hand in setup.hands],
        "display": list(setup.display),
        "deck": list(setup.deck),
        "start_player": setup.start_player,
    }


def step_to_json(step: RecordStep) -> dict[str, Any]:
    """The JSON object of one step (keys in the documented order)."""
    entry: dict[str, Any] = {
        "actor": CHANCE if step.actor is None else step.actor,
        "action": step.action,
    }
    if step.legal_count is not None:
        entry["legal_count"] = step.legal_count
    if step.legal_digest is not None:
        entry["legal_digest"] = step.legal_digest
    if step.legal is not None:
        entry["legal"] = list(step.legal)
    if step.scores is not None:
        entry["scores"] = list(step.scores)
    if step.state_digest is not None:
        entry["state_digest"] = step.state_digest
    if step.clauses:
        entry["clauses"] = list(step.clauses)
    if step.tags is not None:
        entry["tags"] = list(step.tags)
    if step.public is not None:
        entry["public"] = dict(step.public)
    return entry


def record_to_json(record: Record) -> dict[str, Any]:
    """The JSON document of a record, always in the newest version (keys in a fixed,
    readable order)."""
    document: dict[str, Any] = {"format": TRACE_FORMAT, "version": TRACE_VERSION}
    if record.id is not None:
        document["id"] = record.id
    if record.description is not None:
        document["description"] = record.description
    document["players"] = record.players
    document["ruleset"] = record.rules.to_json()
    document["components"] = {"name": record.components_name, "digest": record.components_digest}
    if record.seed is not None:
        document["seed"] = record.seed
    if record.names is not None:
        document["names"] = list(record.names)
    document["setup"] = setup_to_json(record.setup)
    document["steps"] = [step_to_json(step) for step in record.steps]
    if record.final_scores is not None and record.winners is not None:
        document["result"] = {"scores": list(record.final_scores), "winners": list(record.winners)}
    return document


def dumps_record(record: Record) -> str:
    """The text of a record: one top-level field and one step per line, so that two
    records can be compared with an ordinary line diff."""
    document = record_to_json(record)
    steps = document.pop("steps")
    result = document.pop("result", None)
    parts = [
        f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
        for key, value in document.items()
    ]
    step_lines = ",\n".join("  " + json.dumps(step, ensure_ascii=False) for step in steps)
    parts.append(' "steps": [\n' + step_lines + "\n ]" if steps else ' "steps": []')
    if result is not None:
        parts.append(' "result": ' + json.dumps(result, ensure_ascii=False))
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text_atomic(text: str, path: str | Path) -> None:
    """Write ``text`` whole or not at all (a temporary file renamed into place).

    Only a regular file is ever replaced: a folder, a device node or another special
    file at the path is refused (the error names it), and so is an empty path. A
    symbolic link is followed, so the file it points to is replaced and the link kept.
    An existing file keeps its permission bits; a new one gets the usual ``0666`` less
    the umask.
    """
    source = str(path)
    if not source:
        raise RecordError("an empty path names no file to write", source="''")
    if "\0" in source:
        raise RecordError("a path cannot hold a NUL character", source=repr(source))
    target = Path(os.path.realpath(path))
    try:
        info: os.stat_result | None = target.stat()
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise RecordError(f"cannot be written: {error.strerror}", source=source) from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise RecordError(f"{kind}; output is written only to a regular file", source=source)
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
        )
    except OSError as error:
        raise RecordError(f"cannot be written: {error.strerror}", source=source) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise RecordError(f"cannot be written: {error.strerror}", source=source) from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_record(record: Record, path: str | Path) -> None:
    """Write a record whole or not at all (a temporary file renamed into place)."""
    write_text_atomic(dumps_record(record), path)


# Every name here is documented under tajmahal.records, which users import it from.
__all__: list[str] = []
