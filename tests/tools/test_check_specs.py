"""The spec checker (tools/check_specs.py) on a small fake repository.

The fake tree is consistent: three clauses of an area ``core`` (one implemented, one
settled by a ruling, one not modelled) and one component clause, a paragraph index for
each of the four rulebooks (with fake texts pointed to by ``TAJMAHAL_RULEBOOKS``), one
configurable ruling per RuleSet option, a code file with ``Implements:`` docstring
paragraphs and a test file
with clause markers. Each failure case breaks one thing and expects the problem, naming
the file, in the output.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from jsonschema import Draft202012Validator

from tajmahal.model import RULE_OPTIONS

TOOL = Path(__file__).resolve().parents[2] / "tools" / "check_specs.py"

BOOKS = (
    "000_d6560cbc94ab2b46.txt",
    "001_233b7271189f73c5.txt",
    "002_c3720f99097226d8.txt",
    "003_4b3fc361bacfa66a.txt",
)
INDEX_0 = "specs/paragraphs/000_d6560cbc94ab2b46.toml"
RULING = "rulings/RUL.CORE.TIES.toml"
CLAUSES = "specs/clauses/core.toml"
CODE = "reference/tajmahal/engine.py"
TESTS = "tests/test_core.py"

Tree = dict[str, str]


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_specs", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


check_specs = _load_tool()

# Paragraphs: 1 title, 2 draw, 3 ties, 4 wash; blank lines (one of non-breaking spaces)
# do not count.
TEXT = (
    "Title of the Book\n"
    "\n"
    "Each player draws two  cards at the end of a turn.\n"
    "\xa0\xa0\n"
    "Ties are broken in favour of the remaining players.\n"
    "Wash the tiles before the game.\n"
)

CLAUSES_TOML = """\
area = "core"

[[clause]]
id = "TM.CORE.DRAW"
status = "implemented"
text = "A player draws two cards at the end of a turn."

[[clause]]
id = "TM.CORE.TIES"
status = "ruling"
text = "Ties go to the remaining players."
{ties_rulings}

[[clause]]
id = "TM.CORE.WASH"
status = "not-modelled"
text = "The tiles are washed before the game."
reason = "Table etiquette."

[[clause]]
id = "TM.COMP.DECK"
status = "implemented"
text = "The deck is a deck."
"""

OTHER_RULINGS = tuple(
    f"RUL.OPT.{option.upper()}" for option in RULE_OPTIONS if option != "majority_scope"
)
"""One configurable ruling per other RuleSet option; each names TM.CORE.TIES."""
TIES_RULINGS = "rulings = " + json.dumps(["RUL.CORE.TIES", *OTHER_RULINGS])
"""TM.CORE.TIES lists every ruling that names it."""
Cited = dict[str, list[tuple[int, str]]]

CITED: Cited = {
    "TM.CORE.DRAW": [(2, "draws two cards")],
    "TM.CORE.TIES": [(3, "remaining players")],
    "TM.CORE.WASH": [(4, "Wash")],
}
"""Clause -> the paragraphs and words each index lists it with."""


def _clauses_toml(cited: Cited | None = None, skip: frozenset[str] = frozenset()) -> str:
    """The clause file with the citations tools/sync_citations.py writes from the indexes
    (``cited``, in every rulebook but those in ``skip``)."""
    text = CLAUSES_TOML.replace("{ties_rulings}", TIES_RULINGS)
    for clause_id, places in (cited or CITED).items():
        cites = "".join(
            f'[[clause.cite]]\nfile = "{book}"\nsection = "Turn"\nparagraph = {paragraph}\n'
            f'words = "{words}"\n'
            for book in BOOKS
            if book not in skip
            for paragraph, words in places
        )
        start = text.index(f'id = "{clause_id}"')
        end = text.find("\n\n[[clause]]", start)
        end = len(text.rstrip("\n")) if end == -1 else end
        text = text[:end] + "\n" + cites.rstrip("\n") + text[end:]
    return text + "\n" if not text.endswith("\n") else text


INDEX_TOML = """\
file = "{book}"

[[p]]
n = 1
section = "(title)"
words = "title"
none = "heading"

