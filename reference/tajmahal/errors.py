"""Precise error classes: every failure says what was wrong and where."""

from __future__ import annotations


class TajMahalError(Exception):
    """Base class of every error this package raises on purpose."""


class ComponentError(TajMahalError):
    """A component file is missing, malformed, or contradicts a confirmed fact.

    The message names the file and the field (for example ``board.json: cities[3].province``).
    """


class IllegalActionError(TajMahalError):
    """``apply`` was given an action the rules do not allow in this state; says why.

    ``clause`` names the clause (``TM.``) or ruling (``RUL.``) that forbids the move, so
    that other engines' refusals can be compared by rule rather than by message.
    """

    def __init__(self, message: str, *, clause: str | None = None) -> None:
        self.clause = clause
        """The id of the clause or ruling that forbids the move (None if none applies)."""
        super().__init__(message)


class ActionSyntaxError(TajMahalError):
    """A canonical action string could not be parsed; says which part is wrong."""


class StateFormatError(TajMahalError):
    """A state document (canonical JSON) is malformed; names the field."""


class RecordError(TajMahalError):
    """A game record (trace) is malformed or does not replay; names file, step and field."""

    def __init__(
        self, message: str, *, source: str = "", step: int | None = None, field: str = ""
    ) -> None:
        self.source = source
        """The file (or other source) the record came from, if known."""
        self.step = step
        """The number of the offending step, when the error belongs to one: step N is the
        N-th entry of ``steps``, counted from 1 (``docs/trace-format.md``, "Step
        numbers")."""
        self.field = field
        """The JSON path of the offending field, when known."""
        self.detail = message
        """The bare description, without the location prefix."""
        super().__init__(located(message, source, step, field))


def located(message: str, source: str, step: int | None, field: str) -> str:
    """``message`` behind the place it concerns, ``source: step N: field: message``, each
    part only when known (so that every error about a record reads alike)."""
    where = [part for part in (source, f"step {step}" if step is not None else "", field) if part]
    return f"{': '.join(where)}: {message}" if where else message
