"""``tajmahal fuzz``: hunt rule edge cases and broken invariants with seeded games.

``tajmahal fuzz [--games N | --minutes M] ...`` runs a campaign (see
:mod:`tajmahal.testing.fuzz`); ``tajmahal fuzz merge DIR...`` joins the summaries of shards;
``tajmahal fuzz reproduce WHY...`` replays counterexamples. Exit codes: 0 nothing broke,
1 a counterexample was found (or still fails), 2 bad usage, 130 Ctrl-C.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from tajmahal.agents import PLAYER_TYPES
from tajmahal.cli._options import (
    COMPARE_HELP,
    MAX_JOBS,
    MAX_SECONDS,
    compared_fields,
    integer,
    number,
    seed,
)
from tajmahal.cli._outputs import refuse_overwriting_inputs
from tajmahal.errors import TajMahalError
from tajmahal.inputs import RECORD_LIMITS, read_json
from tajmahal.model import RULE_OPTIONS
from tajmahal.records import TAGS

EXIT_OK = 0
EXIT_FAILED = 1
MAX_MINUTES = MAX_SECONDS / 60
"""The longest campaign ``--minutes`` gives (a week)."""


def _int_list(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected numbers separated by commas: {text!r}"
        ) from None


def _names(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _folder(text: str) -> Path:
    """A folder to write into; an empty path (which would be the current folder) is
    refused."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path names no folder")
    return Path(text)


def _shard(text: str) -> tuple[int, int]:
    first, _, second = text.partition("/")
    try:
        shard, count = int(first), int(second)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected I/N (e.g. 0/4), found {text!r}") from None
    if not 0 <= shard < count:
        raise argparse.ArgumentTypeError(f"expected I/N with 0 <= I < N, found {text!r}")
    return shard, count


