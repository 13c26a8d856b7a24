"""The rulebooks' worked examples, reproduced with their exact numbers.

Sources: 001_233b7271189f73c5.txt (Italian, Giochi Rari) and 002_c3720f99097226d8.txt
(Spanish). The figures are missing from the texts, so each position is built to agree
with every statement the text makes about it.
"""

from __future__ import annotations

from types import MappingProxyType

import attrs
import pytest
from positions import (
    COMPONENTS,
    at_visit,
    game,
    player,
    points,
    run,
    run_events,
    with_bonus,
    with_display,
    with_hands,
    with_played,
    with_player,
)

from tajmahal.engine import palace_points
from tajmahal.engine._scoring import hand_points
from tajmahal.model import (
    Board,
    City,
    CityId,
    GameState,
    Good,
    MajorityScope,
    Province,
    RuleSet,
    Step,
)

# ---------------------------------------------------------------------------------------
# 1. Anna, Bob, Chris and Doris withdraw (001, "E' il turno di Anna" .. "Doris si ritira")

ANNA, BOB, CHRIS, DORIS = 0, 1, 2, 3

PLAYED = (
    # Anna: 3 elephants (the majority) and 1 general.
    ("red-10", "red-19"),
    # Bob: 3 viziers, 1 princess, 1 elephant.
    ("yellow-07", "white-01", "yellow-04"),
    # Chris: 1 vizier, 1 general, 1 princess, 1 elephant.
    ("green-01", "green-16"),
    # Doris: 2 elephants, 1 Grand Mogul, 2 monks, 1 princess.
    ("violet-05", "violet-13", "violet-03"),
)
HANDS = (
    ("red-11", "red-12"),
    ("yellow-08", "yellow-09"),
    ("green-17", "green-18"),  # green-17: elephant and princess, no monk, no Grand Mogul
    ("violet-14", "violet-15"),
)
DISPLAY = ("white-06", "white-07", "white-08", "white-09", "white-10", "white-11", "white-12")


def four_players(rules: RuleSet | None = None) -> GameState:
    """Visit 1 (province A, no fortress), Anna to move, the cards of the example played."""
    state = with_display(with_hands(game(4, rules=rules), HANDS), DISPLAY)
    for seat, cards in enumerate(PLAYED):
        state = with_played(state, seat, cards)
    return state


def won(before: GameState, after: GameState, seat: int) -> list[str]:
    """What ``seat`` took from the court in the withdrawal from ``before`` to ``after``."""
    gained = list(after.players[seat].influence)
    for symbol in before.players[seat].influence:
        gained.remove(symbol)
    result = [symbol.value for symbol in gained]
    if before.crown_in_court and not after.crown_in_court:
        result.append("crown")
    if before.court_province_tile is not None and after.court_province_tile is None:
        result.append("province")
    return result


@pytest.mark.clause(
    "TM.WITHDRAW.COMPARE",
    "TM.WITHDRAW.MAJORITY.STRICT",
    "TM.WITHDRAW.MAJORITY.REMAINING",
    "TM.WITHDRAW.DISCARD",
    "TM.WITHDRAW.DISCARDED_NO_INFLUENCE",
    "TM.WITHDRAW.ONCE_PER_VISIT",
    "TM.WITHDRAW.ANY_COMBINATION",
    "TM.REWARD.ELEPHANT.PROVINCE",
    "TM.REWARD.INFLUENCE.TILE",
    "TM.REWARD.CROWN.TAKE",
    "TM.REWARD.CROWN.OCCUPIED",
)
def test_example_anna_bob_chris_doris_withdraw() -> None:
    state = four_players()
    wins: list[tuple[int, list[str]]] = []

    # Anna withdraws with the elephant majority; her general ties Chris's.
    assert state.to_move == ANNA
    after = run(state, "withdraw")
    wins.append((ANNA, won(state, after, ANNA)))
    assert player(after, ANNA).province_tiles == ("province-01",)
    assert player(after, ANNA).played == ()
    assert set(PLAYED[ANNA]) <= set(after.discard)
    state = run(after, "take white-06 white-07")

    # Bob can win only the vizier (his princess ties Chris and Doris).
    assert state.to_move == BOB
    after = run(state, "withdraw")
    wins.append((BOB, won(state, after, BOB)))
    state = run(after, "palace A1")
    assert player(state, BOB).played == ()
    assert set(PLAYED[BOB]) <= set(state.discard)
    state = run(state, "take white-08 white-09")

    # Chris plays another card, without monk or Grand Mogul; Doris stays in.
    assert state.to_move == CHRIS
    state = run(state, "play green-17", "play violet-14")

    # Chris withdraws: with Anna's and Bob's cards gone he has the princess and the general.
    assert state.to_move == CHRIS
    after = run(state, "withdraw")
    wins.append((CHRIS, won(state, after, CHRIS)))
    state = run(after, "palace A2", "palace A3", "take white-10 white-11")

    # Doris withdraws last and wins the monk and the Grand Mogul.
    assert state.to_move == DORIS
    after = run(state, "withdraw")
    wins.append((DORIS, won(state, after, DORIS)))
    assert after.step is Step.PLACE
    assert after.withdrawal is not None and after.withdrawal.crown_owed
    state = run(after, "palace A4", "crown A1")

    assert wins == [
        (ANNA, ["province"]),
        (BOB, ["vizier"]),
        (CHRIS, ["general", "princess"]),
        (DORIS, ["monk", "crown"]),
    ]
    # Each scores: Anna 1 for province tile 1 (rice), the others 1 for their palaces in A.
    assert state.scores == (1, 1, 1, 1)
    assert state.visit == 2
    assert "white-12" in player(state, DORIS).hand  # the last card of the display


