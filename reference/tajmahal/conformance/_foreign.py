"""The client side of the engine protocol: another engine run as a child process.

:class:`ForeignEngine` starts a command, speaks protocol version 1 to it over its
standard input and output (see :mod:`tajmahal.conformance` and ``docs/protocol.md``), and
turns every way a child can misbehave into an :class:`EngineFailure` with a clear
message: it crashed (exit status and the end of its standard error), it hung (no reply
within the per-request timeout), it printed garbage (a line that is not a JSON object
with a boolean ``ok``), or it closed its output early. Replies are read by a thread, so
no read ever blocks the caller beyond the timeout; the child runs in its own process
group and is always killed on :meth:`ForeignEngine.close`.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from types import TracebackType
from typing import IO, Any

from tajmahal.conformance._protocol import MAX_LINE_BYTES, PROTOCOL_VERSION
from tajmahal.errors import TajMahalError

STDERR_LINES = 20
"""How many of the child's last standard-error lines a failure report quotes."""


class EngineFailure(TajMahalError):
    """The foreign engine crashed, hung, printed garbage or broke the protocol."""

    def __init__(self, kind: str, message: str, stderr: tuple[str, ...] = ()) -> None:
        self.kind = kind
        """``crashed``, ``hung``, ``garbage``, ``closed`` or ``protocol``."""
        self.stderr = stderr
        """The last lines the engine wrote to its standard error."""
        self.step: int | None = None
        """The number of the step in progress when the engine failed (counted from 1; 0:
        starting the game), if known."""
        tail = f" (its stderr ends: {' | '.join(stderr[-3:])})" if stderr else ""
        super().__init__(f"the engine {kind}: {message}{tail}")


_EOF = object()
"""What the reader thread queues when the child's output ends."""


class ForeignEngine:
    """A running engine process spoken to in protocol version 1 (use as a context manager)."""

    def __init__(self, command: str, timeout: float = 10.0) -> None:
        self.command = command
        """The command line, split with shell quoting rules (no shell is run)."""
        self.timeout = timeout
        """Seconds allowed for each reply."""
        self.name = ""
        """The engine name from its ``hello`` reply."""
        self.requests = 0
        """Requests sent so far."""
        self._process: subprocess.Popen[bytes] | None = None
        self._replies: queue.Queue[object] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._threads: list[threading.Thread] = []

    def __enter__(self) -> ForeignEngine:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def start(self) -> dict[str, Any]:
        """Start the child and shake hands; returns the ``hello`` reply.

        Raises :class:`TajMahalError` when the command cannot be started at all (bad
        usage) and :class:`EngineFailure` when it starts but fails the handshake.
        """
        try:
            argv = shlex.split(self.command)
        except ValueError as error:
            raise TajMahalError(f"--engine: cannot split the command: {error}") from None
        if not argv:
            raise TajMahalError("--engine: the command is empty")
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as error:
            raise TajMahalError(f"--engine: cannot start {argv[0]!r}: {error.strerror}") from None
        assert self._process.stdout is not None and self._process.stderr is not None
        for target, stream in (
            (self._read_replies, self._process.stdout),
            (self._read_stderr, self._process.stderr),
        ):
            thread = threading.Thread(target=target, args=(stream,), daemon=True)
            thread.start()
            self._threads.append(thread)
        reply = self.request({"op": "hello", "protocol": PROTOCOL_VERSION})
        if not reply.get("ok"):
            raise EngineFailure(
                "protocol", f"refused the handshake: {reply.get('error')}: {reply.get('message')}"
            )
        if reply.get("protocol") != PROTOCOL_VERSION:
            raise EngineFailure(
                "protocol",
                f"answered hello with protocol {reply.get('protocol')!r}, "
                f"expected {PROTOCOL_VERSION}",
            )
        self.name = str(reply.get("engine", ""))
        return reply

    def _read_replies(self, stream: IO[bytes]) -> None:
        while True:
            line = stream.readline(MAX_LINE_BYTES + 1)
            if not line:
                self._replies.put(_EOF)
                return
            self._replies.put(line)

    def _read_stderr(self, stream: IO[bytes]) -> None:
        for line in stream:
            self._stderr.append(line.decode("utf-8", "replace").rstrip()[:300])

    @property
    def stderr(self) -> tuple[str, ...]:
        """The last lines of the child's standard error."""
        return tuple(self._stderr)

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one request and return its reply (an object with a boolean ``ok``)."""
        process = self._process
        if process is None or process.stdin is None:
            raise EngineFailure("closed", "the engine is not running")
        summary = _summary(message)
        self.requests += 1
        try:
            process.stdin.write((json.dumps(message, separators=(",", ":")) + "\n").encode())
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._ended(f"before reading {summary}") from None
        try:
            line = self._replies.get(timeout=self.timeout)
        except queue.Empty:
            raise EngineFailure(
                "hung", f"no reply to {summary} within {self.timeout:g} s", self.stderr
            ) from None
        if line is _EOF:
            raise self._ended(f"instead of answering {summary}")
        assert isinstance(line, bytes)
        if len(line) > MAX_LINE_BYTES:
            raise EngineFailure(
                "garbage", f"answered {summary} with a line over {MAX_LINE_BYTES} bytes"
            )
        try:
            reply = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            shown = line.decode("utf-8", "replace").strip()[:80]
            raise EngineFailure(
                "garbage", f"answered {summary} with a line that is not JSON: {shown!r}"
            ) from None
        if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
            raise EngineFailure(
                "garbage",
                f"answered {summary} with {json.dumps(reply)[:80]}, not an object with a "
                "boolean 'ok'",
            )
        if reply.get("op") not in (None, message.get("op")):
            raise EngineFailure(
                "protocol",
                f"answered {summary} with a reply to {reply.get('op')!r} (one reply per "
                "request, in order)",
            )
        return reply

    def _ended(self, when: str) -> EngineFailure:
        process = self._process
        assert process is not None
        try:
            code = process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return EngineFailure("closed", f"closed its output {when}", self.stderr)
        time.sleep(0.05)  # let the stderr reader catch the last lines
        if code == 0:
            return EngineFailure("closed", f"exited with status 0 {when}", self.stderr)
        how = f"killed by signal {-code}" if code < 0 else f"exited with status {code}"
        return EngineFailure("crashed", f"{how} {when}", self.stderr)

    def close(self) -> None:
        """Ask the engine to quit, then kill its process group; never raises, never waits long."""
        process = self._process
        if process is None:
            return
        self._process = None
        if process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write(b'{"op":"quit"}\n')
                process.stdin.flush()
                process.wait(timeout=0.5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        for thread in self._threads:
            thread.join(timeout=1.0)


def _summary(message: dict[str, Any]) -> str:
    op = message.get("op")
    if op == "apply":
        action = str(message.get("action", ""))
        return f"'apply {action[:40]}{'...' if len(action) > 40 else ''}'"
    return f"'{op}'"


__all__ = ["STDERR_LINES", "EngineFailure", "ForeignEngine"]
