"""``tajmahal diff``: check another engine against this one, live, step by step.

Starts the other engine (``--engine "COMMAND"``, speaking ``docs/protocol.md``), plays
random and edge-seeking games through both, stops at the first disagreement, shrinks it,
explains it (what differs, expected: the reference's, found: the engine's; where the
engines parted; the rules likeliest involved), writes the short game as a game record
(``--out``) and, with ``--html FILE``, a page with the boards before and after the step
that disagrees. Exit codes: 0 every game agreed;
1 a disagreement, or the engine crashed, hung, printed garbage or closed early; 2 bad
usage (for example a command that cannot be started).
"""

from __future__ import annotations

import argparse
import json
import shlex
from typing import TYPE_CHECKING, Any

from tajmahal.cli._options import (
    COMPARE_HELP,
    add_components_option,
    chosen_components,
    compared_fields,
    integer,
    number,
    output_file,
    refuse_input,
    seed,
)
from tajmahal.cli._outputs import command_files, component_inputs, refuse_overwriting_inputs
from tajmahal.engine import apply, new_game
from tajmahal.errors import TajMahalError
from tajmahal.model import RULE_OPTIONS, Components
from tajmahal.records import write_record, write_text_atomic
from tajmahal.verification import Explanation, HtmlDivergence, divergence_html

if TYPE_CHECKING:  # the conformance kit is loaded by the commands that use it (_diff)
    from tajmahal.conformance import DiffResult

EXIT_OK = 0
EXIT_FAILED = 1
SHOWN_STEPS = 8
"""The steps from a position the text report lists (the record holds them all)."""


def _fixed_rules(options: list[str]) -> dict[str, str]:
    fixed: dict[str, str] = {}
    for option in options:
        name, sign, value = option.partition("=")
        name = name.replace("-", "_")
        if not sign or name not in RULE_OPTIONS or value not in RULE_OPTIONS[name]:
            known = "; ".join(f"{n}={'|'.join(v)}" for n, v in RULE_OPTIONS.items())
            raise TajMahalError(f"--rule {option!r}: expected OPTION=VALUE, one of: {known}")
        fixed[name] = value
    return fixed


def report(result: DiffResult, out: str | None, case_out: str | None = None) -> dict[str, Any]:
    """The outcome of a run as a JSON-ready document (what ``--json`` prints)."""
    document: dict[str, Any] = {
        "engine": result.engine,
        "agreed": result.agreed,
        "games": result.games,
        "steps": result.steps,
        "seconds": round(result.seconds, 3),
        "tags": dict(sorted(result.tags.items())),
    }
    if result.failure is not None:
        document["failure"] = {
            "kind": result.failure.kind,
            "message": str(result.failure),
            "where": result.failure_at,
            "stderr": list(result.failure.stderr),
        }
    if result.shrunk is not None:
        shortest = result.shrunk.shortest
        divergence = shortest.divergence
        assert divergence is not None
        document["divergence"] = {
            "game": result.game_index,
            "step": divergence.step,
            "field": divergence.field,
            "fields": list(divergence.fields),
            "action": divergence.action,
            "actor": divergence.actor,
            "expected": divergence.expected,
            "actual": divergence.actual,
            "details": list(divergence.details),
            "clauses": list(divergence.clauses),
            "likely": list(divergence.likely),
            "engine_clause": divergence.foreign_clause,
            "explanation": None
            if divergence.explanation is None
            else divergence.explanation.to_json(),
            "players": shortest.plan.players,
            "ruleset": shortest.plan.rules.to_json(),
            "original_steps": result.shrunk.original.steps,
            "shrunk_steps": shortest.steps,
            "start": shortest.start,
            "from_start": [str(action) for action in shortest.actions[shortest.start :]],
            "setup_steps": result.shrunk.setup_steps,
            "replays": result.shrunk.replays,
            "record": out,
            "case": None
            if result.case is None
            else {
                "file": case_out if result.case.document is not None else None,
                "step": result.case.step,
                "note": result.case.note,
            },
        }
    return document


