"""The client side of the engine protocol: another engine run as a child process.

:class:`ForeignEngine` starts a command, speaks protocol version 1 to it over its
standard input and output (see :mod:`tajmahal.conformance` and ``docs/protocol.md``), and
turns every way a child can misbehave into an :class:`EngineFailure` with a clear
message: it crashed or exited (its exit status and the end of its standard error), it
hung (no reply within the per-request timeout), it printed garbage (a line that is not a
JSON object with a boolean ``ok``, read as strictly as a file), or it closed its output
early.

Nothing here waits longer than the timeout, whatever the child does: the child's pipes
are read and written without blocking, in this thread (no reader threads), by one loop
that also watches for the child's exit. So a child that exits while a process it started
still holds its standard output is reported as exited at once, and Ctrl-C interrupts a
wait at any moment. Its standard error is kept bounded: the last
:data:`STDERR_LINES` lines of at most :data:`STDERR_LINE_CHARS` characters each, however
much it writes. The child runs in its own process group, which :meth:`ForeignEngine.close`
kills; a small guard process kills it too when this process ends without closing it
(killed with SIGKILL, say), so no engine outlives the tool that started it.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import time
from types import TracebackType
from typing import Any

from tajmahal.conformance._protocol import MAX_LINE_BYTES, PROTOCOL_VERSION
from tajmahal.errors import TajMahalError
from tajmahal.inputs import InputError, Limits, parse_json

STDERR_LINES = 20
"""How many of the child's last standard-error lines a failure report quotes."""
STDERR_LINE_CHARS = 300
"""Longest standard-error line kept (the rest of a longer line is dropped)."""
REPLY_LIMITS = Limits(MAX_LINE_BYTES)
"""Replies are read under the limits of files (no ``NaN``, no key twice, no lone
surrogate, bounded nesting), with a line of at most :data:`MAX_LINE_BYTES` bytes."""
READ_CHUNK = 64 * 1024
"""Bytes read from a pipe at a time."""
POLL_SECONDS = 0.05
"""How often a wait looks whether the child is still running."""
EXIT_GRACE = 1.0
"""After the child closed its output: how long to wait for its exit status."""

_GUARD = (
    "import os,signal,sys\n"
    "sys.stdin.buffer.read()\n"
    "try:\n"
    " os.killpg(int(sys.argv[1]),signal.SIGKILL)\n"
    "except OSError:\n"
    " pass\n"
)
"""The guard process: it waits for the end of its standard input, whose only writer is
this process, so that the end comes when this process ends, however it ends; then it
kills the engine's process group."""


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


