"""The mutation report's inputs: the survivors file is well formed; fingerprints are stable."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mutscore import changes, results, survivors

MUTATED = """
def x_score__mutmut_orig(points: int) -> int:
    return points + 1


def x_score__mutmut_1(points: int) -> int:
    return points - 1


def x_score__mutmut_2(points: int) -> int:
    return points + 2
"""


def test_the_survivors_file_is_well_formed() -> None:
    entries = survivors.read_classified()
    assert entries, "specs/mutation/survivors.toml lists no survivor"
    for fingerprint, entry in entries.items():
        assert re.fullmatch(r"[0-9a-f]{16}", fingerprint)
        assert entry.kind in survivors.CLASSES
        assert entry.reason and entry.line
        assert re.fullmatch(r"tajmahal(\.\w+)+\.x[_ǁ]\S+__mutmut_\d+", entry.mutant)


def test_fingerprints_follow_the_changed_line_not_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(changes, "SOURCE", tmp_path)
    (tmp_path / "tajmahal" / "engine").mkdir(parents=True)
    module = tmp_path / "tajmahal" / "engine" / "_scoring.py"
    module.write_text(MUTATED, encoding="utf-8")
    first = changes.changes_of("tajmahal.engine._scoring")
    change = first["tajmahal.engine._scoring.x_score__mutmut_1"]
    assert (change.removed, change.added) == (("return points + 1",), ("return points - 1",))
    # Moved down the file and renumbered, the same change keeps its fingerprint.
    moved = "\n\n# a comment\n" + MUTATED.replace("__mutmut_1", "__mutmut_7")
    module.write_text(moved, encoding="utf-8")
    second = changes.changes_of("tajmahal.engine._scoring")
    assert second["tajmahal.engine._scoring.x_score__mutmut_7"].fingerprint == change.fingerprint
    assert second["tajmahal.engine._scoring.x_score__mutmut_2"].fingerprint != change.fingerprint


def test_a_run_is_counted_in_mutants_not_in_patterns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(results, "SOURCE", tmp_path)
    (tmp_path / "tajmahal" / "engine").mkdir(parents=True)
    codes = {f"tajmahal.engine._dispatch.x_score__mutmut_{n}": 1 for n in range(1, 4)}
    codes["tajmahal.engine._dispatch.x_other__mutmut_1"] = 0
    meta = tmp_path / "tajmahal" / "engine" / "__init__.py.meta"
    meta.write_text(json.dumps({"exit_code_by_key": codes}), encoding="utf-8")
    assert results.count_matching(["tajmahal.engine._dispatch.*"]) == 4
    assert results.count_matching(["tajmahal.engine._dispatch.x_score__mutmut_*"]) == 3
    assert results.count_matching(["tajmahal.engine._dispatch.x_other__mutmut_1"]) == 1
    assert results.count_matching(["tajmahal.model._board.*"]) == 0
