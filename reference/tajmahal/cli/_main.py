"""The ``tajmahal`` command line.

Exit codes: 0 success; 1 the game or a check failed (a record that does not replay as
it says: an action the reference refuses, an id in an action that names no card or city,
other legal actions, scores, state or result); 2 bad input or usage (a missing or
malformed file, a malformed action string, an unknown id in a record's setup). Errors are
one line on stderr naming the file, step and field, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import signal
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import TYPE_CHECKING, NoReturn, cast

from tajmahal._version import __version__
from tajmahal.agents import PLAYER_TYPES, Player, play_match
from tajmahal.cli import _diff as diff
from tajmahal.cli import _fuzz as fuzz_command
from tajmahal.cli import _perft as perft_command
from tajmahal.cli import _rule as rule_command
from tajmahal.cli import _serve as serve
from tajmahal.cli import _show as show_command
from tajmahal.cli import _verify as verify
from tajmahal.cli._human import HUMAN, GameAbandoned, Table
from tajmahal.cli._inspect import caption, marked_lines, report
from tajmahal.cli._options import add_components_option, chosen_components, output_file, seed
from tajmahal.cli._outputs import component_inputs, refuse_overwriting_inputs
from tajmahal.cli._rule import statement
from tajmahal.errors import TajMahalError
from tajmahal.inputs import display_name, escape_controls
from tajmahal.model import DEFAULT_RULES, RULE_OPTIONS, Components, GameState, RuleSet
from tajmahal.notation import canonical_json, state_to_json
from tajmahal.records import (
    Record,
    VerificationError,
    check_result,
    closing_lines,
    initial_state,
    opening_lines,
    read_record,
    replay_steps,
    step_account,
    write_record,
)
from tajmahal.registry import load_registry
from tajmahal.verification import inspect_record

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
MAX_ERROR_CHARS = 2000
"""Longest error line printed; a longer message (quoting a long value) is cut."""
EXIT_INTERRUPTED = 130
"""128 + SIGINT: interrupted with Ctrl-C."""
EXIT_BROKEN_PIPE = 141
"""128 + SIGPIPE: standard output was closed by the reader (as for any Unix tool)."""
TERMINATING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
"""Signals that end the command the way Ctrl-C does (what ``timeout``, CI runners and a
closed terminal send): every cleanup runs, so a foreign engine's process group and the
worker processes end with the command; the exit code is 128 plus the signal's number."""


class Terminated(BaseException):
    """A terminating signal, raised where the command was so that it unwinds like Ctrl-C."""

    def __init__(self, number: int) -> None:
        super().__init__(f"signal {number}")
        self.number = number
        """The signal's number."""


def _terminated(number: int, frame: FrameType | None) -> None:
    signal.signal(number, signal.SIG_IGN)  # once: a second one must not cut the cleanup short
    raise Terminated(number)