[[p]]
n = 2
section = "Turn"
words = "draws two cards"
clauses = ["TM.CORE.DRAW"]

[[p]]
n = 3
section = "Turn"
words = "remaining players"
clauses = ["TM.CORE.TIES"]

[[p]]
n = 4
section = "Turn"
words = "Wash"
clauses = ["TM.CORE.WASH"]
"""

CODE_PY = """\
def draw() -> None:
    \"\"\"Draw two cards.

    Implements: TM.CORE.DRAW
    \"\"\"


class Deck:
    def build(self) -> None:
        \"\"\"Build the deck; the paragraph may wrap.

        Implements: TM.COMP.DECK,
            TM.CORE.TIES, RUL.CORE.TIES
        \"\"\"
"""

TESTS_PY = """\
import pytest

pytestmark = [pytest.mark.clause("TM.CORE.WASH")]


@pytest.mark.clause("TM.CORE.DRAW")
def test_draw() -> None:
    pass


@pytest.mark.clause("TM.COMP.DECK")
class TestTies:
    def test_remaining(self) -> None:
        pass

    def test_all(self) -> None:
        pass
"""


def _ruling(ruling_id: str, option: str) -> str:
    says = []
    for number, book in enumerate(BOOKS):
        locator = 'paragraph = 3\nwords = "remaining players"\n' if number == 0 else ""
        says.append(f'[[says]]\nfile = "{book}"\nsection = "Turn"\n{locator}summary = "Says so."\n')
    options = []
    for number, value in enumerate(RULE_OPTIONS[option]):
        chosen = "true" if number == 0 else "false"
        test = "test_remaining" if number == 0 else "test_all"
        options.append(
            f'[[options]]\nvalue = "{value}"\ndescription = "Option {value}."\n'
            f'chosen = {chosen}\ntests = ["tests/test_core.py::TestTies::{test}"]\n'
        )
    return (
        f'id = "{ruling_id}"\n'
        'title = "Who counts in a tie"\n'
        'category = "gap"\n'
        'clauses = ["TM.CORE.TIES"]\n'
        'question = "Who is compared?"\n'
        'resolution = "Only the remaining players."\n'
        'reasoning = "Every text says so."\n'
        "configurable = true\n"
        f'option = "{option}"\n'
        'tests = ["tests/test_core.py::TestTies::test_remaining"]\n\n'
        + "\n".join(says)
        + "\n"
        + "\n".join(options)
    )


def _base_tree() -> Tree:
    tree: Tree = {
        CLAUSES: _clauses_toml(),
        CODE: CODE_PY,
        TESTS: TESTS_PY,
        "tools/helper.py": "def helper() -> None:\n    pass\n",
    }
    for book in BOOKS:
        tree[f"specs/paragraphs/{Path(book).stem}.toml"] = INDEX_TOML.format(book=book)
    for option in RULE_OPTIONS:
        ruling_id = "RUL.CORE.TIES" if option == "majority_scope" else f"RUL.OPT.{option.upper()}"
        tree[f"rulings/{ruling_id}.toml"] = _ruling(ruling_id, option)
    return tree


@pytest.fixture
def books(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "books"
    folder.mkdir()
    for book in BOOKS:
        (folder / book).write_text(TEXT, encoding="utf-8")
    monkeypatch.setenv("TAJMAHAL_RULEBOOKS", str(folder))
    return folder


def _run(tmp_path: Path, tree: Tree, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    root = tmp_path / "repo"
    for relative, text in tree.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    status = check_specs.main(["--root", str(root)])
    assert isinstance(status, int)
    return status, capsys.readouterr().out


def _edit(tree: Tree, file: str, old: str, new: str) -> None:
    assert old in tree[file], (file, old)
    tree[file] = tree[file].replace(old, new, 1)


def _problem_lines(output: str, file: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith(f"{file}: ")]


# -- the consistent tree -------------------------------------------------------------------


def test_consistent_tree_passes(
    tmp_path: Path, books: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, output = _run(tmp_path, _base_tree(), capsys)
    assert status == 0, output
    assert output.rstrip().endswith("check_specs: no problems")
    assert "warning" not in output
    assert len(output.splitlines()) < 60


def test_report_counts_clauses_paragraphs_rulings_and_references(
    tmp_path: Path, books: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, output = _run(tmp_path, _base_tree(), capsys)
    lines = output.splitlines()
    core = next(line for line in lines if line.strip().startswith("core "))
    # implemented, ruling, not-modelled, total; named by code, by tests, by paragraphs
    assert core.split()[1:] == ["2", "1", "1", "4", "3", "3", "3"]
    total = next(line for line in lines if line.strip().startswith("total "))
    assert total.split()[1:] == core.split()[1:]
    for book in BOOKS:
        line = next(line for line in lines if line.strip().startswith(book))
        assert "4/4" in line and "100.0%" in line and "3 to clauses, 1 none" in line
    rulings = next(line for line in lines if line.startswith("Rulings:"))
    assert f"Rulings: {len(RULE_OPTIONS)} (gap {len(RULE_OPTIONS)}" in rulings
    assert "majority_scope" in rulings
    references = next(line for line in lines if line.startswith("References:"))
    assert "code 3 to 3 clauses" in references
    assert "tests 6 to 3 clauses (3 tests found)" in references


def test_markers_in_module_pytestmark_and_on_a_class_count(
    tmp_path: Path, books: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tree = _base_tree()
    # TM.CORE.DRAW only through the module's pytestmark (a single mark, not a list).
    _edit(tree, TESTS, '@pytest.mark.clause("TM.CORE.DRAW")\n', "")
    _edit(
        tree,
        TESTS,
        'pytestmark = [pytest.mark.clause("TM.CORE.WASH")]',
        'pytestmark = pytest.mark.clause("TM.CORE.DRAW")',
    )
    status, output = _run(tmp_path, tree, capsys)
    assert status == 0, output


def test_proposed_clauses_are_read_and_reported(
    tmp_path: Path, books: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tree = _base_tree()
    tree["specs/clauses/_proposed-001.toml"] = (
        'area = "proposed"\n\n[[clause]]\nid = "TM.CORE.BOX"\nstatus = "not-modelled"\n'
        'area_for = "core"\ntext = "There is a box."\nreason = "Physical."\n'
    )
    status, output = _run(tmp_path, tree, capsys)
    assert status == 0, output
    assert "warning: 1 proposed clauses waiting to be merged" in output
    core = next(line for line in output.splitlines() if line.strip().startswith("core "))
    assert (
        core.split()[3] == "2" and core.split()[4] == "5"
    )  # counted under the area it is proposed for


def test_missing_texts_only_warn(
    tmp_path: Path, books: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAJMAHAL_RULEBOOKS", str(tmp_path / "nowhere"))
    tree = _base_tree()
    _edit(tree, INDEX_0, 'words = "draws two cards"', 'words = "rides a camel"')
    _edit(tree, CLAUSES, 'words = "draws two cards"', 'words = "rides a camel"')
    status, output = _run(tmp_path, tree, capsys)
    assert status == 0, output
    assert "locators were not verified" in output


def test_option_tables_have_one_spelling(
    tmp_path: Path, books: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The schema knows [[options]] and option = "field" only: the old spellings
    # (option_field, [[option]]) are reported, not silently accepted.
    tree = _base_tree()
    _edit(tree, RULING, 'option = "majority_scope"', 'option_field = "majority_scope"')
    tree[RULING] = tree[RULING].replace("[[options]]", "[[option]]")
    status, output = _run(tmp_path, tree, capsys)
    assert status == 1
    lines = _problem_lines(output, RULING)
    assert any("Additional properties are not allowed" in line for line in lines), output
    assert any("'options' is a required property" in line for line in lines), output


def test_markers_inside_blocks_and_nested_classes_are_found(
    tmp_path: Path, books: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tree = _base_tree()
    _edit(tree, CODE, "Implements: TM.CORE.DRAW\n", "")
    tree[CODE] += (
        "\n\ntry:\n    pass\nexcept ImportError:\n    class Outer:\n        class Inner:\n"
        "            def run(self) -> None:\n"
        '                """Run.\n\n                Implements: TM.CORE.DRAW, TM.CORE.NOPE\n"""\n'
    )
    status, output = _run(tmp_path, tree, capsys)
    assert status == 1
    assert _problem_lines(output, CODE) == [
        f"{CODE}: Outer.Inner.run (line 21): unknown clause id 'TM.CORE.NOPE' (code reference)"
    ]


# -- one broken thing at a time ------------------------------------------------------------

Mutation = Callable[[Tree], None]


def _edit_all_indexes(old: str, new: str) -> Mutation:
    def mutate(tree: Tree) -> None:
        for book in BOOKS:
            _edit(tree, f"specs/paragraphs/{Path(book).stem}.toml", old, new)

    return mutate


def _put(file: str, text: str) -> Mutation:
    def mutate(tree: Tree) -> None:
        tree[file] = text

    return mutate


def _delete(file: str) -> Mutation:
    def mutate(tree: Tree) -> None:
        del tree[file]

    return mutate


def _change(file: str, old: str, new: str) -> Mutation:
    def mutate(tree: Tree) -> None:
        _edit(tree, file, old, new)

    return mutate


def _delete_says(tree: Tree) -> None:
    text = tree[RULING]
    start = text.index('[[says]]\nfile = "003')
    end = text.index("[[options]]")
    tree[RULING] = text[:start] + text[end:]


def _remove_ruling_tests(tree: Tree) -> None:
    _edit(tree, RULING, 'tests = ["tests/test_core.py::TestTies::test_remaining"]\n\n', "")
    text = tree[RULING]
    tree[RULING] = "\n".join(line for line in text.splitlines() if not line.startswith("tests = "))


def _silence(books: tuple[str, ...], category: str) -> Mutation:
    """Mark the ruling's says entries of ``books`` silent and set its category."""

    def mutate(tree: Tree) -> None:
        _edit(tree, RULING, 'category = "gap"', f'category = "{category}"')
        for code in books:
            text = tree[RULING]
            start = text.index(f'[[says]]\nfile = "{code}')
            end = text.index('summary = "Says so."\n', start) + len('summary = "Says so."\n')
            tree[RULING] = text[:end] + "silent = true\n" + text[end:]

    return mutate


