"""The clause registry: ``specs/clauses/*.toml``.

The shape of each file is ``specs/schemas/clauses.schema.json``. Checked here: clause ids
unique across the files and every citation's words found in its paragraph. Files named
``_proposed*`` hold proposed clauses with an ``area_for`` field; they count like the
others and are reported as waiting.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from speccheck.common import Findings, is_text, load_toml, rel, str_list, tables
from speccheck.schemas import check_shape
from speccheck.texts import Texts


@dataclass
class Clause:
    """What the cross-checks need of one clause."""

    id: str
    status: str
    area: str
    file: str
    rulings: list[str]
    cites: list[dict[str, Any]]
    differs: str | None = None
    """How the rulebooks differ on it (the ``differs`` line), if given."""


def load_clauses(
    root: Path, texts: Texts, findings: Findings
) -> tuple[dict[str, Clause], list[str]]:
    """The clauses by id, and the file of each proposed clause."""
    clauses: dict[str, Clause] = {}
    proposed: list[str] = []
    folder = root / "specs" / "clauses"
    paths = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    if not paths:
        findings.problem("specs/clauses", "folder", "no clause files")
    for path in paths:
        file = rel(path, root)
        is_proposed = path.name.startswith("_proposed")
        data = load_toml(path, root, findings)
        if data is None:
            continue
        check_shape("clauses", data, file, findings)
        area = data.get("area")
        if not is_text(area):
            area = data.get("area_for") if is_text(data.get("area_for")) else path.stem
        for entry in tables(data.get("clause", [])) or []:
            clause_id = entry.get("id")
            if not isinstance(clause_id, str):
                continue  # reported by the schema
            if clause_id in clauses:
                findings.problem(
                    file, clause_id, f"duplicate clause id (also in {clauses[clause_id].file})"
                )
                continue
            cites = tables(entry.get("cite", [])) or []
            texts.check_cited(findings, file, f"{clause_id}: cite", cites)
            clause_area = str(area)
            if is_proposed:
                proposed.append(file)
                area_for = entry.get("area_for", data.get("area_for"))
                if is_text(area_for):
                    clause_area = str(area_for)
            differs = entry.get("differs")
            clauses[clause_id] = Clause(
                clause_id,
                str(entry.get("status")),
                clause_area,
                file,
                str_list(entry.get("rulings", [])) or [],
                cites,
                str(differs) if is_text(differs) else None,
            )
    return clauses, proposed
