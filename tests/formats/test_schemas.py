"""The published schemas (specs/schemas): valid schemas, and the files we ship and the
documents we write conform to them.

No clause markers: these tests check published formats, not rules.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tajmahal.cli import main
from tajmahal.inputs import first_violation, schema, schema_names, validator
from tajmahal.model import COMPONENT_FILES

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "reference" / "tajmahal" / "data"

COMPONENT_SCHEMAS = {
    "cards.json": "components-cards",
    "specials.json": "components-specials",
    "province_tiles.json": "components-province-tiles",
    "bonus_tiles.json": "components-bonus-tiles",
    "board.json": "components-board",
}


def _data(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def test_every_schema_is_a_valid_2020_12_schema_with_its_file_name_as_id() -> None:
    assert {"trace", "trace-v1", "position", *COMPONENT_SCHEMAS.values()} <= set(schema_names())
    for name in schema_names():
        document = schema(name)
        type(validator(name)).check_schema(document)
        assert document["$id"].endswith(f"/specs/schemas/{name}.schema.json")


def test_every_component_file_has_a_schema() -> None:
    assert set(COMPONENT_SCHEMAS) == set(COMPONENT_FILES)


@pytest.mark.parametrize(("file", "name"), sorted(COMPONENT_SCHEMAS.items()))
def test_shipped_component_files_conform(file: str, name: str) -> None:
    assert first_violation(name, _data(file)) is None


@pytest.mark.parametrize(
    ("file", "name", "path", "value", "field"),
    [
        ("cards.json", "components-cards", ("cards", 0, "colour"), "purple", "cards[0].colour"),
        ("cards.json", "components-cards", ("cards", 90, "symbols"), [], "cards[90].symbols"),
        ("specials.json", "components-specials", ("specials", 1, "kind"), "x", "specials[1].kind"),
        (
            "province_tiles.json",
            "components-province-tiles",
            ("tiles", 3, "number"),
            13,
            "tiles[3].number",
        ),
        ("bonus_tiles.json", "components-bonus-tiles", ("tiles", 2, "id"), "bad id", "tiles[2].id"),
        ("board.json", "components-board", ("cities", 4, "fortress"), "yes", "cities[4].fortress"),
    ],
)
def test_damaged_component_files_are_refused_at_the_field(
    file: str, name: str, path: tuple[Any, ...], value: Any, field: str
) -> None:
    document = copy.deepcopy(_data(file))
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    violation = first_violation(name, document)
    assert violation is not None
    assert violation.field == field


def test_positions_written_by_the_command_line_conform(
    capsys: pytest.CaptureFixture[str],
) -> None:
    trace = ROOT / "specs" / "traces" / "seeded-4p-001.json"
    for step in (0, 1, 57, 200):
        assert main(["position", str(trace), "--step", str(step)]) == 0
        document = json.loads(capsys.readouterr().out)
        assert first_violation("position", document) is None, step
    document["seats"][0]["score"] = "12"
    violation = first_violation("position", document)
    assert violation is not None and violation.field == "seats[0].score"
