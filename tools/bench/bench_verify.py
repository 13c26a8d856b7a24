"""Measure the verifier: replay the golden corpus (or other paths) and print steps per
second and a digest of the outcomes (so two runs can be compared).

The digest names each file by its path relative to the argument it was found under (a
file given itself: its name), so it does not depend on the working directory or on how
the argument is written (docs/performance.md gives the recipe).

CPU time, best of N runs: the machine may be shared. The first run's rate is printed
too: later runs in the same process find the engine's and the replay's memo tables
filled by the first (the legal actions' summaries most of all), so the first run is
what one ``tajmahal verify`` of the same paths sees. ``--without-fast`` validates every
record with jsonschema alone, as when the ``fast`` extra is not installed. The records are
verified with the collector set as ``tajmahal verify`` sets it
(:func:`tajmahal.cli._verify.fewer_collections`); ``--default-collector`` keeps
Python's thresholds.

``--against DIR`` compares with another checkout of the project (its
``reference/tajmahal``, copied under the name ``tajmahal_against`` with its imports
renamed): the two verify the same paths in alternation in this one process, so that
both see the same load, and the rates of both, their best-of ratio and the median of
the per-run ratios are printed with both digests.

``--floors`` prints, beside the whole verification, the time of the work a verification
cannot avoid, each part timed alone over the same steps (best of ``--runs`` passes, CPU
time, after the verification's own runs): parsing the files' JSON (``json.loads`` of the
bytes, without the bounded reader's checks or the schema), the engine's
``apply_with_events`` once per step (actions parsed beforehand), the state digest of
every state after a step (its canonical text, as the verifier writes it, and the SHA-256
of that text), and the legal actions of every decision with their digest. Their sum is
what the design allows at best; the rest of a verification's time is the record's
checks, the step values built from it, the comparisons, the tags and the clauses. Beside
``apply_with_events``, ``apply`` over the same steps (no events) shows what recording
the events costs.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from tajmahal.cli._verify import fewer_collections
from tajmahal.engine import apply, apply_with_events, legal_actions
from tajmahal.inputs import FAST_PATH_VARIABLE, compiled_validator_available
from tajmahal.model import Action, Components, GameState, default_components, parse_action
from tajmahal.notation import canonical_json, legal_digest, state_digest
from tajmahal.records import initial_state, read_record
from tajmahal.verification import Report, collect_paths, verify_paths

CORPUS = Path(__file__).resolve().parents[2] / "specs" / "traces"


def _names(paths: list[str]) -> list[str]:
    """Each file :func:`verify_paths` checks, in its order, named by its path relative to
    the argument it was found under (``/`` between folders), or by its own name when the
    argument is the file itself."""
    names = []
    for given in paths:
        root = Path(given)
        for found in collect_paths([given]):
            path = Path(found)
            names.append(path.name if path == root else path.relative_to(root).as_posix())
    return names


def _digest(report: Report, names: list[str]) -> str:
    """The first 16 hex digits of the SHA-256 of one line per file (joined with line
    feeds): its name, outcome, steps and final scores, separated by colons."""
    assert len(names) == len(report.files)
    text = "\n".join(
        f"{name}:{result.outcome.value}:{result.steps}:{result.final_scores}"
        for name, result in zip(names, report.files, strict=True)
    )
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _against(checkout: str, folder: str) -> tuple[ModuleType, ModuleType, ModuleType]:
    """The verify, components and verify-command modules of another checkout's package,
    copied into ``folder`` as ``tajmahal_against`` (data files followed, imports renamed)."""
    target = Path(folder) / "tajmahal_against"
    shutil.copytree(Path(checkout) / "reference" / "tajmahal", target, symlinks=False)
    for path in target.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"\btajmahal\.", "tajmahal_against.", text)
        text = re.sub(r"\bfrom tajmahal import\b", "from tajmahal_against import", text)
        path.write_text(text, encoding="utf-8")
    sys.path.insert(0, folder)
    return (
        importlib.import_module("tajmahal_against.verification"),
        importlib.import_module("tajmahal_against.model"),
        importlib.import_module("tajmahal_against.cli._verify"),
    )


def _compare(arguments: argparse.Namespace) -> int:
    """Verify the paths with this package and another checkout's, in alternation."""
    with tempfile.TemporaryDirectory() as folder:
        other_verify, other_components, other_command = _against(arguments.against, folder)
        sides: dict[str, tuple[Any, Any, Any]] = {
            "this": (verify_paths, default_components(), fewer_collections),
            "against": (
                other_verify.verify_paths,
                other_components.default_components(),
                other_command.fewer_collections,
            ),
        }
        best = {"this": float("inf"), "against": float("inf")}
        ratios = []
        reports: dict[str, Any] = {}
        for run in range(arguments.runs):
            seconds = {}
            for name in ("this", "against") if run % 2 else ("against", "this"):
                verify, components, collections = sides[name]
                with contextlib.nullcontext() if arguments.default_collector else collections():
                    started = time.process_time()
                    reports[name] = verify(arguments.paths, components)
                    seconds[name] = time.process_time() - started
                best[name] = min(best[name], seconds[name])
            ratios.append(seconds["against"] / seconds["this"])
        sys.path.remove(folder)
    names = _names(arguments.paths)
    steps = reports["this"].steps
    ratios.sort()
    print(
        f"verify, {arguments.runs} runs each in alternation: this {steps / best['this']:.0f} "
        f"steps/s (digest {_digest(reports['this'], names)}), against "
        f"{reports['against'].steps / best['against']:.0f} steps/s (digest "
        f"{_digest(reports['against'], names)}); best-of ratio "
        f"{best['against'] / best['this']:.3f}, per-run ratios {ratios[0]:.3f} to "
        f"{ratios[-1]:.3f}, median {ratios[len(ratios) // 2]:.3f}"
    )
    return int(reports["this"].exit_code)


