"""Run the language-neutral position cases (``specs/cases/*.json``) against an engine.

A case file holds small positions, each with tests: an action and its expected outcome
(legal with a score change, a state digest and chosen fields of the resulting state;
illegal with the clause that forbids it), or the exact list of legal actions.
``docs/cases.md`` defines the format field by field, so a runner can be written in any
language with a JSON parser and SHA-256. This module is the model runner, shipped in the
package as ``pettingzoo.test`` is: an engine written in Python is wrapped in a
:class:`CaseEngine` and checked with :func:`run_cases`::

    from tajmahal.conformance._cases import ReferenceEngine, load_cases, run_cases
    report = run_cases(load_cases(["specs/cases"]), ReferenceEngine())
    for failure in report.failures:
        print(failure)

Each failure names the case, the test, the clauses concerned and the likely cause.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Protocol

import attrs

from tajmahal.engine import apply, legal_actions
from tajmahal.errors import IllegalActionError, TajMahalError
from tajmahal.inputs import first_violation
from tajmahal.model import Components, GameState, default_components, parse_action
from tajmahal.notation import state_from_json, state_to_json

CASES_FORMAT: Final = "tajmahal-cases"
"""The ``format`` tag of a case file."""
CASES_VERSION: Final = 1
"""The version of the case file layout (a change of meaning bumps it)."""


class CaseFileError(TajMahalError):
    """A case file is missing, not JSON, or does not match the case schema."""


class Rejected(Exception):
    """Raised by a :class:`CaseEngine` that refuses an action as illegal."""

    def __init__(self, clause: str | None = None, message: str = "") -> None:
        super().__init__(message or "illegal action")
        self.clause = clause
        """The clause id the engine gives as the reason, or None if it gives none."""


class CaseEngine(Protocol):
    """What a runner needs from an engine: positions are opaque values to the runner."""

    def load(self, position: Mapping[str, Any]) -> Any:
        """The engine's position for a ``tajmahal-state`` document."""

    def legal_actions(self, position: Any) -> Iterable[str]:
        """The canonical strings of the legal actions."""

    def apply(self, position: Any, action: str) -> Any:
        """The position after ``action``; raises :class:`Rejected` when it is illegal."""

    def to_json(self, position: Any) -> Mapping[str, Any]:
        """The ``tajmahal-state`` document of a position (hidden information included)."""


@attrs.frozen(slots=True)
class ReferenceEngine:
    """This package's engine behind the :class:`CaseEngine` interface."""

    components: Components = attrs.field(factory=default_components)
    """The component set positions are loaded with."""

    def load(self, position: Mapping[str, Any]) -> GameState:
        """Load and validate a state document."""
        return state_from_json(position, self.components)

    def legal_actions(self, position: Any) -> tuple[str, ...]:
        """The legal actions as canonical strings."""
        return tuple(str(action) for action in legal_actions(position))

    def apply(self, position: Any, action: str) -> GameState:
        """Apply one action; an illegal one raises :class:`Rejected` with its clause."""
        try:
            return apply(position, parse_action(action))
        except IllegalActionError as error:
            raise Rejected(getattr(error, "clause", None), str(error)) from None

    def to_json(self, position: Any) -> dict[str, Any]:
        """The canonical state document."""
        return state_to_json(position)


def document_digest(document: Mapping[str, Any]) -> str:
    """``sha256:`` and the hex SHA-256 of a state document's canonical JSON (sorted keys,
    separators ``,`` and ``:``, UTF-8): :func:`tajmahal.notation.state_digest` computed from
    the document alone."""
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------------------
# Loading


def default_cases_dir() -> Path:
    """The position cases installed with the package (``tajmahal/data/cases``, which in a
    source checkout is a link to ``specs/cases``, where they are generated)."""
    return Path(__file__).resolve().parents[1] / "data" / "cases"


