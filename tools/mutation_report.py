"""Read mutmut's results, compare the survivors with their classification, publish the score.

``make mutation`` runs mutmut over the rules modules (``[tool.mutmut]`` in
``pyproject.toml``); mutmut keeps one ``<module>.py.meta`` JSON file per mutated module
under ``mutants/src/`` (``exit_code_by_key``: mutant name -> exit code of its test run,
``durations_by_key``: seconds) and the mutated source beside it, where every mutant is a
function ``<function>__mutmut_<n>`` next to the original ``<function>__mutmut_orig``.

Every surviving mutant must be classified in ``specs/mutation/survivors.toml``::

    [[survivor]]
    mutant = "tajmahal.engine.reward.x_placement_refusal__mutmut_3"
    fingerprint = "3f1c0b2a9d8e7f60"
    line = "return 'XXa palace ...XX'"
    class = "text-only"          # equivalent | text-only | gap
    reason = "changes only the wording of the refusal message"

The fingerprint is the first 16 hex digits of the SHA-256 of the UTF-8 text
``<module>.<function>\\n<removed lines>\\n--\\n<added lines>``, where the removed and added
lines are the lines of the mutant's unified diff against the original function, its def
line included (each stripped of surrounding blanks, in order, joined by ``\\n``), every
function name read with the ``__mutmut_<n>`` suffix removed. It does not depend on line
numbers or on the mutant's number, so it survives edits elsewhere and renumbering; it
changes when the mutated line does. A survivor whose fingerprint is not in the file is
*new*: the tool exits 1 and prints it with its diff, so it gets classified (a gap gets a
test instead). An entry whose mutant still survives but whose line changed is reported as
changed, also exit 1; an entry whose mutant is now killed is reported as stale.

    python tools/mutation_report.py                   # compare; exit 1 on a new survivor
    python tools/mutation_report.py --write docs/mutation.md   # also publish the score
    python tools/mutation_report.py --template        # print entries for new survivors

A module's score counts killed mutants (and those mutmut times out or that crash the
interpreter) against all checked mutants but the equivalent ones.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import fnmatch
import hashlib
import json
import os
import re
import sys
import tempfile
import tomllib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"
SOURCE = MUTANTS / "src"
SURVIVORS = ROOT / "specs" / "mutation" / "survivors.toml"
RUNS = MUTANTS / "runs.log"

CORE = ("tajmahal.engine", "tajmahal.scoring")
"""The modules held to the 95% goal (docs/mutation.md)."""

CLASSES = ("equivalent", "text-only", "gap")
"""How a surviving mutant is classified: changes nothing observable; changes only the
wording of an account line or a message; or changes behaviour no selected test checks
(a gap: it wants a test)."""

STATUS_BY_EXIT_CODE: dict[int | None, str] = {
    1: "killed",
    3: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    2: "interrupted",
    None: "not checked",
    34: "skipped",
    35: "suspicious",
    36: "timeout",
    37: "type check",
    -24: "timeout",
    24: "timeout",
    152: "timeout",
    255: "timeout",
    -11: "segfault",
    -9: "segfault",
}
"""mutmut 3.8's reading of a mutant's exit code (``mutmut.stats.status_by_exit_code``)."""

_SUFFIX = re.compile(r"__mutmut_(\d+|orig)$")


@dataclass(frozen=True)
class Mutant:
    """One mutant as mutmut left it."""

    name: str
    """mutmut's name, e.g. ``tajmahal.scoring.x_wins_majority__mutmut_2``."""
    module: str
    """The dotted module, e.g. ``tajmahal.scoring``."""
    status: str
    """Its status (:data:`STATUS_BY_EXIT_CODE`)."""
    seconds: float
    """How long its test run took."""


@dataclass(frozen=True)
class Change:
    """What a mutant changes: its diff lines and fingerprint."""

    removed: tuple[str, ...]
    added: tuple[str, ...]
    fingerprint: str


@dataclass(frozen=True)
class Classified:
    """One entry of the survivors file."""

    mutant: str
    fingerprint: str
    line: str
    kind: str
    reason: str


@dataclass
class Tally:
    """The counts of one module."""

    statuses: Counter[str] = field(default_factory=Counter)
    survivors: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0


def module_of(meta: Path) -> str:
    """``mutants/src/tajmahal/engine/__init__.py.meta`` -> ``tajmahal.engine``."""
    relative = meta.relative_to(SOURCE).as_posix().removesuffix(".py.meta")
    return relative.removesuffix("/__init__").replace("/", ".")


