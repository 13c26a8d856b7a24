"""Rewards of a withdrawal: palaces, fortress bonus tiles, the crown palace, the province."""

from __future__ import annotations

import pytest
from positions import (
    COMPONENTS,
    at_visit,
    legal,
    player,
    points,
    run,
    run_events,
    table,
    with_bonus,
    with_deck_top,
    with_palaces,
    with_player,
)

from tajmahal.engine import crown_cities, palace_cities
from tajmahal.errors import IllegalActionError
from tajmahal.model import Palace, Permission, RuleSet, Step, Symbol

B_FIRST = "BACDEFGHIJK"
"""Visit 1 goes to province B (cities B1 to B4; B3 is a fortress)."""


@pytest.mark.clause("TM.REWARD.INFLUENCE.PALACE", "TM.REWARD.INFLUENCE.TILE")
def test_one_palace_per_tile_in_an_empty_city_of_the_current_province() -> None:
    # Seat 0 wins vizier and general (red-01); seat 1 already has a palace in A2.
    state = with_palaces(table(("red-01",)), ("A2", 1))
    state = run(state, "withdraw")
    assert player(state, 0).influence == (Symbol.VIZIER, Symbol.GENERAL)
    assert state.step is Step.PLACE and state.to_move == 0
    assert legal(state) == {"palace A1", "palace A3", "palace A4"}
    assert palace_cities(state, 0) == ("A1", "A3", "A4")
    with pytest.raises(IllegalActionError, match="cannot go in A2, which holds P1"):
        run(state, "palace A2")
    with pytest.raises(IllegalActionError, match="current province A"):
        run(state, "palace B1")
    with pytest.raises(IllegalActionError, match="crown"):
        run(state, "crown A1")
    state = run(state, "palace A3")
    assert legal(state) == {"palace A1", "palace A4"}
    state = run(state, "palace A1")
    assert state.step is Step.TAKE
    assert {(p.city, p.seat) for p in state.palaces} == {("A1", 0), ("A2", 1), ("A3", 0)}


@pytest.mark.clause("TM.REWARD.INFLUENCE.PALACE")
def test_a_palace_without_an_empty_city_is_not_placed() -> None:
    state = with_palaces(table(("red-07",)), ("A1", 1), ("A2", 2), ("A3", 3), ("A4", 1))
    state = run(state, "withdraw")
    assert player(state, 0).influence == (Symbol.VIZIER,)
    assert state.step is Step.TAKE
    assert len(state.palaces) == 4


@pytest.mark.clause("TM.COMP.PALACES.UNLIMITED")
def test_palaces_never_run_out() -> None:
    elsewhere = [c for c in COMPONENTS.board.cities if not c.startswith("A")]
    state = with_palaces(table(("red-01",)), *((city, 0) for city in elsewhere))
    state = run(state, "withdraw", "palace A1", "palace A2")
    assert sum(1 for p in state.palaces if p.seat == 0) == len(elsewhere) + 2


@pytest.mark.clause("TM.REWARD.FORTRESS.BONUS", "TM.SCORE.BONUS.POINTS", "TM.SCORE.TRACK")
def test_a_normal_palace_on_a_fortress_takes_its_bonus_and_scores_it_at_once() -> None:
    state = table(("red-01",), order=B_FIRST)
    assert dict(state.bonus_on_board)["B3"] == "bonus-01"
    state, events = run_events(state, "withdraw", "palace B3")
    # Scored before the second palace is placed.
    assert state.step is Step.PLACE
    assert player(state, 0).score == 2
    assert points(events, "bonus", 0) == [2]
    assert "B3" not in dict(state.bonus_on_board)
    assert "bonus-01" not in dict(state.bonus_on_board).values()


@pytest.mark.clause("TM.SCORE.BONUS.TAJ", "TM.REWARD.FORTRESS.BONUS")
def test_the_taj_mahal_tile_scores_four() -> None:
    state = at_visit(table(("red-07",), ("yellow-19",)), 12)
    assert state.current_province == "L"
    assert "palace Agra" in legal(run(state, "withdraw"))
    state, events = run_events(state, "withdraw", "palace Agra")
    assert points(events, "bonus", 0) == [4]
    assert "Agra" not in dict(state.bonus_on_board)
    assert player(state, 0).score == 4 + 1  # and 1 for the palace in province L