def register(commands: Any) -> None:
    """Add ``fuzz`` (and ``fuzz merge``) to the command line."""
    fuzz = commands.add_parser(
        "fuzz",
        help="play many seeded games, check the invariants after every step, "
        "keep and shrink counterexamples",
        description="Fuzz the engine with seeded games between edge-seeking players. "
        "See docs/fuzzing.md.",
        epilog="edge tags (the rare situations a step reaches, for --find; docs/fuzzing.md, "
        "Tags): " + ", ".join(TAGS),
    )
    size = fuzz.add_mutually_exclusive_group()
    size.add_argument("--games", type=integer(1), help="games to play (default 1000)")
    size.add_argument(
        "--minutes", type=number(0, MAX_MINUTES, above=True), help="play for this long instead"
    )
    fuzz.add_argument("--seed", type=seed, default=0, help="campaign seed (default 0)")
    fuzz.add_argument(
        "--players", type=_int_list, default=(3, 4, 5), help="player counts (default 3,4,5)"
    )
    fuzz.add_argument(
        "--rules",
        nargs="+",
        default=["random"],
        metavar="RULES",
        help="'random' (each option drawn per game, the default), 'default', or "
        "OPTION=VALUE ...; options: "
        + "; ".join(f"{name}={'|'.join(values)}" for name, values in RULE_OPTIONS.items()),
    )
    fuzz.add_argument(
        "--agents",
        type=_names,
        help=f"player types round the table ({', '.join(PLAYER_TYPES)}); "
        "default: each seat drawn from a weighted mix",
    )
    fuzz.add_argument(
        "--find",
        type=_names,
        default=(),
        metavar="TAG,...",
        help="keep records of the first games reaching these tags (default: none; the tags "
        "are listed below)",
    )
    fuzz.add_argument("--keep", type=integer(0), default=3, help="records kept per --find tag")
    fuzz.add_argument(
        "--jobs",
        type=integer(1, MAX_JOBS),
        default=1,
        help="processes (the results do not depend on it)",
    )
    fuzz.add_argument(
        "--shard",
        type=_shard,
        default=(0, 1),
        metavar="I/N",
        help="run shard I of N, 0-based (default: the whole campaign)",
    )
    fuzz.add_argument(
        "--out",
        type=_folder,
        default=Path("fuzz-out"),
        help="output folder (a new one, or with --resume the one of this campaign)",
    )
    fuzz.add_argument(
        "--resume",
        action="store_true",
        help="continue the campaign in --out (stopped before its end) after its last game",
    )
    fuzz.add_argument(
        "--deep-every",
        type=integer(1),
        default=25,
        metavar="K",
        help="one game in K also checks views and serialization after every step and "
        "replays its record (default 25; 1: every game, about five times slower)",
    )
    fuzz.add_argument(
        "--max-counterexamples",
        type=integer(1),
        default=20,
        help="stop after this many failing games",
    )
    fuzz.add_argument(
        "--engine",
        metavar="COMMAND",
        help="also play every game in lockstep through another engine speaking the engine "
        "protocol (docs/protocol.md); a disagreement is a counterexample (runs in one process)",
    )
    fuzz.add_argument(
        "--compare",
        default="legal,state_digest,scores",
        metavar="FIELDS",
        help=f"with --engine: {COMPARE_HELP}",
    )
    fuzz.add_argument(
        "--engine-timeout",
        type=number(0, above=True),
        default=10.0,
        metavar="SECONDS",
        help="seconds the other engine may take for each reply",
    )
    fuzz.add_argument("--quiet", action="store_true", help="no progress display; a plain summary")
    sub = fuzz.add_subparsers(dest="fuzz_command", metavar="{merge,reproduce}")
    merge = sub.add_parser("merge", help="join the summaries of shards")
    merge.add_argument("folders", nargs="+", type=Path, metavar="DIR")
    merge.add_argument(
        "--out", dest="merge_out", type=_folder, help="write the merged summary here"
    )
    merge.add_argument("--quiet", action="store_true", help="a plain summary")
    reproduce = sub.add_parser(
        "reproduce", help="replay counterexamples (.why.json) with the engine as it is now"
    )
    reproduce.add_argument("files", nargs="+", type=Path, metavar="WHY")
    reproduce.add_argument(
        "--engine",
        dest="reproduce_engine",
        metavar="COMMAND",
        help="also replay every step through this engine in lockstep (a counterexample of "
        "fuzz --engine)",
    )
    reproduce.add_argument(
        "--compare",
        dest="reproduce_compare",
        default="legal,state_digest,scores",
        metavar="FIELDS",
        help=f"with --engine: {COMPARE_HELP}",
    )
    reproduce.add_argument(
        "--engine-timeout",
        dest="reproduce_timeout",
        type=number(0, above=True),
        default=10.0,
        metavar="SECONDS",
        help="seconds the engine may take for each reply",
    )
    fuzz.set_defaults(handler=_handle)


def _handle(arguments: argparse.Namespace) -> int:
    try:
        from rich.console import Console  # noqa: F401  (an optional extra)
    except ImportError:
        raise TajMahalError(
            "tajmahal fuzz needs the 'fuzz' extra: pip install 'tajmahal-reference[fuzz]'"
        ) from None
    from tajmahal.testing.fuzz.display import run_with_display, show_summary

    if arguments.fuzz_command == "merge":
        return _merge(arguments, show_summary)
    if arguments.fuzz_command == "reproduce":
        return _reproduce(arguments)
    from tajmahal.testing.fuzz import Options

    rules: str | tuple[str, ...]
    rules = (
        arguments.rules[0]
        if arguments.rules in (["random"], ["default"])
        else tuple(arguments.rules)
    )
    options = Options(
        games=arguments.games if arguments.games is not None or arguments.minutes else 1000,
        minutes=arguments.minutes,
        seed=arguments.seed,
        players=arguments.players,
        rules=rules,
        agents=arguments.agents,
        find=arguments.find,
        keep=arguments.keep,
        jobs=arguments.jobs,
        shard=arguments.shard,
        out=arguments.out,
        deep_every=arguments.deep_every,
        max_counterexamples=arguments.max_counterexamples,
    )
    if arguments.minutes is not None:
        from attrs import evolve

        options = evolve(options, games=None)
    try:
        if arguments.engine is None:
            summary = run_with_display(options, quiet=arguments.quiet, resume=arguments.resume)
        else:
            summary = _run_against(arguments.engine, arguments.engine_timeout, options, arguments)
    except ValueError as error:
        raise TajMahalError(str(error)) from None
    return EXIT_FAILED if summary.failed else EXIT_OK