@contextlib.contextmanager
def _terminating_signals_unwind() -> Iterator[None]:
    """While the command runs, :data:`TERMINATING_SIGNALS` raise :class:`Terminated`;
    the handlers before come back afterwards (only the main thread may set them)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {number: signal.signal(number, _terminated) for number in TERMINATING_SIGNALS}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def _printable(message: str) -> str:
    """One line, whatever the message quotes: control characters escaped, and cut at
    :data:`MAX_ERROR_CHARS` characters."""
    text = escape_controls(message)
    if len(text) > MAX_ERROR_CHARS:
        text = text[:MAX_ERROR_CHARS] + "..."
    return text


def _rules(options: Sequence[str]) -> RuleSet:
    values: dict[str, str] = {}
    for option in options:
        name, _, value = option.partition("=")
        values[name.replace("-", "_")] = value
    return RuleSet.from_json(values, source="--rule", field="rule")


def seat_types(spec: str, players: int) -> list[str]:
    """The player type of each seat: the ``--agents`` list in order, repeated round the
    table, except that a human seat is never repeated (the list's other types fill the
    seats after it, or ``greedy`` when it names no other)."""
    names = [name.strip() for name in spec.split(",") if name.strip()]
    if not names:
        raise TajMahalError("--agents: name at least one player type")
    known = [*PLAYER_TYPES, HUMAN]
    unknown = [name for name in names if name not in known]
    if unknown:
        raise TajMahalError(
            f"--agents: unknown player {'type' if len(unknown) == 1 else 'types'} "
            f"{', '.join(unknown)} (known: {', '.join(known)})"
        )
    computers = [name for name in names if name != HUMAN] or ["greedy"]
    seats = names[:players]
    return seats + [computers[extra % len(computers)] for extra in range(players - len(seats))]


def _agents(types: Sequence[str], seed: int, table: Table | None) -> list[Player]:
    return [
        table.seat(seat)
        if kind == HUMAN and table is not None
        else PLAYER_TYPES[kind](seed * 10 + seat)
        for seat, kind in enumerate(types)
    ]


def _account(
    record: Record, components: Components, source: str, quiet: bool
) -> tuple[list[str], GameState]:
    """Replay ``record`` and return its account lines (none when ``quiet``: the account
    is not built at all then) and final state. Each step's lines carry its number, and
    a step that scored ends with the running totals."""
    state = initial_state(record, components, source)
    lines = [] if quiet else opening_lines(state, record.names)
    for replayed in replay_steps(record, components, source):
        if not quiet:
            lines.extend(step_account(replayed, record.names))
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


def _statements() -> Callable[[str], str | None]:
    """The statement of a clause or ruling by its id (the registry is read once, when a
    refusal is first explained)."""
    known: dict[str, str] = {}

    def statement_of(rule_id: str) -> str | None:
        if not known:
            registry = load_registry()
            known.update(
                (entry["id"], statement(entry))
                for entry in (*registry["clauses"], *registry["rulings"])
            )
        return known.get(rule_id)

    return statement_of


def _play(arguments: argparse.Namespace) -> int:
    refuse_overwriting_inputs(
        [("--trace", arguments.trace)], component_inputs(arguments.components)
    )
    components = chosen_components(arguments.components)
    rules = _rules(arguments.rule)
    types = seat_types(arguments.agents, arguments.players)
    table = None
    if HUMAN in types:
        table = Table(types, _statements(), sys.stdin, sys.stdout, account=not arguments.quiet)
    agents = _agents(types, arguments.seed, table)
    try:
        result = play_match(
            components,
            agents,
            arguments.seed,
            rules,
            full=arguments.full,
            watch=table.watch if table is not None else None,
        )
    except KeyboardInterrupt:
        if table is None:
            raise
        print(f"interrupted at step {table.steps + 1}; the game is abandoned", file=sys.stderr)
        return EXIT_INTERRUPTED
    except GameAbandoned as error:  # Ctrl-C at the prompt is no error, the end of input is
        print(f"{'' if error.interrupted else 'error: '}{error}", file=sys.stderr)
        return EXIT_INTERRUPTED if error.interrupted else EXIT_BAD_INPUT
    if table is not None:  # the account was told as the game went
        print("\n".join(closing_lines(result.final, result.record.names)))
    else:
        lines, state = _account(result.record, components, "(this game)", arguments.quiet)
        _print_account(lines, state, result.record, arguments.quiet)
    if arguments.trace is not None:
        write_record(result.record, arguments.trace)
        print(f"Trace written to {arguments.trace} ({len(result.record.steps)} steps)")
    return EXIT_OK


def _replay(arguments: argparse.Namespace) -> int:
    components = chosen_components(arguments.components)
    record = read_record(arguments.file)
    source = display_name(arguments.file)
    quiet = arguments.quiet
    # A record that does not verify is replayed up to and including the step where it
    # diverges, which is marked; the explanation follows on stderr, and the exit code is 1.
    inspection = inspect_record(record, components, source, keep_steps=not quiet)
    if not quiet:
        lines = opening_lines(initial_state(record, components, source), record.names)
        for replayed in inspection.steps:
            lines.extend(step_account(replayed, record.names))
        lines.extend(marked_lines(inspection))
        print("\n".join(lines))
    state = inspection.state
    if inspection.diverged:
        print(
            f"\nThe record diverges at step {inspection.marked}: the account stops there; "
            f"scores so far (the reference's): {list(state.scores)}"
        )
        report(inspection)
        return EXIT_FAILED
    if state.is_over:  # a record that stops early is replayed as far as it goes
        check_result(record, state, source)
    _print_account([], state, record, True)
    return EXIT_OK


def _position(arguments: argparse.Namespace) -> int:
    components = chosen_components(arguments.components)
    record = read_record(arguments.file)
    if not 0 <= arguments.step <= len(record.steps):
        raise TajMahalError(
            f"--step: the record has {len(record.steps)} steps; choose 0 "
            f"(after setup) to {len(record.steps)}"
        )
    source = display_name(arguments.file)
    # Up to the step asked for, or the reference's position after the step where the
    # record diverges (the position it is played from when its action is refused).
    inspection = inspect_record(record, components, source, arguments.step)
    state = inspection.state
    print(
        canonical_json(state)
        if arguments.compact
        else json.dumps(state_to_json(state), indent=1, sort_keys=True, ensure_ascii=False)
    )
    if not inspection.diverged:
        return EXIT_OK
    print(caption(source, inspection), file=sys.stderr)
    report(inspection)
    return EXIT_FAILED


def _show_components(arguments: argparse.Namespace) -> int:
    components = chosen_components(arguments.components)
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


class _DefaultsFormatter(argparse.HelpFormatter):
    """Help that ends every option with its default, unless the help already says it or
    there is nothing to show (a flag that is off, an empty list, no value); lines are
    never broken inside a hyphenated word (a tag, an option value)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.fill(
            " ".join(text.split()),
            width,
            initial_indent=indent,
            subsequent_indent=indent,
            break_on_hyphens=False,
        )

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (
            "default" in text
            or default is None
            or default is False
            or default == []
            or default is argparse.SUPPRESS
            or action.option_strings == []
        ):
            return action.help
        return f"{text} (default: %(default)s)".lstrip()


