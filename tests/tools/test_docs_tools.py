"""The documentation generators and the site checks.

``tools/make_docs.py`` must give every clause an anchor on its area page, every ruling a
page and every option its flag, and must refuse ids, tests and code objects that do not
exist; ``tools/check_links.py`` must find broken links. The browser check runs only where
Chromium is installed (``make site-check`` installs it). No clause markers: these tests
check the tools, not a rule.
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

import check_links
import check_site
import clause_refs
import make_docs
from tajmahal.model import RULE_OPTIONS
from tajmahal.registry._registry import registry_from_sources

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("generated")
    _, problems = make_docs.generate(out)
    assert problems.lines == []
    return out


def test_every_clause_has_an_anchor_on_its_area_page(pages: Path) -> None:
    for path in sorted((ROOT / "specs" / "clauses").glob("*.toml")):
        document = tomllib.loads(path.read_text(encoding="utf-8"))
        page = (pages / "rules" / f"{document['area']}.md").read_text(encoding="utf-8")
        for clause in document["clause"]:
            assert f"```{{clause}} {clause['id']}\n" in page
            assert f'<span id="{clause["id"]}"></span>' in page


def test_every_ruling_has_a_page_and_every_option_its_flag(pages: Path) -> None:
    for path in sorted((ROOT / "rulings").glob("RUL.*.toml")):
        page = pages / "rulings" / f"{path.stem}.md"
        assert f"```{{ruling}} {path.stem}\n" in page.read_text(encoding="utf-8")
    index = (pages / "rulings" / "index.md").read_text(encoding="utf-8")
    for name, values in RULE_OPTIONS.items():
        for value in values:
            assert f"`--rule {name}={value}`" in index


def test_the_walkthrough_has_twelve_visits_and_pictures(pages: Path) -> None:
    text = (pages / "walkthrough.md").read_text(encoding="utf-8")
    assert [f"## Visit {n}" in text for n in range(1, 13)] == [True] * 12
    assert len(list((pages / "walkthrough").glob("visit-*.svg"))) == 12


def test_the_worked_examples_are_placed_on_their_pages(pages: Path) -> None:
    withdraw = (pages / "rules" / "withdraw.md").read_text(encoding="utf-8")
    score = (pages / "rules" / "score.md").read_text(encoding="utf-8")
    assert "Worked example: Anna, Bob, Chris and Doris withdraw" in withdraw
    assert "Worked example: The palace-connection figure" in score


def test_unknown_references_are_problems() -> None:
    problems = make_docs.Problems()
    index = make_docs.Index(registry_from_sources(ROOT), problems)
    assert index.known("TM.WITHDRAW.FINAL", "here")
    assert not index.known("TM.NO.SUCH.CLAUSE", "here")
    index.test("tests/test_nothing.py::test_missing", "here")
    reference = clause_refs.CodeReference(
        "reference/tajmahal/scoring.py", 1, "no_such_function", "TM.X"
    )
    index.code_link(reference, "here")
    assert len(problems.lines) == 3
    assert "TM.NO.SUCH.CLAUSE" in problems.lines[0]
    assert "test_missing" in problems.lines[1]
    assert "no_such_function" in problems.lines[2]


def _site(folder: Path) -> Path:
    (folder / "sub").mkdir(parents=True)
    (folder / "index.html").write_text(
        "<html><head><title>T</title><style>h1 {color: navy}</style></head>"
        '<body><h1 id="top">Index of a small site</h1>'
        '<a href="sub/page.html#here">ok</a><a href="sub/page.html#gone">no anchor</a>'
        '<a href="missing.html">no file</a><a href="https://example.org/">outside</a>'
        "</body></html>",
        encoding="utf-8",
    )
    (folder / "sub" / "page.html").write_text(
        "<html><head><title>P</title><style>h1 {color: navy}</style></head>"
        '<body><h1 id="here">A page of a small site</h1>'
        '<a href="../index.html#top">back</a></body></html>',
        encoding="utf-8",
    )
    return folder


def test_check_links_finds_a_missing_file_and_a_missing_anchor(tmp_path: Path) -> None:
    pages, checked, broken = check_links.broken_links(_site(tmp_path))
    assert (pages, checked) == (2, 4)
    assert len(broken) == 2
    assert any("no anchor #gone" in line for line in broken)
    assert any("no file missing.html" in line for line in broken)


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Chromium is not installed")
def test_check_site_in_chromium_finds_the_same_links(tmp_path: Path) -> None:
    binary = shutil.which("chromium")
    assert binary is not None
    opened, problems, _ = check_site.check_site(_site(tmp_path), binary)
    assert opened == 2
    assert len(problems) == 2
    assert any("gone" in line and "no such anchor" in line for line in problems)
    assert any("missing missing.html" in line for line in problems)