@pytest.mark.clause("TM.WITHDRAW.MAJORITY.REMAINING", "TM.WITHDRAW.DISCARDED_NO_INFLUENCE")
def test_example_chris_needs_annas_cards_to_be_gone() -> None:
    # Were Anna's discarded general still counted, Chris would tie it and win no general.
    state = four_players(RuleSet(majority_scope=MajorityScope.ALL))
    state = run(state, "withdraw", "take white-06 white-07")
    state = run(state, "withdraw", "palace A1", "take white-08 white-09")
    state = run(state, "play green-17", "play violet-14")
    after = run(state, "withdraw")
    assert won(state, after, CHRIS) == ["princess"]


# ---------------------------------------------------------------------------------------
# 2. Anna's two tea tiles and province tile 9 (001 "Segnalini bonus" and "Segnalini
#    Provincia" examples; 002 "Ejemplo": 7 + 8 = 15 points in the ninth visit)

NINTH_H = "ABCDEFGJHIK"
"""Province H (fortresses H2 and H4) is visited ninth."""


def anna_in_visit_nine() -> GameState:
    state = at_visit(game(4, order=NINTH_H), 9, start=ANNA)
    assert state.current_province == "H"
    assert state.court_province_tile == "province-09"
    state = with_bonus(with_bonus(state, "H2", "bonus-10"), "H4", "bonus-11")  # two tea tiles
    # From earlier visits: tea on tiles 2 and 5, spices on tiles 3 and 5 (jewels irrelevant).
    state = with_player(
        state, ANNA, province_tiles=("province-02", "province-03", "province-05"), score=20
    )
    # Anna shows 2 elephants, 1 vizier, 1 general; Bob and Chris monks and princesses.
    state = with_played(state, ANNA, ("red-07", "red-10"))
    state = with_played(state, BOB, ("yellow-03",))
    return with_played(state, CHRIS, ("green-03",))


@pytest.mark.clause(
    "TM.SCORE.BONUS.GOOD",
    "TM.SCORE.BONUS.SEQUENTIAL",
    "TM.SCORE.PROVINCE",
    "TM.SCORE.ORDER",
    "TM.REWARD.FORTRESS.BONUS",
)
@pytest.mark.parametrize("first", ["H2", "H4"])
def test_example_two_tea_tiles_and_province_tile_nine_score_fifteen(first: str) -> None:
    state = anna_in_visit_nine()
    owned = player(state, ANNA).province_tiles
    goods = [good for tile in owned for good in COMPONENTS.province_tiles[tile].goods]
    assert goods.count(Good.TEA) == 2 and goods.count(Good.SPICES) == 2
    assert COMPONENTS.bonus_tiles["bonus-10"].good is Good.TEA
    assert COMPONENTS.bonus_tiles["bonus-11"].good is Good.TEA
    assert set(COMPONENTS.province_tiles["province-09"].goods) == {Good.SPICES, Good.TEA}
    second = "H4" if first == "H2" else "H2"
    state, events = run_events(state, "withdraw", f"palace {first}", f"palace {second}")
    bonus = points(events, "bonus", ANNA)
    scored = points(events, "score", ANNA)
    # First tea tile 1 + 1 + 1 = 3; second 1 + 1 + 1 + 1 = 4 (the first one counts again).
    assert bonus == [3, 4] and sum(bonus) == 7
    # Province tile 9: 1 + 1 for its goods, 4 tea and 2 spices owned: 8.
    province, palaces = scored
    assert province == 8
    assert sum(bonus) + province == 15
    # The palaces in H score separately: 1 for the province, nothing connected.
    assert palaces == 1
    assert player(state, ANNA).score == 20 + 15 + 1
    tiles = {"H2": "bonus-10", "H4": "bonus-11"}
    assert player(state, ANNA).goods_tiles == (tiles[first], tiles[second])