@pytest.mark.clause("TM.SCORE.BONUS.CARD", "TM.REWARD.FORTRESS.BONUS")
def test_a_card_bonus_tile_gives_the_top_card_of_the_deck() -> None:
    state = with_bonus(table(("red-07",), ("yellow-19",), order=B_FIRST), "B3", "bonus-04")
    state = with_deck_top(state, ["yellow-21", "yellow-20"])
    hand = player(state, 0).hand
    state, events = run_events(state, "withdraw", "palace B3")
    assert player(state, 0).hand == tuple(sorted((*hand, "yellow-21")))
    assert state.deck[0] == "yellow-20"
    assert points(events, "bonus", 0) == [0]
    assert player(state, 0).score == 1  # the palace only
    assert "bonus-04" not in dict(state.bonus_on_board).values()
    assert player(state, 0).goods_tiles == ()


@pytest.mark.clause("TM.SCORE.BONUS.GOOD", "TM.REWARD.FORTRESS.BONUS")
def test_a_goods_tile_scores_one_plus_each_matching_good_owned() -> None:
    state = with_bonus(table(("red-07",), order=B_FIRST), "B3", "bonus-08")  # rice
    # Rice on province tiles 1 and 4 and on a rice bonus tile; tea does not count.
    state = with_player(
        state, 0, province_tiles=("province-01", "province-04"), goods_tiles=("bonus-09",)
    )
    state, events = run_events(state, "withdraw", "palace B3")
    assert points(events, "bonus", 0) == [1 + 3]
    assert player(state, 0).goods_tiles == ("bonus-09", "bonus-08")


@pytest.mark.clause("TM.SCORE.BONUS.GOOD")
def test_a_goods_tile_without_matching_goods_scores_one() -> None:
    state = with_bonus(table(("red-07",), order=B_FIRST), "B3", "bonus-14")  # jewels
    state = with_player(state, 0, province_tiles=("province-01",))
    state, events = run_events(state, "withdraw", "palace B3")
    assert points(events, "bonus", 0) == [1]


@pytest.mark.clause(
    "TM.REWARD.CROWN.TAKE",
    "TM.REWARD.CROWN.PALACE",
    "TM.REWARD.CROWN.OCCUPIED",
    "TM.REWARD.CROWN.NO_BONUS",
)
def test_the_crown_palace_goes_in_any_city_and_never_takes_a_bonus() -> None:
    # Seat 0 shows one Grand Mogul and one elephant; seat 1 two elephants.
    state = table(("red-05",), ("yellow-19",), order=B_FIRST)
    state = with_palaces(state, ("B1", 2))
    state = run(state, "withdraw")
    assert not state.crown_in_court
    assert state.withdrawal is not None and state.withdrawal.crown_owed
    assert legal(state) == {"crown B1", "crown B2", "crown B3", "crown B4"}
    assert crown_cities(state, 0) == ("B1", "B2", "B3", "B4")
    state, events = run_events(state, "crown B3")
    assert Palace("B3", 0, crowned=True) in state.palaces
    assert dict(state.bonus_on_board)["B3"] == "bonus-01"
    assert points(events, "bonus") == []
    assert player(state, 0).score == 1  # the crown palace counts as a palace


@pytest.mark.clause("TM.REWARD.CROWN.OCCUPIED")
def test_the_crown_palace_may_join_another_players_palace() -> None:
    state = with_palaces(table(("red-05",), ("yellow-19",)), ("A1", 2))
    state = run(state, "withdraw", "crown A1")
    assert [(p.seat, p.crowned) for p in state.palaces if p.city == "A1"] == [
        (0, True),
        (2, False),
    ]