def _run_against(command: str, timeout: float, options: Any, arguments: Any) -> Any:
    """The campaign with another engine following every game in lockstep: its failure to
    start or to shake hands is bad usage (exit 2); a disagreement, a crash or a hang
    during a game is a counterexample like any broken invariant."""
    from tajmahal.conformance import ForeignEngine, LockstepEngine, catalogue_tester
    from tajmahal.model import default_components
    from tajmahal.testing.fuzz.display import run_with_display

    compare = compared_fields(arguments.compare)
    with ForeignEngine(command, timeout=timeout) as engine:
        components = default_components()
        follower = LockstepEngine(engine, components, compare, catalogue_tester(components))
        return run_with_display(
            options, quiet=arguments.quiet, follower=follower, resume=arguments.resume
        )


def _reproduce(arguments: argparse.Namespace) -> int:
    if arguments.reproduce_engine is None:
        return _reproduce_with(arguments, None)
    from tajmahal.conformance import ForeignEngine, LockstepEngine, catalogue_tester
    from tajmahal.model import default_components

    compare = compared_fields(arguments.reproduce_compare)
    with ForeignEngine(arguments.reproduce_engine, timeout=arguments.reproduce_timeout) as engine:
        components = default_components()
        follower = LockstepEngine(engine, components, compare, catalogue_tester(components))
        return _reproduce_with(arguments, follower)


def _reproduce_with(arguments: argparse.Namespace, follower: Any) -> int:
    """Replay each counterexample (with ``follower``, another engine in lockstep)."""
    from tajmahal.testing.fuzz import replay_counterexample

    failed = False
    for path in arguments.files:
        try:
            why = read_json(path, RECORD_LIMITS)  # bounded; errors name the file
            outcome = replay_counterexample(why, follower=follower)
        except (KeyError, TypeError, ValueError) as error:
            raise TajMahalError(f"{path}: script: not a counterexample script ({error})") from None
        if outcome.violations:
            failed = True
            first = outcome.violations[0]
            print(
                f"STILL FAILS {path}: step {outcome.failed_step}: {first.invariant}: "
                f"{first.message}"
            )
        elif follower is not None:
            print(
                f"PASSES {path}: {outcome.steps} steps, the engine agrees at every step and "
                "every invariant holds"
            )
        else:
            print(f"PASSES {path}: {outcome.steps} steps, every invariant holds")
    return EXIT_FAILED if failed else EXIT_OK


def _merge(arguments: argparse.Namespace, show: Any) -> int:
    from tajmahal.testing.fuzz import Summary, merge, with_files_on_disk, write_json

    if arguments.merge_out is not None:
        refuse_overwriting_inputs(
            [("--out", arguments.merge_out / "summary.json")],
            [folder / "summary.json" for folder in arguments.folders],
        )
    parts = []
    for folder in arguments.folders:
        document = read_json(folder / "summary.json", RECORD_LIMITS)  # bounded, named
        summary = Summary.from_json(document, str(folder / "summary.json"))
        # what a campaign stopped at any moment wrote but did not list yet
        parts.append((str(folder), with_files_on_disk(folder, summary)))
    merged = merge(parts)
    if arguments.merge_out is not None:
        write_json(arguments.merge_out / "summary.json", merged.to_json())
    show(merged, quiet=arguments.quiet)
    return EXIT_FAILED if merged.failed else EXIT_OK
