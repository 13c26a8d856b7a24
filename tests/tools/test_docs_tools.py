"""The documentation generators and the site checks.

``tools/make_docs.py`` must give every clause an anchor on its area page, every ruling a
page and every option its flag, and must refuse ids, tests and code objects that do not
exist; ``tools/check_links.py`` must find broken links. The browser check runs only where
Chromium is installed (``make site-check`` installs it). No clause markers: these tests
check the tools, not a rule.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import tomllib
from pathlib import Path

import pytest
from filelock import FileLock

import check_links
import check_site
import clause_refs
import make_docs
from docpages.common import name_books
from docpages.figures import replay_example
from docpages.interfaces import CLI_EXAMPLES
from docpages.ruling_questions import RULING_QUESTIONS
from docpages.walkthrough import walkthrough_trace
from tajmahal import cli
from tajmahal.model import RULE_OPTIONS
from tajmahal.registry._registry import registry_from_sources

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated pages (seconds of work), written once for the whole test run.

    Under pytest-xdist each process has its own temporary folder inside the run's; the
    first process to get here generates the pages into the run's folder, holding a file
    lock there, and the others wait for it and read the same pages (as pytest-xdist's
    documentation shows for a session fixture shared by its processes).
    """
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return _generated(tmp_path_factory.mktemp("generated"))
    shared = tmp_path_factory.getbasetemp().parent / "generated-pages"
    with FileLock(f"{shared}.lock"):
        if not shared.is_dir():  # written whole, or not at all if the generation fails
            _generated(tmp_path_factory.mktemp("generated")).rename(shared)
    return shared


def _generated(out: Path) -> Path:
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