# ---------------------------------------------------------------------------------------
# 3. The palace-connection figure (001 "A è la provincia in cui si sta svolgendo la visita")

RED, BLUE, BROWN, GREY = "red", "blue", "brown", "grey"

FIGURE_PALACES: dict[str, set[CityId]] = {
    # Two palaces in A (A2, A4) and two in C (C1, C2); D1, F1, H3 cut off.
    RED: {"A2", "A4", "B1", "C1", "C2", "E1", "D1", "F1", "H3"},
    # A1 to D; A3 (shared with Brown) to I; C3, E2, G1 cut off.
    BLUE: {"A1", "A3", "D2", "I1", "C3", "E2", "G1"},
    # A3 (shared with Blue) to B, H, G and to I; E3 and F2 cut off.
    BROWN: {"A3", "B2", "H1", "G2", "I2", "E3", "F2"},
    # Nothing in A; a chain D3 - C4 - B3 that would join A1.
    GREY: {"D3", "C4", "B3"},
}

FIGURE_ROADS = (
    # the ring of A
    ("A1", "A2"),
    ("A2", "A3"),
    ("A3", "A4"),
    ("A4", "A1"),
    # Red: A4 - B1 - C1 - C2, A2 - E1
    ("A4", "B1"),
    ("B1", "C1"),
    ("C1", "C2"),
    ("A2", "E1"),
    # Red cut off: C2 - D4 (empty) - D1; E1 - E2 (Blue) - F1; H3 - H1 (Brown)
    ("C2", "D4"),
    ("D4", "D1"),
    ("E1", "E2"),
    ("E2", "F1"),
    ("H3", "H1"),
    ("F1", "F2"),
    # Blue: A1 - D2, A3 - I1; Blue cut off: C3 - C2 (Red), G1 - G2 (Brown)
    ("A1", "D2"),
    ("A3", "I1"),
    ("C2", "C3"),
    ("G1", "G2"),
    # Brown: A3 - B2 - H1 - G2, A3 - I2; Brown cut off: E2 (Blue) - E3 - F2
    ("A3", "B2"),
    ("B2", "H1"),
    ("H1", "G2"),
    ("A3", "I2"),
    ("E2", "E3"),
    ("E3", "F2"),
    # Grey: A1 - D3 - C4 - B3
    ("A1", "D3"),
    ("D3", "C4"),
    ("C4", "B3"),
    # between rivals
    ("B1", "B2"),
    ("B2", "B3"),
    ("I1", "I2"),
)


def figure_board() -> Board:
    """Provinces A to I, four cities each, with the roads of :data:`FIGURE_ROADS`."""
    letters = "ABCDEFGHI"
    cities = {f"{p}{n}": City(f"{p}{n}", p, fortress=False) for p in letters for n in range(1, 5)}
    provinces = {p: Province(p, tuple(f"{p}{n}" for n in range(1, 5))) for p in letters}
    roads = frozenset(frozenset(road) for road in FIGURE_ROADS)
    neighbours: dict[CityId, set[CityId]] = {city: set() for city in cities}
    for a, b in FIGURE_ROADS:
        neighbours[a].add(b)
        neighbours[b].add(a)
    return Board(
        name="rulebook-figure",
        provinces=MappingProxyType(provinces),
        cities=MappingProxyType(cities),
        roads=roads,
        agra="I4",
        neighbours=MappingProxyType({c: frozenset(n) for c, n in neighbours.items()}),
    )


