"""Scoring: goods on province and bonus tiles, palace chains, the order of scoring, hands."""

from __future__ import annotations

import attrs
import pytest
from positions import (
    COMPONENTS,
    at_visit,
    player,
    points,
    run,
    run_events,
    table,
    with_bonus,
    with_palaces,
    with_player,
)

from tajmahal.engine import palace_points
from tajmahal.engine._scoring import goods_points, hand_points
from tajmahal.model import Good, Palace
from tajmahal.notation import check_position

RICE, TEA, SPICES, JEWELS = Good.RICE, Good.TEA, Good.SPICES, Good.JEWELS
BOARD = COMPONENTS.board


@pytest.mark.clause("TM.SCORE.PROVINCE", "TM.SCORE.BONUS.GOOD")
@pytest.mark.parametrize(
    ("new", "owned", "expected"),
    [
        ((RICE,), (), 1),
        ((SPICES, TEA), (), 2),
        ((SPICES, TEA), (TEA, TEA, SPICES, SPICES, JEWELS), 6),
        ((RICE, TEA), (JEWELS, SPICES), 2),
        ((TEA,), (TEA, TEA, TEA), 4),
    ],
)
def test_goods_points(new: tuple[Good, ...], owned: tuple[Good, ...], expected: int) -> None:
    assert goods_points(new, owned) == expected


@pytest.mark.clause("TM.SCORE.PROVINCE", "TM.REWARD.ELEPHANT.PROVINCE", "TM.SCORE.TRACK")
def test_a_province_tile_scores_its_goods_and_the_matching_goods_owned() -> None:
    # Province B holds province tile 1 (rice); seat 0 owns province tile 4 (rice, tea) and a
    # rice bonus tile, and a jewels tile that does not match.
    state = table(("red-19",), ("yellow-07",), order="BACDEFGHIJK")
    state = with_player(
        state, 0, province_tiles=("province-04",), goods_tiles=("bonus-08", "bonus-14"), score=5
    )
    state, events = run_events(state, "withdraw")
    # Province tile 1 (rice): 1, plus rice on province tile 4 and on a rice bonus tile.
    assert points(events, "score", 0) == [3]
    assert player(state, 0).score == 5 + 3
    assert player(state, 0).province_tiles == ("province-04", "province-01")


@pytest.mark.clause("TM.SCORE.PROVINCE")
def test_province_tiles_other_than_one_show_two_goods() -> None:
    for tile in COMPONENTS.province_tiles.values():
        assert len(tile.goods) == (1 if tile.number == 1 else 2)
        assert goods_points(tile.goods, ()) == len(tile.goods)


@pytest.mark.clause("TM.SCORE.ORDER", "TM.SCORE.BONUS.GOOD", "TM.SCORE.PROVINCE")
def test_bonus_tiles_then_province_tile_then_palaces() -> None:
    # Province B holds province tile 1 (rice); its fortress B3 holds a rice bonus tile.
    state = table(("red-07",), order="BACDEFGHIJK")
    state = with_bonus(state, "B3", "bonus-08")
    state, events = run_events(state, "withdraw", "palace B3")
    scored = [(e.kind, e.points) for e in events if e.points]
    # The rice bonus tile comes first and does not see the province tile; the province tile
    # counts the rice bonus tile; the palace scores last.
    assert scored == [("bonus", 1), ("score", 2), ("score", 1)]
    assert player(state, 0).score == 4


@pytest.mark.clause("TM.SCORE.BONUS.SEQUENTIAL", "TM.SCORE.BONUS.GOOD")
def test_several_goods_tiles_are_scored_one_after_another() -> None:
    # Province G has two fortresses, G1 and G3, each with a rice bonus tile.
    state = table(("red-01",), ("yellow-19",), order="GABCDEFHIJK")
    assert dict(state.bonus_on_board)["G1"] == "bonus-08"
    assert dict(state.bonus_on_board)["G3"] == "bonus-09"
    state, events = run_events(state, "withdraw", "palace G3", "palace G1")
    assert points(events, "bonus", 0) == [1, 2]
    assert player(state, 0).goods_tiles == ("bonus-09", "bonus-08")


@pytest.mark.clause("TM.SCORE.PALACE.CURRENT")
def test_palaces_in_the_current_province_score_one_however_many() -> None:
    state = table(("red-01", "red-03"), ("yellow-19",))
    state, events = run_events(state, "withdraw", "palace A1", "palace A2", "palace A3")
    state, more = run_events(state, "palace A4")
    assert points([*events, *more], "score", 0) == [1]
    assert player(state, 0).score == 1
    assert palace_points(BOARD, {"A1", "A2", "A3", "A4"}, "A") == 1


@pytest.mark.clause("TM.SCORE.PALACE.CURRENT")
def test_no_palace_in_the_current_province_scores_nothing() -> None:
    assert palace_points(BOARD, {"B1", "A2"}, "C") == 0
    assert palace_points(BOARD, set(), "A") == 0