CASES: list[tuple[str, Mutation, str, str]] = [
    # code, tests and traces naming unknown clauses
    (
        "unknown-clause-in-code",
        _change(CODE, "Implements: TM.CORE.DRAW\n", "Implements: TM.CORE.DRAW, TM.CORE.NOPE\n"),
        CODE,
        "unknown clause id 'TM.CORE.NOPE'",
    ),
    (
        "empty-implements",
        _change(CODE, "Implements: TM.CORE.DRAW\n", "Implements:\n"),
        CODE,
        "draw (line 1): empty Implements: paragraph",
    ),
    (
        "unknown-ruling-in-code",
        _change(CODE, "RUL.CORE.TIES", "RUL.CORE.GONE"),
        CODE,
        "Deck.build (line 9): unknown ruling id 'RUL.CORE.GONE'",
    ),
    (
        "unknown-clause-in-test",
        _change(TESTS, 'clause("TM.CORE.DRAW")', 'clause("TM.CORE.DRAW", "TM.CORE.NOPE")'),
        TESTS,
        "test_draw: unknown clause id 'TM.CORE.NOPE'",
    ),
    (
        "unknown-clause-in-trace",
        _put("specs/traces/a/game.json", json.dumps({"turns": [{"clauses": ["TM.CORE.NOPE"]}]})),
        "specs/traces/a/game.json",
        "unknown clause id 'TM.CORE.NOPE'",
    ),
    # an engine clause implemented outside the module of its area
    (
        "engine-clause-in-another-module",
        _put(
            "reference/tajmahal/engine/_play.py",
            'def f() -> None:\n    """F.\n\n    Implements: TM.WITHDRAW.X\n    """\n',
        ),
        "reference/tajmahal/engine/_play.py",
        "f (line 1): TM.WITHDRAW.X belongs in reference/tajmahal/engine/_withdraw.py",
    ),
    # clauses
    (
        "duplicate-clause-id",
        _put(
            "specs/clauses/extra.toml",
            'area = "extra"\n\n[[clause]]\nid = "TM.CORE.DRAW"\nstatus = "implemented"\n'
            'text = "Again."\n',
        ),
        "specs/clauses/extra.toml",
        "duplicate clause id",
    ),
    (
        "bad-clause-id",
        _put(
            "specs/clauses/extra.toml",
            'area = "extra"\n\n[[clause]]\nid = "TM.core"\nstatus = "not-modelled"\n'
            'text = "Lower case."\nreason = "None."\n',
        ),
        "specs/clauses/extra.toml",
        "TM.core: id: 'TM.core' does not match",
    ),
    (
        "bad-status",
        _change(CLAUSES, 'status = "not-modelled"', 'status = "skipped"'),
        CLAUSES,
        "TM.CORE.WASH: status: 'skipped' is not one of",
    ),
    (
        "missing-text",
        _change(CLAUSES, 'text = "The tiles are washed before the game."\n', ""),
        CLAUSES,
        "TM.CORE.WASH: 'text' is a required property",
    ),
    (
        "implemented-without-code",
        _change(CODE, "Implements: TM.CORE.DRAW\n", ""),
        CLAUSES,
        "TM.CORE.DRAW: implemented clause has no code reference",
    ),
    (
        "implemented-without-test",
        _change(TESTS, '@pytest.mark.clause("TM.CORE.DRAW")\n', ""),
        CLAUSES,
        "TM.CORE.DRAW: implemented clause has no test reference",
    ),
    (
        "class-marker-removed",
        _change(TESTS, '@pytest.mark.clause("TM.COMP.DECK")\n', ""),
        CLAUSES,
        "TM.COMP.DECK: implemented clause has no test reference",
    ),
    (
        "ruling-clause-missing-ruling",
        _change(CLAUSES, '"RUL.CORE.TIES", ', '"RUL.CORE.GONE", '),
        CLAUSES,
        "TM.CORE.TIES: ruling 'RUL.CORE.GONE' does not exist",
    ),
    (
        "ruling-clause-without-rulings",
        _change(CLAUSES, TIES_RULINGS, "rulings = []"),
        CLAUSES,
        "TM.CORE.TIES: rulings: [] should be non-empty",
    ),
    (
        "not-modelled-without-reason",
        _change(CLAUSES, 'reason = "Table etiquette."\n', ""),
        CLAUSES,
        "TM.CORE.WASH: 'reason' is a required property",
    ),
    (
        "clause-without-citation",
        _edit_all_indexes('clauses = ["TM.CORE.DRAW"]', 'none = "flavour"'),
        CLAUSES,
        "TM.CORE.DRAW: no rulebook paragraph states this clause",
    ),
    # paragraph indexes
    (
        "index-unknown-clause",
        _change(
            INDEX_0, 'clauses = ["TM.CORE.DRAW"]', 'clauses = ["TM.CORE.DRAW", "TM.CORE.NOPE"]'
        ),
        INDEX_0,
        "n=2: unknown clause id 'TM.CORE.NOPE'",
    ),
    (
        "index-gap",
        _change(
            INDEX_0,
            '[[p]]\nn = 3\nsection = "Turn"\nwords = "remaining players"\n'
            'clauses = ["TM.CORE.TIES"]\n\n',
            "",
        ),
        INDEX_0,
        "paragraphs missing: 3",
    ),
    ("index-repeat", _change(INDEX_0, "n = 4", "n = 3"), INDEX_0, "more than once: 3"),
    (
        "index-beyond-text",
        _change(INDEX_0, "n = 4", "n = 5"),
        INDEX_0,
        "beyond the last (4)",
    ),
    (
        "index-words-not-in-paragraph",
        _change(INDEX_0, 'words = "draws two cards"', 'words = "rides a camel"'),
        INDEX_0,
        "n=2: words 'rides a camel' not found in paragraph 2",
    ),
    (
        "index-both-clauses-and-none",
        _change(
            INDEX_0, 'clauses = ["TM.CORE.DRAW"]', 'clauses = ["TM.CORE.DRAW"]\nnone = "flavour"'
        ),
        INDEX_0,
        "n=2: either clauses or none (a reason), not both",
    ),
    (
        "index-neither",
        _change(INDEX_0, 'none = "heading"\n', ""),
        INDEX_0,
        "n=1: either clauses or none (a reason), not both and not neither",
    ),
    (
        "index-bad-none-reason",
        _change(INDEX_0, 'none = "heading"', 'none = "chapter"'),
        INDEX_0,
        "n=1: none: 'chapter' is not one of",
    ),
    (
        "index-summary-without-clauses",
        _change(INDEX_0, 'none = "heading"', 'none = "summary"'),
        INDEX_0,
        "n=1: 'clauses' is a required property",
    ),
    (
        "index-of-unknown-rulebook",
        _put("specs/paragraphs/004_bfdd175ab99813ab.toml", 'file = "004_bfdd175ab99813ab.txt"\n'),
        "specs/paragraphs/004_bfdd175ab99813ab.toml",
        "file: '004_bfdd175ab99813ab.txt' is not one of",
    ),
    (
        "index-missing",
        _delete("specs/paragraphs/003_4b3fc361bacfa66a.toml"),
        "specs/paragraphs/003_4b3fc361bacfa66a.toml",
        "missing index of 003_4b3fc361bacfa66a.txt",
    ),
    # rulings
    (
        "ruling-missing-test",
        _change(RULING, "TestTies::test_remaining", "TestTies::test_missing"),
        RULING,
        "test 'tests/test_core.py::TestTies::test_missing' does not exist",
    ),
    (
        "ruling-wrong-option-values",
        _change(RULING, 'value = "all"', 'value = "everyone"'),
        RULING,
        "differ from the allowed values of RuleSet.majority_scope",
    ),
    (
        "ruling-option-not-a-field",
        _change(RULING, 'option = "majority_scope"', 'option = "majority_scop"'),
        RULING,
        "'majority_scop' is not a RuleSet field",
    ),
    (
        "ruleset-option-without-ruling",
        _delete(RULING),
        "reference/tajmahal/rules.py",
        "RuleSet.majority_scope: no configurable ruling names this option",
    ),
    (
        "ruling-two-chosen",
        _change(RULING, "chosen = false", "chosen = true"),
        RULING,
        "options: At least two options; exactly one chosen = true.",
    ),
    (
        "ruling-option-without-tests",
        _change(RULING, 'tests = ["tests/test_core.py::TestTies::test_all"]\n', ""),
        RULING,
        "options[1]: 'tests' is a required property",
    ),
    ("ruling-no-tests-at-all", _remove_ruling_tests, RULING, "ruling has no tests at all"),
    (
        "ruling-says-missing-book",
        _delete_says,
        RULING,
        "says: exactly one says entry for 003_4b3fc361bacfa66a.txt",
    ),
    (
        "ruling-says-paragraph-out-of-range",
        _change(RULING, "paragraph = 3", "paragraph = 9"),
        RULING,
        "paragraph 9 out of range",
    ),
    (
        "ruling-says-words-not-found",
        _change(RULING, 'words = "remaining players"', 'words = "draws two"'),
        RULING,
        "words 'draws two' not found in paragraph 3",
    ),
    (
        "ruling-missing-title",
        _change(RULING, 'title = "Who counts in a tie"\n', ""),
        RULING,
        "file: 'title' is a required property",
    ),
    (
        "ruling-bad-category",
        _change(RULING, 'category = "gap"', 'category = "hunch"'),
        RULING,
        "category: 'hunch' is not one of",
    ),
    (
        "ruling-unknown-clause",
        _change(RULING, 'clauses = ["TM.CORE.TIES"]', 'clauses = ["TM.CORE.NOPE"]'),
        RULING,
        "unknown clause id 'TM.CORE.NOPE'",
    ),
    (
        "ruling-no-clauses",
        _change(RULING, 'clauses = ["TM.CORE.TIES"]', "clauses = []"),
        RULING,
        "clauses: [] should be non-empty",
    ),
    (
        "ruling-id-not-file-name",
        _change(RULING, 'id = "RUL.CORE.TIES"', 'id = "RUL.CORE.TIE"'),
        RULING,
        "differs from the file name",
    ),
    (
        "ruling-duplicate-id",
        lambda tree: tree.update({"rulings/RUL.CORE.TIES2.toml": tree[RULING]}),
        "rulings/RUL.CORE.TIES2.toml",
        "duplicate ruling id",
    ),
    (
        "ruling-bad-id",
        _put("rulings/rul.toml", 'id = "rul.x"\n'),
        "rulings/rul.toml",
        "id: 'rul.x' does not match",
    ),
    # drift between the parts
    (
        "citation-missing-from-clause",
        _change(
            CLAUSES,
            '[[clause.cite]]\nfile = "000_d6560cbc94ab2b46.txt"\nsection = "Turn"\nparagraph = 2\n'
            'words = "draws two cards"\n',
            "",
        ),
        CLAUSES,
        "TM.CORE.DRAW: specs/paragraphs/000_d6560cbc94ab2b46.toml lists it at paragraph 2, but "
        "the clause does not cite it",
    ),
    (
        "citation-words-differ-from-index",
        _change(CLAUSES, 'words = "draws two cards"', 'words = "draws two"'),
        CLAUSES,
        "TM.CORE.DRAW: citation of paragraph 2 of 000_d6560cbc94ab2b46.txt differs from",
    ),
    (
        "ruling-not-named-back",
        _change(RULING, 'clauses = ["TM.CORE.TIES"]', 'clauses = ["TM.CORE.DRAW"]'),
        RULING,
        "clauses: TM.CORE.DRAW does not list this ruling in its rulings",
    ),
    (
        "clause-not-named-back",
        _change(RULING, 'clauses = ["TM.CORE.TIES"]', 'clauses = ["TM.CORE.DRAW"]'),
        CLAUSES,
        "TM.CORE.TIES: lists ruling RUL.CORE.TIES, which does not name the clause back",
    ),
    (
        "unknown-ruling-in-test",
        _change(TESTS, 'clause("TM.CORE.DRAW")', 'clause("TM.CORE.DRAW", "RUL.CORE.NOPE")'),
        TESTS,
        "test_draw: unknown ruling id 'RUL.CORE.NOPE' (test reference)",
    ),
    (
        "disagreement-with-one-text",
        _silence(("001", "002", "003"), "disagreement"),
        RULING,
        "category: a disagreement ruling needs at least 2 texts that speak to the question; "
        "texts not marked silent: 000",
    ),
    (
        "translation-with-no-text",
        _silence(("000", "001", "002", "003"), "translation"),
        RULING,
        "a translation ruling needs at least 1 texts that speak to the question; texts not "
        "marked silent: none",
    ),
]


