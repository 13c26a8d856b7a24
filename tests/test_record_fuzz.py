"""Fuzzing game records: any damaged record gets a clear error, never a traceback.

A real record is damaged at random places by :func:`tajmahal.testing.damaged_records` (a
value replaced by arbitrary JSON, a key deleted, an action string rewritten, steps
dropped or swapped). Reading and verifying it must then either succeed or raise one of
the package's own errors, whose message names where the problem is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings

from tajmahal.components import default_components
from tajmahal.errors import TajMahalError
from tajmahal.testing import damaged_records
from tajmahal.trace import record_from_json, verify

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = json.loads((ROOT / "specs" / "traces" / "golden-3p-seed11.json").read_text())
COMPONENTS = default_components()


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=damaged_records(GOLDEN))
def test_a_damaged_record_gives_a_clear_error(document: Any) -> None:
    try:
        record = record_from_json(document, "fuzzed.json")
        verify(record, COMPONENTS, "fuzzed.json")
    except TajMahalError as error:
        assert str(error).startswith("fuzzed.json")
