"""Write each clause's citations from the paragraph indexes, in canonical layout.

The paragraph indexes (``specs/paragraphs/*.toml``) are the single source of where the
rulebooks state each clause. This tool inverts them into the ``[[clause.cite]]`` tables
of the clause files, so that a reader of a clause sees its citations beside it, and
rewrites every clause file in one canonical layout. ``--check`` changes nothing and
fails (exit 1) if any file is not in sync; the spec check runs it that way.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIELD_ORDER = ("id", "status", "text", "differs", "rulings", "reason")
RULEBOOK_ORDER = (
    "000_d6560cbc94ab2b46.txt",
    "001_233b7271189f73c5.txt",
    "002_c3720f99097226d8.txt",
    "003_4b3fc361bacfa66a.txt",
)


def _value(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    raise TypeError(f"cannot write {value!r}")


def citations(root: Path) -> dict[str, list[dict[str, Any]]]:
    """Clause id -> citations (file, section, paragraph, words, and ``example`` for a
    paragraph of a worked example, ``none = "example"`` in its index), in rulebook and
    paragraph order."""
    result: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for path in sorted((root / "specs" / "paragraphs").glob("*.toml")):
        index = tomllib.loads(path.read_text(encoding="utf-8"))
        file = index["file"]
        for entry in index.get("p", []):
            for clause in entry.get("clauses", []):
                cite: dict[str, Any] = {
                    "file": file,
                    "section": entry.get("section", ""),
                    "paragraph": entry["n"],
                    "words": entry.get("words", ""),
                }
                if entry.get("none") == "example":
                    cite["example"] = True
                result[clause].append(cite)
    for cites in result.values():
        cites.sort(
            key=lambda c: (
                RULEBOOK_ORDER.index(c["file"]) if c["file"] in RULEBOOK_ORDER else 99,
                c["paragraph"],
            )
        )
    return result


def render(document: dict[str, Any], cites: dict[str, list[dict[str, Any]]], header: str) -> str:
    """The canonical text of one clause file."""
    lines = [header, f"area = {_value(document['area'])}", ""]
    for clause in document.get("clause", []):
        lines.append("[[clause]]")
        for key in FIELD_ORDER:
            if key in clause and clause[key] not in ("", []):
                lines.append(f"{key} = {_value(clause[key])}")
        for key, value in clause.items():
            if key not in FIELD_ORDER and key != "cite":
                lines.append(f"{key} = {_value(value)}")
        for cite in cites.get(clause["id"], []):
            lines.append("[[clause.cite]]")
            lines.extend(
                f"{key} = {_value(cite[key])}"
                for key in ("file", "section", "paragraph", "words", "example")
                if key in cite
            )
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write clause citations from the indexes.")
    parser.add_argument("--check", action="store_true", help="change nothing; fail if stale")
    parser.add_argument("--root", type=Path, default=ROOT)
    arguments = parser.parse_args(argv)
    cites = citations(arguments.root)
    stale = []
    for path in sorted((arguments.root / "specs" / "clauses").glob("*.toml")):
        if path.name.startswith("_"):
            continue
        text = path.read_text(encoding="utf-8")
        header = (
            f"# Clauses of area '{path.stem}'. Format: specs/README.md. Citations are "
            "written by tools/sync_citations.py from specs/paragraphs."
        )
        rendered = render(tomllib.loads(text), cites, header)
        if rendered != text:
            stale.append(path)
            if not arguments.check:
                temporary = path.with_suffix(".toml.tmp")
                temporary.write_text(rendered, encoding="utf-8")
                temporary.replace(path)
    if arguments.check and stale:
        for path in stale:
            print(
                f"{path}: citations or layout out of date; run tools/sync_citations.py",
                file=sys.stderr,
            )
        return 1
    if not arguments.check:
        print(f"{len(stale)} clause {'file' if len(stale) == 1 else 'files'} rewritten")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
