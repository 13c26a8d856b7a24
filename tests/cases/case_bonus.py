"""Position cases: the order of bonus scoring, goods counting, hands and specials changing
hands (rulings RUL.SCORE.BONUS_ORDER, RUL.SCORE.GOODS_COUNT, RUL.HAND.NO_LIMIT,
RUL.WITHDRAW.FIRST_ROUND, RUL.SPECIAL.CHANGES_HANDS).

Positions and expected values follow ``tests/rulings/test_ruling_withdraw.py`` and
``tests/rulings/test_ruling_special.py``. On the readable setup the fortresses C1 and C3
carry the +2 tiles bonus-02 and bonus-03, L4 carries bonus-15.
"""

from __future__ import annotations

from casekit import Case, before_visit_end, case, ok, owning
from positions import (
    COMPONENTS,
    at_visit,
    run,
    table,
    with_bonus,
    with_deck_top,
    with_hand,
    with_player,
)

from tajmahal.model import Symbol

C_NINTH = "ABDEFGHICJK"
"""Visit 9 goes to province C (fortresses C1 and C3)."""
C_FIRST = "CABDEFGHIJK"
"""Visit 1 goes to province C."""


def cases() -> list[Case]:
    ninth = at_visit(table(("red-01", "red-19"), order=C_NINTH), 9)
    anna = owning(ninth, 0, ("province-02", "province-05"), ("bonus-12",))
    anna = with_bonus(with_bonus(anna, "C1", "bonus-10"), "C3", "bonus-11")
    rice = at_visit(table(("red-07",), ("yellow-19",)), 12)
    rice = owning(rice, 0, ("province-04", "province-11"), ("bonus-09",))
    rice = with_bonus(rice, "L4", "bonus-08")
    spices = with_bonus(
        with_bonus(table(("red-01",), order=C_FIRST), "C1", "bonus-12"), "C3", "bonus-13"
    )
    reds = [
        card for card in sorted(COMPONENTS.cards) if card.startswith("red-") and card != "red-07"
    ]
    first_round = run(with_deck_top(table(), ["yellow-21", "yellow-20"]), "play red-02")
    princess = with_player(table((), ("yellow-16",)), 1, influence=(Symbol.PRINCESS,))
    from_table, last = before_visit_end(
        run(princess, "withdraw", "take white-06 white-07", "withdraw")
    )
    return [
        case(
            "RUL.SCORE.BONUS_ORDER/first-fortress",
            "A fortress bonus is scored when its palace is placed, before the next placement.",
            run(ninth, "withdraw"),
            ok("palace C1", "+2 at once", (2, 0, 0, 0), {"step": "place"}),
            clauses=("TM.SCORE.ORDER", "TM.REWARD.FORTRESS.BONUS", "TM.SCORE.BONUS.POINTS"),
            rulings=("RUL.COMPONENTS.FORTRESSES",),
        ),
        case(
            "RUL.SCORE.BONUS_ORDER/second-fortress-then-province",
            "The second bonus, then the province tile, then the palaces.",
            run(ninth, "withdraw", "palace C1"),
            ok(
                "palace C3",
                "+2, province tile 9 (spices, tea) 2, palace 1: 5",
                (5, 0, 0, 0),
                {"seats": {"0": {"score": 7, "province_tiles": ["province-09"]}}},
            ),
            clauses=("TM.SCORE.ORDER", "TM.SCORE.BONUS.SEQUENTIAL", "TM.SCORE.PROVINCE"),
            rulings=("RUL.COMPONENTS.FORTRESSES", "RUL.COMPONENTS.PROVINCE_TILES"),
        ),
        case(
            "RUL.SCORE.BONUS_ORDER/worked-example-first-tea",
            "The rulebook's worked example: the first tea tile scores 1 + 2 teas owned.",
            run(anna, "withdraw"),
            ok("palace C1", "3", (3, 0, 0, 0)),
            clauses=("TM.SCORE.BONUS.GOOD", "TM.SCORE.BONUS.SEQUENTIAL"),
            rulings=("RUL.COMPONENTS.PROVINCE_TILES", "RUL.COMPONENTS.BONUS_MIX"),
        ),
        case(
            "RUL.SCORE.BONUS_ORDER/worked-example-second-tea",
            "The second tea tile sees the first (1 + 3 = 4); province tile 9 (spices, tea) "
            "then scores 2 + 2 spices + 4 teas = 8; the palace 1.",
            run(anna, "withdraw", "palace C1"),
            ok("palace C3", "4 + 8 + 1", (13, 0, 0, 0)),
            clauses=(
                "TM.SCORE.BONUS.GOOD",
                "TM.SCORE.BONUS.SEQUENTIAL",
                "TM.SCORE.PROVINCE",
                "TM.SCORE.ORDER",
            ),
            rulings=(
                "RUL.COMPONENTS.PROVINCE_TILES",
                "RUL.COMPONENTS.BONUS_MIX",
                "RUL.SCORE.GOODS_COUNT",
            ),
        ),
        case(
            "RUL.SCORE.GOODS_COUNT/three-rice-owned",
            "A rice tile scores 1 + 3 with three rice already owned (two province tiles, one "
            "bonus tile).",
            run(rice, "withdraw"),
            ok(
                "palace L4",
                "4, and 1 for the palace in L",
                (5, 0, 0, 0),
                {"seats": {"0": {"goods_tiles": ["bonus-09", "bonus-08"]}}},
            ),
            clauses=("TM.SCORE.BONUS.GOOD",),
            rulings=(
                "RUL.COMPONENTS.PROVINCE_TILES",
                "RUL.COMPONENTS.BONUS_MIX",
                "RUL.COMPONENTS.FORTRESSES",
            ),
        ),
        case(
            "RUL.SCORE.GOODS_COUNT/own-goods-once",
            "A province tile's own goods count once each: tile 4 (rice, tea) to a player "
            "owning nothing scores 2.",
            run(at_visit(table((), ("yellow-19",)), 4), "withdraw", "take white-06 white-07"),
            ok(
                "withdraw",
                "seat 1 wins province tile 4",
                (0, 2, 0, 0),
                {"seats": {"1": {"province_tiles": ["province-04"]}}},
            ),
            clauses=("TM.SCORE.PROVINCE", "TM.REWARD.ELEPHANT.PROVINCE"),
            rulings=("RUL.COMPONENTS.PROVINCE_TILES",),
        ),
        case(
            "RUL.SCORE.GOODS_COUNT/second-spices-tile",
            "The second spices tile counts the first, won moments before.",
            run(spices, "withdraw", "palace C1"),
            ok(
                "palace C3",
                "1 + 1, and 1 for the palaces",
                (3, 0, 0, 0),
                {"seats": {"0": {"goods_tiles": ["bonus-12", "bonus-13"]}}},
            ),
            clauses=("TM.SCORE.BONUS.GOOD", "TM.SCORE.BONUS.SEQUENTIAL"),
            rulings=("RUL.COMPONENTS.BONUS_MIX", "RUL.COMPONENTS.FORTRESSES"),
        ),
        case(
            "RUL.HAND.NO_LIMIT/twenty-two-cards",
            "A hand has no limit: 20 cards and two picks make 22; play passes on.",
            run(with_hand(table(("red-07",)), 0, reds), "withdraw", "palace A1"),
            ok(
                "take white-06 white-07",
                "22 cards in hand",
                (0, 0, 0, 0),
                {
                    "step": "play",
                    "to_move": 1,
                    "seats": {"0": {"hand": sorted((*reds, "white-06", "white-07"))}},
                },
            ),
            clauses=("TM.SETUP.HANDS", "TM.WITHDRAW.PICK_TWO"),
        ),
        case(
            "RUL.WITHDRAW.FIRST_ROUND/second-seat-draws",
            "A player who has not played yet draws the extra card, even after others played.",
            first_round,
            ok(
                "withdraw",
                "seat 1 draws yellow-21",
                (0, 0, 0, 0),
                {
                    "step": "take",
                    "deck": list(first_round.deck[1:]),
                    "seats": {"1": {"hand": ["yellow-02", "yellow-03", "yellow-14", "yellow-21"]}},
                },
            ),
            clauses=("TM.WITHDRAW.WITHOUT_PLAYING",),
            rulings=("RUL.WITHDRAW.WITHOUT_PLAYING",),
        ),
        case(
            "RUL.WITHDRAW.FIRST_ROUND/played-player-draws-nothing",
            "A player who has played draws no extra card when withdrawing.",
            run(
                first_round, "withdraw", "take white-06 white-07", "play green-02", "play violet-02"
            ),
            ok(
                "withdraw",
                "seat 0 ties everywhere, draws nothing",
                (0, 0, 0, 0),
                {"step": "take", "to_move": 0, "seats": {"0": {"hand": ["red-03", "red-14"]}}},
            ),
            clauses=("TM.WITHDRAW.WITHOUT_PLAYING",),
        ),
        case(
            "RUL.SPECIAL.CHANGES_HANDS/from-the-table",
            "Two princess tiles take the +2 card from the table when the visit ends.",
            from_table,
            ok(
                last,
                "the visit ends; seat 1 exchanges its two princess tiles",
                (0, 0, 0, 0),
                {
                    "visit": 2,
                    "specials_on_table": [
                        "special-colour-change",
                        "special-elephant",
                        "special-mogul",
                    ],
                    "seats": {"1": {"influence": []}},
                },
            ),
            clauses=("TM.SPECIAL.EXCHANGE_AT_VISIT_END", "TM.SPECIAL.EARN"),
            rulings=("RUL.COMPONENTS.SPECIAL_EARNERS",),
        ),
    ]
