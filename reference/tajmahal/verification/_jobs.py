"""Verifying records in worker processes: what ``tajmahal verify --jobs N`` runs.

Records are independent of one another, so a corpus verifies faster on several cores;
the result must not depend on how many. The files are verified in collection order's
terms: each file's report is passed on (to ``on_file``, which prints it) once it and
every file before it are done, and the report lists the files in collection order, so
the lines, the reports and the exit code are those of one process. Only the files'
``seconds`` differ (each is the time the file took in its worker), and the
:class:`~tajmahal.verification.Report` also records the wall-clock time of the whole run.

Standard input (``-``) is verified in the main process: another process cannot read it.
Workers ignore Ctrl-C, so that only the main process sees it; it then ends the workers
and lets the interrupt go on (the command line exits 130). The workers' entry points
are module-level functions and their arguments pickle, so that the ``spawn`` start
method works too where ``fork`` is missing.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from tajmahal.errors import TajMahalError
from tajmahal.inputs import STDIN, display_name
from tajmahal.model import Components
from tajmahal.verification._explain import HypothesisTester
from tajmahal.verification._file import verify_file, with_hypotheses
from tajmahal.verification._report import FileReport, Report

_worker_components: Components | None = None
"""The component set of this worker process, set once by :func:`_start_worker` (so
that each file does not unpickle it again)."""


def resolve_jobs(jobs: int) -> int:
    """The number of processes ``--jobs jobs`` asks for: ``0`` is every core
    (:func:`os.cpu_count`, at least 1); a negative number is refused (``ValueError``)."""
    if jobs < 0:
        raise ValueError(f"expected 0 (every core) or a positive number, found {jobs}")
    return jobs if jobs > 0 else os.cpu_count() or 1


def _start_worker(components: Components, setup: Callable[[], object] | None) -> None:
    """Prepare a worker: ignore Ctrl-C (the main process handles it and ends the
    workers, so no worker prints a traceback), keep the component set for every file,
    and run the caller's ``setup`` (the command's collector setting)."""
    global _worker_components
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_components = components
    if setup is not None:
        setup()


def _verify_in_worker(path: str | Path) -> FileReport:
    """Verify one file with the worker's component set."""
    assert _worker_components is not None, "the pool's initializer sets the components"
    return verify_file(path, _worker_components)


def _context() -> Any:
    """``fork`` where the platform has it (workers start with the modules already
    loaded), else ``spawn``."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


@contextlib.contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """Ignore Ctrl-C while workers are started, so that a worker cannot be interrupted
    before its initializer runs (the disposition is inherited by ``fork`` and ``spawn``
    alike). Only the main thread may change signal handlers; elsewhere this does
    nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _end_workers(executor: ProcessPoolExecutor, earlier: set[Any]) -> None:
    """End the pool's processes now (the children that were not there before the pool
    was made), instead of waiting for the files they are verifying, then shut the pool
    down, cancelling what has not started and waiting for its managing thread. That
    thread must be gone before the interpreter exits: a shutdown that does not wait lets
    it close its wake-up pipe while the exit hook of ``concurrent.futures`` writes to it,
    which prints an ignored exception ("Bad file descriptor")."""
    ours = [child for child in multiprocessing.active_children() if child not in earlier]
    for child in ours:
        child.terminate()
    for child in ours:
        child.join()
    executor.shutdown(wait=True, cancel_futures=True)


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
    before its first file. A worker that dies (killed, out of memory) is an error
    naming the file it was verifying. ``hypotheses`` is tried in this process, on each
    record that diverges."""
    started = time.perf_counter()
    in_workers = [path for path in files if str(path) != STDIN]
    workers = max(1, min(jobs, len(in_workers)))
    earlier = set(multiprocessing.active_children())
    executor = ProcessPoolExecutor(
        workers, mp_context=_context(), initializer=_start_worker, initargs=(components, setup)
    )
    results: list[FileReport] = []
    try:
        with _interrupts_ignored():
            futures: list[Future[FileReport] | None] = [
                None if str(path) == STDIN else executor.submit(_verify_in_worker, path)
                for path in files
            ]
        for path, future in zip(files, futures, strict=True):
            try:
                if future is None:
                    result = verify_file(path, components, hypotheses)
                else:
                    result = with_hypotheses(future.result(), components, hypotheses)
            except BrokenProcessPool as error:
                raise TajMahalError(
                    f"{display_name(path)}: the process verifying it ended abruptly"
                ) from error
            results.append(result)
            if on_file is not None:
                on_file(result)
    except BaseException:
        _end_workers(executor, earlier)
        raise
    executor.shutdown(wait=True)
    return Report(tuple(results), wall_seconds=time.perf_counter() - started, jobs=workers)


__all__ = ["resolve_jobs", "verify_in_workers"]
