"""The classification of surviving mutants, ``specs/mutation/survivors.toml``.

Read and checked here (a malformed entry is a one-line error, exit 2), and the entry a
new survivor gets printed with ``--template``.
"""

from __future__ import annotations

import json
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from mutscore.changes import Change
from mutscore.results import ROOT, Mutant

SURVIVORS = ROOT / "specs" / "mutation" / "survivors.toml"

CLASSES = ("equivalent", "text-only", "gap")
"""How a surviving mutant is classified: changes nothing observable; changes only the
wording of an account line or a message; or changes behaviour no selected test checks
(a gap: it wants a test)."""


@dataclass(frozen=True)
class Classified:
    """One entry of the survivors file."""

    mutant: str
    fingerprint: str
    line: str
    kind: str
    reason: str


def read_classified(path: Path = SURVIVORS) -> dict[str, Classified]:
    """The survivors file, by fingerprint; exit 2 with a one-line error if malformed."""
    if not path.exists():
        return {}
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise SystemExit(f"{path}: {error}") from None
    entries: dict[str, Classified] = {}
    for index, entry in enumerate(document.get("survivor", [])):
        where = f"{path}: survivor {index + 1}"
        for key in ("mutant", "fingerprint", "line", "class", "reason"):
            if not isinstance(entry.get(key), str) or not entry[key]:
                print(f"{where}: field {key!r} must be a non-empty string", file=sys.stderr)
                raise SystemExit(2)
        if entry["class"] not in CLASSES:
            print(f"{where}: field 'class' must be one of {', '.join(CLASSES)}", file=sys.stderr)
            raise SystemExit(2)
        entries[entry["fingerprint"]] = Classified(
            entry["mutant"], entry["fingerprint"], entry["line"], entry["class"], entry["reason"]
        )
    return entries


def _toml_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def template(mutant: Mutant, change: Change) -> str:
    """A survivors-file entry for ``mutant``, class ``gap`` until someone decides."""
    return (
        "[[survivor]]\n"
        f"mutant = {_toml_string(mutant.name)}\n"
        f"fingerprint = {_toml_string(change.fingerprint)}\n"
        f"line = {_toml_string(' / '.join(change.added) or '(line removed)')}\n"
        'class = "gap"\n'
        'reason = ""\n'
    )