def _print_text(document: dict[str, Any], explanation: Explanation | None) -> None:
    _print_body(document, explanation)
    if document["tags"]:
        reached = ", ".join(f"{tag} {count}" for tag, count in document["tags"].items())
        print(f"  edge tags reached (games): {reached}")


def _print_body(document: dict[str, Any], explanation: Explanation | None) -> None:
    engine = document["engine"]
    if document["agreed"]:
        rate = document["steps"] / document["seconds"] if document["seconds"] else 0.0
        print(
            f"OK {engine}: {document['games']} games, {document['steps']} steps, every step "
            f"agreed with the reference ({document['seconds']:.1f} s, {rate:.0f} steps/s)"
        )
        return
    failure = document.get("failure")
    if failure is not None:
        print(f"FAIL {engine} ({failure['where']}): {failure['message']}")
        for line in failure["stderr"][-5:]:
            print(f"  stderr: {line}")
        return
    found = document["divergence"]
    action = f" ({found['action']})" if found["action"] else " (before its action)"
    actor = "chance" if found["actor"] is None else f"P{found['actor']}"
    print(
        f"FAIL {engine}: disagrees at step {found['step']}{action}, {actor} to move: "
        f"{', '.join(found['fields'])} differ"
    )
    if explanation is not None:
        print("\n".join(explanation.lines()))
    else:
        print(f"  expected: {found['expected']}")
        print(f"  found:    {found['actual']}")
        for line in found["details"]:
            print(f"  {line}")
        print(f"  clauses: {', '.join(found['clauses']) or '(none known)'}")
    if found["engine_clause"] and explanation is None:
        print(f"  the engine's reason: {found['engine_clause']}")
    print(
        f"  found in game {found['game']} after {found['original_steps']} steps; shrunk to "
        f"{found['setup_steps']} steps with {found['players']} players "
        f"({found['replays']} replays)"
    )
    start, steps = found["start"], found["from_start"]
    if start:
        shown = "; ".join(steps[:SHOWN_STEPS]) + ("; ..." if len(steps) > SHOWN_STEPS else "")
        print(
            f"  and to {len(steps)} step{'s' if len(steps) != 1 else ''} from the position "
            f"after step {start} (given to the engine with new and state): {shown}"
        )
    if found["record"]:
        print(f"  record written to {found['record']}")
    case = found["case"]
    if case is not None and case["file"]:
        print(f"  position case written to {case['file']}: {case['note']}")
    elif case is not None:
        print(f"  no position case: {case['note']}")


def _diff(arguments: argparse.Namespace) -> int:
    # The conformance kit is loaded by the commands that use it, not by every command.
    from tajmahal.conformance import catalogue_tester, divergence_record, run_diff

    try:  # the engine's program is an input too (a bad command is reported when started)
        program = shlex.split(arguments.engine)[:1]
    except ValueError:
        program = []
    refuse_input(arguments.out, program, "--out", "the engine's program")
    refuse_input(arguments.html, program, "--html", "the engine's program")
    refuse_input(arguments.html, [arguments.out], "--html", "the record --out writes")
    refuse_input(arguments.case, program, "--case", "the engine's program")
    refuse_input(arguments.case, [arguments.out], "--case", "the record --out writes")
    refuse_overwriting_inputs(
        [("--out", arguments.out), ("--html", arguments.html), ("--case", arguments.case)],
        [*component_inputs(arguments.components), *command_files(arguments.engine)],
    )
    components = chosen_components(arguments.components)
    result = run_diff(
        arguments.engine,
        components,
        games=arguments.games,
        seed=arguments.seed,
        players=arguments.players,
        rules=_fixed_rules(arguments.rule),
        timeout=arguments.timeout,
        shrink_budget=arguments.shrink_budget,
        shrink_seconds=arguments.shrink_seconds,
        compare=compared_fields(arguments.compare),
        hypotheses=catalogue_tester(components),
    )
    out = case_out = None
    if result.shrunk is not None:
        out = arguments.out
        write_record(divergence_record(result.shrunk.shortest, components), out)
        if arguments.html is not None:
            write_text_atomic(_html(result, components), arguments.html)
    if result.case is not None and result.case.document is not None:
        case_out = arguments.case
        text = json.dumps(result.case.document, indent=1, ensure_ascii=False) + "\n"
        write_text_atomic(text, case_out)
    document = report(result, out, case_out)
    if arguments.json:
        print(json.dumps(document, indent=1, ensure_ascii=False))
    else:
        divergence = None if result.shrunk is None else result.shrunk.shortest.divergence
        _print_text(document, None if divergence is None else divergence.explanation)
    return EXIT_OK if result.agreed else EXIT_FAILED


