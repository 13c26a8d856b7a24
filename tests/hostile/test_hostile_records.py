"""Records generated from the published schema (``hypothesis-jsonschema``).

Every document the schema allows is either replayed or refused with one line and exit
code 1 or 2, never a traceback. Half the generated records get the real component
digest and a real setup, so that the generated steps themselves are replayed. ``make
check`` generates a few records of at most two steps without public positions;
``make hostile`` many records from the whole schema.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from hostile.support import DEEP, HOSTILE, check_outcome
from tajmahal.agents import RandomPlayer, play_match
from tajmahal.cli import main
from tajmahal.model import default_components
from tajmahal.records import record_to_json

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = next(
    path
    for path in (
        ROOT / "specs" / "schemas" / "trace.schema.json",
        ROOT / "specs" / "trace.schema.json",
    )
    if path.exists()
)


def bundled(path: Path) -> dict[str, Any]:
    """The schema at ``path`` with the definitions it takes from sibling schema files
    (``position.schema.json#/$defs/seat``) copied in under ``$defs`` and every reference
    made local, since ``hypothesis-jsonschema`` resolves local references only."""
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    definitions: dict[str, Any] = schema.setdefault("$defs", {})
    pending: list[tuple[Any, str]] = [(schema, "")]
    while pending:
        node, home = pending.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in list(items):
            if key == "$ref" and isinstance(value, str):
                file, _, pointer = value.partition("#")
                origin = file or home
                if origin:
                    name = pointer.removeprefix("/$defs/")
                    local = f"{origin.removesuffix('.schema.json')}.{name}"
                    if local not in definitions:
                        other = json.loads((path.parent / origin).read_text(encoding="utf-8"))
                        definitions[local] = other["$defs"][name]
                        pending.append((definitions[local], origin))
                    node[key] = f"#/$defs/{local}"
            elif isinstance(value, dict | list):
                pending.append((value, home))
    return schema


def light(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with at most two steps, none with a public position: generating a
    step's public position (and many steps) is what makes a full-schema example cost
    seconds (``make check`` generates from this one, the deep runs from the full one)."""
    lighter: dict[str, Any] = json.loads(json.dumps(schema))
    lighter["properties"]["steps"]["maxItems"] = 2
    del lighter["$defs"]["step"]["properties"]["public"]
    return lighter


SCHEMA = bundled(SCHEMA_PATH)
GENERATED = SCHEMA if DEEP else light(SCHEMA)
"""The schema the records are generated from."""
COMPONENTS = default_components()
REAL = record_to_json(
    play_match(COMPONENTS, [RandomPlayer(seat) for seat in range(3)], seed=9).record
)
COMMANDS = (("verify",), ("replay", "--quiet"), ("position", "--step", "3"))


@settings(parent=HOSTILE, max_examples=HOSTILE.max_examples if DEEP else 4)
@given(document=from_schema(GENERATED), realistic=st.booleans(), command=st.sampled_from(COMMANDS))
def test_schema_records_replay_or_are_refused_in_one_line(
    document: dict[str, Any],
    realistic: bool,
    command: tuple[str, ...],
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if realistic:
        document = {
            **document,
            "players": REAL["players"],
            "components": REAL["components"],
            "setup": REAL["setup"],
        }
    path = tmp_path_factory.mktemp("schema") / "record.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    code = main([*command, str(path)])
    check_outcome(code, capsys.readouterr().err, {0, 1, 2})


@HOSTILE
@given(
    steps=st.lists(
        st.fixed_dictionaries(
            {
                "actor": st.sampled_from([0, 1, 2, "chance"]),
                "action": st.sampled_from(
                    ["withdraw", "play red-01", "take", "crown Agra", "palace C3", "reshuffle"]
                )
                | st.text(max_size=30),
            }
        ),
        max_size=30,
    )
)
def test_real_setup_with_generated_steps_is_refused_in_one_line(
    steps: list[dict[str, Any]],
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    prefix = REAL["steps"][:20]
    document = {**REAL, "steps": [*prefix, *steps]}
    document.pop("result")
    path = tmp_path_factory.mktemp("steps") / "record.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    for command in COMMANDS:
        code = main([*command, str(path)])
        check_outcome(code, capsys.readouterr().err, {0, 1, 2})
