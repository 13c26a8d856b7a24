"""Verifying records in worker processes: what ``tajmahal verify --jobs N`` runs.

Records are independent of one another, so a corpus verifies faster on several cores;
the result must not depend on how many. Each file's report is passed on (to
``on_file``, which prints it) once it and every file before it are done, and the report
lists the files in collection order, so the lines, the reports and the exit code are
those of one process. Only the files' ``seconds`` differ (each is the time the file took
in its worker), and the :class:`~tajmahal.verification.Report` also records the
wall-clock time of the whole run.

Each worker is given one file at a time over a pipe of its own, so the file a worker was
verifying when it died (killed, out of memory) is known: that file is reported as bad
input ("the process verifying it ended abruptly", with the signal), a new worker takes
the files left, and every other file is reported as usual. A worker ends with its parent
however the parent ends (it looks every :data:`PARENT_POLL_SECONDS` whether its parent
is still there), so no worker outlives a ``verify`` killed with SIGKILL.

Standard input (``-``) is verified in the main process: another process cannot read it.
Workers ignore Ctrl-C, so that only the main process sees it; it then ends the workers
and lets the interrupt go on (the command line exits 130). The worker's entry point is a
module-level function and its arguments pickle, so that the ``spawn`` start method works
too where ``fork`` is missing.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from tajmahal.inputs import STDIN, display_name
from tajmahal.model import Components
from tajmahal.verification._explain import HypothesisTester
from tajmahal.verification._file import verify_file, with_hypotheses
from tajmahal.verification._processes import held_signals, start_worker_signals
from tajmahal.verification._report import FileReport, Outcome, Report


def resolve_jobs(jobs: int) -> int:
    """The number of processes ``--jobs jobs`` asks for: ``0`` is every core
    (:func:`os.cpu_count`, at least 1); a negative number is refused (``ValueError``)."""
    if jobs < 0:
        raise ValueError(f"expected 0 (every core) or a positive number, found {jobs}")
    return jobs if jobs > 0 else os.cpu_count() or 1


_worker_components: Components | None = None
"""The component set of this worker process, set once by :func:`_start_worker` (so
that each file does not unpickle it again)."""


def _start_worker(
    components: Components, setup: Callable[[], object] | None, parent: int | None = None
) -> None:
    """Prepare a worker: its signals (Ctrl-C ignored, SIGTERM ends it quietly) and its
    end with ``parent`` (by default the process that started it), as
    :func:`~tajmahal.verification.start_worker_signals` sets them; keep the component
    set for every file, and run the caller's ``setup`` (the command's collector
    setting)."""
    global _worker_components
    start_worker_signals(parent if parent is not None else os.getppid())
    _worker_components = components
    if setup is not None:
        setup()


def _verify_in_worker(path: str | Path) -> FileReport:
    """Verify one file with the worker's component set."""
    assert _worker_components is not None, "the worker's start sets the components"
    return verify_file(path, _worker_components)


def _worker(
    tasks: Connection,
    components: Components,
    setup: Callable[[], object] | None,
    parent: int,
) -> None:
    """A worker's life (see :func:`_start_worker`): verify the files it is sent, one at
    a time, until it is sent None or its pipe closes. It says when it starts a file (the
    file's index) and then sends the index with the report, so that the main process
    knows which file a worker that died was verifying."""
    _start_worker(components, setup, parent)
    while True:
        try:
            task = tasks.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        index, path = task
        try:
            tasks.send(index)
            tasks.send((index, _verify_in_worker(path)))
        except OSError:  # the main process is gone (a broken pipe): nobody to tell
            return


