"""Check the clause registry against the rulebooks, the code, the tests, the rulings and traces.

Usage: ``python3 tools/check_specs.py [--root DIR]`` (run by ``make specs``).

It reads, without importing or running the engine (only ``tajmahal.rules.RULE_OPTIONS``):

- ``specs/clauses/*.toml``: the clauses (files named ``_proposed*`` hold proposed clauses
  with an ``area_for`` field; they count like the others and are reported as waiting);
- ``specs/paragraphs/*.toml``: one paragraph index per rulebook;
- ``rulings/*.toml``: the rulings;
- ``reference/tajmahal/**.py`` and ``tools/**.py``: ``Implements: TM.X, ...`` docstring
  paragraphs (read by ``tools/clause_refs.py``);
- ``tests/**.py``: ``@pytest.mark.clause("TM.X", ...)`` markers (on functions, methods and
  classes, or as a module or class ``pytestmark``) and the test node ids that exist;
- ``specs/traces/**.json``: any ``"clauses"`` key (a list of clause ids), at any depth.

The rulebook texts are looked up in ``$TAJMAHAL_RULEBOOKS``, else ``../shared/rulebooks``
beside the repository. Paragraph ``n`` of a text is its ``n``-th non-blank line (a line of
only white space, non-breaking spaces included, is blank). ``words`` must occur in the
paragraph, ignoring case, runs of white space and the shape of quotes and apostrophes.

A ruling cannot hold both ``option = "field"`` and ``[[option]]`` tables (TOML forbids it):
the RuleSet field is read from ``option`` (a string) or ``option_field``; the option tables
from ``[[options]]`` or ``[[option]]``.

Every problem is printed as ``file: where: message``; the exit status is 1 when there is
any, 0 otherwise. A coverage report is always printed first.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tomllib
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clause_refs import Reference, ScannedTests, code_references, misplaced_clauses, test_references

RULEBOOKS = (
    "000_d6560cbc94ab2b46.txt",
    "001_233b7271189f73c5.txt",
    "002_c3720f99097226d8.txt",
    "003_4b3fc361bacfa66a.txt",
)
"""The four rulebooks the registry is annotated against (file names in the shared folder)."""

STATUSES = ("implemented", "ruling", "not-modelled")
NONE_REASONS = frozenset(
    {
        "heading",
        "flavour",
        "credits",
        "strategy",
        "review",
        "caption",
        "summary",
        "ocr-fragment",
        "other-game",
    }
)
CATEGORIES = ("gap", "disagreement", "translation", "reconstruction")
CLAUSE_ID = re.compile(r"^TM(\.[A-Z0-9_]+)+$")
RULING_ID = re.compile(r"^RUL(\.[A-Z0-9_]+)+$")
COMPONENT_PREFIX = "TM.COMP."
"""Component facts may come from the component data alone; they need no rulebook paragraph."""

CLAUSE_KEYS = frozenset(
    {"id", "status", "text", "rulings", "differs", "reason", "cite", "area_for"}
)
RULING_KEYS = frozenset(
    {
        "id",
        "title",
        "category",
        "clauses",
        "question",
        "resolution",
        "reasoning",
        "configurable",
        "option",
        "option_field",
        "options",
        "tests",
        "says",
    }
)
OPTION_FIELD_KEYS = ("option", "option_field")
OPTION_TABLE_KEYS = ("options", "option")
QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


# -- collecting problems --------------------------------------------------------------------


@dataclass
class Findings:
    """Problems (which fail the check) and warnings (which do not)."""

    problems: list[tuple[str, str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def problem(self, file: str, where: str, message: str) -> None:
        self.problems.append((file, where, message))

    def warn(self, message: str) -> None:
        self.warnings.append(message)


def _is_str(value: object) -> bool:
    return isinstance(value, str) and value.strip() != ""


def _as_int(value: object) -> int | None:
    """The value if it is an integer (not a boolean), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str_list(value: object) -> list[str] | None:
    """The value as a list of strings, or None when it is not one."""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [str(item) for item in value]
    return None


