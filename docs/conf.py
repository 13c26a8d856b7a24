"""Sphinx configuration of the Taj Mahal reference documentation.

The generated pages (annotated rules, rulings, components, walkthrough, command line,
API) are written by ``tools/make_docs.py`` into ``docs/_generated/`` when the build
starts; it stops the build when a page would link to a clause, ruling, test or code
object that does not exist. ``nitpicky`` makes Sphinx warn on every cross-reference it
cannot resolve, and ``make check`` builds with ``-W``. No network: intersphinx is off.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "reference"), str(ROOT / "tools")]

project = "Taj Mahal reference"
author = "the tajmahal-reference authors"
copyright = "2026, the tajmahal-reference authors"
release = "0.1.0"

extensions = [
    "myst_parser",
    "sphinx_design",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "**/.*"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 2

# Every unresolved reference is a warning (an error under -W), except names from outside
# the package: without intersphinx, the standard library and attrs cannot be linked.
nitpicky = True
# Private modules (``tajmahal.engine``) have no page, and a role wrapped over two
# lines in a docstring (a space in the target) is the docstring's slip, not a broken link.
nitpick_ignore_regex = [
    (r"py:.*", r"(?!tajmahal\b).*"),
    (r"py:.*", r"tajmahal\.(.*\.)?_.*"),
    (r"py:.*", r"tajmahal\.\S*\s.*"),
    # Type variables (``BufferT``) are documented where they are used, not as objects.
    (r"py:class", r"tajmahal\.[\w.]*\.[A-Z]\w*T"),
]
# Ambiguous short names in docstrings (``city``) and example JSON abbreviated with ``...``
# are not broken links.
suppress_warnings = ["ref.python", "misc.highlighting_failure"]

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"undoc-members": False}
napoleon_google_docstring = True
napoleon_numpy_docstring = False

# The PyData Sphinx Theme: responsive (the navigation folds behind a button on a phone,
# the page's own text comes first), maintained, and it searches as you type.
html_theme = "pydata_sphinx_theme"
html_title = "Taj Mahal reference"
html_static_path = ["_static"]
html_theme_options = {
    "search_as_you_type": True,
    "navbar_align": "left",
    "header_links_before_dropdown": 4,
    "show_toc_level": 2,
    "navigation_depth": 3,
    "show_prev_next": False,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": [],
}
# No sidebar on the landing page: the four doors are its content.
html_sidebars = {"index": []}
# Player pages rank above engineering pages in the site's search (docs/_static/scorer.js).
html_search_scorer = str(Path(__file__).parent / "_static" / "scorer.js")
html_css_files = ["custom.css"]


def _generate(app: Any) -> None:
    from sphinx.errors import ExtensionError

    import make_docs

    _, problems = make_docs.generate()
    # Import every documented module once, here: the parallel readers are forked from
    # this process and inherit them instead of each importing the heavy ones again.
    for module in make_docs.public_modules():
        importlib.import_module(module)
    if problems.lines:
        raise ExtensionError("broken references:\n" + "\n".join(problems.lines))


_BORDER = re.compile(r"^\s*=+( +=+)+\s*$")


def _widen_simple_tables(lines: list[str]) -> None:
    """Widen a simple table's first column where a cell runs into the column gap.

    docutils rejects such a table ("Text in column margin"); the docstring is still
    clear to a reader, so the build repairs the layout instead of failing on it.
    """
    borders = [i for i, line in enumerate(lines) if _BORDER.match(line)]
    for start, end in zip(borders[::3], borders[2::3], strict=False):
        indent = len(lines[start]) - len(lines[start].lstrip())
        width = len(lines[start].strip().split(" ", 1)[0])
        rows = [
            i
            for i in range(start + 1, end)
            if i not in borders and lines[i][indent : indent + 1].strip()
        ]
        needed = max((len(lines[i][indent:].split(" ", 1)[0]) for i in rows), default=0)
        extra = needed - width
        if extra <= 0:
            continue
        for i in range(start, end + 1):
            line = lines[i]
            if i in borders:
                at = indent + width
                lines[i] = line[:at] + "=" * extra + line[at:]
            elif line.strip():
                token = len(line[indent:].split(" ", 1)[0]) if i in rows else 0
                at = indent + max(width, token)
                pad = extra - max(0, token - width)
                lines[i] = line[:at] + " " * pad + line[at:]


_TERM_ROW = re.compile(r"^(\s*)``[^`]+``( {2,})\S")


def _border_term_lists(lines: list[str]) -> None:
    """Give a borderless two-column list a simple table's borders.

    A docstring may lay out ``name``  description rows (descriptions aligned, wrapped
    lines indented to the same column) as a table without its ``====`` borders, which
    docutils reads as stray indentation. The rows are left as written; the borders are
    added around them.
    """
    i = 0
    while i < len(lines):
        first = _TERM_ROW.match(lines[i])
        if first is None or (i > 0 and lines[i - 1].strip()):
            i += 1
            continue
        indent = len(first.group(1))
        column = first.end() - 1
        end = i + 1
        rows = 1
        while end < len(lines) and lines[end].strip():
            row = _TERM_ROW.match(lines[end])
            if row and len(row.group(1)) == indent and row.end() - 1 == column:
                rows += 1
            elif len(lines[end]) - len(lines[end].lstrip()) != column:
                break
            end += 1
        if rows < 2 or (end < len(lines) and lines[end].strip()):
            i = end
            continue
        widest = max(len(line) for line in lines[i:end])
        border = " " * indent + "=" * (column - indent - 2) + "  " + "=" * (widest - column)
        lines[i:end] = [border, *lines[i:end], border]
        i = end + 2


def _repair_docstring(
    app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    _widen_simple_tables(lines)
    _border_term_lists(lines)


class Sources(SphinxDirective):
    """``sources`` ID...: small links to clauses and rulings, and their details folded.

    For hand-written pages (the questions): the lines are those of the generated rules
    and rulings pages (``tools/docpages/sources.py`` writes them to
    ``_generated/sources.json``), so an answer's sources read like a rule's.
    """

    required_arguments = 1
    optional_arguments = 20

    def run(self) -> list[nodes.Node]:
        """The links and the folded details, parsed as MyST like the page around them."""
        from docpages.sources import SOURCES_FILE, dropdown, source_links

        path = Path(self.env.srcdir) / "_generated" / SOURCES_FILE
        self.env.note_dependency(str(path))
        known = json.loads(path.read_text(encoding="utf-8"))
        missing = [i for i in self.arguments if i not in known]
        if missing:
            raise self.error(f"sources: unknown clause or ruling {', '.join(missing)}")
        body = [line for i in self.arguments for line in known[i]]
        lines = source_links(self.arguments) + dropdown(body)
        container = nodes.container()
        self.state.nested_parse(StringList(lines, self.get_source_info()[0]), 0, container)
        return list(container.children)


def setup(app: Any) -> dict[str, Any]:
    """Cross-reference types for clause and ruling ids, generation, docstring repair."""
    app.add_directive("sources", Sources)
    app.connect("autodoc-process-docstring", _repair_docstring)
    app.add_crossref_type("clause", "clause", indextemplate="pair: %s; clause")
    app.add_crossref_type("ruling", "ruling", indextemplate="pair: %s; ruling")
    app.connect("builder-inited", _generate)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
