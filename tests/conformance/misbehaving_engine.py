"""An engine that misbehaves on purpose, for testing how ``tajmahal diff`` reports it.

``python tests/conformance/misbehaving_engine.py MODE PIDFILE``: writes its process id to PIDFILE,
answers ``hello`` correctly, then at the first ``new`` request does what MODE says:
``crash`` (a message on stderr, exit status 3), ``hang`` (never answers), ``garbage`` (a
line that is not JSON), ``close`` (exits with status 0, no reply), ``shapeless`` (a JSON
line that is not a reply), ``chatty`` (a second ``hello`` reply). With ``refuse`` it
refuses the handshake itself; with ``components`` it names another component set in it.
Imports nothing from the package, so it starts fast.
"""

from __future__ import annotations

import json
import os
import sys
import time


def main(mode: str, pidfile: str) -> int:
    with open(pidfile, "w", encoding="utf-8") as stream:
        stream.write(str(os.getpid()))
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("op") == "hello":
            if mode == "refuse":
                reply = {
                    "ok": False,
                    "op": "hello",
                    "error": "unsupported-protocol",
                    "message": "no",
                }
            else:
                reply = {"ok": True, "op": "hello", "protocol": 1, "engine": f"misbehaving {mode}"}
                if mode == "components":
                    reply["components"] = "sha256:" + "0" * 64
            print(json.dumps(reply), flush=True)
            continue
        if request.get("op") == "quit":
            return 0
        if mode == "crash":
            print("engine panic: cannot set up the board", file=sys.stderr, flush=True)
            return 3
        if mode == "hang":
            time.sleep(3600)
        if mode == "garbage":
            print("Welcome to my Taj Mahal engine!", flush=True)
        if mode == "shapeless":
            print(json.dumps([1, 2, 3]), flush=True)
        if mode == "close":
            return 0
        if mode == "chatty":
            print(json.dumps({"ok": True, "op": "hello", "protocol": 1}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
