"""Where the code and the tests name clause ids: read statically, from the syntax tree.

Two readers, shared by ``tools/check_specs.py`` and the documentation generators:

- :func:`code_references`: the ``Implements:`` paragraph of every docstring (module,
  class, function, method) in ``reference/tajmahal/**.py`` and ``tools/**.py``, with the
  file, the line of the definition and its qualified name. The paragraph's syntax is
  defined by :func:`tajmahal.registry._clauses.clause_ids` (ids separated by commas, ending at a
  blank line or the docstring's end).
- :func:`test_references`: every ``pytest.mark.clause("TM.X", ...)`` marker under
  ``tests/`` (on functions, methods and classes, or as a module or class ``pytestmark``)
  and the node ids of the tests pytest would collect.

Nothing is imported or run. Problems (a file that does not parse, a marker whose
argument is not a string literal, an empty ``Implements:`` paragraph) are reported to a
:class:`Sink`; without one they are ignored.

:func:`misplaced_clauses` checks the engine's layout: a clause of an area that has a
module in ``reference/tajmahal/engine/`` (``TM.WITHDRAW.*`` and ``_withdraw.py``) is
implemented in that module, except for the pairs listed in :data:`AREA_EXCEPTIONS`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from tajmahal.registry._clauses import MARKER, clause_ids

ENGINE = "reference/tajmahal/engine"
"""The engine package, relative to the repository root."""

ENGINE_AREAS = ("play", "withdraw", "reward", "score", "special", "visit", "end")
"""Clause areas (the second part of a ``TM.`` id, lower case) with a module of their own in
the engine package. Other areas (``turn``, ``comp``, ``setup``) may be named anywhere."""

FREE_MODULES = ("scoring", "setup")
"""Engine modules that may name clauses of any area: the pure scoring functions (majorities,
goods, palace chains, hand points), kept apart from the turn machinery so that each can be
tested on hand-built values, and the setup."""

AREA_EXCEPTIONS: dict[tuple[str, str], str] = {
    ("TM.SPECIAL.PLAY_LIKE_WHITE", "play"): "a special card is offered as a play's second card",
    ("TM.SPECIAL.ONE_PER_TURN", "play"): "a play has at most one second card",
    ("TM.SPECIAL.COLOUR_CHANGE", "play"): "the colour lock is checked where cards are played",
    ("TM.SPECIAL.COLOUR_CHANGE.ONE_TURN", "play"): "the colour lock is kept by the play",
    ("TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN", "play"): "the colour lock is set by the play",
    ("TM.SPECIAL.PLUS_TWO", "play"): "the +2 card scores as it is played",
    ("TM.SPECIAL.NO_EFFECT_IN_HAND", "play"): "only a play puts a special card to use",
    ("TM.WITHDRAW.EMPTY_HANDED", "play"): "withdrawing is offered beside the plays",
    ("TM.PLAY.COLOUR_RESET", "visit"): "the colour lock is cleared as the visit ends",
    ("TM.END.AFTER_TWELVE", "visit"): "the twelfth visit's end starts the game's end",
    ("TM.SPECIAL.RETURN_TO_HAND", "withdraw"): "special cards go back as the rest is discarded",
    ("TM.VISIT.DISPLAY_SHORT", "withdraw"): "the last player takes what the display holds",
}
"""Deliberate exceptions to the engine layout: (clause id, module stem) -> why."""


class Sink(Protocol):
    """Where readers report what they cannot read (``check_specs.Findings`` is one)."""

    def problem(self, file: str, where: str, message: str) -> None:
        """A problem that fails the check."""

    def warn(self, message: str) -> None:
        """A warning that does not."""


class _Ignore:
    def problem(self, file: str, where: str, message: str) -> None:
        pass

    def warn(self, message: str) -> None:
        pass


@dataclass(frozen=True)
class CodeReference:
    """One clause id named by the ``Implements:`` paragraph of a docstring."""

    file: str
    """The file, relative to the repository root, with ``/`` separators."""
    line: int
    """The line of the definition (``def``/``class``; 1 for a module docstring)."""
    qualname: str
    """The qualified name (``Outer.method``), or ``<module>``."""
    clause: str
    """The clause or ruling id."""

    @property
    def where(self) -> str:
        """``qualname (line N)``, as problems are reported."""
        return f"{self.qualname} (line {self.line})"


@dataclass(frozen=True)
class Reference:
    """One place (a test node, a trace field) that names a clause id."""

    file: str
    where: str
    clause: str


@dataclass
class ScannedTests:
    """What :func:`test_references` found."""

    references: list[Reference] = field(default_factory=list)
    """Each test (``where`` is the node id after ``file::``) and a clause it names."""
    node_ids: set[str] = field(default_factory=set)
    """Every test function, method and class node id that pytest would collect."""


def rel(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` with ``/`` separators (``path`` itself if outside)."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def python_files(folder: Path) -> Iterator[Path]:
    """The ``.py`` files under ``folder``, sorted, skipping ``__pycache__``."""
    if folder.is_dir():
        for path in sorted(folder.rglob("*.py")):
            if "__pycache__" not in path.parts:
                yield path


def parse_python(path: Path, root: Path, sink: Sink) -> ast.Module | None:
    """The syntax tree of a file, or None (reported) when it cannot be read."""
    try:
        return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, UnicodeDecodeError, SyntaxError) as error:
        sink.problem(rel(path, root), "file", f"cannot parse: {error}")
        return None


Definition = ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _docstring_ids(
    node: Definition, file: str, qualname: str, line: int, sink: Sink
) -> list[CodeReference]:
    docstring = ast.get_docstring(node, clean=True)
    if not docstring or not any(line.strip().startswith(MARKER) for line in docstring.splitlines()):
        return []
    ids = clause_ids(docstring)
    if not ids:
        sink.problem(file, f"{qualname} (line {line})", f"empty {MARKER} paragraph")
    return [CodeReference(file, line, qualname, clause) for clause in ids]


BLOCK = (ast.stmt, ast.excepthandler, ast.match_case)
"""The nodes a definition can be inside of (an expression holds none)."""


def code_references(root: Path, sink: Sink | None = None) -> list[CodeReference]:
    """Every id named in an ``Implements:`` docstring paragraph of the package and tools."""
    report = sink if sink is not None else _Ignore()
    references: list[CodeReference] = []
    for folder in (root / "reference" / "tajmahal", root / "tools"):
        for path in python_files(folder):
            module = parse_python(path, root, report)
            if module is None:
                continue
            file = rel(path, root)
            references.extend(_docstring_ids(module, file, "<module>", 1, report))

            def visit(parent: ast.AST, prefix: str, file: str = file) -> None:
                for node in ast.iter_child_nodes(parent):
                    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                        if isinstance(node, BLOCK):  # if, try, with ...: definitions inside
                            visit(node, prefix)
                        continue
                    qualname = f"{prefix}{node.name}"
                    references.extend(_docstring_ids(node, file, qualname, node.lineno, report))
                    visit(node, f"{qualname}.")

            visit(module, "")
    return references


def clause_area(clause: str) -> str:
    """The area of a ``TM.`` id as a module stem (``TM.WITHDRAW.X`` -> ``withdraw``)."""
    parts = clause.split(".")
    return parts[1].lower() if len(parts) > 1 else ""


def misplaced_clauses(references: Sequence[CodeReference]) -> list[tuple[CodeReference, str]]:
    """Engine references in the wrong module, each with the module it belongs in.

    A reference from ``reference/tajmahal/engine/_<stem>.py`` to a ``TM.`` clause whose
    area is one of :data:`ENGINE_AREAS` must come from ``_<area>.py``, unless the module
    is one of :data:`FREE_MODULES` or ``(clause, stem)`` is in :data:`AREA_EXCEPTIONS`.
    Rulings (``RUL.``) and the other areas may be named by any module.
    """
    misplaced = []
    for reference in references:
        folder, _, name = reference.file.rpartition("/")
        if folder != ENGINE or not reference.clause.startswith("TM."):
            continue
        stem = name.removesuffix(".py").removeprefix("_")
        area = clause_area(reference.clause)
        if (
            area in ENGINE_AREAS
            and area != stem
            and stem not in FREE_MODULES
            and (reference.clause, stem) not in (AREA_EXCEPTIONS)
        ):
            misplaced.append((reference, f"{ENGINE}/_{area}.py"))
    return misplaced


# -- tests -------------------------------------------------------------------------------


def _is_clause_mark(node: ast.expr) -> bool:
    """``pytest.mark.clause(...)`` or ``mark.clause(...)``."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    if node.func.attr != "clause":
        return False
    owner = node.func.value
    return (isinstance(owner, ast.Attribute) and owner.attr == "mark") or (
        isinstance(owner, ast.Name) and owner.id == "mark"
    )


