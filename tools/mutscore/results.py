"""mutmut's results as it leaves them in ``mutants/``: every mutant's status, the run log,
and which mutants a run of some globs still owes.

Apart from the survivors' classification and the page: this is the only module that knows
mutmut's file layout and exit codes.
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MUTANTS = ROOT / "mutants"
SOURCE = MUTANTS / "src"
RUNS = MUTANTS / "runs.log"

STATUS_BY_EXIT_CODE: dict[int | None, str] = {
    1: "killed",
    3: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    2: "interrupted",
    None: "not checked",
    34: "skipped",
    35: "suspicious",
    36: "timeout",
    37: "type check",
    -24: "timeout",
    24: "timeout",
    152: "timeout",
    255: "timeout",
    -11: "segfault",
    -9: "segfault",
}
"""mutmut 3.8's reading of a mutant's exit code (``mutmut.stats.status_by_exit_code``)."""


@dataclass(frozen=True)
class Mutant:
    """One mutant as mutmut left it."""

    name: str
    """mutmut's name, e.g. ``tajmahal.engine._scoring.x_wins_majority__mutmut_2``."""
    module: str
    """The dotted module, e.g. ``tajmahal.engine``."""
    status: str
    """Its status (:data:`STATUS_BY_EXIT_CODE`)."""
    seconds: float
    """How long its test run took."""


def module_of(meta: Path) -> str:
    """``mutants/src/tajmahal/engine/__init__.py.meta`` -> ``tajmahal.engine``."""
    relative = meta.relative_to(SOURCE).as_posix().removesuffix(".py.meta")
    return relative.removesuffix("/__init__").replace("/", ".")


def read_mutants() -> list[Mutant]:
    """Every mutant of every ``.meta`` file under ``mutants/src``."""
    mutants: list[Mutant] = []
    for meta in sorted(SOURCE.rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        durations = data.get("durations_by_key", {})
        for name, code in sorted(data["exit_code_by_key"].items()):
            status = STATUS_BY_EXIT_CODE.get(code, "suspicious")
            mutants.append(Mutant(name, module_of(meta), status, durations.get(name, 0.0)))
    return mutants


def read_runs() -> list[tuple[int, int, int, str]]:
    """The runs ``make mutation`` logged in ``mutants/runs.log``, one a line: start and end
    (Unix seconds), how many mutants it ran, and its arguments."""
    if not RUNS.exists():
        return []
    runs = []
    for line in RUNS.read_text(encoding="utf-8").splitlines():
        start, end, count, what = line.split(" ", 3)
        runs.append((int(start), int(end), int(count), what))
    return runs


def pending(patterns: list[str], retest: bool, again: bool = False) -> list[str]:
    """What ``mutmut run`` should be given to run the shard ``patterns`` resumably.

    mutmut re-runs every mutant it is given by name or glob, so a shard is resumed by
    naming only its mutants that have no result yet (or whose function changed, which
    mutmut resets), and the survivors too when ``retest``, with the mutants found untested
    (mutmut learns which tests reach a function only when it collects its statistics,
    so a function added since has none: ``make mutation RETEST=1`` collects them
    afresh). With ``again``, every mutant of the shard: a killed mutant keeps its result
    while its function is unchanged, even when a change elsewhere stops the tests from
    reaching it (a caller taking another path). Before the first run there are no
    results: the globs themselves.
    """
    if not SOURCE.is_dir() or not any(SOURCE.rglob("*.py.meta")):
        return patterns
    wanted = ("not checked", "survived", "no tests") if retest else ("not checked",)
    return [
        mutant.name
        for mutant in read_mutants()
        if (again or mutant.status in wanted)
        and any(fnmatch.fnmatchcase(mutant.name, p) for p in patterns)
    ]


def count_matching(patterns: list[str]) -> int:
    """How many mutants the names or globs ``patterns`` stand for, once mutmut has
    generated them: what a run of those patterns ran (the run log's count; a glob given
    before the first run is one pattern but hundreds of mutants)."""
    return sum(
        any(fnmatch.fnmatchcase(mutant.name, p) for p in patterns) for mutant in read_mutants()
    )
