"""docs/trace-format.md is implementable from itself: its examples are real records, its
digest reference reproduces the recorded digests, and it documents every field and tag
of the schema.

No clause markers: these tests check the published format's documentation.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tajmahal.model import COMPONENT_FILES, default_components
from tajmahal.notation import state_to_json
from tajmahal.records import TAGS as EDGE_TAGS
from tajmahal.records import read_record, replay_steps

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "trace-format.md").read_text(encoding="utf-8")
SCHEMA = json.loads((ROOT / "specs" / "schemas" / "trace.schema.json").read_text("utf-8"))
DATA = ROOT / "reference" / "tajmahal" / "data"


def _section(start: str, end: str) -> str:
    return DOC.split(start, 1)[1].split(end, 1)[0]


def _reference() -> dict[str, Any]:
    block = _section("<!-- digest-reference -->", "## ").split("```python", 1)[1]
    namespace: dict[str, Any] = {}
    exec(block.split("```", 1)[0], namespace)
    return namespace


def test_the_example_steps_are_those_of_the_named_record() -> None:
    match = re.search(r"<!-- example-steps: (\S+) -->", DOC)
    assert match is not None
    document = json.loads((ROOT / "specs" / "traces" / match.group(1)).read_text("utf-8"))
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in _section(match.group(0), "<!-- end-example-steps -->").splitlines()
        if line.startswith("| ") and not line.startswith("| step")
    ]
    assert len(rows) >= 4
    for number, actor, action, scores in rows:
        step = document["steps"][int(number) - 1]  # step N is steps[N-1]
        assert str(step["actor"]) == actor
        assert step["action"] == action
        assert step["scores"] == json.loads(scores)


def test_the_digest_reference_reproduces_a_full_record() -> None:
    reference = _reference()
    path = ROOT / "specs" / "traces" / "full-3p.json"
    record = read_record(path)
    documents = {
        name: json.loads((DATA / name).read_text(encoding="utf-8")) for name in COMPONENT_FILES
    }
    digest = reference["components_digest"](documents)
    assert digest == record.components_digest == default_components().digest
    assert digest in DOC
    for replayed in replay_steps(record, default_components(), str(path)):
        step = record.steps[replayed.index]
        assert reference["state_digest"](state_to_json(replayed.after)) == step.state_digest
        if step.legal is not None:
            assert reference["legal_digest"](list(reversed(step.legal))) == step.legal_digest


def test_every_field_and_tag_of_the_schema_is_documented() -> None:
    for field in SCHEMA["properties"]:
        assert f"| `{field}` |" in DOC or f"`{field}`" in DOC.split("## Steps")[0], field
    steps_table = _section("## Steps", "Actions (")
    for field in SCHEMA["$defs"]["step"]["properties"]:
        assert f"| `{field}` |" in steps_table, field
    tags_table = _section("## Edge tags", "## Versions")
    documented = re.findall(r"^\| `([a-z-]+)` \|", tags_table, flags=re.MULTILINE)
    assert documented == list(EDGE_TAGS) == SCHEMA["$defs"]["tag"]["enum"]


def test_every_field_of_the_position_document_is_documented() -> None:
    position = json.loads(
        (ROOT / "specs" / "schemas" / "position.schema.json").read_text(encoding="utf-8")
    )
    section = _section("## The position document", "## Public position")
    for field in position["properties"]:
        assert f"| `{field}` |" in section, field
    for field in position["$defs"]["seat_state"]["properties"]:
        assert f"`{field}`" in section, field
    for definition in ("withdrawal", "draw"):
        shape = next(s for s in position["$defs"][definition]["anyOf"] if s.get("properties"))
        for field in shape["properties"]:
            assert f"`{field}`" in section, (definition, field)