def _tables(value: object) -> list[dict[str, Any]] | None:
    """The value as a list of TOML tables, or None when it is not one."""
    if isinstance(value, list) and all(isinstance(item, dict) for item in value):
        return [dict(item) for item in value]
    return None


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFC", text).casefold().translate(QUOTES)
    return " ".join(text.split())


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def _load_toml(path: Path, root: Path, findings: Findings) -> dict[str, Any] | None:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        findings.problem(_rel(path, root), "file", f"cannot read TOML: {error}")
        return None


def _ranges(numbers: Iterable[int]) -> str:
    """``1-3, 7`` for [1, 2, 3, 7]."""
    runs: list[list[int]] = []
    for number in sorted(set(numbers)):
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


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


# -- rulebook texts --------------------------------------------------------------------------


@dataclass
class Texts:
    """The rulebook paragraphs, when the texts are available."""

    folder: Path | None
    paragraphs: dict[str, list[str]] = field(default_factory=dict)

    def count(self, book: str) -> int | None:
        found = self.paragraphs.get(book)
        return None if found is None else len(found)

    def check_locator(
        self,
        findings: Findings,
        file: str,
        where: str,
        book: str,
        paragraph: object,
        words: object,
    ) -> None:
        """Problems with a (book, paragraph, words) locator; the book is already known."""
        number = _as_int(paragraph)
        if paragraph is not None and (number is None or number < 1):
            findings.problem(file, where, f"paragraph {paragraph!r} is not a positive integer")
            return
        if words is not None and not _is_str(words):
            findings.problem(file, where, f"words {words!r} is not a non-empty string")
            return
        paragraphs = self.paragraphs.get(book)
        if paragraphs is None:
            return
        if number is not None and number > len(paragraphs):
            findings.problem(
                file,
                where,
                f"paragraph {number} out of range ({book} has {len(paragraphs)} paragraphs)",
            )
            return
        if words is None:
            return
        needle = _normalise(str(words))
        if number is not None:
            if needle not in _normalise(paragraphs[number - 1]):
                findings.problem(
                    file, where, f"words {words!r} not found in paragraph {number} of {book}"
                )
        elif not any(needle in _normalise(text) for text in paragraphs):
            findings.problem(file, where, f"words {words!r} not found anywhere in {book}")


def load_texts(root: Path, findings: Findings) -> Texts:
    configured = os.environ.get("TAJMAHAL_RULEBOOKS")
    folder = Path(configured) if configured else root.parent / "shared" / "rulebooks"
    if not folder.is_dir():
        findings.warn(
            f"rulebook texts not found in {folder}: locators were not verified against the texts"
        )
        return Texts(None)
    texts = Texts(folder)
    for book in RULEBOOKS:
        path = folder / book
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            findings.warn(f"cannot read {path} ({error}): its locators were not verified")
            continue
        texts.paragraphs[book] = [line for line in text.splitlines() if line.strip()]
    return texts


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


# -- clauses ---------------------------------------------------------------------------------


@dataclass
class Clause:
    id: str
    status: str
    area: str
    file: str
    rulings: list[str]
    cites: list[dict[str, Any]]