@pytest.mark.clause(
    "TM.REWARD.CROWN.LATER_NORMAL", "TM.REWARD.CROWN.NO_BONUS", "TM.REWARD.FORTRESS.BONUS"
)
def test_the_bonus_under_a_crown_palace_waits_for_another_players_normal_palace() -> None:
    state = table(("red-05",), ("yellow-07", "white-01"), order=B_FIRST)
    state = run(state, "withdraw", "crown B3", "take white-06 white-07")
    assert state.to_move == 1
    state = run(state, "withdraw")  # seat 1 wins the vizier
    assert "palace B3" in legal(state)
    state, events = run_events(state, "palace B3")
    assert points(events, "bonus", 1) == [2]
    assert "B3" not in dict(state.bonus_on_board)
    assert {(p.seat, p.crowned) for p in state.palaces if p.city == "B3"} == {
        (0, True),
        (1, False),
    }


@pytest.mark.clause("TM.REWARD.CROWN.OWN_NORMAL_LATER", "TM.REWARD.PLACEMENT_ORDER")
def test_a_normal_palace_may_not_join_its_owners_crown_palace_by_default() -> None:
    # Seat 0 wins the vizier and the crown; places the crown first.
    state = table(("red-05", "white-01"), ("yellow-19",), order=B_FIRST)
    state = run(state, "withdraw", "crown B3")
    assert legal(state) == {"palace B1", "palace B2", "palace B4"}
    with pytest.raises(IllegalActionError, match="B3"):
        run(state, "palace B3")


@pytest.mark.clause("TM.REWARD.CROWN.OWN_NORMAL_LATER", "TM.REWARD.FORTRESS.BONUS")
def test_joining_ones_own_crown_palace_is_a_rule_option() -> None:
    rules = RuleSet(own_palace_beside_own_crown=Permission.ALLOWED)
    state = table(("red-05", "white-01"), ("yellow-19",), order=B_FIRST, rules=rules)
    state = run(state, "withdraw", "crown B3")
    assert "palace B3" in legal(state)
    state, events = run_events(state, "palace B3")
    assert points(events, "bonus", 0) == [2]


@pytest.mark.clause("TM.REWARD.CROWN.BESIDE_OWN", "TM.REWARD.PLACEMENT_ORDER")
def test_the_crown_palace_may_join_its_owners_palace_by_default() -> None:
    state = table(("red-05", "white-01"), ("yellow-19",), order=B_FIRST)
    state = run(state, "withdraw", "palace B1")
    assert legal(state) == {"crown B1", "crown B2", "crown B3", "crown B4"}
    state = run(state, "crown B1")
    assert [(p.seat, p.crowned) for p in state.palaces] == [(0, False), (0, True)]


@pytest.mark.clause("TM.REWARD.CROWN.BESIDE_OWN")
def test_the_crown_beside_ones_own_palace_is_a_rule_option() -> None:
    rules = RuleSet(crown_beside_own_palace=Permission.FORBIDDEN)
    state = table(("red-05", "white-01"), ("yellow-19",), order=B_FIRST, rules=rules)
    state = run(state, "withdraw", "palace B1")
    assert legal(state) == {"crown B2", "crown B3", "crown B4"}
    with pytest.raises(IllegalActionError, match="B1"):
        run(state, "crown B1")


@pytest.mark.clause("TM.REWARD.PLACEMENT_ORDER")
def test_the_player_chooses_the_order_of_crown_and_palaces() -> None:
    state = table(("red-05", "white-01"), ("yellow-19",))
    state = run(state, "withdraw")
    assert legal(state) == {f"crown A{i}" for i in range(1, 5)} | {
        f"palace A{i}" for i in range(1, 5)
    }
    crown_first = run(state, "crown A2", "palace A1")
    palace_first = run(state, "palace A1", "crown A2")
    assert crown_first.palaces == palace_first.palaces
    assert crown_first.scores == palace_first.scores == (1, 0, 0, 0)


@pytest.mark.clause("TM.REWARD.ELEPHANT.PROVINCE")
def test_the_elephant_majority_takes_the_province_tile() -> None:
    state = table(("red-19",), ("yellow-07",))
    state = run(state, "withdraw")
    assert state.court_province_tile is None
    assert player(state, 0).province_tiles == ("province-01",)
    assert player(state, 0).score == 1  # province tile 1 shows one good
    assert state.palaces == ()
