"""The reference behind the engine protocol, as an engine that cannot write the
canonical state document: every ``state_digest`` it gives is a digest of its own (all
zeros here) and ``state`` with ``full`` is unsupported. It plays every rule right, so
``tajmahal fuzz --engine ... --compare legal,scores`` must find nothing.

``python tests/fuzz/stateless_engine.py`` serves it on standard input and output.
"""

from __future__ import annotations

import sys
from typing import Any

from tajmahal.conformance import Session, serve

OWN_DIGEST = "sha256:" + "0" * 64


class StatelessSession(Session):
    """A session whose replies carry no canonical state digest."""

    def handle(self, request: Any) -> dict[str, Any]:
        if isinstance(request, dict) and request.get("op") == "state" and request.get("full"):
            return {
                "ok": False,
                "op": "state",
                "error": "unsupported",
                "message": "this engine does not write the state document",
            }
        reply = super().handle(request)
        if "state_digest" in reply:
            reply["state_digest"] = OWN_DIGEST
        return reply


if __name__ == "__main__":
    sys.exit(serve(sys.stdin.buffer, sys.stdout.buffer, StatelessSession()))
