"""An engine written in Python, spoken to in the engine protocol without a child process.

:class:`LocalEngine` answers every request with a :class:`tajmahal.conformance.Session`
in this process, with each message and reply passed through JSON as they would travel
over a pipe. It stands wherever a :class:`tajmahal.conformance.ForeignEngine` is
expected (``run_diff(engine=...)``, shrinking, the hypotheses), so that a Python engine
(or an entry of the catalogue of misreadings) is checked without starting a process: a
faster loop for tests and for ``make diff``. What a child process can do wrong (crash,
hang, print garbage) cannot happen here; that is what ``ForeignEngine`` is for.
"""

from __future__ import annotations

import json
from typing import Any

from tajmahal.conformance._foreign import EngineFailure, ForeignEngine
from tajmahal.conformance._protocol import PROTOCOL_VERSION, Engine, Session
from tajmahal.model import Components


class LocalEngine(ForeignEngine):
    """A :class:`Session` in this process behind the :class:`ForeignEngine` interface."""

    def __init__(self, engine: Engine, components: Components | None = None) -> None:
        super().__init__(f"(in this process: {engine.name})")
        self.engine = engine
        """The engine functions the session answers with."""
        self.components = components
        """The component set it plays with (the default set when None)."""
        self._session: Session | None = None

    def start(self) -> dict[str, Any]:
        """Open a new session and shake hands; returns the ``hello`` reply."""
        self._session = Session(self.components, self.engine)
        reply = self.request({"op": "hello", "protocol": PROTOCOL_VERSION})
        self.name = str(reply.get("engine", ""))
        return reply

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Answer one request (passed through JSON both ways)."""
        session = self._session
        if session is None:
            raise EngineFailure("closed", "the engine is not running")
        self.requests += 1
        reply = session.handle(json.loads(json.dumps(message)))
        decoded: dict[str, Any] = json.loads(json.dumps(reply, ensure_ascii=False))
        return decoded

    def close(self) -> None:
        """End the session."""
        self._session = None


__all__ = ["LocalEngine"]
