"""The position after a placement is forfeited: nothing is owed any more, as values."""

from __future__ import annotations

import pytest
from positions import legal, run, table, with_palaces

from tajmahal.engine import apply_with_events
from tajmahal.model import EventKind, Palace, Permission, RuleSet, Step, parse_action


@pytest.mark.clause("RUL.REWARD.NO_LEGAL_CITY", "RUL.CROWN.BESIDE_OWN_PALACE")
def test_after_a_forfeited_crown_nothing_is_owed() -> None:
    # Seat 0 owns every city of province A and may not crown beside its own palace.
    rules = RuleSet(crown_beside_own_palace=Permission.FORBIDDEN)
    state = table(("red-05",), ("yellow-19",), rules=rules)
    state = with_palaces(state, ("A1", 0), ("A2", 0), ("A3", 0), ("A4", 0))
    after = run(state, "withdraw")
    assert after.step is Step.TAKE and after.to_move == 0
    withdrawal = after.withdrawal
    assert withdrawal is not None
    assert withdrawal.palaces_owed == 0 and withdrawal.crown_owed is False
    assert withdrawal.placed == ()


@pytest.mark.clause("RUL.REWARD.NO_LEGAL_CITY", "TM.REWARD.INFLUENCE.PALACE")
def test_after_a_forfeited_palace_nothing_is_owed() -> None:
    # Seat 0 won the crown and three palaces; the fourth palace has no city left in A.
    state = table(("red-01", "red-03", "red-05"), ("yellow-19",))
    before = run(state, "withdraw", "crown A1", "palace A2", "palace A3")
    after, events = apply_with_events(before, parse_action("palace A4"))
    [forfeit] = [event for event in events if event.kind is EventKind.FORFEIT]
    assert (forfeit.seat, forfeit.counts) == (0, (1,))
    assert forfeit.clauses == ("TM.REWARD.INFLUENCE.PALACE", "RUL.REWARD.NO_LEGAL_CITY")
    assert after.step is Step.TAKE and after.to_move == 0
    withdrawal = after.withdrawal
    assert withdrawal is not None
    assert withdrawal.palaces_owed == 0 and withdrawal.crown_owed is False
    assert withdrawal.placed == ("A1", "A2", "A3", "A4")


@pytest.mark.clause("RUL.REWARD.NO_LEGAL_CITY", "RUL.CROWN.OWN_PALACE_BESIDE_CROWN")
def test_a_palace_beside_its_own_crown_is_not_forfeited_when_allowed() -> None:
    # As above, but the rule set lets seat 0's last palace join its own crown in A1.
    rules = RuleSet(own_palace_beside_own_crown=Permission.ALLOWED)
    state = table(("red-01", "red-03", "red-05"), ("yellow-19",), rules=rules)
    before = run(state, "withdraw", "crown A1", "palace A2", "palace A3")
    after, events = apply_with_events(before, parse_action("palace A4"))
    assert [event for event in events if event.kind is EventKind.FORFEIT] == []
    assert after.step is Step.PLACE and after.to_move == 0
    withdrawal = after.withdrawal
    assert withdrawal is not None
    assert withdrawal.palaces_owed == 1 and withdrawal.crown_owed is False
    assert legal(after) == {"palace A1"}
    final = run(after, "palace A1")
    assert [p for p in final.palaces if p.city == "A1"] == [
        Palace("A1", 0, False),
        Palace("A1", 0, True),
    ]
