"""The TOML shapes of the registries, checked against the JSON Schemas in ``specs/schemas``.

A TOML document is read as JSON (tables are objects, arrays of tables are arrays) and
validated with ``jsonschema`` (draft 2020-12). The schemas are those of the checker's own
repository, so a tree under test is held to the published shapes. Every violation is one
problem ``file: where: message``, where ``where`` is the path to the offending value
(``clause[3].status``), with a clause's or paragraph's own id in place of its index when
it has one (``TM.X.Y: status``, ``n=12``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource

from speccheck.common import Findings

SCHEMAS = Path(__file__).resolve().parents[2] / "specs" / "schemas"
"""``specs/schemas`` of the repository this checker belongs to."""

NAMES = ("clauses", "paragraphs", "ruling")
"""The registry schemas: ``<name>.schema.json``."""

COMBINED = frozenset({"oneOf", "anyOf", "not", "contains", "minContains", "maxContains"})
"""Keywords whose default message dumps the whole instance: the subschema's description,
where it has one, is reported instead."""


@cache
def validator(name: str) -> Draft202012Validator:
    """The validator of ``specs/schemas/<name>.schema.json`` (the others resolvable by
    their ``$id``, for cross-schema ``$ref``)."""
    documents = {
        other: json.loads((SCHEMAS / f"{other}.schema.json").read_text(encoding="utf-8"))
        for other in NAMES
    }
    registry: Registry[Any] = Registry().with_resources(
        (document["$id"], Resource.from_contents(document)) for document in documents.values()
    )
    schema = documents[name]
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=registry)


def _where(document: dict[str, Any], error: ValidationError) -> str:
    """The path to the value at fault, naming clauses by id and paragraphs by number."""
    path = list(error.absolute_path)
    parts: list[str] = []
    node: Any = document
    index = 0
    while index < len(path):
        key = path[index]
        child = node[key] if isinstance(node, dict | list) else None
        if isinstance(key, str) and index + 1 < len(path) and isinstance(path[index + 1], int):
            item = child[path[index + 1]] if isinstance(child, list) else None
            if key == "clause" and isinstance(item, dict) and isinstance(item.get("id"), str):
                parts = [item["id"]]
            elif key == "p" and isinstance(item, dict) and isinstance(item.get("n"), int):
                parts = [f"n={item['n']}"]
            else:
                parts.append(f"{key}[{path[index + 1]}]")
            node = item
            index += 2
            continue
        parts.append(str(key))
        node = child
        index += 1
    return ": ".join(parts) if parts else "file"


def check_shape(name: str, document: dict[str, Any], file: str, findings: Findings) -> bool:
    """Report every way ``document`` breaks ``<name>.schema.json``; True if it has none."""
    valid = True
    errors = sorted(validator(name).iter_errors(document), key=lambda e: list(e.absolute_path))
    for error in errors:
        valid = False
        message = error.message
        schema = error.schema if isinstance(error.schema, dict) else {}
        if error.validator in COMBINED and isinstance(schema.get("description"), str):
            message = str(schema["description"])  # the instance dump says less
        findings.problem(file, _where(document, error), message)
    return valid