def load_clauses(
    root: Path, texts: Texts, findings: Findings
) -> tuple[dict[str, Clause], list[str]]:
    """The clauses by id, and the file of each proposed clause."""
    clauses: dict[str, Clause] = {}
    proposed: list[str] = []
    folder = root / "specs" / "clauses"
    paths = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    if not paths:
        findings.problem("specs/clauses", "folder", "no clause files")
    for path in paths:
        file = _rel(path, root)
        is_proposed = path.name.startswith("_proposed")
        data = _load_toml(path, root, findings)
        if data is None:
            continue
        area = data.get("area")
        if not _is_str(area):
            if is_proposed:
                area = data.get("area_for") if _is_str(data.get("area_for")) else "(proposed)"
            else:
                findings.problem(file, "area", "missing area")
                area = path.stem
        entries = _tables(data.get("clause", []))
        if entries is None:
            findings.problem(file, "clause", "[[clause]] must be a list of tables")
            continue
        for index, entry in enumerate(entries):
            clause_id = entry.get("id")
            where = str(clause_id) if _is_str(clause_id) else f"clause[{index}]"
            if not isinstance(clause_id, str) or not CLAUSE_ID.match(clause_id):
                findings.problem(file, where, f"bad clause id {clause_id!r}")
                continue
            if clause_id in clauses:
                findings.problem(
                    file, where, f"duplicate clause id (also in {clauses[clause_id].file})"
                )
                continue
            unknown = sorted(set(entry) - CLAUSE_KEYS)
            if unknown:
                findings.warn(f"{file}: {where}: unknown keys {', '.join(unknown)}")
            status = entry.get("status")
            if status not in STATUSES:
                findings.problem(
                    file, where, f"bad status {status!r} (expected {' | '.join(STATUSES)})"
                )
            if not _is_str(entry.get("text")):
                findings.problem(file, where, "missing text")
            rulings = _str_list(entry.get("rulings", []))
            if rulings is None:
                findings.problem(file, where, "rulings must be a list of ruling ids")
                rulings = []
            if status == "ruling" and not rulings:
                findings.problem(file, where, "ruling clause lists no ruling")
            if status == "not-modelled" and not _is_str(entry.get("reason")):
                findings.problem(file, where, "not-modelled clause without a reason")
            if "differs" in entry and not _is_str(entry["differs"]):
                findings.problem(file, where, "differs must be a non-empty string")
            cites = _tables(entry.get("cite", []))
            if cites is None:
                findings.problem(file, where, "[[clause.cite]] must be a list of tables")
                cites = []
            for cite_index, cite in enumerate(cites):
                cite_where = f"{where}: cite[{cite_index}]"
                book = cite.get("file")
                if book not in RULEBOOKS:
                    findings.problem(file, cite_where, f"unknown rulebook {book!r}")
                    continue
                if not _is_str(cite.get("section")):
                    findings.problem(file, cite_where, "missing section")
                if _as_int(cite.get("paragraph")) is None:
                    findings.problem(file, cite_where, "missing paragraph number")
                    continue
                texts.check_locator(
                    findings, file, cite_where, str(book), cite["paragraph"], cite.get("words")
                )
            clause_area = str(area)
            if is_proposed:
                proposed.append(file)
                area_for = entry.get("area_for", data.get("area_for"))
                if _is_str(area_for):
                    clause_area = str(area_for)
            clauses[clause_id] = Clause(clause_id, str(status), clause_area, file, rulings, cites)
    return clauses, proposed


# -- rulings ---------------------------------------------------------------------------------


@dataclass
class Ruling:
    id: str
    file: str
    category: str
    option: str | None


def _check_test_ids(
    ids: object, file: str, where: str, test_ids: set[str], findings: Findings
) -> list[str]:
    names = _str_list(ids)
    if names is None:
        findings.problem(file, where, "must be a list of test node ids")
        return []
    for name in names:
        base = name.split("[", 1)[0]
        if "::" not in base:
            findings.problem(file, where, f"{name!r} is not a test node id (path.py::test)")
        elif base not in test_ids:
            findings.problem(file, where, f"test {name!r} does not exist")
    return names