class _StderrTail:
    """The end of the child's standard error, bounded: whole lines cut to
    :data:`STDERR_LINE_CHARS` characters, the last :data:`STDERR_LINES` kept."""

    def __init__(self) -> None:
        self.lines: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self.partial = bytearray()

    def feed(self, data: bytes) -> None:
        *whole, rest = data.split(b"\n")
        for piece in whole:
            self._keep(bytes(self.partial) + piece)
            self.partial.clear()
        room = STDERR_LINE_CHARS * 4 - len(self.partial)  # UTF-8: at most 4 bytes a character
        if room > 0:
            self.partial += rest[:room]

    def _keep(self, line: bytes) -> None:
        text = line.decode("utf-8", "replace").rstrip()
        self.lines.append(text[:STDERR_LINE_CHARS])

    def tail(self) -> tuple[str, ...]:
        last = bytes(self.partial).decode("utf-8", "replace").rstrip()[:STDERR_LINE_CHARS]
        return (*self.lines, last) if last else tuple(self.lines)


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
        self._guard: subprocess.Popen[bytes] | None = None
        self._selector: selectors.BaseSelector | None = None
        self._output = bytearray()
        self._output_ended = False
        self._stderr = _StderrTail()

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
        self._output = bytearray()
        self._output_ended = False
        self._stderr = _StderrTail()
        try:
            process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) else str(error)
            raise TajMahalError(f"--engine: cannot start {argv[0]!r}: {reason}") from None
        self._process = process
        self._guard = _start_guard(process.pid)
        assert process.stdin is not None and process.stdout is not None
        assert process.stderr is not None
        selector = selectors.DefaultSelector()
        for stream in (process.stdin, process.stdout, process.stderr):
            os.set_blocking(stream.fileno(), False)
        selector.register(process.stdout.fileno(), selectors.EVENT_READ, "out")
        selector.register(process.stderr.fileno(), selectors.EVENT_READ, "err")
        self._selector = selector
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

    @property
    def stderr(self) -> tuple[str, ...]:
        """The last lines of the child's standard error."""
        return self._stderr.tail()

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one request and return its reply (an object with a boolean ``ok``)."""
        process = self._process
        if process is None or self._selector is None:
            raise EngineFailure("closed", "the engine is not running")
        summary = _summary(message)
        self.requests += 1
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        deadline = time.monotonic() + self.timeout
        self._send(data, deadline, summary)
        line = self._receive(deadline, summary)
        try:
            reply = parse_json(line.decode("utf-8"), REPLY_LIMITS, "reply")
        except UnicodeDecodeError as error:
            raise EngineFailure(
                "garbage",
                f"answered {summary} with a line that is not JSON (not UTF-8 at byte "
                f"{error.start})",
            ) from None
        except InputError as error:
            shown = line.decode("utf-8", "replace").strip()[:80]
            reason = f"{error.field}: {error.detail}" if error.field else error.detail
            raise EngineFailure(
                "garbage", f"answered {summary} with a line that is not JSON ({reason}): {shown!a}"
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

    # -- moving bytes -----------------------------------------------------------------

    def _send(self, data: bytes, deadline: float, summary: str) -> None:
        """Write ``data`` to the child's standard input, reading its output meanwhile
        (a child that writes before it reads must not block us both)."""
        process = self._process
        selector = self._selector
        assert process is not None and process.stdin is not None and selector is not None
        stdin = process.stdin.fileno()
        view = memoryview(data)
        selector.register(stdin, selectors.EVENT_WRITE, "in")
        try:
            while view:
                for key, _ in self._wait(deadline, summary, "read"):
                    if key.data != "in":
                        self._read(key)
                        continue
                    try:
                        written = os.write(stdin, view[:READ_CHUNK])
                    except BlockingIOError:
                        continue
                    except OSError:  # the child closed its input (or exited)
                        raise self._ended(f"before reading {summary}") from None
                    view = view[written:]
        finally:
            selector.unregister(stdin)

    def _receive(self, deadline: float, summary: str) -> bytes:
        """The next line of the child's standard output (a reply), within the deadline."""
        while True:
            end = self._output.find(b"\n")
            if end >= 0:
                line = bytes(self._output[: end + 1])
                del self._output[: end + 1]
                return line
            if len(self._output) > MAX_LINE_BYTES:
                raise EngineFailure(
                    "garbage", f"answered {summary} with a line over {MAX_LINE_BYTES} bytes"
                )
            if self._output_ended:
                raise self._ended(f"instead of answering {summary}")
            for key, _ in self._wait(deadline, summary, "answer"):
                self._read(key)

    def _wait(
        self, deadline: float, summary: str, doing: str
    ) -> list[tuple[selectors.SelectorKey, int]]:
        """The pipes ready now, waiting at most until ``deadline``; a child that has
        exited (even if another process still holds its pipes) or a deadline passed is
        an :class:`EngineFailure`."""
        process = self._process
        selector = self._selector
        assert process is not None and selector is not None
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EngineFailure(
                    "hung",
                    f"no reply to {summary} within {self.timeout:g} s"
                    if doing == "answer"
                    else f"did not read {summary} within {self.timeout:g} s",
                    self.stderr,
                )
            ready = selector.select(min(remaining, POLL_SECONDS))
            if process.poll() is None:
                if ready:
                    return ready
                continue
            # The child has exited; a process it started may still hold its pipes open,
            # so their end is not awaited: what they hold now is all there is.
            for key, _ in ready:
                if key.data != "in":
                    self._read(key)
            self._drain()
            if b"\n" in self._output:
                return []
            raise self._ended(
                f"instead of answering {summary}"
                if doing == "answer"
                else f"before reading {summary}"
            )

    def _read(self, key: selectors.SelectorKey) -> None:
        """Read what one pipe holds now (at most one chunk)."""
        assert isinstance(key.fd, int)
        try:
            data = os.read(key.fd, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if key.data == "out":
            if data:
                self._output += data
                if len(self._output) > 2 * MAX_LINE_BYTES:
                    raise EngineFailure(
                        "garbage",
                        f"wrote over {2 * MAX_LINE_BYTES} bytes to its standard output without "
                        f"a request for them (a reply is one line of at most {MAX_LINE_BYTES} "
                        "bytes)",
                    )
            else:
                self._output_ended = True
                self._unregister(key.fd)
        elif data:
            self._stderr.feed(data)
        else:
            self._unregister(key.fd)

    def _drain(self) -> None:
        """Read everything the pipes hold now, without waiting (after the child exited)."""
        selector = self._selector
        assert selector is not None
        for _ in range(MAX_LINE_BYTES // READ_CHUNK + 2):
            ready = selector.select(0)
            if not ready:
                return
            for key, _ in ready:
                if key.data != "in":
                    self._read(key)

    def _unregister(self, fd: int) -> None:
        assert self._selector is not None
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(fd)

    def _ended(self, when: str) -> EngineFailure:
        """The failure of a child that closed its output or its input: its exit status
        once it has one (within :data:`EXIT_GRACE`), with the end of its stderr."""
        process = self._process
        assert process is not None
        grace = time.monotonic() + min(EXIT_GRACE, self.timeout)
        while process.poll() is None and time.monotonic() < grace:
            time.sleep(POLL_SECONDS)
        self._drain()
        code = process.poll()
        if code is None:
            return EngineFailure("closed", f"closed its output {when}", self.stderr)
        if code == 0:
            return EngineFailure("closed", f"exited with status 0 {when}", self.stderr)
        how = f"killed by signal {-code}" if code < 0 else f"exited with status {code}"
        return EngineFailure("crashed", f"{how} {when}", self.stderr)

    # -- ending -----------------------------------------------------------------------

    def close(self) -> None:
        """Ask the engine to quit, then kill its process group; never raises, never
        waits long (at most about half a second for the engine to quit by itself)."""
        process = self._process
        if process is None:
            return
        self._process = None
        try:
            if process.poll() is None and process.stdin is not None:
                with contextlib.suppress(OSError, ValueError):
                    os.write(process.stdin.fileno(), b'{"op":"quit"}\n')
                quitting = time.monotonic() + 0.5
                while process.poll() is None and time.monotonic() < quitting:
                    time.sleep(0.01)
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)
            if self._selector is not None:
                self._selector.close()
                self._selector = None
            for stream in (process.stdin, process.stdout, process.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError, ValueError):
                        stream.close()
            _stop_guard(self._guard)
            self._guard = None


def _start_guard(pgid: int) -> subprocess.Popen[bytes] | None:
    """Start the guard that kills process group ``pgid`` when this process ends without
    closing the engine (see :data:`_GUARD`); None where it cannot start."""
    try:
        return subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _GUARD, str(pgid)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # not stopped by the terminal's Ctrl-C before its work
        )
    except OSError:
        return None


def _stop_guard(guard: subprocess.Popen[bytes] | None) -> None:
    """End the guard of an engine already killed (it has nothing left to do)."""
    if guard is None:
        return
    with contextlib.suppress(OSError):
        guard.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        guard.wait(timeout=5)
    if guard.stdin is not None:
        with contextlib.suppress(OSError):
            guard.stdin.close()


def _summary(message: dict[str, Any]) -> str:
    op = message.get("op")
    if op == "apply":
        action = str(message.get("action", ""))
        return f"'apply {action[:40]}{'...' if len(action) > 40 else ''}'"
    return f"'{op}'"


__all__ = ["STDERR_LINES", "EngineFailure", "ForeignEngine"]
