"""The clause registry and the rulings, and how code names the clauses it carries out.

:func:`load_registry` reads ``specs/clauses/*.toml`` and ``rulings/*.toml`` from the source
checkout, or the copy packaged in ``tajmahal/data/registry.json``; :func:`search` ranks
clauses and rulings for ``tajmahal rule``. :func:`clause_ids` reads the ``Implements:``
paragraph with which a function's docstring names the clauses it implements.
"""

from tajmahal.registry._registry import RULEBOOKS, Registry, load_registry, search

__all__ = [
    "RULEBOOKS",
    "Registry",
    "load_registry",
    "search",
]