@pytest.mark.clause("TM.SCORE.PALACE.CHAIN", "TM.SCORE.PALACE.PROVINCES")
def test_each_other_province_reached_through_own_palaces_scores_one() -> None:
    # Roads A2-B1, B1-B2, B2-B3, B3-C4, A4-E1.
    assert palace_points(BOARD, {"A2", "B1"}, "A") == 2
    assert palace_points(BOARD, {"A2", "B1", "B2", "B3"}, "A") == 2
    assert palace_points(BOARD, {"A2", "B1", "B2", "B3", "C4"}, "A") == 3
    assert palace_points(BOARD, {"A2", "B1", "B2", "B3", "C4", "A4", "E1"}, "A") == 4
    assert palace_points(BOARD, {"C4", "B3", "B2", "B1", "A2"}, "C") == 3


@pytest.mark.clause("TM.SCORE.PALACE.BREAK")
def test_an_empty_city_or_another_players_city_breaks_the_chain() -> None:
    # A1 - A2 - B1: without a palace of the player in A2, B1 is not reached.
    assert palace_points(BOARD, {"A1", "B1"}, "A") == 1
    assert palace_points(BOARD, {"A1", "A2", "B1"}, "A") == 2
    # B1 - B2 - B3 - C4: a gap at B2 cuts province C off.
    assert palace_points(BOARD, {"A2", "B1", "B3", "C4"}, "A") == 2


@pytest.mark.clause("TM.SCORE.PALACE.BREAK", "TM.SCORE.PALACE.SHARED_CITY")
def test_a_city_holding_two_palaces_of_one_other_player_breaks_the_chain() -> None:
    """Two palaces in a city link their owners; when both belong to one player (seat 1's
    normal palace and its own crown palace), the city is still only another player's
    for seat 0, and breaks seat 0's chain."""
    # Roads A1-A2, A2-B1: seat 0 owns B1; A2 holds both of seat 1's palaces.
    # Visit 2 in province A, province B (visit 1) done.
    state = at_visit(table(("red-07",), ("yellow-19",), order="BACDEFGHIJK"), 2)
    state = with_palaces(state, ("A2", 1), Palace("A2", 1, crowned=True), ("B1", 0))
    state = check_position(attrs.evolve(state, crown_in_court=False))
    assert player(run(state, "withdraw", "palace A1"), 0).score == 1
    # With seat 0's own crown palace beside seat 1's palace in A2, the city links seat 0.
    linked = at_visit(table(("red-07",), ("yellow-19",), order="BACDEFGHIJK"), 2)
    linked = with_palaces(linked, ("A2", 1), Palace("A2", 0, crowned=True), ("B1", 0))
    linked = check_position(attrs.evolve(linked, crown_in_court=False))
    assert player(run(linked, "withdraw", "palace A1"), 0).score == 2


@pytest.mark.clause("TM.SCORE.PALACE.BREAK", "TM.SCORE.PALACE.CHAIN", "TM.REWARD.INFLUENCE.PALACE")
def test_chain_scoring_in_play_stops_at_an_opponents_palace() -> None:
    # Seat 0 owns B1 and E1; seat 1 owns A2. Roads: A1-A2, A2-B1, A1-A4, A4-E1.
    state = with_palaces(table(("red-07",), ("yellow-19",)), ("B1", 0), ("E1", 0), ("A2", 1))
    via_a1 = run(state, "withdraw", "palace A1")
    assert player(via_a1, 0).score == 1
    via_a4 = run(state, "withdraw", "palace A4")
    assert player(via_a4, 0).score == 2


@pytest.mark.clause("TM.SCORE.PALACE.SHARED_CITY", "TM.REWARD.CROWN.OCCUPIED")
def test_a_shared_city_links_the_crown_palace_owner() -> None:
    # Seat 1 holds A2; seat 0 sets its crown palace beside it and reaches B and C.
    state = with_palaces(
        table(("red-05",), ("yellow-19",)), ("A2", 1), ("B1", 0), ("B2", 0), ("B3", 0), ("C4", 0)
    )
    state = run(state, "withdraw", "crown A2")
    assert player(state, 0).score == 3


@pytest.mark.clause("TM.SCORE.PALACE.SHARED_CITY", "TM.REWARD.CROWN.LATER_NORMAL")
def test_a_shared_city_links_the_normal_palace_owner() -> None:
    # Seat 1's crown palace stands alone in A2; seat 0 builds beside it and reaches B.
    state = with_palaces(
        table(("red-07",), ("yellow-19",)), Palace("A2", 1, crowned=True), ("B1", 0)
    )
    state = run(state, "withdraw", "palace A2")
    assert player(state, 0).score == 2


@pytest.mark.clause(
    "TM.END.HAND.SPECIAL",
    "TM.END.HAND.WHITE",
    "TM.END.HAND.LARGEST_COLOUR",
    "TM.END.LEFTOVER_NO_VALUE",
)
@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ((), 0),
        (("special-mogul", "special-elephant"), 2),
        (("white-01", "white-12"), 2),
        (("red-01", "red-02", "yellow-01", "green-01", "violet-01"), 2),
        (("red-01", "red-02", "yellow-01", "yellow-02", "green-01"), 2),
        (("red-01", "white-05", "special-plus-two", "violet-20", "violet-21"), 4),
    ],
)
def test_hand_points(hand: tuple[str, ...], expected: int) -> None:
    assert hand_points(COMPONENTS, hand) == expected