def _best(work: Any, runs: int) -> float:
    """The least CPU time of ``runs`` calls of ``work()`` (collector as the command sets it)."""
    best = float("inf")
    with fewer_collections():
        for _ in range(runs):
            started = time.process_time()
            work()
            best = min(best, time.process_time() - started)
    return best


def _floors(paths: list[str], components: Components, runs: int) -> list[tuple[str, float]]:
    """The CPU time of each part of the work a verification of ``paths`` cannot avoid
    (see the module docstring), each the best of ``runs`` passes over every step."""
    files = [Path(path) for path in collect_paths(paths)]
    data = [path.read_bytes() for path in files]
    games: list[tuple[GameState, list[Action]]] = []
    for path in files:
        record = read_record(path)
        games.append(
            (initial_state(record, components), [parse_action(s.action) for s in record.steps])
        )
    states: list[GameState] = []  # every state after a step, in order
    decisions: list[GameState] = []  # every state in which a player chooses
    for state, actions in games:
        for action in actions:
            if state.to_move is not None and not state.is_over:
                decisions.append(state)
            state = apply_with_events(state, action)[0]
            states.append(state)
    texts = [canonical_json(state).encode("utf-8") for state in states]
    lists = [legal_actions(state) for state in decisions]

    def parse() -> None:
        for item in data:
            json.loads(item)

    def engine() -> None:
        for state, actions in games:
            for action in actions:
                state = apply_with_events(state, action)[0]

    def plain() -> None:
        for state, actions in games:
            for action in actions:
                state = apply(state, action)

    def canonical() -> None:
        for state in states:
            canonical_json(state)

    def sha256() -> None:
        for text in texts:
            hashlib.sha256(text).hexdigest()

    def digests() -> None:
        for state in states:
            state_digest(state)

    def legal() -> None:
        for state in decisions:
            legal_actions(state)

    def legal_digests() -> None:
        for actions in lists:
            legal_digest(actions)

    return [
        ("parsing the JSON (json.loads)", _best(parse, runs)),
        ("apply_with_events, once per step", _best(engine, runs)),
        ("  apply, without events (for comparison)", _best(plain, runs)),
        ("state digests (text and SHA-256)", _best(digests, runs)),
        ("  of which the canonical text", _best(canonical, runs)),
        ("  of which the SHA-256 of the whole text", _best(sha256, runs)),
        ("legal actions of each decision", _best(legal, runs)),
        ("their legal digests", _best(legal_digests, runs)),
    ]


def _print_floors(floors: list[tuple[str, float]], steps: int, first: float, best: float) -> None:
    """The floors beside the whole verification, in microseconds per step."""
    total = sum(seconds for name, seconds in floors if not name.startswith(" "))
    rows = [
        *floors,
        ("sum of the floors", total),
        ("whole verification, first run", first),
        ("whole verification, fastest run", best),
    ]
    heading = f"work, over the same {steps} steps"
    print(f"{heading:<44} {'s CPU':>7} {'µs/step':>8} {'steps/s':>8}")
    for name, seconds in rows:
        print(f"{name:<44} {seconds:7.3f} {seconds / steps * 1e6:8.2f} {steps / seconds:8.0f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("paths", nargs="*", default=[str(CORPUS)])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--without-fast",
        action="store_true",
        help="validate with jsonschema alone (as without the fast extra)",
    )
    parser.add_argument(
        "--default-collector",
        action="store_true",
        help="keep Python's collector thresholds (the command raises the youngest one)",
    )
    parser.add_argument(
        "--against",
        metavar="DIR",
        help="another checkout of the project to compare with, in alternation",
    )
    parser.add_argument(
        "--floors",
        action="store_true",
        help="also time the work a verification cannot avoid, part by part",
    )
    arguments = parser.parse_args(argv)
    if arguments.without_fast:
        os.environ[FAST_PATH_VARIABLE] = "0"
    if arguments.against is not None:
        return _compare(arguments)
    validator = (
        "compiled, then jsonschema" if compiled_validator_available("trace") else "jsonschema"
    )
    components = default_components()
    best = float("inf")
    first = 0.0
    report = None
    for run in range(arguments.runs):
        started = time.process_time()
        if arguments.default_collector:
            report = verify_paths(arguments.paths, components)
        else:
            with fewer_collections():
                report = verify_paths(arguments.paths, components)
        seconds = time.process_time() - started
        best = min(best, seconds)
        if run == 0:
            first = seconds
    assert report is not None
    print(
        f"verify: {len(report.files)} records, {report.steps} steps, best of "
        f"{arguments.runs}: {best:.2f} s CPU, {report.steps / best:.0f} steps/s "
        f"(first run {report.steps / first:.0f}); "
        f"outcomes {report.summary().split(';')[0]}; schema validation: {validator}; "
        f"digest {_digest(report, _names(arguments.paths))}"
    )
    if arguments.floors:
        floors = _floors(arguments.paths, components, arguments.runs)
        _print_floors(floors, report.steps, first, best)
    return report.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
