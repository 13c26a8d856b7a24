"""What each mutant changes, read from mutmut's mutated source, and its fingerprint.

Apart because the fingerprint is a published algorithm (``tools/mutation_report.py``'s
docstring): the survivors file is keyed by it, so it must not change by accident.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from mutscore.results import SOURCE

_SUFFIX = re.compile(r"__mutmut_(\d+|orig)$")


@dataclass(frozen=True)
class Change:
    """What a mutant changes: its diff lines and fingerprint."""

    removed: tuple[str, ...]
    added: tuple[str, ...]
    fingerprint: str


def _functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _SUFFIX.search(node.name):
            yield node


def changes_of(module: str) -> dict[str, Change]:
    """The change of every mutant of ``module``, read from mutmut's mutated source."""
    path = SOURCE / Path(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    bodies: dict[str, list[str]] = {}
    for node in _functions(ast.parse(text)):
        assert node.end_lineno is not None
        body = lines[node.lineno - 1 : node.end_lineno]
        # The def line with the mutant's own name read as the original's.
        body[0] = body[0].replace(node.name, _SUFFIX.split(node.name)[0], 1)
        bodies[node.name] = body
    changes: dict[str, Change] = {}
    for name, body in bodies.items():
        function, number = _SUFFIX.split(name)[0], _SUFFIX.search(name)
        if number is None or number.group(1) == "orig":
            continue
        original = bodies.get(f"{function}__mutmut_orig", [])
        removed: list[str] = []
        added: list[str] = []
        for line in difflib.unified_diff(original, body, lineterm="", n=0):
            if line.startswith(("---", "+++", "@@")):
                continue
            (removed if line.startswith("-") else added).append(line[1:].strip())
        key = f"{module}.{function}\n" + "\n".join(removed) + "\n--\n" + "\n".join(added)
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
        changes[f"{module}.{name}"] = Change(tuple(removed), tuple(added), digest)
    return changes