def load_rulings(
    root: Path,
    clauses: dict[str, Clause],
    test_ids: set[str],
    texts: Texts,
    rule_options: dict[str, tuple[str, ...]] | None,
    findings: Findings,
) -> dict[str, Ruling]:
    rulings: dict[str, Ruling] = {}
    folder = root / "rulings"
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
        file = _rel(path, root)
        data = _load_toml(path, root, findings)
        if data is None:
            continue
        ruling_id = data.get("id")
        if not isinstance(ruling_id, str) or not RULING_ID.match(ruling_id):
            findings.problem(file, "id", f"bad ruling id {ruling_id!r}")
            continue
        if ruling_id != path.stem:
            findings.problem(file, "id", f"id {ruling_id!r} differs from the file name")
        if ruling_id in rulings:
            findings.problem(file, "id", f"duplicate ruling id (also in {rulings[ruling_id].file})")
            continue
        unknown = sorted(set(data) - RULING_KEYS)
        if unknown:
            findings.warn(f"{file}: unknown keys {', '.join(unknown)}")
        for key in ("title", "question", "resolution", "reasoning"):
            if not _is_str(data.get(key)):
                findings.problem(file, key, f"missing {key}")
        category = data.get("category")
        if category not in CATEGORIES:
            findings.problem(
                file, "category", f"bad category {category!r} (expected {' | '.join(CATEGORIES)})"
            )
        named = _str_list(data.get("clauses"))
        if named is None:
            findings.problem(file, "clauses", "missing clauses (a list of clause ids)")
        elif not named:
            findings.problem(file, "clauses", "names no clause")
        else:
            for clause_id in named:
                if clause_id not in clauses:
                    findings.problem(file, "clauses", f"unknown clause id {clause_id!r}")

        # says: one entry per rulebook
        says = _tables(data.get("says"))
        if says is None:
            findings.problem(file, "says", "missing [[says]] entries")
            says = []
        seen: Counter[str] = Counter()
        for index, entry in enumerate(says):
            where = f"says[{index}]"
            book = entry.get("file")
            if book not in RULEBOOKS:
                findings.problem(file, where, f"unknown rulebook {book!r}")
                continue
            seen[str(book)] += 1
            if not _is_str(entry.get("section")):
                findings.problem(file, where, "missing section")
            if not _is_str(entry.get("summary")):
                findings.problem(file, where, "missing summary")
            texts.check_locator(
                findings, file, where, str(book), entry.get("paragraph"), entry.get("words")
            )
        for book in RULEBOOKS:
            if seen[book] == 0:
                findings.problem(file, "says", f"no entry for {book}")
            elif seen[book] > 1:
                findings.problem(file, "says", f"{seen[book]} entries for {book} (expected one)")

        # options
        configurable = data.get("configurable")
        if not isinstance(configurable, bool):
            findings.problem(file, "configurable", "missing configurable (true or false)")
            configurable = False
        option_name: str | None = None
        for key in OPTION_FIELD_KEYS:
            if isinstance(data.get(key), str):
                option_name = str(data[key])
                break
        options: list[dict[str, Any]] | None = None
        for key in OPTION_TABLE_KEYS:
            if key in data and not isinstance(data[key], str):
                options = _tables(data[key])
                if options is None:
                    findings.problem(file, key, f"[[{key}]] must be a list of tables")
                    options = []
                break
        if options is None:
            findings.problem(file, "options", "no [[options]] entries")
            options = []
        if configurable:
            if option_name is None:
                findings.problem(file, "option", "configurable ruling names no RuleSet field")
            elif rule_options is None:
                pass  # reported once: RULE_OPTIONS could not be imported
            elif option_name not in rule_options:
                findings.problem(
                    file,
                    "option",
                    f"{option_name!r} is not a RuleSet field "
                    f"(known: {', '.join(sorted(rule_options))})",
                )
            else:
                values = [str(entry.get("value")) for entry in options]
                allowed = rule_options[option_name]
                if sorted(values) != sorted(allowed):
                    findings.problem(
                        file,
                        "options",
                        f"values {values} differ from the allowed values of "
                        f"RuleSet.{option_name}: {list(allowed)}",
                    )
        elif option_name is not None:
            findings.problem(file, "option", "names a RuleSet field but configurable = false")
        chosen = 0
        option_tests: list[str] = []
        for index, entry in enumerate(options):
            where = f"options[{index}]"
            if not _is_str(entry.get("value")):
                findings.problem(file, where, "missing value")
            if not _is_str(entry.get("description")):
                findings.problem(file, where, "missing description")
            if not isinstance(entry.get("chosen"), bool):
                findings.problem(file, where, "missing chosen (true or false)")
            elif entry["chosen"]:
                chosen += 1
            names = (
                _check_test_ids(entry["tests"], file, where, test_ids, findings)
                if "tests" in entry
                else []
            )
            option_tests.extend(names)
            if configurable and not names:
                findings.problem(file, where, "option has no tests")
        if options and chosen != 1:
            findings.problem(file, "options", f"{chosen} options chosen (expected exactly one)")
        if "tests" in data:
            ruling_tests = _check_test_ids(data["tests"], file, "tests", test_ids, findings)
        else:
            findings.problem(file, "tests", "missing tests")
            ruling_tests = []
        if not ruling_tests and not option_tests:
            findings.problem(file, "tests", "ruling has no tests at all")
        rulings[ruling_id] = Ruling(
            ruling_id, file, str(category), option_name if configurable else None
        )
    return rulings


