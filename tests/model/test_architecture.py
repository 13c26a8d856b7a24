"""The package's tree shows its architecture: layers import only downwards, without cycles.

Every module of ``reference/tajmahal`` belongs to a layer of :data:`LAYERS` (the model,
the engine, the notation, the records, ...; ``docs/architecture.md``). The imports are read
from the syntax tree, without importing anything, so a test fails on:

- an import of a package of a higher layer (or of the same layer, for two packages that
  stand side by side);
- an import of a private module (``_name``) from outside its own top-level package, or of
  another module's private name (``from x import _name``);
- any import cycle between modules, lazy (inside a function) imports included.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "reference" / "tajmahal"

LAYERS: dict[str, int] = {
    "tajmahal._version": 0,
    "tajmahal.errors": 0,
    "tajmahal.inputs": 1,
    "tajmahal.registry": 1,
    "tajmahal.model": 2,
    "tajmahal.engine": 3,
    "tajmahal.notation": 4,
    "tajmahal.records": 5,
    "tajmahal.agents": 6,
    "tajmahal.accel": 7,
    "tajmahal.verification": 8,
    "tajmahal.conformance": 9,
    "tajmahal.ai": 9,
    "tajmahal.testing": 10,
    "tajmahal.cli": 11,
    "tajmahal": 12,
}
"""Each top-level part of the package and its layer; a part imports only lower layers.
``tajmahal`` itself (its ``__init__``, the public API) stands above everything."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _part(module: str) -> str:
    """The top-level part of the package a module belongs to."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else module


def _imports(module: str) -> Iterator[tuple[str, str, int]]:
    """(imported module, imported name or "", line) for every import of ``tajmahal``."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "tajmahal":
                    yield alias.name, "", node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source.split(".")[0] != "tajmahal":
                continue
            for alias in node.names:
                if f"{source}.{alias.name}" in MODULES:
                    yield f"{source}.{alias.name}", "", node.lineno
                else:
                    yield source, alias.name, node.lineno


def test_every_module_belongs_to_a_layer() -> None:
    assert sorted(m for m in MODULES if _part(m) not in LAYERS) == []


def test_imports_go_down_the_layers() -> None:
    upward = [
        f"{module}:{line} imports {target} (layer {LAYERS[_part(target)]} from layer "
        f"{LAYERS[_part(module)]})"
        for module in MODULES
        for target, _, line in _imports(module)
        if _part(target) != _part(module) and LAYERS[_part(target)] >= LAYERS[_part(module)]
    ]
    assert upward == []


_SHARED = {"tajmahal._version"}
"""Private modules of the package itself (not of one of its parts), shared by every part."""


def _private(module: str) -> bool:
    return any(part.startswith("_") and part != "__init__" for part in module.split("."))


def test_private_modules_and_names_stay_private() -> None:
    leaks = []
    for module in MODULES:
        for target, name, line in _imports(module):
            if _private(target) and _part(target) != _part(module) and _part(target) in _SHARED:
                continue
            if _private(target) and _part(target) != _part(module):
                leaks.append(f"{module}:{line} imports the private module {target}")
            if name.startswith("_") and not name.startswith("__"):
                leaks.append(f"{module}:{line} imports the private name {target}.{name}")
    assert leaks == []


def test_no_import_cycles() -> None:
    graph = {
        module: {target for target, _, _ in _imports(module) if target in MODULES}
        for module in MODULES
    }
    # A package's __init__ is imported before any of its modules: an import of a module
    # of a package is an import of that package too.
    for module, targets in graph.items():
        for target in list(targets):
            parts = target.split(".")
            for k in range(2, len(parts)):
                parent = ".".join(parts[:k])
                if parent in MODULES and parent != module and not module.startswith(parent + "."):
                    targets.add(parent)
    cycles = _cycles(graph)
    assert cycles == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_layer_module_is_named_for_what_it_is(module: str) -> None:
    """Rule-set options live in ``_options``; no module is named after a cache."""
    last = module.rsplit(".", 1)[-1]
    assert last not in {"rules", "_rules", "cache", "_cache", "memo", "_memo"}
