"""The verifier's benchmark compares this checkout with another one in alternation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "specs" / "traces"


def test_the_benchmark_compares_with_another_checkout(capsys: pytest.CaptureFixture[str]) -> None:
    """This checkout against itself, copied under another name: both verify the same
    record and give the same digest."""
    import bench_verify

    record = str(sorted(CORPUS.glob("*.json"))[0])
    assert bench_verify.main(["--against", str(ROOT), "--runs", "2", record]) == 0
    printed = capsys.readouterr().out
    digests = re.findall(r"digest (sha256:[0-9a-f]{16})", printed)
    assert len(digests) == 2 and digests[0] == digests[1]
    assert "per-run ratios" in printed


def test_the_benchmark_prints_the_corpus_digest(capsys: pytest.CaptureFixture[str]) -> None:
    import bench_verify

    assert bench_verify.main(["--runs", "1"]) == 0
    printed = capsys.readouterr().out
    assert "113 records, 18381 steps" in printed
    assert "digest sha256:916e5e2f20b1f457" in printed
