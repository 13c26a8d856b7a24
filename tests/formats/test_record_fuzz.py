"""Fuzzing game records: any damaged record gets a clear error, never a traceback.

A real record is damaged at random places by :func:`tajmahal.testing.strategies.damaged_records` (a
value replaced by arbitrary JSON, a key deleted, an action string rewritten, steps
dropped or swapped). Reading and verifying it must then either succeed or raise one of
the package's own errors, whose message names where the problem is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings

from depth import depth
from tajmahal.errors import TajMahalError
from tajmahal.model import default_components
from tajmahal.records import record_from_json, verify
from tajmahal.testing.strategies import damaged_records

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "specs" / "traces" / "seeded-3p-001.json").read_text())
# Only the steps whose values damaged_records samples (the first two, the middle one and
# the last) keep their digests, clauses and tags: replaying the others then costs no
# digest, so each example stays cheap.
_KEPT = {0, 1, len(GOLDEN["steps"]) // 2, len(GOLDEN["steps"]) - 1}
for _index, _step in enumerate(GOLDEN["steps"]):
    if _index not in _KEPT:
        for _field in ("legal_count", "legal_digest", "state_digest", "clauses", "tags"):
            _step.pop(_field, None)
COMPONENTS = default_components()


@settings(max_examples=depth(50, 500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=damaged_records(GOLDEN))
def test_a_damaged_record_gives_a_clear_error(document: Any) -> None:
    try:
        record = record_from_json(document, "fuzzed.json")
        verify(record, COMPONENTS, "fuzzed.json")
    except TajMahalError as error:
        assert str(error).startswith("fuzzed.json")