# -- paragraph indexes -----------------------------------------------------------------------


@dataclass
class Index:
    book: str
    file: str
    total: int | None
    annotated: int = 0
    to_clauses: int = 0
    none: int = 0
    summaries: int = 0
    listed: dict[int, list[str]] = field(default_factory=dict)
    """Paragraph number -> clause ids it lists (summaries included)."""


def load_indexes(
    root: Path, clauses: dict[str, Clause], texts: Texts, findings: Findings
) -> dict[str, Index]:
    indexes: dict[str, Index] = {}
    folder = root / "specs" / "paragraphs"
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
        file = _rel(path, root)
        data = _load_toml(path, root, findings)
        if data is None:
            continue
        book = data.get("file")
        if book not in RULEBOOKS:
            findings.problem(
                file, "file", f"{book!r} is not one of the rulebooks ({', '.join(RULEBOOKS)})"
            )
            continue
        book = str(book)
        if path.stem != Path(book).stem:
            findings.problem(file, "file", f"the index of {book} must be named {Path(book).stem}")
        if book in indexes:
            findings.problem(file, "file", f"second index of {book} (also {indexes[book].file})")
            continue
        index = Index(book, file, texts.count(book))
        indexes[book] = index
        entries = _tables(data.get("p", []))
        if entries is None:
            findings.problem(file, "p", "[[p]] must be a list of tables")
            continue
        numbers: Counter[int] = Counter()
        summaries: dict[int, list[str]] = {}
        for position, entry in enumerate(entries):
            n = _as_int(entry.get("n"))
            if n is None or n < 1:
                findings.problem(file, f"p[{position}]", f"bad paragraph number {entry.get('n')!r}")
                continue
            where = f"n={n}"
            numbers[n] += 1
            if numbers[n] > 1:
                continue
            if index.total is not None and n > index.total:
                continue  # reported with the numbering below
            index.annotated += 1
            if not _is_str(entry.get("section")):
                findings.problem(file, where, "missing section")
            texts.check_locator(findings, file, where, book, n, entry.get("words"))
            listed = entry.get("clauses")
            reason = entry.get("none")
            ids = _str_list(listed) if listed is not None else None
            if listed is not None and ids is None:
                findings.problem(file, where, "clauses must be a list of clause ids")
            if ids is not None and not ids:
                findings.problem(file, where, "empty clauses list")
            for clause_id in ids or []:
                if clause_id not in clauses:
                    findings.problem(file, where, f"unknown clause id {clause_id!r}")
            if reason is not None and reason not in NONE_REASONS:
                findings.problem(
                    file,
                    where,
                    f"bad none reason {reason!r} (expected {' | '.join(sorted(NONE_REASONS))})",
                )
            if reason == "summary":
                if not ids:
                    findings.problem(
                        file, where, "a summary paragraph must list the clauses it repeats"
                    )
                else:
                    summaries[n] = ids
            elif listed is not None and reason is not None:
                findings.problem(file, where, "has both clauses and none")
            elif listed is None and reason is None:
                findings.problem(file, where, "has neither clauses nor none")
            if ids and reason != "summary":
                index.to_clauses += 1
            elif reason is not None:
                index.none += 1
                index.summaries += reason == "summary"
            if ids:
                index.listed[n] = ids
        repeated = sorted(n for n, count in numbers.items() if count > 1)
        if repeated:
            findings.problem(file, "p", f"paragraphs listed more than once: {_ranges(repeated)}")
        last = index.total if index.total is not None else max(numbers, default=0)
        missing = [n for n in range(1, last + 1) if n not in numbers]
        if missing:
            findings.problem(file, "p", f"paragraphs missing: {_ranges(missing)}")
        beyond = sorted(n for n in numbers if n > last)
        if beyond:
            findings.problem(
                file, "p", f"paragraphs beyond the last ({last}) of {book}: {_ranges(beyond)}"
            )
        stated = {
            clause_id for n, ids in index.listed.items() if n not in summaries for clause_id in ids
        }
        for n, ids in sorted(summaries.items()):
            for clause_id in ids:
                if clause_id in clauses and clause_id not in stated:
                    findings.problem(
                        file,
                        f"n={n}",
                        f"summary repeats {clause_id}, which no other paragraph of {book} lists",
                    )
    for book in RULEBOOKS:
        if book not in indexes:
            findings.problem(
                f"specs/paragraphs/{Path(book).stem}.toml", "file", f"missing index of {book}"
            )
    return indexes


