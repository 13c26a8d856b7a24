"""Everything a page may link to, and the checks that each link exists.

Read once per build (clauses, rulings, code markers, test node ids) and shared by every
page, so a broken reference is reported once, with where it was made.
"""

from __future__ import annotations

import importlib
from collections import defaultdict
from typing import Any

import clause_refs
from docpages.common import ROOT, Problems
from tajmahal.registry import Registry


class Index:
    """Everything a page may link to, and the checks that each link exists."""

    def __init__(self, registry: Registry, problems: Problems) -> None:
        self.registry = registry
        self.problems = problems
        self.clauses = {clause["id"]: clause for clause in registry["clauses"]}
        self.rulings = {ruling["id"]: ruling for ruling in registry["rulings"]}
        self.code: dict[str, list[clause_refs.CodeReference]] = defaultdict(list)
        for reference in clause_refs.code_references(ROOT):
            self.code[reference.clause].append(reference)
        scanned = clause_refs.test_references(ROOT)
        self.test_ids = {node_id for node_id in scanned.node_ids}
        self.tests: dict[str, list[str]] = defaultdict(list)
        for test in scanned.references:
            node = f"{test.file}::{test.where}"
            if node not in self.tests[test.clause]:
                self.tests[test.clause].append(node)
        for ruling in registry["rulings"]:
            for test in ruling["tests"]:
                if ruling["id"] not in self.tests or test not in self.tests[ruling["id"]]:
                    self.tests[ruling["id"]].append(test)

    def known(self, any_id: str, where: str) -> bool:
        if any_id in self.clauses or any_id in self.rulings:
            return True
        self.problems.add(where, f"unknown clause or ruling {any_id}")
        return False

    def test(self, node_id: str, where: str) -> str:
        base = node_id.split("[", 1)[0]
        if base not in self.test_ids:
            self.problems.add(where, f"unknown test {node_id}")
        return f"`{node_id}`"

    def code_link(self, reference: clause_refs.CodeReference, where: str) -> str:
        """A link to the API page of the object, checked by importing it."""
        if not reference.file.startswith("reference/"):
            return f"`{reference.file}` `{reference.qualname}`"
        module_name = reference.file.removeprefix("reference/").removesuffix(".py")
        module_name = module_name.replace("/", ".").removesuffix(".__init__")
        try:
            target: Any = importlib.import_module(module_name)
            if reference.qualname != "<module>":
                for part in reference.qualname.split("."):
                    target = getattr(target, part)
        except (ImportError, AttributeError) as error:
            self.problems.add(where, f"code object {module_name}:{reference.qualname}: {error}")
            return f"`{module_name}.{reference.qualname}`"
        if reference.qualname == "<module>":
            return f"{{py:mod}}`{module_name}`"
        if any(part.startswith("_") for part in module_name.split(".")):
            return (
                f"`{module_name}.{reference.qualname}` (`{reference.file}`, line {reference.line})"
            )
        if any(part.startswith("_") for part in reference.qualname.split(".")):
            return f"{{py:mod}}`{module_name}` (`{reference.qualname}`, line {reference.line})"
        role = "py:class" if isinstance(target, type) else "py:obj"
        return f"{{{role}}}`{module_name}.{reference.qualname}`"