def _context() -> Any:
    """``fork`` where the platform has it (workers start with the modules already
    loaded), else ``spawn``."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


class _Worker:
    """A worker process, its end of the task pipe and the file it is verifying."""

    def __init__(
        self, context: Any, components: Components, setup: Callable[[], object] | None
    ) -> None:
        self.tasks, theirs = context.Pipe()
        self.process = context.Process(
            target=_worker, args=(theirs, components, setup, os.getpid()), daemon=True
        )
        with held_signals():
            self.process.start()
        theirs.close()
        self.busy: tuple[int, str | Path] | None = None
        """The file given to it and not yet reported."""
        self.started = False
        """Whether it said it has started that file."""

    def give(self, task: tuple[int, str | Path] | None) -> None:
        self.busy, self.started = task, False
        with contextlib.suppress(OSError):  # a dead worker is seen by its sentinel
            self.tasks.send(task)

    def end(self, hurry: bool) -> None:
        if hurry:
            self.process.terminate()
        self.process.join(timeout=None if hurry else 10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.tasks.close()


def _died(path: str | Path, exitcode: int | None) -> FileReport:
    """The report of a file whose worker died while verifying it."""
    source = display_name(path)
    how = f"killed by signal {-exitcode}" if exitcode and exitcode < 0 else f"exit {exitcode}"
    return FileReport(
        source,
        Outcome.BAD_INPUT,
        f"{source}: the process verifying it ended abruptly ({how}; out of memory?)",
    )


def verify_in_workers(
    files: Sequence[str | Path],
    components: Components,
    jobs: int,
    *,
    on_file: Callable[[FileReport], object] | None = None,
    setup: Callable[[], object] | None = None,
    hypotheses: HypothesisTester | None = None,
) -> Report:
    """Verify ``files`` (already collected) in up to ``jobs`` worker processes; the
    same report as verifying them one after another, but for the timings.

    ``setup`` (a module-level function, so that it pickles) runs once in each worker
    before its first file. A worker that dies (killed, out of memory) makes the file it
    was verifying a bad input naming it; the other files are verified as usual.
    ``hypotheses`` is tried in this process, on each record that diverges."""
    started = time.perf_counter()
    todo = [(index, path) for index, path in enumerate(files) if str(path) != STDIN]
    todo.reverse()  # popped from the end: collection order
    count = max(1, min(jobs, len(todo)))
    context = _context()
    results: dict[int, FileReport] = {}
    reported = 0
    workers: list[_Worker] = []

    def report_ready() -> None:
        nonlocal reported
        while reported < len(files):
            path = files[reported]
            if str(path) == STDIN:
                results[reported] = verify_file(path, components, hypotheses)
            elif reported not in results:
                return
            if on_file is not None:
                on_file(results[reported])
            reported += 1

    def bury(worker: _Worker) -> None:
        """A worker has ended without being asked to: the file it had started is
        reported as the cause, one it had not started goes back to be given again."""
        worker.process.join()
        if worker.busy is not None:
            if worker.started:
                index, path = worker.busy
                results[index] = _died(path, worker.process.exitcode)
            else:
                todo.append(worker.busy)
        worker.tasks.close()
        workers.remove(worker)
        if todo:
            replacement = _Worker(context, components, setup)
            workers.append(replacement)
            replacement.give(todo.pop())

    try:
        while todo and len(workers) < count:
            worker = _Worker(context, components, setup)
            workers.append(worker)
            worker.give(todo.pop())
        report_ready()
        while reported < len(files):
            busy = [worker.tasks for worker in workers if worker.busy is not None]
            ready = wait(busy + [worker.process.sentinel for worker in workers])
            for worker in list(workers):
                if worker.busy is not None and worker.tasks in ready:
                    try:
                        message = worker.tasks.recv()
                    except (EOFError, OSError):  # it died
                        bury(worker)
                        continue
                    if isinstance(message, int):
                        worker.started = True
                        continue
                    index, result = message
                    results[index] = with_hypotheses(result, components, hypotheses)
                    worker.give(todo.pop() if todo else None)
                    if worker.busy is None:
                        worker.end(hurry=False)
                        workers.remove(worker)
                elif worker.process.sentinel in ready:
                    bury(worker)
            report_ready()
    except BaseException:
        for worker in workers:
            worker.end(hurry=True)
        raise
    for worker in workers:
        worker.give(None)
        worker.end(hurry=False)
    return Report(
        tuple(results[index] for index in range(len(files))),
        wall_seconds=time.perf_counter() - started,
        jobs=count,
    )


__all__ = ["resolve_jobs", "verify_in_workers"]
