"""Golden records: replayed in CI, and regenerated to prove behaviour has not drifted."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tajmahal.components import default_components
from tajmahal.trace import read_record, verify

ROOT = Path(__file__).resolve().parent.parent


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_golden", ROOT / "tools" / "make_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_golden"] = module
    spec.loader.exec_module(module)
    return module


make_golden = _load_tool()
GAMES: tuple[tuple[str, int, int], ...] = make_golden.GOLDEN_GAMES


@pytest.mark.clause("TM.TURN.TWELVE_VISITS", "TM.END.AFTER_TWELVE", "TM.END.WINNER")
@pytest.mark.parametrize(("name", "players", "seed"), GAMES)
def test_golden_record_verifies(name: str, players: int, seed: int) -> None:
    record = read_record(ROOT / "specs" / "traces" / name)
    final = verify(record, default_components(), name)
    assert record.players == players
    assert final.visit == 12 and final.is_over
    assert record.final_scores == final.scores


@pytest.mark.parametrize(("name", "players", "seed"), GAMES)
def test_golden_record_regenerates_identically(name: str, players: int, seed: int) -> None:
    expected = (ROOT / "specs" / "traces" / name).read_text(encoding="utf-8")
    assert make_golden.golden_text(players, seed) == expected, (
        f"{name} no longer regenerates identically: review the behaviour change and run "
        "tools/make_golden.py"
    )