class _Parser(argparse.ArgumentParser):
    """A parser whose usage errors are one line, like every other error of the command
    line (argparse's own print the usage first): what is wrong, and where to look."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse ignores a failed write of --help or --version (and so exits 0 having
        # written nothing, as with ``--help > /dev/full``); here it is an error.
        if not message:
            return
        stream = file if file is not None else sys.stderr
        if stream is not sys.stdout:
            stream.write(message)
            return
        try:
            stream.write(message)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OSError(error.errno, error.strerror, "(standard output)") from None

    def error(self, message: str) -> NoReturn:
        self.exit(
            EXIT_BAD_INPUT,
            f"error: {_printable(message)} (see: {self.prog} --help)\n",
        )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for documentation and tests)."""
    parser = _Parser(
        prog="tajmahal",
        description="Reference engine for Taj Mahal: play, replay and verify game records.",
    )
    parser.add_argument("--version", action="version", version=f"tajmahal {__version__}")
    # Every subcommand's parser is a _Parser too (argparse makes them of the parent's class).
    commands = cast(
        "argparse._SubParsersAction[argparse.ArgumentParser]",
        parser.add_subparsers(dest="command", required=True),
    )

    play = commands.add_parser("play", help="play a full game between built-in players")
    play.add_argument("--players", type=int, choices=(3, 4, 5), default=4, help="how many players")
    play.add_argument("--seed", type=seed, default=0, help="seed of setup, reshuffles and players")
    play.add_argument(
        "--trace",
        type=output_file,
        metavar="FILE",
        help="write the game record (JSON) here (its folder must exist)",
    )
    play.add_argument(
        "--agents",
        default="greedy,random",
        help=f"comma-separated player types, repeated round the table "
        f"({', '.join(PLAYER_TYPES)}, or {HUMAN}: a seat played at this terminal, never "
        "repeated); default: greedy,random",
    )
    play.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="a rule-set option, repeatable; known: "
        + "; ".join(
            f"{name}={'|'.join(values)} (default {DEFAULT_RULES.to_json()[name]})"
            for name, values in RULE_OPTIONS.items()
        ),
    )
    play.add_argument("--quiet", action="store_true", help="print only the final scores")
    play.add_argument(
        "--full",
        action="store_true",
        help="the trace also lists each step's legal actions and public position",
    )
    add_components_option(play)
    play.set_defaults(handler=_play)

    replay = commands.add_parser(
        "replay",
        help="replay a game record and print its account, every step numbered",
        description="Replay a game record and print its account, visit by visit, every step "
        "numbered as verify and show --step number them (from 1), with the running totals "
        "after each step that scored. A record that does not verify is replayed up to and "
        "including the step where it diverges, which is marked; the explanation follows on "
        "standard error and the exit code is 1.",
    )
    replay.add_argument("file", help="the record (- for standard input)")
    replay.add_argument("--quiet", action="store_true", help="print only the final scores")
    add_components_option(replay)
    replay.set_defaults(handler=_replay)

    verify.register(commands)

    position = commands.add_parser(
        "position",
        help="print the canonical JSON of the position after a step of a record",
        description="Print the position after the first N steps of a record as its state "
        "document (docs/trace-format.md). For a record that does not verify at or before "
        "step N, the reference's position after the diverging step (or the position it is "
        "played from, when the reference refuses its action or the legal actions at its "
        "start differ), with the explanation on standard error and exit code 1.",
    )
    position.add_argument("file", help="the record (- for standard input)")
    position.add_argument(
        "--step",
        type=int,
        default=0,
        help="how many steps to apply first (0: the position after setup; steps are "
        "numbered from 1, as verify numbers them)",
    )
    position.add_argument(
        "--compact",
        action="store_true",
        help="the one-line canonical text (sorted keys, no spaces)",
    )
    add_components_option(position)
    position.set_defaults(handler=_position)

    show = commands.add_parser("components", help="validate and summarise a component set")
    add_components_option(show)
    show.set_defaults(handler=_show_components)
    fuzz_command.register(commands)
    perft_command.register(commands)
    serve.register(commands)
    diff.register(commands)
    rule_command.register(commands)
    show_command.register(commands)
    for subcommand in commands.choices.values():
        subcommand.formatter_class = _DefaultsFormatter
    return parser