def case_files(paths: Iterable[str | Path]) -> list[Path]:
    """The ``.json`` files named, or found (sorted) in the folders named."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(path.glob("*.json")))
        else:
            found.append(path)
    return found


@attrs.frozen(slots=True)
class CaseFile:
    """One loaded case file."""

    path: str
    """Where it was read from."""
    document: dict[str, Any]
    """Its JSON content, checked against the case schema."""

    @property
    def cases(self) -> list[dict[str, Any]]:
        """Its cases, in file order."""
        cases: list[dict[str, Any]] = self.document["cases"]
        return cases


def load_cases(paths: Iterable[str | Path]) -> list[CaseFile]:
    """Read and validate case files (folders are searched for ``*.json``) against
    ``specs/schemas/case.schema.json``; raises :class:`CaseFileError` naming the file and
    the field at the first bad one."""
    loaded = []
    for path in case_files(paths):
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CaseFileError(f"{path}: not a readable JSON file ({error})") from None
        problem = first_violation("case", document)
        if problem is not None:
            raise CaseFileError(f"{path}: {problem.field}: {problem.message}")
        loaded.append(CaseFile(str(path), document))
    return loaded


# ---------------------------------------------------------------------------------------
# Running


@attrs.frozen(slots=True)
class Failure:
    """One test of one case that the engine does not pass."""

    case: str
    """The case id (``<clause id>/<slug>``)."""
    test: str
    """The test's description."""
    action: str | None
    """The action tried, or None for a legal-action list."""
    clauses: tuple[str, ...]
    """The clause and ruling ids behind the test."""
    expected: str
    """What the case expects, in words."""
    actual: str
    """What the engine did, in words."""
    cause: str
    """The likely cause."""

    def __str__(self) -> str:
        action = f" [{self.action}]" if self.action is not None else ""
        return (
            f"{self.case}: {self.test}{action}: expected {self.expected}, got {self.actual}; "
            f"likely cause: {self.cause} ({', '.join(self.clauses)})"
        )


@attrs.frozen(slots=True)
class Report:
    """The outcome of a run."""

    cases: int
    """Cases run."""
    tests: int
    """Tests run."""
    failures: tuple[Failure, ...]
    """Every failing test."""
    skipped: tuple[str, ...] = ()
    """Ids of the cases skipped (see ``skip`` in :func:`run_cases`)."""

    @property
    def passed(self) -> bool:
        """True when no test failed."""
        return not self.failures


def _partial_differences(expected: Any, actual: Any, path: str) -> Iterator[str]:
    """The paths where ``actual`` does not match the partial ``expected`` (objects are
    compared on the expected keys only; a ``seats`` object keyed by seat number selects
    seats from the array; arrays and scalars must be equal)."""
    if isinstance(expected, dict):
        if isinstance(actual, list):
            for key, value in expected.items():
                index = int(key)
                item = actual[index] if 0 <= index < len(actual) else None
                yield from _partial_differences(value, item, f"{path}[{index}]")
            return
        if not isinstance(actual, dict):
            yield path or "(root)"
            return
        for key, value in expected.items():
            yield from _partial_differences(
                value, actual.get(key), f"{path}.{key}" if path else key
            )
        return
    if expected != actual:
        yield path


def partial_differences(expected: Mapping[str, Any], document: Mapping[str, Any]) -> list[str]:
    """The fields of a state document that do not match a case's partial ``after``."""
    return list(_partial_differences(dict(expected), dict(document), ""))


def _top_level_differences(first: Mapping[str, Any], second: Mapping[str, Any]) -> list[str]:
    return sorted(key for key in set(first) | set(second) if first.get(key) != second.get(key))


def _scores(document: Mapping[str, Any]) -> list[int]:
    return [int(seat["score"]) for seat in document["seats"]]


