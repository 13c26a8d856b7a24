"""An engine that attacks its client, for testing ``tajmahal diff`` and ``fuzz --engine``.

``python tests/hostile/hostile_engine.py MODE [PIDFILE]`` answers ``hello`` at once (it
imports nothing from the package until it must, so it starts fast), writes its process
id to PIDFILE, and answers every other request with the reference engine (``tajmahal
serve``'s session) except where MODE says otherwise:

- ``fork-holds-stdout``: at ``new``, starts a child in a session of its own that keeps
  the standard output open, and never answers;
- ``fork-then-exit``: the same child, then exits with status 3 without answering;
- ``flood-stderr``: at ``new``, writes ``FLOOD_MIB`` (environment, default 64) MiB to
  standard error without a line feed, then answers;
- ``hang``: never answers ``new``;
- ``exit-early``: exits with status 0 at ``new`` without answering;
- ``half-line``: at ``new``, writes half a reply without its line feed and hangs;
- ``surrogate-action``: answers ``legal`` with a lone surrogate among the actions;
- ``surrogate-digest``: answers ``apply`` with a lone surrogate as the state digest;
- ``nan-reply``: answers ``legal`` with ``NaN`` as the count;
- ``deaf``: ignores SIGTERM, SIGINT, SIGHUP and the end of its input, and never answers
  ``new`` (only SIGKILL of its process group ends it);
- ``slow``: answers everything, each reply 20 ms late (for signals at random moments);
- ``polite`` (or any other word): the reference, as ``tajmahal serve``.

A child it starts ends by itself when this process is gone (it looks every 50 ms) and
after two minutes in any case, so that no test leaves it behind.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from typing import Any

CHILD_LIFETIME = 120.0
"""Seconds after which a child started by this engine ends whatever happens."""


def _hold_stdout_in_a_child() -> None:
    """Fork a child into a session of its own that keeps this process's standard output
    open until this process is gone (or :data:`CHILD_LIFETIME` passed)."""
    parent = os.getpid()
    if os.fork() == 0:
        os.setsid()
        ends = time.monotonic() + CHILD_LIFETIME
        while os.getppid() == parent and time.monotonic() < ends:
            time.sleep(0.05)
        os._exit(0)


def _reply(reply: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()


def main(mode: str, pidfile: str | None) -> int:
    if pidfile:
        with open(pidfile, "w", encoding="utf-8") as stream:
            stream.write(str(os.getpid()))
    if mode == "deaf":
        for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(number, signal.SIG_IGN)
    session = None
    for raw in sys.stdin.buffer:
        request = json.loads(raw)
        op = request.get("op")
        if op == "hello":
            _reply({"ok": True, "op": "hello", "protocol": 1, "engine": f"hostile {mode}"})
            continue
        if op == "quit":
            _reply({"ok": True, "op": "quit"})
            return 0
        if op == "new":
            if mode == "fork-holds-stdout":
                _hold_stdout_in_a_child()
                time.sleep(CHILD_LIFETIME)
            if mode == "fork-then-exit":
                _hold_stdout_in_a_child()
                return 3
            if mode == "flood-stderr":
                block = b"x" * (1 << 20)
                for _ in range(int(os.environ.get("FLOOD_MIB", "64"))):
                    sys.stderr.buffer.write(block)
                sys.stderr.buffer.flush()
            if mode in ("hang", "deaf"):
                while True:
                    time.sleep(CHILD_LIFETIME)
            if mode == "exit-early":
                return 0
            if mode == "half-line":
                sys.stdout.write('{"ok": true, "op": "ne')
                sys.stdout.flush()
                time.sleep(CHILD_LIFETIME)
        if session is None:
            from tajmahal.conformance import Session

            session = Session()
            session.handle({"op": "hello", "protocol": 1})
        reply = session.handle(request)
        if mode == "surrogate-action" and op == "legal" and reply.get("actions"):
            reply["actions"][0] = "play \ud800"
        if mode == "surrogate-digest" and op == "apply" and reply.get("ok"):
            reply["state_digest"] = "sha256:\ud800"
        if mode == "nan-reply" and op == "legal":
            reply["count"] = float("nan")
        if mode == "slow":
            time.sleep(0.02)
        sys.stdout.write(json.dumps(reply, ensure_ascii=True) + "\n")
        sys.stdout.flush()
    if mode == "deaf":
        while True:
            time.sleep(CHILD_LIFETIME)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
