"""The ``tajmahal`` command line.

Exit codes: 0 success; 1 the game or a check failed (a record that replays but
contradicts its stated scores); 2 bad input or usage (a missing or malformed file, an
unknown id, an illegal action in a record). Errors are one line on stderr naming the
file, step and field, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from tajmahal import __version__
from tajmahal.account import closing_lines, event_lines, opening_lines
from tajmahal.commands import rule as rule_command
from tajmahal.commands import show as show_command
from tajmahal.components import Components, default_components, load_components
from tajmahal.errors import TajMahalError
from tajmahal.match import play_match
from tajmahal.players import PLAYER_TYPES, Player
from tajmahal.rules import RULE_OPTIONS, RuleSet
from tajmahal.serialize import canonical_json, state_to_json
from tajmahal.state import GameState
from tajmahal.trace import (
    Record,
    VerificationError,
    initial_state,
    read_record,
    replay_steps,
    verify,
    write_record,
)

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2


def _components(folder: str | None) -> Components:
    return load_components(folder) if folder is not None else default_components()


def _rules(options: Sequence[str]) -> RuleSet:
    values: dict[str, str] = {}
    for option in options:
        name, _, value = option.partition("=")
        values[name.replace("-", "_")] = value
    return RuleSet.from_json(values, source="--rule", field="rule")


def _agents(spec: str, players: int, seed: int) -> list[Player]:
    names = [name.strip() for name in spec.split(",") if name.strip()]
    if not names:
        raise TajMahalError("--agents: name at least one player type")
    unknown = [name for name in names if name not in PLAYER_TYPES]
    if unknown:
        raise TajMahalError(
            f"--agents: unknown player type(s) {', '.join(unknown)} "
            f"(known: {', '.join(PLAYER_TYPES)})"
        )
    return [PLAYER_TYPES[names[seat % len(names)]](seed * 10 + seat) for seat in range(players)]


def _account(record: Record, components: Components, source: str) -> tuple[list[str], GameState]:
    """Replay ``record`` and return its account lines and final state."""
    state = initial_state(record, components, source)
    lines = opening_lines(state, record.names)
    for replayed in replay_steps(record, components, source):
        lines.extend(event_lines(replayed.events, record.names, replayed.after))
        state = replayed.after
    return lines, state


def _print_account(lines: list[str], state: GameState, record: Record, quiet: bool) -> None:
    if not quiet:
        print("\n".join(lines))
    if state.is_over:
        print("\n".join(closing_lines(state, record.names)))
    else:
        print(
            f"\nThe record stops in visit {state.visit} (after {len(record.steps)} steps); "
            f"scores so far: {list(state.scores)}"
        )


def _play(arguments: argparse.Namespace) -> int:
    components = _components(arguments.components)
    rules = _rules(arguments.rule)
    agents = _agents(arguments.agents, arguments.players, arguments.seed)
    result = play_match(components, agents, arguments.seed, rules)
    lines, state = _account(result.record, components, "(this game)")
    _print_account(lines, state, result.record, arguments.quiet)
    if arguments.trace:
        write_record(result.record, arguments.trace)
        print(f"Trace written to {arguments.trace} ({len(result.record.steps)} steps)")
    return EXIT_OK


def _replay(arguments: argparse.Namespace) -> int:
    components = _components(arguments.components)
    record = read_record(arguments.file)
    lines, state = _account(record, components, arguments.file)
    _print_account(lines, state, record, arguments.quiet)
    return EXIT_OK


def _verify(arguments: argparse.Namespace) -> int:
    components = _components(arguments.components)
    failed = False
    for file in arguments.files:
        record = read_record(file)
        try:
            state = verify(record, components, file)
        except VerificationError as error:
            print(f"FAIL {error}", file=sys.stderr)
            failed = True
            continue
        print(
            f"OK {file}: {len(record.steps)} steps replayed, final scores "
            f"{list(state.scores)}, winner(s) {list(state.winners())}"
        )
    return EXIT_FAILED if failed else EXIT_OK


def _position(arguments: argparse.Namespace) -> int:
    components = _components(arguments.components)
    record = read_record(arguments.file)
    if not 0 <= arguments.step <= len(record.steps):
        raise TajMahalError(
            f"--step: the record has {len(record.steps)} steps; choose 0 "
            f"(after setup) to {len(record.steps)}"
        )
    state = initial_state(record, components, arguments.file)
    for replayed in replay_steps(record, components, arguments.file):
        if replayed.index >= arguments.step:
            break
        state = replayed.after
    print(
        canonical_json(state)
        if arguments.compact
        else json.dumps(state_to_json(state), indent=1, sort_keys=True, ensure_ascii=False)
    )
    return EXIT_OK


def _show_components(arguments: argparse.Namespace) -> int:
    components = _components(arguments.components)
    board = components.board
    print(f"Component set {components.name} ({components.digest})")
    print(
        f"  {len(components.cards)} regular cards, {len(components.specials)} special cards, "
        f"{len(components.province_tiles)} province tiles, {len(components.bonus_tiles)} "
        f"bonus tiles"
    )
    print(
        f"  board {board.name}: {len(board.provinces)} provinces, {len(board.cities)} cities, "
        f"{len(board.fortresses)} fortresses, {len(board.roads)} roads; Agra is {board.agra} "
        f"in province {board.agra_province}"
    )
    for special in components.specials.values():
        print(f"  {special.id}: earned with two {special.earned_by.value} tiles")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for documentation and tests)."""
    parser = argparse.ArgumentParser(
        prog="tajmahal",
        description="Reference engine for Taj Mahal: play, replay and verify game records.",
    )
    parser.add_argument("--version", action="version", version=f"tajmahal {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    def with_components(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--components",
            metavar="DIR",
            help="folder with your own component files (any of cards.json, "
            "specials.json, province_tiles.json, bonus_tiles.json, board.json)",
        )

    play = commands.add_parser("play", help="play a full game between built-in players")
    play.add_argument("--players", type=int, choices=(3, 4, 5), default=4)
    play.add_argument("--seed", type=int, default=0, help="seed of setup, reshuffles and players")
    play.add_argument("--trace", metavar="FILE", help="write the game record (JSON) here")
    play.add_argument(
        "--agents",
        default="greedy,random",
        help=f"comma-separated player types, repeated round the table "
        f"({', '.join(PLAYER_TYPES)}); default: greedy,random",
    )
    play.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="a rule-set option; known: "
        + "; ".join(f"{name}={'|'.join(values)}" for name, values in RULE_OPTIONS.items()),
    )
    play.add_argument("--quiet", action="store_true", help="print only the final scores")
    with_components(play)
    play.set_defaults(handler=_play)

    replay = commands.add_parser("replay", help="replay a game record and print its account")
    replay.add_argument("file")
    replay.add_argument("--quiet", action="store_true", help="print only the final scores")
    with_components(replay)
    replay.set_defaults(handler=_replay)

    verify_command = commands.add_parser(
        "verify", help="replay records and check their scores and result"
    )
    verify_command.add_argument("files", nargs="+", metavar="FILE")
    with_components(verify_command)
    verify_command.set_defaults(handler=_verify)

    position = commands.add_parser(
        "position", help="print the canonical JSON of the position after a step of a record"
    )
    position.add_argument("file")
    position.add_argument(
        "--step",
        type=int,
        default=0,
        help="how many steps to apply first (0: the position after setup)",
    )
    position.add_argument(
        "--compact",
        action="store_true",
        help="the one-line canonical text (sorted keys, no spaces)",
    )
    with_components(position)
    position.set_defaults(handler=_position)

    show = commands.add_parser("components", help="validate and summarise a component set")
    with_components(show)
    show.set_defaults(handler=_show_components)
    rule_command.register(commands)
    show_command.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    arguments = parser.parse_args(argv)
    try:
        code: int = arguments.handler(arguments)
    except TajMahalError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as error:
        print(f"error: {error.filename or ''}: {error.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