# -- cross checks and the report -------------------------------------------------------------


def cross_check(
    clauses: dict[str, Clause],
    rulings: dict[str, Ruling],
    indexes: dict[str, Index],
    code: list[Reference],
    tests: list[Reference],
    traces: list[Reference],
    rule_options: dict[str, tuple[str, ...]] | None,
    findings: Findings,
) -> dict[str, int]:
    """Problems between the parts; returns the number of citations of each clause."""
    for kind, references in (("code", code), ("test", tests), ("trace", traces)):
        for reference in references:
            if reference.clause not in clauses:
                findings.problem(
                    reference.file,
                    reference.where,
                    f"unknown clause id {reference.clause!r} ({kind} reference)",
                )
    coded = {reference.clause for reference in code}
    tested = {reference.clause for reference in tests}
    citations: Counter[str] = Counter()
    for index in indexes.values():
        for ids in index.listed.values():
            citations.update(set(ids))
    for clause in clauses.values():
        for ruling_id in clause.rulings:
            if ruling_id not in rulings:
                findings.problem(clause.file, clause.id, f"ruling {ruling_id!r} does not exist")
        if clause.status == "implemented":
            if clause.id not in coded:
                findings.problem(clause.file, clause.id, "implemented clause has no code reference")
            if clause.id not in tested:
                findings.problem(clause.file, clause.id, "implemented clause has no test reference")
        if (
            clause.status == "implemented"
            and not citations[clause.id]
            and not clause.id.startswith(COMPONENT_PREFIX)
        ):
            findings.problem(clause.file, clause.id, "no rulebook paragraph states this clause")
        for cite in clause.cites:
            cited = indexes.get(str(cite.get("file")))
            n = _as_int(cite.get("paragraph"))
            if cited is not None and n in cited.listed and clause.id not in cited.listed[n]:
                findings.problem(
                    clause.file,
                    clause.id,
                    f"cites paragraph {n} of {cited.book}, but {cited.file} does not list it",
                )
    by_option: dict[str, list[str]] = defaultdict(list)
    for ruling in rulings.values():
        if ruling.option is not None:
            by_option[ruling.option].append(ruling.id)
    for option in rule_options or {}:
        if not by_option.get(option):
            findings.problem(
                "reference/tajmahal/rules.py",
                f"RuleSet.{option}",
                "no configurable ruling names this option",
            )
        elif len(by_option[option]) > 1:
            findings.problem(
                "reference/tajmahal/rules.py",
                f"RuleSet.{option}",
                f"named by several rulings: {', '.join(by_option[option])}",
            )
    return dict(citations)


