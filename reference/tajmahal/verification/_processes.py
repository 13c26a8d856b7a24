"""What a command's worker processes need to end with it, and quietly.

A command that starts workers (``verify --jobs``, ``fuzz --jobs``) must leave none behind
however it ends, and print no worker's traceback:

- :func:`held_signals` holds Ctrl-C, SIGTERM and SIGHUP back while workers are started:
  one arriving in the middle of a ``fork`` would be raised inside the interpreter's
  fork hooks, where it is ignored (and so lost); held, it is raised right after, where
  the command handles it (and ends its workers).
- :func:`start_worker_signals`, first thing in a worker: Ctrl-C ignored (the command
  handles it and ends the workers), SIGTERM and SIGHUP back to their default (ending a
  worker sends SIGTERM; the command's own handlers are not the worker's), the signals
  held by the command released, and :func:`end_with_parent`.
- :func:`end_with_parent`: the worker ends when the command ends, even when the command
  is killed with SIGKILL (it would otherwise finish its task and fail, with a traceback,
  to hand it over).

The names are imported from :mod:`tajmahal.verification`.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator

PARENT_POLL_SECONDS = 0.2
"""How often a worker looks whether the process that started it is still there."""
PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal the kernel sends a process when its parent ends."""
HELD = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that end a command, held back while it starts workers."""


@contextlib.contextmanager
def held_signals() -> Iterator[None]:
    """Hold :data:`HELD` back while the block runs (workers started in it inherit
    them held; :func:`start_worker_signals` releases them). Only the main thread
    receives them; elsewhere this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _watch_parent(parent: int) -> None:
    """End this process as soon as its parent is gone (its parent process id changes
    when the parent dies, whatever killed it)."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def end_with_parent(parent: int) -> None:
    """Make this (worker) process end when ``parent``, the process that started it,
    ends, however it ends (SIGKILL included).

    On Linux the kernel kills it at once (``PR_SET_PDEATHSIG``, sent when the parent's
    thread that started the worker ends: start workers from a thread that outlives
    them, as the main thread does); everywhere a thread also looks every
    :data:`PARENT_POLL_SECONDS` whether the parent is still there."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it ended before the request above
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def start_worker_signals(parent: int) -> None:
    """First thing in a worker started under :func:`held_signals` (see the module)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)
    end_with_parent(parent)


__all__ = ["HELD", "PARENT_POLL_SECONDS", "PR_SET_PDEATHSIG"]
