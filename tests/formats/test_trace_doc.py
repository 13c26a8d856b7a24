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


def _recipe(value: float) -> str:
    """A coordinate as "Numbers in the component files" says to write it, from the value."""
    k = round(value * 1000)
    fraction = f"{abs(k) % 1000:03d}".rstrip("0") or "0"
    return f"{'-' if k < 0 else ''}{abs(k) // 1000}.{fraction}"


def test_the_coordinate_recipe_is_what_the_digest_writes() -> None:
    """The digest writes a coordinate as Python's json.dumps writes the float k / 1000; the
    page's language-neutral recipe gives the same text for every such value (all of
    -20 to 20 by thousandths, the ends of the range, and a spread between)."""
    reference = _reference()
    assert "three digits with the trailing zeros removed" in " ".join(DOC.split())
    values = [k / 1000 for k in range(-20000, 20001)]
    values += [k / 1000 for k in range(-(10**9), 10**9 + 1, 999_983)]
    values += [1e6, -1e6, 0.001, -0.001, 11, 1.1e1, 0.6, -3.125, -0.0]
    for value in values:
        written = json.dumps(reference["coordinate"](value))
        assert written == _recipe(value), value
        assert "e" not in written
    assert json.dumps(reference["coordinate"](-0.0)) == "0.0"


LIFE_RECORDS = (
    "full-3p.json",
    "edge-reshuffle-mid-withdrawal-1.json",
    "edge-card-bonus-empty-deck-1.json",
    "edge-unplaceable-palace-1.json",
    "scenario-unplaceable-crown-3p.json",
)
"""Records whose withdrawals go through every phase: placements, forfeits, a reshuffle
for a card bonus tile or the extra card, takes and the last seat's automatic take."""


def test_the_life_of_a_withdrawal_is_what_the_page_says() -> None:
    """ "The life of a withdrawal": when withdrawal is null, what each kind of step shows,
    and province_won kept (and held once scored) until the withdrawal is over."""
    assert "**stays in `province_won` as well**" in " ".join(DOC.split())
    for name in LIFE_RECORDS:
        path = ROOT / "specs" / "traces" / name
        for replayed in replay_steps(read_record(path), default_components(), str(path)):
            before, after = state_to_json(replayed.before), state_to_json(replayed.after)
            withdrawal, step = after["withdrawal"], after["step"]
            where = (name, replayed.index + 1)
            if step in ("play", "over"):
                assert withdrawal is None, where
            elif step == "shuffle":
                reason = after["draw"]["reason"]
                assert (withdrawal is not None) == (reason != "display"), where
            else:
                assert withdrawal is not None, where
                owes = withdrawal["palaces_owed"] > 0 or withdrawal["crown_owed"]
                assert (withdrawal["scored"], owes) == (step == "take", step == "place"), where
            if withdrawal is None:
                continue
            seat, tile = withdrawal["seat"], withdrawal["province_won"]
            if tile is not None:
                holders = [
                    s for s, doc in enumerate(after["seats"]) if tile in doc["province_tiles"]
                ]
                assert holders == ([seat] if withdrawal["scored"] else []), where
                assert after["court_province_tile"] is None, where
            earlier = before["withdrawal"]
            if earlier is not None and earlier["seat"] == seat:
                assert earlier["province_won"] == tile, where
                placed = earlier["placed"] + [str(replayed.action).split()[1]] * (
                    str(replayed.action).split()[0] in ("palace", "crown")
                )
                assert withdrawal["placed"] == placed, where
                assert not earlier["scored"] or withdrawal["scored"], where
