"""Check the clause registry against the rulebooks, the code, the tests, the rulings and traces.

Usage: ``python3 tools/check_specs.py [--root DIR]`` (run by ``make specs``).

It reads, without importing or running the engine (only ``tajmahal.model.RULE_OPTIONS``):

- ``specs/clauses/*.toml``: the clauses (files named ``_proposed*`` hold proposed clauses
  with an ``area_for`` field; they count like the others and are reported as waiting);
- ``specs/paragraphs/*.toml``: one paragraph index per rulebook;
- ``rulings/*.toml``: the rulings;
- ``reference/tajmahal/**.py`` and ``tools/**.py``: ``Implements: TM.X, ...`` docstring
  paragraphs (read by ``tools/clause_refs.py``);
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
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from clause_refs import Reference, ScannedTests, code_references, misplaced_clauses, test_references
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
    """``tajmahal.model.RULE_OPTIONS``; the package beside this script if not installed."""
    try:
        try:
            from tajmahal.model import RULE_OPTIONS
        except ModuleNotFoundError as error:
            if error.name != "tajmahal":
                raise
            sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reference"))
            from tajmahal.model import RULE_OPTIONS
    except Exception as error:  # the engine is broken: check everything else
        findings.problem(
            "reference/tajmahal/rules.py",
            "RULE_OPTIONS",
            f"cannot import ({type(error).__name__}: {error}); RuleSet options not checked",
        )
        return None
    return dict(RULE_OPTIONS)


# -- code and tests --------------------------------------------------------------------------


def scan_code(root: Path, findings: Findings) -> list[Reference]:
    """Every clause id in an ``Implements:`` docstring paragraph of the package and tools.

    Ruling ids (``RUL.``) may be named there too: they are checked here against the
    files in ``rulings/`` and left out of the result. Engine modules are checked against
    the layout (``TM.WITHDRAW.*`` in ``engine/withdraw.py``; see ``clause_refs``).
    """
    references: list[Reference] = []
    found = code_references(root, findings)
    for reference in found:
        if reference.clause.startswith("RUL."):
            if not (root / "rulings" / f"{reference.clause}.toml").is_file():
                findings.problem(
                    reference.file, reference.where, f"unknown ruling id {reference.clause!r}"
                )
            continue
        references.append(Reference(reference.file, reference.where, reference.clause))
    for reference, home in misplaced_clauses(found):
        findings.problem(
            reference.file,
            reference.where,
            f"{reference.clause} belongs in {home} (or in clause_refs.AREA_EXCEPTIONS)",
        )
    return references


def scan_tests(root: Path, findings: Findings) -> ScannedTests:
    """Every clause marker under ``tests/`` and every test node id."""
    return test_references(root, findings)


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
