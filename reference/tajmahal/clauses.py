"""The one mechanism that ties code to the clause registry in ``specs/clauses``.

Code that implements a rule is decorated with :func:`implements`, naming the stable
clause ids it carries out. The decorator changes nothing at run time beyond recording
the ids on the function; ``tools/check_specs.py`` reads the decorators statically (from
the syntax tree), so the registry, the code, the tests and the rulings are checked
against each other without importing or running the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])

CLAUSE_ATTRIBUTE = "__tajmahal_clauses__"
"""Attribute under which :func:`implements` records clause ids on the decorated object."""


def implements(*clause_ids: str) -> Callable[[F], F]:
    """Mark a function (or class) as implementing the named rulebook clauses.

    The ids must be literal strings so that the spec checker can read them without
    running the code.
    """
    if not clause_ids:
        raise ValueError("implements() needs at least one clause id")

    def mark(target: F) -> F:
        previous: tuple[str, ...] = getattr(target, CLAUSE_ATTRIBUTE, ())
        setattr(target, CLAUSE_ATTRIBUTE, previous + tuple(clause_ids))
        return target

    return mark
