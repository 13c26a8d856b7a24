"""How deep the tests go: one switch, the environment variable ``TAJMAHAL_DEEP``.

``make check`` runs every test at its quick depth, so that it stays short on two cores;
``make test-deep`` runs the whole suite with ``TAJMAHAL_DEEP=1``
(``make hostile`` the hostile suite alone). Two ways a test goes deeper, both visible
where the test is written:

- ``@pytest.mark.deep`` (or ``pytest.param(..., marks=pytest.mark.deep)`` for some cases
  of a parametrized test): the case runs only under the switch (``tests/conftest.py``
  skips it otherwise). ``make check`` keeps a quick case of the same class of behaviour
  beside it.
- ``depth(quick, deep)``: a count (Hypothesis examples, games, a shrinking budget, a
  sample of the corpus) that is larger under the switch.
"""

from __future__ import annotations

import os
from typing import TypeVar

VARIABLE = "TAJMAHAL_DEEP"
"""The switch: ``TAJMAHAL_DEEP=1`` runs every test at full depth."""
DEEP = os.environ.get(VARIABLE, "") == "1"
"""True under ``make test-deep`` and ``make hostile``."""

T = TypeVar("T")


def depth(quick: T, deep: T) -> T:
    """``deep`` under the switch, ``quick`` otherwise."""
    return deep if DEEP else quick