def _literal_ids(call: ast.Call, file: str, where: str, what: str, sink: Sink) -> list[str]:
    ids: list[str] = []
    for argument in call.args:
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            ids.append(argument.value)
        else:
            sink.problem(file, where, f"{what} argument is not a string literal")
    if not call.args:
        sink.problem(file, where, f"{what} names no clause id")
    return ids


def _is_test_module(path: Path) -> bool:
    return path.name.startswith("test_") or path.name.endswith("_test.py")


def _pytestmark_ids(body: Sequence[ast.stmt], file: str, where: str, sink: Sink) -> list[str]:
    """Clause ids of a ``pytestmark = ...`` assignment in a module or class body."""
    ids: list[str] = []
    for node in body:
        value: ast.expr | None = None
        if isinstance(node, ast.Assign):
            targets = node.targets
            value = node.value
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
            value = node.value
        else:
            continue
        if not any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in targets):
            continue
        if value is None:
            continue
        marks = value.elts if isinstance(value, ast.List | ast.Tuple) else [value]
        for mark in marks:
            if isinstance(mark, ast.Call) and _is_clause_mark(mark):
                ids.extend(_literal_ids(mark, file, where, "pytestmark clause()", sink))
    return ids


def test_references(root: Path, sink: Sink | None = None) -> ScannedTests:
    """Every clause marker under ``tests/`` and every test node id."""
    report = sink if sink is not None else _Ignore()
    scan = ScannedTests()
    for path in python_files(root / "tests"):
        module = parse_python(path, root, report)
        if module is None:
            continue
        file = rel(path, root)
        collected = _is_test_module(path)
        inherited = _pytestmark_ids(module.body, file, "pytestmark", report)

        def visit(
            body: Sequence[ast.stmt],
            prefix: str,
            marks: list[str],
            collectable: bool,
            file: str = file,
            collected: bool = collected,
        ) -> None:
            for node in body:
                if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    continue
                name = f"{prefix}{node.name}"
                node_id = f"{file}::{name}"
                own: list[str] = []
                for decorator in node.decorator_list:
                    if _is_clause_mark(decorator) and isinstance(decorator, ast.Call):
                        own.extend(_literal_ids(decorator, file, name, "clause()", report))
                if isinstance(node, ast.ClassDef):
                    is_test_class = collectable and node.name.startswith("Test")
                    if is_test_class and collected:
                        scan.node_ids.add(node_id)
                    class_marks = own + _pytestmark_ids(node.body, file, name, report)
                    if class_marks and not is_test_class:
                        report.warn(f"{file}: {name}: clause marker on a non-test class")
                    visit(node.body, f"{prefix}{node.name}::", marks + class_marks, is_test_class)
                    continue
                is_test = collectable and node.name.startswith("test") and collected
                if is_test:
                    scan.node_ids.add(node_id)
                    for clause in dict.fromkeys(marks + own):
                        scan.references.append(Reference(file, name, clause))
                elif own:
                    report.warn(f"{file}: {name}: clause marker on a function pytest skips")

        visit(module.body, "", inherited, True)
    return scan


test_references.__test__ = False  # type: ignore[attr-defined]  # not a test when imported
