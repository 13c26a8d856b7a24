"""Position cases: scoring a withdrawal (province tiles, palace chains, the order).

Positions and expected values follow ``tests/rules/test_scoring.py``. Roads used here:
A1-A2, A2-B1, B1-B2, B2-B3, B3-C4, A1-A4, A4-E1 (the reconstructed board).
"""

from __future__ import annotations

import attrs
from casekit import Case, case, ok, owning, taken_bonus_removed
from positions import at_visit, run, table, with_bonus, with_palaces

from tajmahal.model import GameState, Palace

BOARD = ("RUL.COMPONENTS.BOARD",)


A_FOURTH = "BCEADFGHIJK"
"""Provinces B, C and E are visited first: palaces may stand there when A is visited."""


def in_a(*played: tuple[str, ...]) -> GameState:
    """Visit 4, in province A, with B, C and E already visited."""
    return at_visit(table(*played, order=A_FOURTH), 4)


def chain(*palaces: tuple[str, int] | Palace, crown_won: bool = False) -> GameState:
    """Seat 0 has withdrawn with a vizier (seat 1 shows two elephants) and places;
    ``crown_won``: the crown of this visit is already taken (its palace stands)."""
    placed = taken_bonus_removed(with_palaces(in_a(("red-07",), ("yellow-19",)), *palaces))
    return run(attrs.evolve(placed, crown_in_court=not crown_won), "withdraw")


def cases() -> list[Case]:
    return [
        case(
            "TM.SCORE.PROVINCE/matching-goods",
            "A province tile scores its goods and each matching good already owned.",
            owning(
                at_visit(table(("red-19",), ("yellow-07",), order="ACDEFBGHIJK"), 6),
                0,
                ("province-04",),
                ("bonus-08", "bonus-14"),
                score=5,
            ),
            ok(
                "withdraw",
                "province tile 6 (rice, jewels): 2 + rice on province tile 4 (1) + rice "
                "and jewels bonus tiles (2) = 5",
                (5, 0, 0, 0),
                {"seats": {"0": {"score": 10, "province_tiles": ["province-04", "province-06"]}}},
            ),
            clauses=("TM.REWARD.ELEPHANT.PROVINCE", "TM.SCORE.TRACK"),
            rulings=("RUL.COMPONENTS.PROVINCE_TILES",),
        ),
        case(
            "TM.SCORE.ORDER/bonus-province-palaces",
            "Bonus tiles first (not seeing the new province tile), then the province tile "
            "(seeing the bonus tile), then the palaces.",
            run(with_bonus(table(("red-07",), order="BACDEFGHIJK"), "B3", "bonus-08"), "withdraw"),
            ok(
                "palace B3",
                "rice bonus tile 1, province tile 1 (rice) 1 + 1, palace 1: 4",
                (4, 0, 0, 0),
            ),
            clauses=("TM.SCORE.BONUS.GOOD", "TM.SCORE.PROVINCE"),
            rulings=("RUL.SCORE.BONUS_ORDER", "RUL.COMPONENTS.PROVINCE_TILES"),
        ),
        case(
            "TM.SCORE.BONUS.SEQUENTIAL/two-rice-tiles",
            "Two goods tiles of one withdrawal are scored one after the other.",
            run(table(("red-01",), ("yellow-19",), order="GABCDEFHIJK"), "withdraw", "palace G3"),
            ok(
                "palace G1",
                "the second rice tile sees the first: 2; then 1 for the palaces",
                (3, 0, 0, 0),
                {"seats": {"0": {"goods_tiles": ["bonus-09", "bonus-08"]}}},
            ),
            clauses=("TM.SCORE.BONUS.GOOD",),
            rulings=("RUL.COMPONENTS.FORTRESSES", "RUL.COMPONENTS.BONUS_MIX"),
        ),
        case(
            "TM.SCORE.BONUS.SEQUENTIAL/first-rice-tile",
            "The first goods tile of the withdrawal scores 1 and nothing more yet.",
            run(table(("red-01",), ("yellow-19",), order="GABCDEFHIJK"), "withdraw"),
            ok("palace G3", "rice tile alone: 1", (1, 0, 0, 0), {"step": "place"}),
            clauses=("TM.SCORE.BONUS.GOOD",),
            rulings=("RUL.COMPONENTS.FORTRESSES", "RUL.COMPONENTS.BONUS_MIX"),
        ),
        case(
            "TM.SCORE.PALACE.CURRENT/four-palaces-one-point",
            "Palaces in the current province score 1 however many there are.",
            run(
                table(("red-01", "red-03"), ("yellow-19",)),
                "withdraw",
                "palace A1",
                "palace A2",
                "palace A3",
            ),
            ok("palace A4", "four palaces in A: 1", (1, 0, 0, 0)),
        ),
        case(
            "TM.SCORE.PALACE.BREAK/opponent-city",
            "A city held by an opponent breaks the chain: A1-A2(seat 1)-B1 reaches nothing.",
            chain(("B1", 0), ("E1", 0), ("A2", 1)),
            ok("palace A1", "only province A: 1", (1, 0, 0, 0)),
            clauses=("TM.SCORE.PALACE.CHAIN",),
            rulings=BOARD,
        ),
        case(
            "TM.SCORE.PALACE.CHAIN/through-a4",
            "A4-E1 reaches province E: 2 points.",
            chain(("B1", 0), ("E1", 0), ("A2", 1)),
            ok("palace A4", "provinces A and E: 2", (2, 0, 0, 0)),
            clauses=("TM.SCORE.PALACE.PROVINCES",),
            rulings=BOARD,
        ),
        case(
            "TM.SCORE.PALACE.CHAIN/long-chain",
            "A2-B1-B2-B3-C4: provinces A, B and C.",
            chain(("B1", 0), ("B2", 0), ("B3", 0), ("C4", 0)),
            ok("palace A2", "A, B and C: 3", (3, 0, 0, 0)),
            clauses=("TM.SCORE.PALACE.PROVINCES",),
            rulings=BOARD,
        ),
        case(
            "TM.SCORE.PALACE.BREAK/gap",
            "An empty city breaks the chain: A2-B1, gap at B2, B3-C4.",
            chain(("B1", 0), ("B3", 0), ("C4", 0)),
            ok("palace A2", "A and B only: 2", (2, 0, 0, 0)),
            rulings=BOARD,
        ),
        case(
            "TM.SCORE.PALACE.SHARED_CITY/crown-beside-opponent",
            "A city shared with another player's palace links the crown palace's owner.",
            run(
                taken_bonus_removed(
                    with_palaces(
                        in_a(("red-05",), ("yellow-19",)),
                        ("A2", 1),
                        ("B1", 0),
                        ("B2", 0),
                        ("B3", 0),
                        ("C4", 0),
                    )
                ),
                "withdraw",
            ),
            ok("crown A2", "A, B and C: 3", (3, 0, 0, 0)),
            clauses=("TM.REWARD.CROWN.OCCUPIED",),
            rulings=BOARD,
        ),
        case(
            "TM.SCORE.PALACE.SHARED_CITY/normal-beside-crown",
            "A normal palace beside another player's crown palace links its owner too.",
            chain(Palace("A2", 1, crowned=True), ("B1", 0), crown_won=True),
            ok("palace A2", "A and B: 2", (2, 0, 0, 0)),
            clauses=("TM.REWARD.CROWN.LATER_NORMAL",),
            rulings=BOARD,
        ),
    ]