@pytest.mark.clause(
    "TM.SCORE.PALACE.CURRENT",
    "TM.SCORE.PALACE.CHAIN",
    "TM.SCORE.PALACE.PROVINCES",
    "TM.SCORE.PALACE.BREAK",
    "TM.SCORE.PALACE.SHARED_CITY",
)
def test_example_palace_connections() -> None:
    board = figure_board()
    for road in FIGURE_ROADS:
        assert all(city in board.cities for city in road)
    shared = FIGURE_PALACES[BLUE] & FIGURE_PALACES[BROWN]
    assert shared == {"A3"}  # a city with two palaces
    scores = {
        colour: palace_points(board, cities, "A") for colour, cities in FIGURE_PALACES.items()
    }
    assert scores == {RED: 4, BLUE: 3, BROWN: 5, GREY: 0}
    # Red: the second palaces in A and in C add nothing.
    assert palace_points(board, FIGURE_PALACES[RED] - {"A2", "E1", "C2"}, "A") == 3
    assert palace_points(board, FIGURE_PALACES[RED] - {"A4"}, "A") == 2
    # Had Grey built in A1 (beside Blue's palace): 1 for A and 3 for D, C and B.
    assert palace_points(board, FIGURE_PALACES[GREY] | {"A1"}, "A") == 4
    assert palace_points(board, FIGURE_PALACES[BLUE], "A") == 3


@pytest.mark.clause("TM.SCORE.PALACE.BREAK", "TM.SCORE.PALACE.CHAIN")
@pytest.mark.parametrize(
    ("colour", "cut_off"),
    [(RED, "DFH"), (BLUE, "CEG"), (BROWN, "EF")],
)
def test_example_palaces_said_to_be_unconnected_add_nothing(colour: str, cut_off: str) -> None:
    board = figure_board()
    cities = FIGURE_PALACES[colour]
    kept = {city for city in cities if city[0] not in cut_off}
    assert palace_points(board, kept, "A") == palace_points(board, cities, "A")
    # ... and every other province of the player's is connected.
    provinces = {city[0] for city in kept}
    assert palace_points(board, kept, "A") == len(provinces)


# ---------------------------------------------------------------------------------------
# 4. The end-of-game hands (001 "Fine della partita", "Esempio")

EXAMPLE_HANDS = (
    # 1 special, 2 white, longest colour 3 (red): 6
    ("special-elephant", "white-01", "white-06", "red-01", "red-02", "red-03", "yellow-01"),
    # 1 special, 1 white, longest colour 2 (violet): 4
    ("special-mogul", "white-02", "violet-01", "violet-02", "green-02"),
    # 1 special, no white, longest colour 5 (green): 6
    (
        "special-plus-two",
        "green-03",
        "green-04",
        "green-05",
        "green-06",
        "green-07",
        "red-04",
        "yellow-04",
    ),
)


@pytest.mark.clause(
    "TM.END.HAND.SPECIAL",
    "TM.END.HAND.WHITE",
    "TM.END.HAND.LARGEST_COLOUR",
    "TM.END.LEFTOVER_NO_VALUE",
)
def test_example_end_of_game_hands() -> None:
    assert [hand_points(COMPONENTS, hand) for hand in EXAMPLE_HANDS] == [6, 4, 6]


@pytest.mark.clause("TM.END.HAND.LARGEST_COLOUR")
def test_a_tie_between_colours_counts_once() -> None:
    assert hand_points(COMPONENTS, ("red-01", "red-02", "yellow-01", "yellow-02")) == 2
    hand = ("special-mogul", "white-03", "red-05", "red-06", "green-05", "green-06")
    assert hand_points(COMPONENTS, hand) == 1 + 1 + 2


@pytest.mark.clause(
    "TM.END.HAND.SPECIAL",
    "TM.END.HAND.WHITE",
    "TM.END.HAND.LARGEST_COLOUR",
    "TM.END.AFTER_TWELVE",
)
def test_example_end_of_game_hands_in_play() -> None:
    # The last visit with nothing left to draw or take: the hands stay as in the example.
    state = with_hands(at_visit(game(3), 12), EXAMPLE_HANDS)
    state = attrs.evolve(state, display=(), deck=(), discard=())
    state, events = run_events(state, "withdraw", "withdraw", "withdraw")
    assert state.is_over
    assert points(events, "hand") == [6, 4, 6]
    assert state.scores == (6, 4, 6)
    assert state.winners() == (0, 2)
