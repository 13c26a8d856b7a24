"""Which cities of the current province a palace or the crown palace may go to."""

from __future__ import annotations

import pytest
from positions import legal, run, table, with_palaces

from tajmahal.model import Permission, RuleSet


@pytest.mark.clause("TM.REWARD.CROWN.PALACE", "TM.REWARD.CROWN.OCCUPIED")
def test_a_full_city_is_skipped_and_the_cities_after_it_still_count() -> None:
    # A3 holds two palaces (the most a city holds); A1, A2 and A4 are empty.
    state = with_palaces(table(("red-05",), ("yellow-19",)), ("A3", 1), ("A3", 2))
    assert legal(run(state, "withdraw")) == {"crown A1", "crown A2", "crown A4"}


@pytest.mark.clause("TM.REWARD.CROWN.BESIDE_OWN", "RUL.CROWN.BESIDE_OWN_PALACE")
def test_the_crown_beside_ones_own_palace_follows_the_rule_option() -> None:
    # A2 holds seat 0's own palace, A3 seat 1's.
    palaces = (("A2", 0), ("A3", 1))
    allowed = with_palaces(table(("red-05",), ("yellow-19",)), *palaces)
    assert legal(run(allowed, "withdraw")) == {"crown A1", "crown A2", "crown A3", "crown A4"}
    rules = RuleSet(crown_beside_own_palace=Permission.FORBIDDEN)
    forbidden = with_palaces(table(("red-05",), ("yellow-19",), rules=rules), *palaces)
    assert legal(run(forbidden, "withdraw")) == {"crown A1", "crown A3", "crown A4"}
