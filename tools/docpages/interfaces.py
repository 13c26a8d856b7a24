"""The pages read from the interfaces' own definitions: command line, API, schemas.

The command line from :func:`tajmahal.cli.build_parser`, one autodoc page per public
package or module (private modules, ``_name.py``, are documented through the package that
re-exports their names), every JSON Schema shown whole, and the registry's READMEs
included: none of them restates what its source says, so they cannot drift from it.
"""

from __future__ import annotations

import argparse
import ast
import functools
import importlib
import inspect
import json
import os
import pkgutil

from sphinx.pycode import ModuleAnalyzer

from docpages.common import ROOT, Writer, one_line
from tajmahal.cli import _main as cli

CLI_EXAMPLES = {
    "play": (
        "tajmahal play --players 4 --seed 2000 --trace game.json",
        "tajmahal play --agents greedy,random --rule majority_scope=all",
    ),
    "replay": ("tajmahal replay game.json",),
    "verify": (
        "tajmahal verify game.json",
        "tajmahal verify specs/traces --jobs 2 --report junit --output verify.xml",
    ),
    "position": ("tajmahal position game.json --step 40 > p.json",),
    "components": ("tajmahal components", "tajmahal components --components my-components"),
    "fuzz": (
        "tajmahal fuzz --games 2000 --jobs 2",
        "tajmahal fuzz --games 5000 --find tie,crown-on-fortress,deck-exhausted",
    ),
    "perft": (
        "tajmahal perft specs/perft/start-4p.json --depth 3",
        "tajmahal perft specs/perft/mid-withdrawal.json --depth 2 --divide",
    ),
    "serve": ('echo \'{"op":"hello","protocol":1}\' | tajmahal serve',),
    "diff": ('tajmahal diff --engine "./my-engine --protocol" --games 200',),
    "rule": ("tajmahal rule crown bonus", "tajmahal rule TM.REWARD.CROWN.NO_BONUS"),
    "show": ("tajmahal show game.json --step 40", "tajmahal show game.json --step 40 --svg p.svg"),
}
"""One to three typical commands per subcommand, shown before its full help."""


def cli_page(writer: Writer) -> None:
    # argparse wraps help to the terminal's width: fix it so the page is the same anywhere.
    width = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"
    try:
        _cli_page(writer)
    finally:
        if width is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = width


def _cli_page(writer: Writer) -> None:
    parser = cli.build_parser()
    lines = [
        "# The command line",
        "",
        "Generated from {py:func}`tajmahal.cli.build_parser`. "
        + one_line((cli.__doc__ or "").split("\n\n", 1)[-1]),
        "",
        "```text",
        parser.format_usage().strip(),
        "```",
        "",
    ]
    subparsers = [
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    ]
    helps = {choice.dest: choice.help for choice in subparsers[0]._choices_actions}
    for name, sub in subparsers[0].choices.items():
        lines += [f"## tajmahal {name}", "", (helps.get(name) or "").capitalize() + ".", ""]
        examples = CLI_EXAMPLES.get(name, ())
        if examples:
            lines += ["```sh", *examples, "```", ""]
        lines += ["```text", sub.format_help().strip(), "```", ""]
    writer.write("cli.md", "\n".join(lines))


def public_modules() -> list[str]:
    import tajmahal

    names = ["tajmahal"]
    for info in pkgutil.walk_packages(tajmahal.__path__, "tajmahal."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return sorted(names)


def api_pages(writer: Writer) -> None:
    modules = public_modules()
    for module in modules:
        lines = [
            f"# {module}",
            "",
            "```{eval-rst}",
            f".. automodule:: {module}",
            "   :members:",
            "   :show-inheritance:",
            "```",
            "",
        ]
        if module == "tajmahal":
            lines[4] = "   :no-members:"
        # A package that re-exports a function named like one of its submodules
        # (``tajmahal.testing.fuzz``): the name belongs to the submodule's page.
        clashes = sorted(
            name
            for name in getattr(importlib.import_module(module), "__all__", ())
            if f"{module}.{name}" in modules
        )
        if clashes:
            lines.insert(6, f"   :exclude-members: {', '.join(clashes)}")
        if module != "tajmahal":
            lines += _reexported_data(module)
        writer.write(f"api/{module}.md", "\n".join(lines))
    index = [
        "# API reference",
        "",
        "One page per public module, from the typed docstrings.",
        "",
        "```{toctree}",
        ":maxdepth: 1",
        "",
        *modules,
        "```",
        "",
    ]
    writer.write("api/index.md", "\n".join(index))


def _reexported_data(module: str) -> list[str]:
    """``py:data`` entries for the constants a package re-exports from its private modules.

    autodoc finds a constant's docstring (the string under its assignment) only in the
    module that assigns it, so a package page would leave out every constant it
    re-exports; each is written here with the docstring of its defining module.
    """
    package = importlib.import_module(module)
    lines: list[str] = []
    for name in getattr(package, "__all__", ()):
        value = getattr(package, name)
        if callable(value) or isinstance(value, type) or inspect.ismodule(value):
            continue
        for source in _private_sources(module):
            if name not in _source(source):
                continue  # not assigned there: spare Sphinx's analyzer (a slow read)
            docs = ModuleAnalyzer.for_module(source).find_attr_docs()
            if ("", name) in docs:
                lines += ["```{eval-rst}", f".. py:data:: {name}", f"   :module: {module}", ""]
                lines += [f"   {line}" if line else "" for line in docs[("", name)]]
                lines += ["```", ""]
                break
    return lines


@functools.cache
def _source(module: str) -> str:
    return inspect.getsource(importlib.import_module(module))


def _private_sources(module: str) -> list[str]:
    """The private modules a package imports its public names from, in import order."""
    tree = ast.parse(inspect.getsource(importlib.import_module(module)))
    return [
        node.module
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        and node.module is not None
        and node.module.rsplit(".", 1)[-1].startswith("_")
    ]


def registry_formats_page(writer: Writer) -> None:
    """The registry's READMEs (clause and ruling formats, checks), included as they are."""
    lines = ["# The registry formats", ""]
    lines += [
        "How clauses, paragraph indexes and rulings are written and checked: the READMEs of "
        "`specs/` and `rulings/`, included here unchanged.",
        "",
    ]
    for relative in ("specs/README.md", "rulings/README.md"):
        if (ROOT / relative).is_file():
            lines += [
                f"```{{include}} ../../{relative}",
                ":heading-offset: 1",
                "```",
                "",
            ]
    writer.write("registry-formats.md", "\n".join(lines))


def schemas_page(writer: Writer) -> None:
    """Every published JSON Schema, shown whole from its file."""
    paths = sorted((ROOT / "specs").glob("*.schema.json"))
    paths += sorted((ROOT / "specs" / "schemas").glob("*.schema.json"))
    lines = [
        "# JSON Schemas",
        "",
        "The schemas of the files this project publishes and reads, shown whole from "
        "`specs/`. Records and positions are validated against them when they are read.",
        "",
    ]
    for path in paths:
        relative = path.relative_to(ROOT).as_posix()
        document = json.loads(path.read_text(encoding="utf-8"))
        title = document.get("title", path.name) if isinstance(document, dict) else path.name
        lines += [f"## {path.name}", "", f"{one_line(str(title))} (`{relative}`)", ""]
        lines += [f"```{{literalinclude}} ../../{relative}", ":language: json", "```", ""]
    writer.write("schemas.md", "\n".join(lines))
