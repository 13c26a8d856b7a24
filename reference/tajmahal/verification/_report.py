"""What verifying records finds: the outcome of each file and of a whole run, as values.

A :class:`FileReport` is one file's outcome (``ok``, ``diverged`` or ``bad-input``) with
everything a reader needs about a divergence; a :class:`Report` gathers the files, gives
the exit code and the one-line summary. These values are what the verifier produces
(:mod:`tajmahal.verification`), what the worker processes send back
(:mod:`tajmahal.verification`) and what the renderings read
(:mod:`tajmahal.verification`), so they live apart from all three. The names are
imported from :mod:`tajmahal.verification`.
"""

from __future__ import annotations

import enum

import attrs

from tajmahal.notation import count_of
from tajmahal.records import Mismatch
from tajmahal.verification._differences import Difference
from tajmahal.verification._explain import Explanation


class Outcome(enum.Enum):
    """How verifying one file ended."""

    OK = "ok"
    """The record replays and every expectation holds."""
    DIVERGED = "diverged"
    """The reference disagrees with the record (exit code 1)."""
    BAD_INPUT = "bad-input"
    """The file is not a readable record for these components (exit code 2)."""


@attrs.frozen(slots=True)
class FileReport:
    """The outcome of verifying one file."""

    path: str
    """The file as named on the command line or found in a folder."""
    outcome: Outcome
    """ok, diverged or bad-input."""
    message: str
    """One line: what went wrong, or a summary of the game."""
    trace_id: str | None = None
    """The record's ``id``, when it has one."""
    steps: int = 0
    """Steps replayed (up to the divergence)."""
    seconds: float = 0.0
    """Time spent on this file."""
    step: int | None = None
    """The number of the diverging (or malformed) step, counted from 1, if any."""
    action: str | None = None
    """Its action string."""
    field: str | None = None
    """The first field that differs (or that is malformed, for bad input)."""
    mismatches: tuple[Mismatch, ...] = ()
    """Every expectation that differs, expected against actual."""
    clauses: tuple[str, ...] = ()
    """The clauses and rulings behind the step, as the reference replays it (for an
    illegal action: the rule that forbids it, when known)."""
    account: tuple[str, ...] = ()
    """The reference's account of the diverging step."""
    differences: tuple[Difference, ...] = ()
    """Where the public positions after the step differ (full records only)."""
    final_scores: tuple[int, ...] | None = None
    """Final scores, for a record that conforms."""
    explanation: Explanation | None = None
    """Why the record diverges, in the terms of the shared explanation (what differs,
    where the engines parted, the rules); None for a record that conforms, bad input, or
    a problem with the record as a whole."""


@attrs.frozen(slots=True)
class Report:
    """The outcome of verifying many files."""

    files: tuple[FileReport, ...]
    """One entry per file, in the order checked."""
    wall_seconds: float | None = None
    """Wall-clock time of the whole run, when the files were verified in worker
    processes (the files' times then add up to more than the time taken)."""
    jobs: int = 1
    """How many worker processes verified the files (1: this process alone)."""

    def count(self, outcome: Outcome) -> int:
        """How many files ended with ``outcome``."""
        return sum(1 for item in self.files if item.outcome is outcome)

    @property
    def steps(self) -> int:
        """Steps replayed over all files."""
        return sum(item.steps for item in self.files)

    @property
    def seconds(self) -> float:
        """Time spent over all files."""
        return sum(item.seconds for item in self.files)

    @property
    def exit_code(self) -> int:
        """2 if any file is bad input, else 1 if any diverged, else 0."""
        if self.count(Outcome.BAD_INPUT):
            return 2
        return 1 if self.count(Outcome.DIVERGED) else 0

    def summary(self) -> str:
        """One line: counts per outcome and the speed.

        One process: the steps over the files' times added up (wall-clock time spent on
        the files, without starting up and finding them). Worker processes: the steps
        over the wall-clock time of the whole run, said so in the line, since the files'
        times, spent side by side, add up to more than the time taken."""
        counts = (
            f"{count_of(len(self.files), 'file')}: {self.count(Outcome.OK)} conform, "
            f"{self.count(Outcome.DIVERGED)} diverge, {self.count(Outcome.BAD_INPUT)} bad "
            f"input; "
        )
        if self.wall_seconds is not None:
            wall = self.wall_seconds
            rate = self.steps / wall if wall > 0 else 0.0
            return counts + (
                f"{self.steps} steps in {wall:.2f} s wall-clock with {self.jobs} processes "
                f"({rate:.0f} steps/s wall-clock)"
            )
        rate = self.steps / self.seconds if self.seconds > 0 else 0.0
        return counts + f"{self.steps} steps in {self.seconds:.2f} s ({rate:.0f} steps/s)"


# Every name here is documented under tajmahal.verification, which users import it from.
__all__: list[str] = []
