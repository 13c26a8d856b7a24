"""The clause registry and the rulings, and how code names the clauses it carries out.

:func:`load_registry` reads ``specs/clauses/*.toml`` and ``rulings/*.toml`` from the source
checkout, or the copy packaged in ``tajmahal/data/registry.json``; :func:`find` (and
:func:`search`) ranks clauses and rulings for ``tajmahal rule`` by the words a player
uses; :func:`name_books` names the rulebooks in their text. :func:`clause_ids` reads the
``Implements:`` paragraph with which a function's docstring names the clauses it
implements.
"""

from tajmahal.registry._registry import (
    BOOK_NAMES,
    RULEBOOKS,
    Registry,
    find,
    load_registry,
    name_books,
    search,
)
from tajmahal.registry._search import Matches

__all__ = [
    "BOOK_NAMES",
    "RULEBOOKS",
    "Matches",
    "Registry",
    "find",
    "load_registry",
    "name_books",
    "search",
]
