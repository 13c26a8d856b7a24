"""Regenerate the golden corpus of game records in specs/traces/ and its manifest.

The corpus is what other engines are checked against, so it must reach every edge case
and every option of every configurable ruling, not only what random play happens to
meet. It is built in five deterministic parts:

- ``seeded``: games between the built-in greedy and random players under the default
  rules, for 3, 4 and 5 players;
- ``options``: for every non-default option of a configurable ruling, three games (3, 4
  and 5 players) by players that seek the situations the option changes; and games that
  mix several non-default options;
- ``edge``: for every edge tag, games found by searching seeds, rule sets and mixes of
  edge-seeking players (players that prefer, at each decision, an action whose step
  reaches a wanted tag; hoarders that withdraw without playing to run the deck dry);
- ``scenario``: hand-crafted games (chosen cards dealt to a seat, a chosen start player,
  a script of that seat's first actions) for edge cases the search does not reach;
- ``full``: a few records written with the legal actions and public position of every
  step (OpenSpiel playthrough style).

Every game is a plain record: only its setup and actions are input, everything else is
derived by the reference and checked by ``tajmahal verify``. The manifest
(``specs/traces/index.json``) lists for every record its id, player count, non-default
options, the clauses and rulings it exercises and its edge tags, like test262's
features. ``--check`` regenerates in memory and reports any difference instead of
writing; ``--coverage`` prints the coverage report. Run it deliberately, review the diff,
commit: the test suite fails when a record stops verifying or the corpus or its
coverage shrinks.

The parts live in ``tools/corpusgen/``: the edge-seeking players and mixes, the
entries, the scenarios, the edge search and the coverage report; this script plays
them, writes the records and the manifest, or compares them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from corpusgen.coverage import coverage, coverage_lines
from corpusgen.entries import (
    Entry,
    full_entries,
    non_default,
    option_entries,
    seeded_entries,
    tags_of,
)
from corpusgen.scenarios import scenario_entries
from corpusgen.search import edge_entries
from tajmahal.model import default_components
from tajmahal.records import Record, dumps_record, write_text_atomic

ROOT = Path(__file__).resolve().parent.parent
CORPUS_DIR = ROOT / "specs" / "traces"
MANIFEST = "index.json"
MANIFEST_FORMAT = "tajmahal-trace-index"


def _first_steps(record: Record) -> dict[str, int]:
    """Each edge tag of the record -> the first step that reaches it (counted from 1)."""
    first: dict[str, int] = {}
    for number, step in enumerate(record.steps, start=1):
        for tag in step.tags or ():
            first.setdefault(tag, number)
    return first


def purpose(entry: Entry, record: Record) -> str:
    """What the record is for, in one sentence (the manifest's ``purpose``), written for
    an engine author choosing what to replay."""
    players = f"{record.players}-player"
    options = non_default(record.rules)
    played_under = (
        " under " + ", ".join(f"{name} = {value}" for name, value in sorted(options.items()))
        if options
        else " under the default rules"
    )
    if entry.origin == "seeded":
        return (
            f"A whole {players} game under the default rules between greedy and random "
            "players: the common path of every step, the first records to replay."
        )
    if entry.origin == "full":
        return (
            f"A whole {players} game{played_under} listing the legal actions and the public "
            "position after every step, to compare your engine field by field where the "
            "digests only say that something differs."
        )
    if entry.origin == "scenario":
        return f"Built by hand, a {players} game{played_under}: {entry.description}."
    if entry.origin == "edge":
        tag = entry.wanted[0]
        return (
            f"Reaches the edge tag {tag} first at step {_first_steps(record)[tag]} "
            f"(docs/trace-format.md, Edge tags), a {players} game{played_under}: the record "
            "to replay when your engine gets that case wrong."
        )
    if len(options) == 1:
        ((name, value),) = options.items()
        return (
            f"The option {name} = {value} in a {players} game whose players seek the "
            "situations it changes: replay it if your engine offers that option."
        )
    return (
        f"Several options at once in a {players} game ({', '.join(sorted(options))}), "
        "to check that they combine: replay it if your engine offers all of them."
    )


def manifest_entry(entry: Entry, record: Record) -> dict[str, Any]:
    ids = sorted({i for step in record.steps for i in step.clauses})
    return {
        "id": entry.id,
        "file": f"{entry.id}.json",
        "origin": entry.origin,
        "description": entry.description,
        "purpose": purpose(entry, record),
        "players": record.players,
        "ruleset": non_default(record.rules),
        "seed": entry.seed,
        "agents": entry.mix,
        "steps": len(record.steps),
        "full": entry.full,
        "clauses": [i for i in ids if i.startswith("TM.")],
        "rulings": [i for i in ids if i.startswith("RUL.")],
        "tags": sorted(tags_of(record)),
    }


def build(log: Callable[[str], None] = lambda line: None) -> tuple[dict[str, str], dict[str, Any]]:
    """Every record's text by file name, and the manifest."""
    components = default_components()
    played: list[tuple[Entry, Record]] = []
    for entry in (*seeded_entries(), *option_entries(), *scenario_entries(), *full_entries()):
        played.append((entry, entry.play(components)))
    log(f"{len(played)} seeded, option, scenario and full records")
    played.extend(edge_entries(components, log))
    texts = {f"{entry.id}.json": dumps_record(record) for entry, record in played}
    manifest: dict[str, Any] = {
        "format": MANIFEST_FORMAT,
        "version": 1,
        "description": "The golden corpus: every record verifies with `tajmahal verify "
        "specs/traces`. Generated by tools/make_corpus.py; never edit by hand.",
        "generated": True,
        "traces": [manifest_entry(entry, record) for entry, record in played],
    }
    manifest["coverage"] = coverage(manifest)
    return texts, manifest


def manifest_text(manifest: dict[str, Any]) -> str:
    traces = manifest["traces"]
    head = {k: v for k, v in manifest.items() if k not in ("traces", "coverage")}
    parts = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in head.items()]
    lines = ",\n".join("  " + json.dumps(t, ensure_ascii=False) for t in traces)
    parts.append(' "traces": [\n' + lines + "\n ]")
    parts.append(' "coverage": ' + json.dumps(manifest["coverage"], indent=1))
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate the golden corpus of records.")
    parser.add_argument("--out", type=Path, default=CORPUS_DIR)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--coverage", action="store_true", help="print the coverage report")
    arguments = parser.parse_args(argv)
    if arguments.coverage and not arguments.check:
        manifest = json.loads((arguments.out / MANIFEST).read_text(encoding="utf-8"))
        print("\n".join(coverage_lines(coverage(manifest))))
        return 0
    texts, manifest = build(lambda line: print(line, file=sys.stderr))
    texts[MANIFEST] = manifest_text(manifest)
    if arguments.check:
        present = {p.name for p in arguments.out.glob("*.json")}
        differ = sorted(
            name
            for name, text in texts.items()
            if not (arguments.out / name).exists()
            or (arguments.out / name).read_text(encoding="utf-8") != text
        )
        extra = sorted(present - set(texts))
        for name in differ:
            print(f"differs: {name}")
        for name in extra:
            print(f"not generated: {name}")
        print(f"{len(texts)} files generated; {len(differ)} differ, {len(extra)} extra")
        return 1 if differ or extra else 0
    for old in arguments.out.glob("*.json"):
        if old.name not in texts:
            old.unlink()
    for name, text in texts.items():
        write_text_atomic(text, arguments.out / name)
    print("\n".join(coverage_lines(manifest["coverage"])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