def read_mutants() -> list[Mutant]:
    """Every mutant of every ``.meta`` file under ``mutants/src``."""
    mutants: list[Mutant] = []
    for meta in sorted(SOURCE.rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        durations = data.get("durations_by_key", {})
        for name, code in sorted(data["exit_code_by_key"].items()):
            status = STATUS_BY_EXIT_CODE.get(code, "suspicious")
            mutants.append(Mutant(name, module_of(meta), status, durations.get(name, 0.0)))
    return mutants


def _functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _SUFFIX.search(node.name):
            yield node


def changes_of(module: str) -> dict[str, Change]:
    """The change of every mutant of ``module``, read from mutmut's mutated source."""
    path = SOURCE / Path(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    bodies: dict[str, list[str]] = {}
    for node in _functions(ast.parse(text)):
        assert node.end_lineno is not None
        body = lines[node.lineno - 1 : node.end_lineno]
        # The def line with the mutant's own name read as the original's.
        body[0] = body[0].replace(node.name, _SUFFIX.split(node.name)[0], 1)
        bodies[node.name] = body
    changes: dict[str, Change] = {}
    for name, body in bodies.items():
        function, number = _SUFFIX.split(name)[0], _SUFFIX.search(name)
        if number is None or number.group(1) == "orig":
            continue
        original = bodies.get(f"{function}__mutmut_orig", [])
        removed: list[str] = []
        added: list[str] = []
        for line in difflib.unified_diff(original, body, lineterm="", n=0):
            if line.startswith(("---", "+++", "@@")):
                continue
            (removed if line.startswith("-") else added).append(line[1:].strip())
        key = f"{module}.{function}\n" + "\n".join(removed) + "\n--\n" + "\n".join(added)
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
        changes[f"{module}.{name}"] = Change(tuple(removed), tuple(added), digest)
    return changes


def read_classified(path: Path = SURVIVORS) -> dict[str, Classified]:
    """The survivors file, by fingerprint; exit 2 with a one-line error if malformed."""
    if not path.exists():
        return {}
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise SystemExit(f"{path}: {error}") from None
    entries: dict[str, Classified] = {}
    for index, entry in enumerate(document.get("survivor", [])):
        where = f"{path}: survivor {index + 1}"
        for key in ("mutant", "fingerprint", "line", "class", "reason"):
            if not isinstance(entry.get(key), str) or not entry[key]:
                print(f"{where}: field {key!r} must be a non-empty string", file=sys.stderr)
                raise SystemExit(2)
        if entry["class"] not in CLASSES:
            print(f"{where}: field 'class' must be one of {', '.join(CLASSES)}", file=sys.stderr)
            raise SystemExit(2)
        entries[entry["fingerprint"]] = Classified(
            entry["mutant"], entry["fingerprint"], entry["line"], entry["class"], entry["reason"]
        )
    return entries


def _toml_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def template(mutant: Mutant, change: Change) -> str:
    """A survivors-file entry for ``mutant``, class ``gap`` until someone decides."""
    return (
        "[[survivor]]\n"
        f"mutant = {_toml_string(mutant.name)}\n"
        f"fingerprint = {_toml_string(change.fingerprint)}\n"
        f"line = {_toml_string(' / '.join(change.added) or '(line removed)')}\n"
        'class = "gap"\n'
        'reason = ""\n'
    )


def read_runs() -> list[tuple[int, int, int, str]]:
    """The runs ``make mutation`` logged in ``mutants/runs.log``, one a line: start and end
    (Unix seconds), how many mutants it ran, and its arguments."""
    if not RUNS.exists():
        return []
    runs = []
    for line in RUNS.read_text(encoding="utf-8").splitlines():
        start, end, count, what = line.split(" ", 3)
        runs.append((int(start), int(end), int(count), what))
    return runs


def markdown(tallies: dict[str, Tally], runs: list[tuple[int, int, int, str]]) -> str:
    """The published page, ``docs/mutation.md``."""
    out = [
        "# Mutation score of the rules",
        "",
        "<!-- Generated by tools/mutation_report.py from mutmut's results; do not edit. -->",
        "",
        "How strong the tests are, measured: [mutmut](https://mutmut.readthedocs.io) 3.8",
        "changes the rules modules one small edit at a time (a `<` for a `<=`, a `1` for a",
        "`2`, an `and` for an `or`, a string for another) and runs the tests that reach the",
        "changed function; a mutant the tests do not notice *survives*. Every survivor is",
        "classified in `specs/mutation/survivors.toml`: **equivalent** (changes nothing",
        "observable), **text-only** (changes only the wording of an account line or a",
        "message), or **gap** (changes behaviour no test checks: it wants a test; gaps in a",
        "rule get their test at once). `tools/mutation_report.py`",
        "fails when a survivor is new or its line changed, so the next run compares.",
        "",
        "Score = (killed + timeouts) / (mutants checked - equivalent survivors): a timeout",
        "is a mutant that made the game loop; text-only survivors count against the score.",
        "The goal: no gap anywhere, and at least 95% in the engine and scoring modules.",
        "*Unclassified* survivors are ones nobody has reviewed yet (the tool fails on them);",
        "*other* counts mutants mutmut found untested or suspicious.",
        "",
        "| module | mutants | killed | timeout | survived: equivalent | text-only | gap "
        "| unclassified | other | not run | score |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    total, core = Tally(), Tally()
    for module, tally in sorted(tallies.items()):
        out.append(_row(module, tally))
        for sums in (total, core) if module.startswith(CORE) else (total,):
            sums.statuses.update(tally.statuses)
            sums.survivors.update(tally.survivors)
            sums.seconds += tally.seconds
    out.append(_row("**engine and scoring**", core))
    out.append(_row("**all**", total))
    wall = sum(end - start for start, end, *_ in runs)
    out += [
        "",
        f"Test time summed over the mutants: {total.seconds / 60:.1f} min. "
        f"Wall time of the logged runs: {wall / 60:.1f} min on 2 cores "
        "(`--max-children 2`, the machine shared).",
        "",
        "The runs, as `make mutation` logged them (`mutants/runs.log`):",
        "",
    ]
    for start, end, count, what in runs:
        out.append(f"- `make mutation {what}`: {count} mutants, {(end - start) / 60:.1f} min")
    out += [
        "",
        "## Running it",
        "",
        "```sh",
        "make mutation                          # every rules module (about half an hour)",
        "make mutation MODULE=engine.withdraw   # one module's mutants",
        "make mutation MUTANTS='tajmahal.scoring.* tajmahal.engine.x_*'   # any globs",
        "make mutation MODULE=engine RETEST=1   # again, survivors and untested re-tested",
        "make mutation MODULE=engine AGAIN=1    # every mutant again, killed ones too",
        "make mutation-report                   # rewrite this page from mutants/",
        "```",
        "",
        "`make mutation` links `src -> reference` (mutmut 3 finds a package only under `src/`",
        "or the project root; the link is git-ignored), runs `mutmut run` and then",
        "`tools/mutation_report.py`. mutmut keeps every result in `mutants/` (git-ignored):",
        "an interrupted run resumes where it stopped (`make mutation` names mutmut only the",
        "mutants of the shard that have no result yet; `RETEST=1` adds the survivors). When",
        "the source changes, mutmut regenerates the mutants of the changed functions and",
        "clears their results: they show as *not run*, and the next `make mutation` tests",
        "them. mutmut learns which tests reach which function once, when it first runs (and",
        "for tests added since): a function added later has no tests to run and its mutants",
        "count as *other* (untested). `RETEST=1` collects that afresh and re-runs them with",
        "the survivors. mutmut notices a changed function only when it runs: if a source",
        "change leaves nothing pending, name one of the module's mutants to `mutmut run`",
        "(it regenerates every changed function first), then `make mutation` again.",
        "A killed mutant keeps its result while its function is unchanged, even when a",
        "change elsewhere stops the tests from reaching it (a caller that now takes another",
        "path): after such a change, `AGAIN=1` runs every mutant of the shard again.",
        "A change of `[tool.mutmut]` (the test selection) voids every result:",
        "start afresh with `rm -rf mutants`.",
        "`.venv/bin/mutmut show <mutant>` prints a mutant's diff.",
        "",
    ]
    return "\n".join(out)


def _row(module: str, tally: Tally) -> str:
    statuses, survivors = tally.statuses, tally.survivors
    checked = sum(statuses.values()) - statuses["not checked"]
    killed = statuses["killed"] + statuses["segfault"]
    timeout = statuses["timeout"]
    other = checked - killed - timeout - statuses["survived"]
    denominator = checked - survivors["equivalent"]
    score = f"{100 * (killed + timeout) / denominator:.1f}%" if denominator else "-"
    return (
        f"| {module} | {sum(statuses.values())} | {killed} | {timeout} "
        f"| {survivors['equivalent']} | {survivors['text-only']} | {survivors['gap']} "
        f"| {survivors['unclassified']} | {other} | {statuses['not checked']} | {score} |"
    )


def _write(path: Path, text: str) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def pending(patterns: list[str], retest: bool, again: bool = False) -> list[str]:
    """What ``mutmut run`` should be given to run the shard ``patterns`` resumably.

    mutmut re-runs every mutant it is given by name or glob, so a shard is resumed by
    naming only its mutants that have no result yet (or whose function changed, which
    mutmut resets), and the survivors too when ``retest``, with the mutants found untested
    (mutmut learns which tests reach a function only when it collects its statistics,
    so a function added since has none: ``make mutation RETEST=1`` collects them
    afresh). With ``again``, every mutant of the shard: a killed mutant keeps its result
    while its function is unchanged, even when a change elsewhere stops the tests from
    reaching it (a caller taking another path). Before the first run there are no
    results: the globs themselves.
    """
    if not SOURCE.is_dir() or not any(SOURCE.rglob("*.py.meta")):
        return patterns
    wanted = ("not checked", "survived", "no tests") if retest else ("not checked",)
    return [
        mutant.name
        for mutant in read_mutants()
        if (again or mutant.status in wanted)
        and any(fnmatch.fnmatchcase(mutant.name, p) for p in patterns)
    ]


def count_matching(patterns: list[str]) -> int:
    """How many mutants the names or globs ``patterns`` stand for, once mutmut has
    generated them: what a run of those patterns ran (the run log's count; a glob given
    before the first run is one pattern but hundreds of mutants)."""
    return sum(
        any(fnmatch.fnmatchcase(mutant.name, p) for p in patterns) for mutant in read_mutants()
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Compare mutmut's survivors; publish.")
    parser.add_argument("--write", type=Path, help="write the score page (docs/mutation.md)")
    parser.add_argument("--template", action="store_true", help="print new survivors' entries")
    parser.add_argument("--survivors", type=Path, default=SURVIVORS)
    parser.add_argument(
        "--pending", nargs="+", metavar="GLOB", help="print the mutants a run of GLOB still owes"
    )
    parser.add_argument("--retest", action="store_true", help="with --pending: survivors too")
    parser.add_argument("--again", action="store_true", help="with --pending: every mutant")
    parser.add_argument(
        "--count", nargs="+", metavar="GLOB", help="print how many mutants GLOB stands for"
    )
    arguments = parser.parse_args(argv)
    if arguments.count is not None:
        print(count_matching(arguments.count))
        return 0
    if arguments.pending is not None:
        print("\n".join(pending(arguments.pending, arguments.retest, arguments.again)))
        return 0
    if not SOURCE.is_dir():
        print(f"{SOURCE}: no mutmut results; run make mutation first", file=sys.stderr)
        return 2
    classified = read_classified(arguments.survivors)
    by_name = {entry.mutant: entry for entry in classified.values()}
    tallies: dict[str, Tally] = {}
    changes: dict[str, dict[str, Change]] = {}
    problems: list[str] = []
    seen: set[str] = set()
    status_by_name: dict[str, str] = {}
    for mutant in read_mutants():
        status_by_name[mutant.name] = mutant.status
        tally = tallies.setdefault(mutant.module, Tally())
        tally.statuses[mutant.status] += 1
        tally.seconds += mutant.seconds
        if mutant.status != "survived":
            continue
        if mutant.module not in changes:
            changes[mutant.module] = changes_of(mutant.module)
        change = changes[mutant.module][mutant.name]
        entry = classified.get(change.fingerprint)
        if entry is not None:
            tally.survivors[entry.kind] += 1
            seen.add(entry.fingerprint)
            continue
        tally.survivors["unclassified"] += 1
        old = by_name.get(mutant.name)
        what = "changed line" if old is not None else "new survivor"
        diff = "\n".join(
            [*(f"    - {x}" for x in change.removed), *(f"    + {x}" for x in change.added)]
        )
        problems.append(f"{what}: {mutant.name} ({change.fingerprint})\n{diff}")
        if arguments.template:
            print(template(mutant, change))
    stale = [
        entry
        for entry in classified.values()
        if entry.fingerprint not in seen
        and status_by_name.get(entry.mutant, "not checked") not in ("not checked", "survived")
    ]
    for problem in problems:
        print(problem, file=sys.stderr)
    for entry in stale:
        print(f"no longer survives (remove it from {arguments.survivors.name}): {entry.mutant}")
    if arguments.write is not None:
        _write(arguments.write, markdown(tallies, read_runs()))
    print("\n".join(_row(module, tally) for module, tally in sorted(tallies.items())))
    if problems:
        print(f"{len(problems)} surviving mutant(s) not classified", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
