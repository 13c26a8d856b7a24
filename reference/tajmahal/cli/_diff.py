"""``tajmahal diff``: check another engine against this one, live, step by step.

Starts the other engine (``--engine "COMMAND"``, speaking ``docs/protocol.md``), plays
random and edge-seeking games through both, stops at the first disagreement, shrinks it
and writes the short game as a game record (``--out``). Exit codes: 0 every game agreed;
1 a disagreement, or the engine crashed, hung, printed garbage or closed early; 2 bad
usage (for example a command that cannot be started).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from tajmahal.cli._options import add_components_option, chosen_components, integer, number, seed
from tajmahal.cli._outputs import command_files, component_inputs, refuse_overwriting_inputs
from tajmahal.conformance import OPTIONAL_FIELDS, DiffResult, divergence_record, run_diff
from tajmahal.errors import TajMahalError
from tajmahal.model import RULE_OPTIONS
from tajmahal.records import write_record

EXIT_OK = 0
EXIT_FAILED = 1


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


def _compared(spec: str) -> frozenset[str]:
    fields = frozenset(name.strip() for name in spec.split(",") if name.strip())
    unknown = sorted(fields - OPTIONAL_FIELDS)
    if unknown:
        raise TajMahalError(
            f"--compare: unknown field(s) {', '.join(unknown)} "
            f"(known: {', '.join(sorted(OPTIONAL_FIELDS))})"
        )
    return fields


def report(result: DiffResult, out: str | None) -> dict[str, Any]:
    """The outcome of a run as a JSON-ready document (what ``--json`` prints)."""
    document: dict[str, Any] = {
        "engine": result.engine,
        "agreed": result.agreed,
        "games": result.games,
        "steps": result.steps,
        "seconds": round(result.seconds, 3),
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
            "players": shortest.plan.players,
            "ruleset": shortest.plan.rules.to_json(),
            "original_steps": result.shrunk.original.steps,
            "shrunk_steps": shortest.steps,
            "replays": result.shrunk.replays,
            "record": out,
        }
    return document


def _print_text(document: dict[str, Any]) -> None:
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
    action = f" ({found['action']})" if found["action"] else " (before choosing)"
    actor = "chance" if found["actor"] is None else f"seat {found['actor']}"
    print(
        f"FAIL {engine}: disagrees at step {found['step']}{action}, {actor} to move: "
        f"{', '.join(found['fields'])} differ"
    )
    print(f"  expected: {found['expected']}")
    print(f"  found:    {found['actual']}")
    for line in found["details"]:
        print(f"  {line}")
    if found["likely"]:
        print(f"  likely:  {', '.join(found['likely'])}")
    print(f"  clauses: {', '.join(found['clauses']) or '(none known)'}")
    if found["engine_clause"]:
        print(f"  the engine's reason: {found['engine_clause']}")
    print(
        f"  found in game {found['game']} after {found['original_steps']} steps; shrunk to "
        f"{found['shrunk_steps']} steps with {found['players']} players "
        f"({found['replays']} replays)"
    )
    if found["record"]:
        print(f"  record written to {found['record']}")


def _diff(arguments: argparse.Namespace) -> int:
    refuse_overwriting_inputs(
        [("--out", arguments.out)],
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
        compare=_compared(arguments.compare),
    )
    out = None
    if result.shrunk is not None:
        out = arguments.out
        write_record(divergence_record(result.shrunk.shortest, components), out)
    document = report(result, out)
    if arguments.json:
        print(json.dumps(document, indent=1, ensure_ascii=False))
    else:
        _print_text(document)
    return EXIT_OK if result.agreed else EXIT_FAILED


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
        default="diff-divergence.json",
        metavar="FILE",
        help="where to write the shrunk game record",
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
        help="what to compare after each step (leave out state_digest for an engine that "
        "does not write the canonical state)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    add_components_option(parser, "folder with your own component files")
    parser.set_defaults(handler=_diff)
