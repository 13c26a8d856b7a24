"""Position cases: the rewards of a withdrawal (palaces, bonus tiles, the crown palace).

Positions and expected values follow ``tests/rules/test_rewards.py`` and
``tests/rules/test_scoring.py``. ``table`` hands are ``SMALL_HANDS``; ``B_FIRST`` sends
visit 1 to province B (cities B1 to B4, B3 a fortress with the +2 tile ``bonus-01``).
"""

from __future__ import annotations

from casekit import Case, actions, case, ok, owning, refused, taken_bonus_removed
from positions import (
    COMPONENTS,
    at_visit,
    run,
    table,
    with_bonus,
    with_deck_top,
    with_palaces,
    with_player,
)
from scenes import rival_beside_crown_on_b3

from tajmahal.model import GameState, Permission, RuleSet

B_FIRST = "BACDEFGHIJK"
CROWN_AND_VIZIER = ("red-05", "white-01")


def visit_five_in_b() -> GameState:
    """Visit 5 in province B (tiles 1 to 4 may be held); seat 0 plays a vizier and an
    elephant, seat 1 two elephants (so seat 0 wins the vizier only)."""
    return at_visit(table(("red-07",), ("yellow-19",), order="ACDEBFGHIJK"), 5)


def cases() -> list[Case]:
    two_tiles = run(with_palaces(table(("red-01",)), ("A2", 1)), "withdraw")
    # Visit 11 in province A: every province but L (Agra's, always last) is visited, and
    # seat 0 has a palace in every city of them.
    elsewhere = [c for c in COMPONENTS.board.cities if c[0] not in "AL" and c != "Agra"]
    everywhere = taken_bonus_removed(
        with_palaces(
            at_visit(table(("red-01",), order="BCDEFGHIJKA"), 11), *((c, 0) for c in elsewhere)
        )
    )
    crown_b = run(table(("red-05",), ("yellow-19",), order=B_FIRST), "withdraw")
    return [
        case(
            "TM.REWARD.INFLUENCE.PALACE/empty-city-current-province",
            "A palace goes in an empty city of the current province.",
            two_tiles,
            actions({"palace A1", "palace A3", "palace A4"}, "A2 holds seat 1's palace"),
            refused("palace A2", "TM.REWARD.INFLUENCE.PALACE", "a city holding another palace"),
            refused("palace B1", "TM.REWARD.INFLUENCE.PALACE", "a city of another province"),
            refused("crown A1", "TM.REWARD.CROWN.TAKE", "a crown palace not won"),
            ok(
                "palace A3",
                "the first of two palaces",
                (0, 0, 0, 0),
                {"step": "place", "to_move": 0, "palaces": [["A2", 1, False], ["A3", 0, False]]},
            ),
            clauses=("TM.REWARD.INFLUENCE.TILE",),
        ),
        case(
            "TM.REWARD.INFLUENCE.PALACE/second-of-two",
            "The last palace owed: scoring follows, then the take step.",
            run(two_tiles, "palace A3"),
            actions({"palace A1", "palace A4"}, "A3 is now taken"),
            ok(
                "palace A1",
                "1 point for the palaces in province A",
                (1, 0, 0, 0),
                {
                    "step": "take",
                    "palaces": [["A1", 0, False], ["A2", 1, False], ["A3", 0, False]],
                },
            ),
            clauses=("TM.SCORE.PALACE.CURRENT",),
        ),
        case(
            "RUL.REWARD.NO_LEGAL_CITY/province-full",
            "A palace without an empty city of the province is not placed: the take step "
            "follows at once.",
            with_palaces(table(("red-07",)), ("A1", 1), ("A2", 2), ("A3", 3), ("A4", 1)),
            ok(
                "withdraw",
                "seat 0 wins the vizier, whose palace has nowhere to go, and the province "
                "tile (1 elephant to none: 1 point)",
                (1, 0, 0, 0),
                {"step": "take", "seats": {"0": {"influence": ["vizier"]}}},
            ),
            clauses=("TM.REWARD.INFLUENCE.PALACE",),
        ),
        case(
            "TM.COMP.PALACES.UNLIMITED/every-city-owned",
            "Palaces never run out: in visit 11 a player with a palace in every city of the "
            "ten provinces visited before places two more in A.",
            run(everywhere, "withdraw", "palace A1"),
            ok(
                "palace A2",
                "the palace chain reaches A and the ten other provinces: 11 points",
                (11, 0, 0, 0),
                {"step": "take"},
            ),
            clauses=("TM.SCORE.PALACE.CHAIN",),
        ),
        case(
            "TM.REWARD.FORTRESS.BONUS/points-tile",
            "A normal palace on a fortress takes its bonus tile and scores it at once.",
            run(table(("red-01",), order=B_FIRST), "withdraw"),
            ok(
                "palace B3",
                "the +2 tile scores before the second palace is placed",
                (2, 0, 0, 0),
                {"step": "place", "bonus_on_board": {"C1": "bonus-02"}},
            ),
            clauses=("TM.SCORE.BONUS.POINTS", "TM.SCORE.TRACK"),
            rulings=("RUL.COMPONENTS.FORTRESSES",),
        ),
        case(
            "TM.SCORE.BONUS.TAJ/agra",
            "The Taj Mahal tile on Agra scores 4.",
            run(at_visit(table(("red-07",), ("yellow-19",)), 12), "withdraw"),
            ok(
                "palace Agra",
                "4 for the Taj Mahal tile and 1 for the palace in province L",
                (5, 0, 0, 0),
                {"step": "take"},
            ),
            clauses=("TM.REWARD.FORTRESS.BONUS",),
        ),
        case(
            "TM.SCORE.BONUS.CARD/top-card",
            "A card bonus tile gives its taker the top card of the deck and no points.",
            run(
                with_deck_top(
                    with_bonus(table(("red-07",), ("yellow-19",), order=B_FIRST), "B3", "bonus-04"),
                    ["yellow-21", "yellow-20"],
                ),
                "withdraw",
            ),
            ok(
                "palace B3",
                "seat 0 draws yellow-21; 1 point for the palace",
                (1, 0, 0, 0),
                {
                    "seats": {
                        "0": {
                            "hand": ["red-02", "red-03", "red-14", "yellow-21"],
                            "goods_tiles": [],
                        }
                    }
                },
            ),
            clauses=("TM.REWARD.FORTRESS.BONUS",),
            rulings=("RUL.COMPONENTS.BONUS_MIX",),
        ),
        case(
            "TM.SCORE.BONUS.GOOD/matching-goods",
            "A goods tile scores 1 plus 1 per matching good already owned.",
            run(
                owning(
                    with_bonus(visit_five_in_b(), "B3", "bonus-08"),
                    0,
                    ("province-01", "province-04"),
                    ("bonus-09",),
                ),
                "withdraw",
            ),
            ok(
                "palace B3",
                "rice tile: 1 + rice on province tiles 1 and 4 and on bonus-09 = 4; palace 1",
                (5, 0, 0, 0),
                {"seats": {"0": {"goods_tiles": ["bonus-09", "bonus-08"]}}},
            ),
            clauses=("TM.REWARD.FORTRESS.BONUS",),
            rulings=("RUL.COMPONENTS.PROVINCE_TILES", "RUL.COMPONENTS.BONUS_MIX"),
        ),
        case(
            "TM.SCORE.BONUS.GOOD/no-match",
            "A goods tile without matching goods scores 1.",
            run(
                with_player(
                    with_bonus(visit_five_in_b(), "B3", "bonus-14"),
                    0,
                    province_tiles=("province-01",),
                ),
                "withdraw",
            ),
            ok("palace B3", "jewels tile, rice owned: 1; palace 1", (2, 0, 0, 0)),
            rulings=("RUL.COMPONENTS.PROVINCE_TILES", "RUL.COMPONENTS.BONUS_MIX"),
        ),
        case(
            "TM.REWARD.CROWN.PALACE/any-city",
            "The crown palace goes in any city of the province, occupied or not.",
            run(
                with_palaces(table(("red-05",), ("yellow-19",), order=B_FIRST), ("B1", 2)),
                "withdraw",
            ),
            actions({"crown B1", "crown B2", "crown B3", "crown B4"}, "all four cities of B"),
            refused("palace B2", "TM.REWARD.INFLUENCE.PALACE", "no normal palace is owed"),
            clauses=("TM.REWARD.CROWN.TAKE", "TM.REWARD.CROWN.OCCUPIED"),
        ),
        case(
            "TM.REWARD.CROWN.NO_BONUS/crown-on-fortress",
            "The crown palace on a fortress does not take its bonus tile.",
            crown_b,
            ok(
                "crown B3",
                "1 point for the crown palace, the +2 tile stays",
                (1, 0, 0, 0),
                {
                    "palaces": [["B3", 0, True]],
                    "bonus_on_board": {"B3": "bonus-01"},
                },
            ),
            clauses=("TM.REWARD.CROWN.PALACE",),
            rulings=("RUL.CROWN.COUNTS_AS_PALACE",),
        ),
        case(
            "TM.REWARD.CROWN.OCCUPIED/beside-another",
            "The crown palace may join another player's palace.",
            run(with_palaces(table(("red-05",), ("yellow-19",)), ("A1", 2)), "withdraw"),
            ok(
                "crown A1",
                "A1 holds both",
                (1, 0, 0, 0),
                {"palaces": [["A1", 0, True], ["A1", 2, False]]},
            ),
        ),
        case(
            "TM.REWARD.CROWN.LATER_NORMAL/takes-the-waiting-bonus",
            "A later normal palace of another player beside a crown palace takes the bonus.",
            rival_beside_crown_on_b3(("yellow-07", "white-01")),
            ok(
                "palace B3",
                "seat 1 (1 elephant against none left): +2 from the tile, then province "
                "tile 1 (1), then 1 for its palace",
                (0, 4, 0, 0),
                {
                    "bonus_on_board": {"C1": "bonus-02"},
                    "palaces": [["B3", 0, True], ["B3", 1, False]],
                },
            ),
            clauses=("TM.REWARD.CROWN.NO_BONUS", "TM.REWARD.FORTRESS.BONUS"),
        ),
        case(
            "TM.REWARD.CROWN.OWN_NORMAL_LATER/forbidden-by-default",
            "A normal palace may not join its owner's crown palace (default).",
            run(table(CROWN_AND_VIZIER, ("yellow-19",), order=B_FIRST), "withdraw", "crown B3"),
            actions({"palace B1", "palace B2", "palace B4"}, "B3 is refused"),
            refused("palace B3", "RUL.CROWN.OWN_PALACE_BESIDE_CROWN", "beside its own crown"),
            clauses=("TM.REWARD.PLACEMENT_ORDER",),
            rulings=("RUL.CROWN.OWN_PALACE_BESIDE_CROWN",),
        ),
        case(
            "RUL.CROWN.OWN_PALACE_BESIDE_CROWN/option-allowed",
            "Option allowed: a normal palace may join its owner's crown palace and takes "
            "the bonus under it.",
            run(
                table(
                    CROWN_AND_VIZIER,
                    ("yellow-19",),
                    order=B_FIRST,
                    rules=RuleSet(own_palace_beside_own_crown=Permission.ALLOWED),
                ),
                "withdraw",
                "crown B3",
            ),
            actions({"palace B1", "palace B2", "palace B3", "palace B4"}, "B3 is allowed"),
            ok("palace B3", "+2 from the tile, 1 for the palaces", (3, 0, 0, 0)),
            clauses=("TM.REWARD.CROWN.OWN_NORMAL_LATER", "TM.REWARD.FORTRESS.BONUS"),
        ),
        case(
            "TM.REWARD.CROWN.BESIDE_OWN/allowed-by-default",
            "The crown palace may join its owner's palace (default).",
            run(table(CROWN_AND_VIZIER, ("yellow-19",), order=B_FIRST), "withdraw", "palace B1"),
            actions({"crown B1", "crown B2", "crown B3", "crown B4"}, "B1 included"),
            ok(
                "crown B1",
                "both palaces in B1; 1 point for province B",
                (1, 0, 0, 0),
                {"palaces": [["B1", 0, False], ["B1", 0, True]]},
            ),
            rulings=("RUL.CROWN.BESIDE_OWN_PALACE",),
        ),
        case(
            "RUL.CROWN.BESIDE_OWN_PALACE/option-forbidden",
            "Option forbidden: the crown palace may not join its owner's palace.",
            run(
                table(
                    CROWN_AND_VIZIER,
                    ("yellow-19",),
                    order=B_FIRST,
                    rules=RuleSet(crown_beside_own_palace=Permission.FORBIDDEN),
                ),
                "withdraw",
                "palace B1",
            ),
            actions({"crown B2", "crown B3", "crown B4"}, "B1 refused"),
            refused("crown B1", "RUL.CROWN.BESIDE_OWN_PALACE", "beside its own palace"),
            clauses=("TM.REWARD.CROWN.BESIDE_OWN",),
        ),
        case(
            "TM.REWARD.PLACEMENT_ORDER/free-order",
            "The player chooses the order of the crown palace and the normal palaces.",
            run(table(CROWN_AND_VIZIER, ("yellow-19",)), "withdraw"),
            actions(
                {f"crown A{i}" for i in range(1, 5)} | {f"palace A{i}" for i in range(1, 5)},
                "either first",
            ),
            ok("crown A2", "crown first", (0, 0, 0, 0), {"step": "place"}),
            ok("palace A1", "palace first", (0, 0, 0, 0), {"step": "place"}),
            rulings=("RUL.CROWN.PLACEMENT_ORDER",),
        ),
        case(
            "TM.REWARD.ELEPHANT.PROVINCE/two-elephants",
            "The elephant majority takes the province tile, scored at once without palaces.",
            table(("red-19",), ("yellow-07",)),
            ok(
                "withdraw",
                "province tile 1 shows one good: 1 point",
                (1, 0, 0, 0),
                {
                    "court_province_tile": None,
                    "palaces": [],
                    "seats": {"0": {"province_tiles": ["province-01"]}},
                },
            ),
            clauses=("TM.SCORE.PROVINCE",),
        ),
    ]
