"""Generate the documentation's pages from the registry, the rulings, the components,
a golden trace and the command-line parser.

``python3 tools/make_docs.py [OUT]`` writes MyST pages and SVG pictures into
``docs/_generated/`` (or ``OUT``); ``docs/conf.py`` runs it at the start of every Sphinx
build, so ``make docs`` is enough. A file is rewritten only when its text changes (Sphinx
then re-reads only what changed), and files no longer generated are removed.

Every id a page links to is checked here before Sphinx runs: a clause or ruling id that
is not in the registry, a test id that pytest would not collect, a code object that does
not import, an option flag that ``tajmahal.model.RULE_OPTIONS`` does not know. Any of
them stops the build with one line per problem (exit 1). Sphinx (``-W``, ``nitpicky``)
then fails on any link the pages make that does not resolve.

Pages (all under ``_generated/``):

- ``rules/<area>.md``: the annotated rules, one page per clause area in the rulebooks'
  order; each clause a ``clause`` target named by its id, with statement, citations side
  by side, differences, status, code, tests, rulings, and the worked examples of
  ``tests/rules/test_examples.py`` on the page of their clauses;
- ``rulings/<id>.md`` and ``rulings/index.md``: one page per ruling, the index by
  category and the rule-set options with their ``--rule`` flags;
- ``misreadings.md``: the catalogue of misreadings (included by ``docs/misreadings.md``);
- ``components.md`` and ``board.svg``: every card, tile and city with its provenance;
- ``walkthrough.md`` and ``walkthrough/visit-NN.svg``: a golden game visit by visit;
- ``cli.md``: every subcommand from :func:`tajmahal.cli.build_parser`;
- ``schemas.md``: every JSON Schema under ``specs/``;
- ``registry-formats.md``: the READMEs of ``specs/`` and ``rulings/``, included;
- ``api/<module>.md``: one autodoc page per public module of the package.

The pages are made by the modules of ``tools/docpages/``, one page kind each; this
script puts the package and the tools on the path, runs them in order and reports.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "reference"), str(ROOT / "tools")]

from docpages.common import OUT, Writer  # noqa: E402
from docpages.common import Problems as Problems  # noqa: E402
from docpages.components import components_page  # noqa: E402
from docpages.index import Index as Index  # noqa: E402
from docpages.interfaces import api_pages, cli_page, registry_formats_page, schemas_page  # noqa: E402
from docpages.interfaces import public_modules as public_modules  # noqa: E402
from docpages.misreadings import misreadings_page  # noqa: E402
from docpages.rules import rules_pages  # noqa: E402
from docpages.rulings import rulings_pages  # noqa: E402
from docpages.walkthrough import walkthrough_page  # noqa: E402
from tajmahal.model import default_components  # noqa: E402
from tajmahal.registry._registry import registry_from_sources  # noqa: E402


def generate(out: Path = OUT) -> tuple[Writer, Problems]:
    problems = Problems()
    writer = Writer(out)
    registry = registry_from_sources(ROOT)
    index = Index(registry, problems)
    components = default_components()
    rules_pages(writer, index)
    rulings_pages(writer, index)
    misreadings_page(writer, index)
    components_page(writer, components)
    walkthrough_page(writer, index, components)
    cli_page(writer)
    schemas_page(writer)
    registry_formats_page(writer)
    api_pages(writer)
    writer.prune()
    return writer, problems


def main(argv: Iterable[str]) -> int:
    arguments = list(argv)
    out = Path(arguments[0]) if arguments else OUT
    writer, problems = generate(out)
    for line in problems.lines:
        print(f"make_docs: {line}", file=sys.stderr)
    print(f"make_docs: {len(writer.written)} files, {writer.changed} changed, in {out}")
    return 1 if problems.lines else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
