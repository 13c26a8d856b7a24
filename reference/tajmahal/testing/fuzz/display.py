"""The campaign's progress display and summary table (``rich``, the ``fuzz`` extra)."""

from __future__ import annotations

import time

from rich.console import Console, Group
from rich.live import Live
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from tajmahal.testing.fuzz._campaign import run_campaign
from tajmahal.testing.fuzz._games import Follower, default_tagger
from tajmahal.testing.fuzz._options import Options
from tajmahal.testing.fuzz._summary import CounterexampleEntry, Summary


def _figures(summary: Summary, seconds: float, title: str) -> Table:
    table = Table(title=title, show_header=False, box=None)
    table.add_column(style="bold")
    table.add_column(justify="right")
    rate = max(seconds, 1e-9)
    table.add_row("games", f"{summary.games:,}")
    table.add_row("steps", f"{summary.steps:,}")
    table.add_row("games/s", f"{summary.games / rate:,.1f}")
    table.add_row("steps/s", f"{summary.steps / rate:,.0f}")
    table.add_row("counterexamples", str(len(summary.counterexamples)))
    return table


def _tags(summary: Summary) -> Table:
    table = Table(title="edge tags (games reaching each)")
    table.add_column("tag")
    table.add_column("games", justify="right")
    table.add_column("kept", justify="right")
    found = dict(summary.found)
    for tag, count in sorted(summary.tags, key=lambda item: (-item[1], item[0])):
        table.add_row(tag, f"{count:,}", str(len(found.get(tag, ()))) if tag in found else "")
    return table


def _shrunk_or_why(entry: CounterexampleEntry, small: CounterexampleEntry | None) -> str:
    if small is not None:
        return f"{small.steps} steps, {small.decisions} decisions, {small.players} players"
    return entry.note


def _failures(summary: Summary) -> Table:
    table = Table(title="counterexamples")
    table.add_column("broke")
    table.add_column("game", justify="right")
    table.add_column("steps", justify="right")
    table.add_column("shrunk to")
    table.add_column("file")
    shrunk = {entry.game: entry for entry in summary.shrunk}
    for entry in summary.counterexamples:
        small = shrunk.get(entry.game)
        table.add_row(
            entry.key,
            str(entry.game),
            str(entry.steps),
            _shrunk_or_why(entry, small),
            small.file if small is not None else entry.file,
        )
    return table


def render(summary: Summary, seconds: float, title: str = "tajmahal fuzz") -> Group:
    """Figures, tags and counterexamples as one renderable."""
    parts: list[Table] = [_figures(summary, seconds, title), _tags(summary)]
    if summary.counterexamples:
        parts.append(_failures(summary))
    return Group(*parts)


def plain(summary: Summary) -> str:
    """The summary as plain lines (for ``--quiet`` and logs): the figures, the tags, then
    one short line per counterexample naming what broke and its file (the shrunk one's,
    or why it was not shrunk); what was wrong is in the file's ``.why.json``."""
    lines = [
        f"games {summary.games} steps {summary.steps} decisions {summary.decisions} "
        f"seconds {summary.seconds} digest {summary.digest}",
        "tags " + " ".join(f"{tag}={count}" for tag, count in summary.tags),
    ]
    shrunk = {entry.game: entry for entry in summary.shrunk}
    for entry in summary.counterexamples:
        small = shrunk.get(entry.game)
        where = (
            f"shrunk to {small.steps} steps: {small.file}"
            if small is not None
            else f"{entry.file} ({entry.note})"
            if entry.note
            else entry.file
        )
        lines.append(f"COUNTEREXAMPLE {entry.key} game {entry.game}, {entry.steps} steps: {where}")
    return "\n".join(lines)


def show_summary(summary: Summary, *, quiet: bool = False) -> None:
    """Print a summary: a table, or plain lines with ``quiet``."""
    if quiet:
        print(plain(summary))
    else:
        Console().print(render(summary, summary.seconds, "tajmahal fuzz: summary"))


def run_with_display(
    options: Options,
    *,
    quiet: bool = False,
    follower: Follower | None = None,
    resume: bool = False,
) -> Summary:
    """Run a campaign with a live display (or none with ``quiet``), then the summary; a
    ``follower`` (another engine) plays every game in lockstep; ``resume`` continues the
    campaign in the output folder (see :func:`tajmahal.testing.fuzz.run_campaign`).

    The display shows a progress bar with the time left (at the speed so far): games out
    of the games of this shard, or for ``--minutes`` the time out of the time given."""
    tagger = default_tagger()
    started = time.monotonic()
    if quiet:
        summary = run_campaign(options, tagger=tagger, follower=follower, resume=resume)
        show_summary(summary, quiet=True)
        return summary
    console = Console(stderr=True)
    bar, task = _progress_bar(options)
    with Live(console=console, refresh_per_second=4, transient=True) as live:

        def progress(summary: Summary, done: bool) -> None:
            elapsed = time.monotonic() - started
            completed = summary.games if options.games is not None else elapsed
            total = bar.tasks[0].total or 1.0
            rate = completed / elapsed if elapsed > 0 else 0.0
            left = (total - completed) / rate if rate > 0 else None
            shown = "-:--:--" if left is None else _clock(max(left, 0.0))
            bar.update(task, completed=completed, left=shown)
            live.update(Group(bar, render(summary, elapsed)))

        summary = run_campaign(
            options, tagger=tagger, follower=follower, progress=progress, resume=resume
        )
    show_summary(summary)
    return summary


def _progress_bar(options: Options) -> tuple[Progress, TaskID]:
    """The bar: games done out of this shard's, or seconds out of ``minutes``."""
    timed = options.games is None
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%") if timed else MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[left]} left"),
    )
    if timed:
        total = (options.minutes or 0.0) * 60
        return bar, bar.add_task("minutes", total=total, left="-:--:--")
    return bar, bar.add_task("games", total=len(options.index_range()), left="-:--:--")


def _clock(seconds: float) -> str:
    """``H:MM:SS``."""
    whole = int(seconds + 0.5)
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"