@pytest.mark.parametrize(
    ("mutate", "file", "message"),
    [pytest.param(mutate, file, message, id=name) for name, mutate, file, message in CASES],
)
def test_each_failure_is_reported_with_its_file(
    tmp_path: Path,
    books: Path,
    capsys: pytest.CaptureFixture[str],
    mutate: Mutation,
    file: str,
    message: str,
) -> None:
    tree = _base_tree()
    mutate(tree)
    status, output = _run(tmp_path, tree, capsys)
    assert status == 1, output
    lines = _problem_lines(output, file)
    assert any(message in line for line in lines), output
    assert "check_specs: " in output.splitlines()[-1]
    assert output.splitlines()[-1].endswith(("problem", "problems"))


def test_every_problem_is_file_where_message(
    tmp_path: Path, books: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tree = _base_tree()
    chosen = {"unknown-clause-in-code", "unknown-clause-in-trace", "index-gap"}
    for name, mutate, _, _ in CASES:
        if name in chosen:
            mutate(tree)
    status, output = _run(tmp_path, tree, capsys)
    assert status == 1
    lines = output.splitlines()
    count = int(lines[-1].split()[1])
    problems = lines[-1 - count : -1]
    assert len(problems) == count >= 3
    assert all(len(line.split(": ", 2)) == 3 for line in problems)


# -- review items: drift a reader must judge; they never fail the check ------------------

DRAW_003_CITE = (
    '[[clause.cite]]\nfile = "003_4b3fc361bacfa66a.txt"\nsection = "Turn"\nparagraph = 2\n'
    'words = "draws two cards"\n'
)


def _reviews(output: str) -> list[str]:
    return [line.strip() for line in output.splitlines() if line.strip().startswith("review: ")]


def test_a_text_that_does_not_cite_a_clause_is_listed_until_differs_names_it(
    tmp_path: Path, books: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tree = _base_tree()
    _edit(
        tree,
        "specs/paragraphs/003_4b3fc361bacfa66a.toml",
        'clauses = ["TM.CORE.DRAW"]',
        'none = "flavour"',
    )
    _edit(tree, CLAUSES, DRAW_003_CITE, "")
    status, output = _run(tmp_path, tree, capsys)
    assert status == 0, output
    assert _reviews(output) == [
        f"review: {CLAUSES}: TM.CORE.DRAW: uncited: not cited by 003, and differs does not "
        "say how it treats the clause"
    ]
    _edit(
        tree,
        CLAUSES,
        'text = "A player draws two cards at the end of a turn."',
        'text = "A player draws two cards at the end of a turn."\n'
        'differs = "003 does not mention it."',
    )
    status, output = _run(tmp_path, tree, capsys)
    assert status == 0, output
    assert _reviews(output) == []


def test_a_text_called_silent_but_cited_is_listed(
    tmp_path: Path, books: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tree = _base_tree()
    _edit(
        tree,
        CLAUSES,
        'text = "A player draws two cards at the end of a turn."',
        'text = "A player draws two cards at the end of a turn."\ndiffers = "003 is silent."',
    )
    status, output = _run(tmp_path, tree, capsys)
    assert status == 0, output
    assert _reviews(output) == [
        f"review: {CLAUSES}: TM.CORE.DRAW: silent-but-cited: differs calls 003 silent, but "
        "the index cites it there"
    ]
    # "silent on" a detail is not silence on the clause.
    _edit(tree, CLAUSES, 'differs = "003 is silent."', 'differs = "003 is silent on jokers."')
    status, output = _run(tmp_path, tree, capsys)
    assert _reviews(output) == []


def test_a_lead_in_cited_with_its_list_item_is_listed(
    tmp_path: Path, books: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Paragraph 2 becomes a lead-in ending with a colon; paragraph 3, its first item,
    # cites TM.CORE.DRAW as well.
    for book in BOOKS:
        (books / book).write_text(
            TEXT.replace("at the end of a turn.", "at the end of a turn, as follows:"),
            encoding="utf-8",
        )
    tree = _base_tree()
    for book in BOOKS:
        _edit(
            tree,
            f"specs/paragraphs/{Path(book).stem}.toml",
            'clauses = ["TM.CORE.TIES"]',
            'clauses = ["TM.CORE.TIES", "TM.CORE.DRAW"]',
        )
    cited = {**CITED, "TM.CORE.DRAW": [(2, "draws two cards"), (3, "remaining players")]}
    tree[CLAUSES] = _clauses_toml(cited)
    status, output = _run(tmp_path, tree, capsys)
    assert status == 0, output
    reviews = _reviews(output)
    assert len(reviews) == 4
    assert reviews[0] == (
        f"review: {CLAUSES}: TM.CORE.DRAW: lead-in: paragraph 2 of 000 ends with a colon and "
        "cites it, as does paragraph 3: is the rule stated before the colon, or only in the "
        "list?"
    )


def test_the_registry_schemas_are_valid_and_hold_the_repository() -> None:
    """The three schemas are valid draft 2020-12 schemas, and every clause file, paragraph
    index and ruling of this repository matches its schema."""
    root = Path(__file__).resolve().parents[2]
    schemas = root / "specs" / "schemas"
    shapes = importlib.import_module("speccheck.schemas")  # on the path once the tool loads
    checked = 0
    for name, pattern in (
        ("clauses", "specs/clauses/*.toml"),
        ("paragraphs", "specs/paragraphs/*.toml"),
        ("ruling", "rulings/*.toml"),
    ):
        schema = json.loads((schemas / f"{name}.schema.json").read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        validator = shapes.validator(name)
        for path in sorted(root.glob(pattern)):
            document = tomllib.loads(path.read_text(encoding="utf-8"))
            assert list(validator.iter_errors(document)) == [], path
            checked += 1
    assert checked >= 4 + 4 + 40