def _html(result: DiffResult, components: Components) -> str:
    """The page of the shrunk disagreement: the reference's positions before and after
    its step, and its explanation."""
    assert result.shrunk is not None
    played = result.shrunk.shortest
    divergence = played.divergence
    assert divergence is not None
    plan = played.plan
    before = new_game(components, plan.players, played.setup, plan.rules)
    actions = played.actions if divergence.field == "legal" else played.actions[:-1]
    for action in actions:
        before = apply(before, action)
    after = apply(before, played.actions[-1]) if actions != played.actions else None
    title = f"tajmahal diff: {result.engine} against the reference"
    headline = (
        f"game {result.game_index}, step {divergence.step}: {', '.join(divergence.fields)} "
        f"differ (shrunk from {result.shrunk.original.steps} to {played.steps} steps)"
    )
    section = HtmlDivergence(title, headline, divergence.explanation, before, after)
    return divergence_html([section], title)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``diff`` subcommand."""
    parser = commands.add_parser(
        "diff", help="play games through another engine and this one; report the first difference"
    )
    parser.add_argument(
        "--engine",
        required=True,
        metavar="COMMAND",
        help="the command that starts the other engine (split like a shell, no shell run)",
    )
    parser.add_argument("--games", type=integer(1), default=20, metavar="N", help="games to play")
    parser.add_argument(
        "--seed", type=seed, default=0, metavar="S", help="seed of setups, rules and choices"
    )
    parser.add_argument(
        "--players", type=int, choices=(3, 4, 5), help="player count (default: 3 to 5, varied)"
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="fix a rule-set option (options not fixed vary from the second game on)",
    )
    parser.add_argument(
        "--timeout",
        type=number(0, above=True),
        default=10.0,
        metavar="SECONDS",
        help="seconds allowed per reply",
    )
    parser.add_argument(
        "--out",
        type=output_file,
        default="diff-divergence.json",
        metavar="FILE",
        help="where to write the shrunk game record (from the setup, also when the engine "
        "was given a position of it)",
    )
    parser.add_argument(
        "--case",
        default="diff-case.json",
        metavar="FILE",
        help="where to write the one-step position case (when the engine starts from a "
        "position: new with state)",
    )
    parser.add_argument(
        "--shrink-budget",
        type=integer(0),
        default=400,
        metavar="N",
        help="most games replayed while shrinking",
    )
    parser.add_argument(
        "--shrink-seconds",
        type=number(0),
        default=30.0,
        metavar="S",
        help="most seconds spent shrinking",
    )
    parser.add_argument(
        "--compare",
        default="legal,state_digest,scores",
        metavar="FIELDS",
        help=COMPARE_HELP,
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--html",
        metavar="FILE",
        help="when the engines disagree, also write an HTML page of the disagreement: the "
        "boards before and after its step, expected and found, the explanation",
    )
    add_components_option(parser, "folder with your own component files")
    parser.set_defaults(handler=_diff)
