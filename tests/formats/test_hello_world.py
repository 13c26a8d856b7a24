"""The hand-written hello-world record (specs/examples/hello-world.json) verifies, holds
only what its page says (actor, action and scores), and docs/conformance.md explains
exactly its steps.

No clause markers: these tests check a published example.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tajmahal.model import default_components
from tajmahal.records import read_record, verify

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")


def test_the_hello_world_record_verifies_as_a_fragment() -> None:
    match = re.search(r"<!-- hello-world: (\S+) -->", PAGE)
    assert match is not None
    path = ROOT / match.group(1)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert "result" not in document
    assert all(set(step) == {"actor", "action", "scores"} for step in document["steps"])
    state = verify(read_record(path), default_components(), str(path))
    assert (state.visit, state.to_move, state.scores) == (2, 1, (3, 0, 2))
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in PAGE.split(match.group(0), 1)[1]
        .split("<!-- end-hello-world -->")[0]
        .splitlines()
        if line.startswith("| ") and not line.startswith("| step")
    ]
    assert len(rows) == len(document["steps"]) == 10
    for number, (step, row) in enumerate(zip(document["steps"], rows, strict=True), start=1):
        assert row[:4] == [str(number), str(step["actor"]), step["action"], str(step["scores"])]