def report(
    clauses: dict[str, Clause],
    rulings: dict[str, Ruling],
    indexes: dict[str, Index],
    texts: Texts,
    code: list[Reference],
    tests: ScannedTests,
    traces: list[Reference],
    citations: dict[str, int],
    rule_options: dict[str, tuple[str, ...]] | None,
) -> list[str]:
    lines: list[str] = []
    coded = {reference.clause for reference in code}
    tested = {reference.clause for reference in tests.references}
    areas = sorted({clause.area for clause in clauses.values()})
    width = max([len("total"), *(len(area) for area in areas)])
    columns = ("impl", "ruling", "not-mod", "total", "code", "tests", "cited")
    lines.append(f"Clauses by area and status ({len(clauses)} clauses)")
    lines.append("  " + "area".ljust(width) + "".join(f" {name:>7}" for name in columns))

    def row(name: str, members: list[Clause]) -> str:
        counts = [sum(1 for c in members if c.status == status) for status in STATUSES]
        counts.append(len(members))
        counts.append(sum(1 for c in members if c.id in coded))
        counts.append(sum(1 for c in members if c.id in tested))
        counts.append(sum(1 for c in members if citations.get(c.id)))
        return "  " + name.ljust(width) + "".join(f" {count:>7}" for count in counts)

    for area in areas:
        lines.append(row(area, [c for c in clauses.values() if c.area == area]))
    lines.append(row("total", list(clauses.values())))
    lines.append("  (code, tests, cited: clauses named by code, a test, a rulebook paragraph)")

    categories = Counter(ruling.category for ruling in rulings.values())
    configurable = sorted(r.option for r in rulings.values() if r.option is not None)
    lines.append(
        f"Rulings: {len(rulings)} ("
        + ", ".join(f"{name} {categories[name]}" for name in CATEGORIES)
        + f"); configurable {len(configurable)}"
        + (f": {', '.join(configurable)}" if configurable else "")
        + (f" (RuleSet has {len(rule_options)} options)" if rule_options is not None else "")
    )
    source = str(texts.folder) if texts.folder is not None else "texts not found"
    lines.append(f"Paragraph indexes (rulebook texts: {source})")
    for book in RULEBOOKS:
        index = indexes.get(book)
        total = texts.count(book)
        total_text = str(total) if total is not None else "?"
        if index is None:
            lines.append(f"  {book}  no index ({total_text} paragraphs)")
            continue
        share = f"{100.0 * index.annotated / total:5.1f}%" if total else "    ?"
        lines.append(
            f"  {book}  {index.annotated:>4}/{total_text:<4} annotated ({share}): "
            f"{index.to_clauses} to clauses, {index.none} none"
            + (f" ({index.summaries} summaries)" if index.summaries else "")
        )
    functions = sum(1 for node in tests.node_ids if node.rsplit("::", 1)[1].startswith("test"))
    lines.append(
        f"References: code {len(code)} to {len(coded)} clauses; "
        f"tests {len(tests.references)} to {len(tested)} clauses "
        f"({functions} tests found); traces {len(traces)}"
    )
    return lines


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
    rulings = load_rulings(root, clauses, tests.node_ids, texts, rule_options, findings)
    indexes = load_indexes(root, clauses, texts, findings)
    citations = cross_check(
        clauses, rulings, indexes, code, tests.references, traces, rule_options, findings
    )
    lines = report(clauses, rulings, indexes, texts, code, tests, traces, citations, rule_options)
    for line in lines:
        print(line)
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