DEBUG_VARIABLE = "TAJMAHAL_DEBUG"
"""When this environment variable is set (to anything but empty), an unexpected exception
propagates with its traceback instead of becoming one line; the test suite sets it so
that a bug cannot hide behind the last line of defence."""


def _quiet_stdout() -> None:
    """After a broken pipe, point standard output at the null device so that the final
    flush at exit cannot fail again (the recipe in Python's ``signal`` documentation)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass


def _flush_output() -> None:
    """Flush standard output; a failure other than a closed pipe names it (``--help >
    /dev/full`` says that standard output is full)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as error:
        raise OSError(error.errno, error.strerror, "(standard output)") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code.

    The last line of defence: a deliberate error (:class:`TajMahalError`, an unreadable
    file) is one line naming file, step and field with exit code 2; a record that
    does not replay as it says (an illegal action, other scores) exits 1; Ctrl-C exits
    130, SIGTERM 143 and SIGHUP 129 (each after every cleanup: no engine or worker
    process outlives the command) and a closed standard output (``tajmahal replay FILE |
    head``) exits 141 (128 + SIGPIPE), all without a message; any other exception is one
    ``internal error`` line and exit code 2 (unless :data:`DEBUG_VARIABLE` is set).
    """
    with _terminating_signals_unwind():
        return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    try:
        try:
            arguments = build_parser().parse_args(argv)
        except SystemExit:  # --help, --version, or a usage error (already written)
            _flush_output()  # a failed write is an error, not a success
            raise
        code: int = arguments.handler(arguments)
        _flush_output()
    except VerificationError as error:
        print(f"FAIL {_printable(str(error))}", file=sys.stderr)
        return EXIT_FAILED
    except TajMahalError as error:
        print(f"error: {_printable(str(error))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Terminated as ended:
        return 128 + ended.number
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""
        print(f"error: {_printable(f'{where}{error.strerror or error}')}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as error:
        if os.environ.get(DEBUG_VARIABLE):
            raise
        text = _printable(" ".join(str(error).split()))[:200]
        print(
            f"error: internal error ({type(error).__name__}: {text}); please report it",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    return code