def run_test(
    case: Mapping[str, Any], test: Mapping[str, Any], engine: CaseEngine
) -> Failure | None:
    """Run one test of ``case``; a :class:`Failure` when the engine does not pass it."""
    clauses = (*case["clauses"], *case.get("rulings", ()))
    expect = test["expect"]
    action = test.get("action")

    def failure(expected: str, actual: str, cause: str, blame: Sequence[str] = ()) -> Failure:
        return Failure(
            case["id"],
            test["description"],
            action,
            tuple(blame) or clauses,
            expected,
            actual,
            cause,
        )

    position = engine.load(case["position"])
    if "legal_actions" in expect:
        wanted = sorted(expect["legal_actions"])
        found = sorted(engine.legal_actions(position))
        if found == wanted:
            return None
        missing = sorted(set(wanted) - set(found))
        extra = sorted(set(found) - set(wanted))
        detail = "; ".join(
            part
            for part in (
                f"missing {', '.join(missing[:5])}" if missing else "",
                f"extra {', '.join(extra[:5])}" if extra else "",
            )
            if part
        )
        cause = (
            "the engine allows moves these clauses forbid"
            if extra and not missing
            else "the engine forbids moves these clauses allow"
            if missing and not extra
            else "the engine reads these clauses differently"
        )
        return failure(f"{len(wanted)} legal actions", f"{len(found)} ({detail})", cause)
    assert action is not None
    try:
        after = engine.apply(position, action)
    except Rejected as refusal:
        if expect["legal"]:
            return failure(
                "a legal action",
                f"refused ({refusal.clause or 'no clause'}: {refusal})",
                "the engine forbids a move these clauses allow",
            )
        wanted_clause = expect.get("clause")
        if (
            wanted_clause is not None
            and refusal.clause is not None
            and refusal.clause != wanted_clause
        ):
            return failure(
                f"refused by {wanted_clause}",
                f"refused by {refusal.clause}",
                "the move is refused for another reason than the rule that forbids it",
                (wanted_clause,),
            )
        return None
    if not expect["legal"]:
        return failure(
            f"refused by {expect.get('clause')}",
            "accepted",
            "the engine allows a move this clause forbids",
            (expect["clause"],) if expect.get("clause") else (),
        )
    before_document = engine.to_json(position)
    document = engine.to_json(after)
    change = [b - a for a, b in zip(_scores(before_document), _scores(document), strict=True)]
    if change != expect["score_change"]:
        return failure(
            f"score change {expect['score_change']}",
            f"{change}",
            "points are scored differently (which rewards, when, or for whom)",
        )
    wrong = partial_differences(expect.get("after", {}), document)
    if wrong:
        return failure(
            "the resulting fields given in 'after'",
            f"different {', '.join(wrong[:6])}",
            "the automatic sequence after this action differs",
        )
    digest = document_digest(document)
    if digest != expect["state_digest"]:
        return failure(
            f"state digest {expect['state_digest']}",
            f"{digest}{_reference_hint(case, action, document)}",
            "the resulting position differs outside the checked fields "
            "(card order, a pile, a step field)",
        )
    return None


def _reference_hint(case: Mapping[str, Any], action: str, document: Mapping[str, Any]) -> str:
    """Which top-level fields differ from this package's result, when it can load the case."""
    try:
        reference = ReferenceEngine()
        expected = reference.to_json(reference.apply(reference.load(case["position"]), action))
    except (TajMahalError, Rejected):
        return ""
    fields = _top_level_differences(expected, document)
    return f" (fields differing from the reference: {', '.join(fields)})" if fields else ""


def run_cases(
    files: Iterable[CaseFile],
    engine: CaseEngine,
    *,
    skip: Iterable[str] = (),
) -> Report:
    """Run every test of every case; ``skip`` names case ids or tag/ruling prefixes
    (``RUL.COMPONENTS.``) whose cases are left out (an engine with the real components
    skips the cases that rest on reconstructed ones)."""
    prefixes = tuple(skip)
    failures: list[Failure] = []
    skipped: list[str] = []
    cases = tests = 0
    for file in files:
        for case in file.cases:
            labels = (case["id"], *case.get("rulings", ()), *case.get("tags", ()))
            if prefixes and any(label.startswith(prefixes) for label in labels):
                skipped.append(case["id"])
                continue
            cases += 1
            for test in case["tests"]:
                tests += 1
                try:
                    found = run_test(case, test, engine)
                except Exception as error:  # an outside engine may fail in any way
                    found = Failure(
                        case["id"],
                        test["description"],
                        test.get("action"),
                        tuple(case["clauses"]),
                        "an answer",
                        f"{type(error).__name__}: {error}",
                        "the engine raised an error instead of answering",
                    )
                if found is not None:
                    failures.append(found)
    return Report(cases, tests, tuple(failures), tuple(skipped))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tajmahal.conformance [PATH...] [--skip PREFIX]``: run case files (default
    ``specs/cases``) against this package's engine; print each failure and a summary.
    Exit 0 when every test passes, 1 when one fails, 2 when a file is unreadable."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="python -m tajmahal.conformance._cases")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="case files or folders")
    parser.add_argument(
        "--skip", action="append", default=[], metavar="PREFIX", help="skip cases by prefix"
    )
    arguments = parser.parse_args(argv)
    paths = arguments.paths or [default_cases_dir()]
    try:
        files = load_cases(paths)
    except CaseFileError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    report = run_cases(files, ReferenceEngine(), skip=arguments.skip)
    for found in report.failures:
        print(found)
    print(
        f"{report.cases} cases, {report.tests} tests, {len(report.failures)} failed, "
        f"{len(report.skipped)} cases skipped"
    )
    return 0 if report.passed else 1
