"""Check the clause registry against the rulebooks, the code, the tests, the rulings and traces.

Usage: ``python3 tools/check_specs.py [--root DIR]`` (run by ``make specs``).

It reads, without importing or running the engine (only ``tajmahal.rules.RULE_OPTIONS``):

- ``specs/clauses/*.toml``: the clauses (files named ``_proposed*`` hold proposed clauses
  with an ``area_for`` field; they count like the others and are reported as waiting);
- ``specs/paragraphs/*.toml``: one paragraph index per rulebook;
- ``rulings/*.toml``: the rulings;
- ``reference/tajmahal/**.py`` and ``tools/**.py``: ``@implements("TM.X", ...)`` decorators;
- ``tests/**.py``: ``@pytest.mark.clause("TM.X", ...)`` markers (on functions, methods and
  classes, or as a module or class ``pytestmark``) and the test node ids that exist;
- ``specs/traces/**.json``: any ``"clauses"`` key (a list of clause ids), at any depth.

The shape of each TOML file is checked against its JSON Schema in ``specs/schemas/``
(``clauses``, ``paragraphs``, ``ruling``); the code (``tools/speccheck/``, one module per
concern) checks only what a schema cannot: the cross-references between the files, the
locators against the rulebook texts, and drift (see ``speccheck.drift``). A marker may
name a ruling (``RUL.X``) as well as a clause.

The rulebook texts are looked up in ``$TAJMAHAL_RULEBOOKS``, else ``../shared/rulebooks``
beside the repository. Paragraph ``n`` of a text is its ``n``-th non-blank line (a line of
only white space, non-breaking spaces included, is blank). ``words`` must occur in the
paragraph, ignoring case, runs of white space and the shape of quotes and apostrophes.

Every problem is printed as ``file: where: message``; the exit status is 1 when there is
any, 0 otherwise. A coverage report is always printed first, and the review items (drift
for a reader to judge; they do not fail the check) after it.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from speccheck.clauses import load_clauses
from speccheck.common import Findings
from speccheck.common import rel as _rel
from speccheck.common import str_list as _str_list
from speccheck.cross import cross_check
from speccheck.drift import check_drift
from speccheck.indexes import load_indexes
from speccheck.report import report
from speccheck.rulings import load_rulings
from speccheck.texts import load_texts


def load_rule_options(findings: Findings) -> dict[str, tuple[str, ...]] | None:
    """``tajmahal.rules.RULE_OPTIONS``; the package beside this script if not installed."""
    try:
        try:
            from tajmahal.rules import RULE_OPTIONS
        except ModuleNotFoundError as error:
            if error.name != "tajmahal":
                raise
            sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reference"))
            from tajmahal.rules import RULE_OPTIONS
    except Exception as error:  # the engine is broken: check everything else
        findings.problem(
            "reference/tajmahal/rules.py",
            "RULE_OPTIONS",
            f"cannot import ({type(error).__name__}: {error}); RuleSet options not checked",
        )
        return None
    return dict(RULE_OPTIONS)


# -- code and tests --------------------------------------------------------------------------


def _call_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name):
            return node.func.id
        if isinstance(node.func, ast.Attribute):
            return node.func.attr
    return None


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


def _literal_ids(call: ast.Call, file: str, where: str, what: str, findings: Findings) -> list[str]:
    ids: list[str] = []
    for argument in call.args:
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            ids.append(argument.value)
        else:
            findings.problem(file, where, f"{what} argument is not a string literal")
    if not call.args:
        findings.problem(file, where, f"{what} names no clause id")
    return ids


def _parse_python(path: Path, root: Path, findings: Findings) -> ast.Module | None:
    try:
        return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, UnicodeDecodeError, SyntaxError) as error:
        findings.problem(_rel(path, root), "file", f"cannot parse: {error}")
        return None


def _python_files(folder: Path) -> Iterator[Path]:
    if folder.is_dir():
        for path in sorted(folder.rglob("*.py")):
            if "__pycache__" not in path.parts:
                yield path


@dataclass
class Reference:
    """One place that names a clause id."""

    file: str
    where: str
    clause: str


def scan_code(root: Path, findings: Findings) -> list[Reference]:
    """Every ``implements("...")`` decorator in the package and the tools."""
    references: list[Reference] = []
    for folder in (root / "reference" / "tajmahal", root / "tools"):
        for path in _python_files(folder):
            module = _parse_python(path, root, findings)
            if module is None:
                continue
            file = _rel(path, root)

            def visit(parent: ast.AST, prefix: str, file: str = file) -> None:
                for node in ast.iter_child_nodes(parent):
                    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                        visit(node, prefix)  # if, try, with ... blocks
                        continue
                    qualname = f"{prefix}{node.name}"
                    for decorator in node.decorator_list:
                        if (
                            isinstance(decorator, ast.Call)
                            and _call_name(decorator) == "implements"
                        ):
                            where = f"{qualname} (line {decorator.lineno})"
                            ids = _literal_ids(decorator, file, where, "implements()", findings)
                            references.extend(Reference(file, where, i) for i in ids)
                    visit(node, f"{qualname}.")

            visit(module, "")
    return references


def _is_test_module(path: Path) -> bool:
    return path.name.startswith("test_") or path.name.endswith("_test.py")


def _pytestmark_ids(
    body: Sequence[ast.stmt], file: str, where: str, findings: Findings
) -> list[str]:
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
                ids.extend(_literal_ids(mark, file, where, "pytestmark clause()", findings))
    return ids


@dataclass
class ScannedTests:
    references: list[Reference] = field(default_factory=list)
    """Each test (``where`` is the node id after ``file::``) and a clause it names."""
    node_ids: set[str] = field(default_factory=set)
    """Every test function, method and class node id that pytest would collect."""


def scan_tests(root: Path, findings: Findings) -> ScannedTests:
    """Every clause marker under ``tests/`` and every test node id."""
    scan = ScannedTests()
    for path in _python_files(root / "tests"):
        module = _parse_python(path, root, findings)
        if module is None:
            continue
        file = _rel(path, root)
        collected = _is_test_module(path)
        inherited = _pytestmark_ids(module.body, file, "pytestmark", findings)

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
                        own.extend(_literal_ids(decorator, file, name, "clause()", findings))
                if isinstance(node, ast.ClassDef):
                    is_test_class = collectable and node.name.startswith("Test")
                    if is_test_class and collected:
                        scan.node_ids.add(node_id)
                    class_marks = own + _pytestmark_ids(node.body, file, name, findings)
                    if class_marks and not is_test_class:
                        findings.warn(f"{file}: {name}: clause marker on a non-test class")
                    visit(node.body, f"{prefix}{node.name}::", marks + class_marks, is_test_class)
                    continue
                is_test = collectable and node.name.startswith("test") and collected
                if is_test:
                    scan.node_ids.add(node_id)
                    for clause in dict.fromkeys(marks + own):
                        scan.references.append(Reference(file, name, clause))
                elif own:
                    findings.warn(f"{file}: {name}: clause marker on a function pytest skips")

        visit(module.body, "", inherited, True)
    return scan


def scan_traces(root: Path, findings: Findings) -> list[Reference]:
    """Every clause id named in a ``clauses`` list of a trace."""
    references: list[Reference] = []
    folder = root / "specs" / "traces"
    if not folder.is_dir():
        return references

    def walk(value: object, where: str, file: str) -> None:
        if isinstance(value, dict):
            for key, child in value.items():
                child_where = f"{where}.{key}"
                if key == "clauses":
                    ids = _str_list(child)
                    if ids is None:
                        findings.warn(f"{file}: {child_where}: not a list of clause ids")
                    else:
                        references.extend(Reference(file, child_where, i) for i in ids)
                        continue
                walk(child, child_where, file)
        elif isinstance(value, list):
            for index, child in enumerate(value):
                walk(child, f"{where}[{index}]", file)

    for path in sorted(folder.rglob("*.json")):
        file = _rel(path, root)
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            findings.problem(file, "file", f"cannot read JSON: {error}")
            continue
        walk(document, "$", file)
    return references


# -- the whole check -------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--root",
        type=Path,
        default=Path(__file__).resolve().parent.parent,
        help="repository root (default: the parent of tools/)",
    )
    arguments = parser.parse_args(argv)
    root: Path = arguments.root.resolve()
    findings = Findings()
    rule_options = load_rule_options(findings)
    texts = load_texts(root, findings)
    code = scan_code(root, findings)
    tests = scan_tests(root, findings)
    traces = scan_traces(root, findings)
    clauses, proposed = load_clauses(root, texts, findings)
    if proposed:
        findings.warn(
            f"{len(proposed)} proposed clauses waiting to be merged "
            f"({', '.join(sorted(set(proposed)))})"
        )
    rulings = load_rulings(root, set(clauses), tests.node_ids, texts, rule_options, findings)
    indexes = load_indexes(root, set(clauses), texts, findings)
    citations = cross_check(
        clauses, rulings, indexes, code, tests.references, traces, rule_options, findings
    )
    check_drift(clauses, rulings, indexes, texts, findings)
    lines = report(
        clauses,
        rulings,
        indexes,
        texts,
        code,
        tests.references,
        tests.node_ids,
        traces,
        citations,
        rule_options,
    )
    for line in lines:
        print(line)
    if findings.reviews:
        print(f"Review ({len(findings.reviews)} items; they do not fail the check):")
        for file, where, message in findings.reviews:
            print(f"  review: {file}: {where}: {message}")
    for warning in findings.warnings:
        print(f"warning: {warning}")
    for file, where, message in findings.problems:
        print(f"{file}: {where}: {message}")
    if findings.problems:
        count = len(findings.problems)
        print(f"check_specs: {count} problem{'s' if count != 1 else ''}")
        return 1
    print("check_specs: no problems")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