def test_the_walkthrough_numbers_each_step_as_replay_does(
    pages: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each step's first line on the page carries the number `tajmahal replay` gives it,
    so that `tajmahal show RECORD --step N` finds the position after it."""
    assert cli.main(["replay", str(walkthrough_trace())]) == 0
    replayed: dict[int, str] = {}
    for line in capsys.readouterr().out.splitlines():
        found = re.fullmatch(r" *(\d+)  (\S.*)", line)
        if found:
            replayed[int(found[1])] = " ".join(found[2].split())
    shown: dict[int, str] = {}
    text = (pages / "walkthrough.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        found = re.fullmatch(r"- \*\*(\d+)\*\* (.*?)(?: — .*)?", line)
        if found:  # a step going on in the next visit is numbered there again
            shown.setdefault(int(found[1]), found[2].replace("\\|", "|"))
    assert len(shown) > 100
    assert shown == replayed
    assert list(shown) == sorted(shown)


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


VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'
"""A phone lays a page without this out 980 pixels wide, as for a desktop."""


def _site(folder: Path) -> Path:
    (folder / "sub").mkdir(parents=True)
    (folder / "index.html").write_text(
        f"<html><head>{VIEWPORT}<title>T</title><style>h1 {{color: navy}}</style></head>"
        '<body><h1 id="top">Index of a small site</h1>'
        '<a href="sub/page.html#here">ok</a><a href="sub/page.html#gone">no anchor</a>'
        '<a href="missing.html">no file</a><a href="https://example.org/">outside</a>'
        "</body></html>",
        encoding="utf-8",
    )
    (folder / "sub" / "page.html").write_text(
        f"<html><head>{VIEWPORT}<title>P</title><style>h1 {{color: navy}}</style></head>"
        '<body><h1 id="here">A page of a small site</h1>'
        '<a href="../index.html#top">back</a></body></html>',
        encoding="utf-8",
    )
    return folder


def test_check_links_finds_a_missing_file_and_a_missing_anchor(tmp_path: Path) -> None:
    site = _site(tmp_path)
    # A theme's template copied among the static files is not a page of the site.
    (site / "_static").mkdir()
    (site / "_static" / "macros.html").write_text('<a href="{{ pathto(x) }}">', "utf-8")
    pages, checked, broken = check_links.broken_links(site)
    assert (pages, checked) == (2, 4)
    assert len(broken) == 2
    assert any("no anchor #gone" in line for line in broken)
    assert any("no file missing.html" in line for line in broken)


def _browser() -> str:
    """Debian's Chromium, with Playwright to drive it; the test is skipped without them."""
    pytest.importorskip("playwright", reason="the site extra (playwright) is not installed")
    binary = shutil.which("chromium")
    if binary is None:
        pytest.skip("Chromium is not installed (make site-check installs it)")
    return binary


def test_check_site_in_chromium_finds_the_same_links(tmp_path: Path) -> None:
    report = check_site.check_site(_site(tmp_path), _browser(), searches={}, screenshots=False)
    assert report.opened == 2
    assert len(report.problems) == 2
    assert any("gone" in line and "no such anchor" in line for line in report.problems)
    assert any("missing missing.html" in line for line in report.problems)
    assert report.widest["phone"][0] <= 400


def test_check_site_finds_a_page_wider_than_a_phone_and_a_cut_picture(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text(
        f"<html><head>{VIEWPORT}<title>T</title><style>h1 {{color: navy}}</style></head><body>"
        "<h1>A page fixed at 700 pixels</h1>"
        '<div class="fixed" style="width: 700px">text of a fixed width</div>'
        '<div style="width: 200px; overflow: hidden">'
        '<img src="wide.svg" style="width: 300px"></div></body></html>',
        encoding="utf-8",
    )
    (tmp_path / "wide.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100" viewBox="0 0 300 100">'
        '<rect x="10" y="10" width="50" height="50"/>'
        '<text x="250" y="50" font-size="30">Taj Mahal</text></svg>',
        encoding="utf-8",
    )
    report = check_site.check_site(tmp_path, _browser(), searches={}, screenshots=False)
    problems = "\n".join(report.problems)
    assert "index.html at 400 px: the page is" in problems
    assert "div.fixed" in problems
    assert "index.html at 400 px: picture wide.svg is cut off" in problems
    assert "picture wide.svg draws outside its frame" in problems
    assert "at 1280 px: the page" not in problems
    assert report.widest["phone"] == (report.widest["phone"][0], "index.html")
    assert report.widest["phone"][0] >= 700


def test_rule_headings_are_statements_and_ids_are_folded_under_sources(pages: Path) -> None:
    withdraw = (pages / "rules" / "withdraw.md").read_text(encoding="utf-8")
    headings = [line for line in withdraw.splitlines() if line.startswith("## ")]
    assert "## A player who withdraws plays no more cards in the current visit" in headings
    assert not any("TM." in heading for heading in headings)
    # Status, code and tests appear only inside the folded Sources.
    outside = re.sub(r"::::\{dropdown\} Sources.*?\n::::\n", "", withdraw, flags=re.S)
    assert "tests/" not in outside and "implemented" not in outside


def test_every_ruling_page_is_titled_by_a_players_question(pages: Path) -> None:
    for path in sorted((ROOT / "rulings").glob("RUL.*.toml")):
        assert path.stem in RULING_QUESTIONS, f"{path.stem}: add its question to RULING_QUESTIONS"
        page = (pages / "rulings" / f"{path.stem}.md").read_text(encoding="utf-8")
        title = page.splitlines()[0]
        assert title == f"# {RULING_QUESTIONS[path.stem]}" and title.endswith("?")


def test_player_pages_name_the_rulebooks() -> None:
    assert name_books("000 says so; 001's margin and 002 agree, as does 003.") == (
        "The Italian rulebook (000) says so; the Giochi Rari edition's (001) margin and "
        "the Spanish rulebook (002) agree, as does the French summary (003)."
    )
    assert name_books("file 000_d6560cbc94ab2b46.txt, (000), 2000") == (
        "file 000_d6560cbc94ab2b46.txt, (000), 2000"
    )


def test_no_player_page_names_a_rulebook_by_its_number_alone(pages: Path) -> None:
    generated = [*(pages / "rules").glob("*.md"), *(pages / "rulings").glob("*.md")]
    written = [*(ROOT / "docs" / "rules").glob("*.md")]
    bare = re.compile(r"(?<![\w(./-])00[0-3](?![\w)])")
    for path in [*generated, *written]:
        text = re.sub(
            r"::::\{dropdown\} Sources.*?\n::::\n", "", path.read_text("utf-8"), flags=re.S
        )
        text = re.sub(r"```\{sources\}[^\n]*\n```", "", text)
        assert not bare.findall(text), f"{path.name}: a rulebook named by its number alone"


def test_the_rules_figures_are_drawn_from_the_replayed_example(pages: Path) -> None:
    _, counts, won, after = replay_example()
    # The rulebook's outcome: Anna the elephant, Bob the vizier, Chris the general and the
    # princess, Doris the monk and the Grand Mogul.
    assert {seat: sorted(s.value for s in forces) for seat, forces in won.items()} == {
        0: ["elephant"],
        1: ["vizier"],
        2: ["general", "princess"],
        3: ["mogul", "monk"],
    }
    assert counts[2][1] == 1  # Chris's one general, the most once Anna's cards are gone
    assert sorted((p.seat, p.crowned) for p in after.palaces if p.city == "A1") == [
        (1, False),
        (3, True),
    ]
    for name in ("majorities.svg", "crown.svg", "palace-connections.svg"):
        assert (pages / "figures" / name).read_text("utf-8").startswith("<svg")


def test_every_subcommand_has_an_example_on_the_command_line_page(pages: Path) -> None:
    parser = cli.build_parser()
    names = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert sorted(CLI_EXAMPLES) == sorted(names)
    page = (pages / "cli.md").read_text("utf-8")
    for name, examples in CLI_EXAMPLES.items():
        assert all(example.split()[0] in ("tajmahal", "echo") for example in examples)
        assert f"## tajmahal {name}\n" in page and examples[0] in page
