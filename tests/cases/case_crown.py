"""Position cases: the crown palace (placement options, order, palaces without a city).

Positions and expected values follow ``tests/rulings/test_ruling_crown.py``. Seat 0
plays red-05 (elephant, Grand Mogul) and white-01 (vizier): it wins the vizier and the
crown; seat 1's yellow-19 (two elephants) keeps the province tile from it.
"""

from __future__ import annotations

from casekit import Case, actions, case, ok, refused
from positions import finish_visit, run, table, to_move, with_palaces, with_played
from scenes import (
    TWO_ELEPHANTS,
    VIZIER_AND_CROWN,
    rival_beside_crown_on_b3,
    vizier_and_crown,
)

from tajmahal.model import Permission, RuleSet

B_FIRST = "BACDEFGHIJK"
FORBID_CROWN_BESIDE = RuleSet(crown_beside_own_palace=Permission.FORBIDDEN)
ALLOW_PALACE_BESIDE = RuleSet(own_palace_beside_own_crown=Permission.ALLOWED)


def cases() -> list[Case]:
    later = finish_visit(run(table(("red-05",), TWO_ELEPHANTS), "withdraw", "crown A2"))
    later = to_move(with_played(with_played(later, 0, ("red-07",)), 1, ("yellow-19",)), 0)
    all_forces = run(table(("red-01", "red-03", "red-05"), TWO_ELEPHANTS), "withdraw")
    hemmed = run(
        with_palaces(
            table(VIZIER_AND_CROWN, TWO_ELEPHANTS, rules=FORBID_CROWN_BESIDE),
            ("A1", 0),
            ("A2", 0),
            ("A3", 0),
        ),
        "withdraw",
    )
    return [
        case(
            "RUL.REWARD.NO_LEGAL_CITY/unplaceable-crown",
            "Option forbidden, and the player's palaces fill province A once its last "
            "palace is placed: the crown palace has no city and is forfeited.",
            hemmed,
            actions(
                {"palace A4", "crown A4"},
                "A4 is the only city without the player's palace",
            ),
            ok(
                "palace A4",
                "the crown cannot be placed; 1 point for province A",
                (1, 0, 0, 0),
                {"step": "take", "crown_in_court": False},
            ),
            clauses=("TM.REWARD.CROWN.PALACE", "TM.REWARD.CROWN.BESIDE_OWN"),
            rulings=("RUL.CROWN.BESIDE_OWN_PALACE",),
        ),
        case(
            "RUL.REWARD.NO_LEGAL_CITY/crown-first-leaves-palace-a-city",
            "Option forbidden: placing the crown first in A4 leaves the normal palace "
            "without a city instead (not beside its own crown palace by default).",
            hemmed,
            ok(
                "crown A4",
                "the palace is forfeited; 1 point for province A",
                (1, 0, 0, 0),
                {
                    "step": "take",
                    "palaces": [
                        ["A1", 0, False],
                        ["A2", 0, False],
                        ["A3", 0, False],
                        ["A4", 0, True],
                    ],
                },
            ),
            clauses=("TM.REWARD.CROWN.OWN_NORMAL_LATER", "TM.REWARD.PLACEMENT_ORDER"),
            rulings=("RUL.CROWN.BESIDE_OWN_PALACE", "RUL.CROWN.OWN_PALACE_BESIDE_CROWN"),
        ),
        case(
            "RUL.CROWN.BESIDE_OWN_PALACE/option-allowed",
            "Option allowed (default): the crown palace may join the player's own palace.",
            run(vizier_and_crown(), "palace A1"),
            actions({"crown A1", "crown A2", "crown A3", "crown A4"}, "A1 included"),
            ok(
                "crown A1",
                "both palaces of seat 0 in A1; 1 point for province A",
                (1, 0, 0, 0),
                {"palaces": [["A1", 0, False], ["A1", 0, True]]},
            ),
            clauses=("TM.REWARD.CROWN.BESIDE_OWN", "TM.REWARD.CROWN.OCCUPIED"),
        ),
        case(
            "RUL.CROWN.BESIDE_OWN_PALACE/option-forbidden-beside-other",
            "Option forbidden: not beside the player's own palace, but beside another's.",
            run(
                with_palaces(
                    table(VIZIER_AND_CROWN, TWO_ELEPHANTS, rules=FORBID_CROWN_BESIDE), ("A2", 1)
                ),
                "withdraw",
                "palace A1",
            ),
            actions({"crown A2", "crown A3", "crown A4"}, "A1 refused, A2 (seat 1) allowed"),
            refused("crown A1", "RUL.CROWN.BESIDE_OWN_PALACE", "beside its own palace"),
            ok(
                "crown A2",
                "the crown palace joins seat 1's palace",
                (1, 0, 0, 0),
                {"palaces": [["A1", 0, False], ["A2", 0, True], ["A2", 1, False]]},
            ),
            clauses=("TM.REWARD.CROWN.BESIDE_OWN", "TM.REWARD.CROWN.OCCUPIED"),
        ),
        case(
            "RUL.CROWN.OWN_PALACE_BESIDE_CROWN/option-forbidden",
            "Option forbidden (default): the player's palace may not join its crown palace; "
            "the +2 tile under the crown stays.",
            run(vizier_and_crown(B_FIRST), "crown B3"),
            actions({"palace B1", "palace B2", "palace B4"}, "B3 refused"),
            refused("palace B3", "RUL.CROWN.OWN_PALACE_BESIDE_CROWN", "beside its own crown"),
            clauses=("TM.REWARD.CROWN.OWN_NORMAL_LATER", "TM.REWARD.CROWN.NO_BONUS"),
        ),
        case(
            "RUL.CROWN.OWN_PALACE_BESIDE_CROWN/option-allowed-takes-bonus",
            "Option allowed: the player's palace joins its crown palace and takes the +2.",
            run(vizier_and_crown(B_FIRST, ALLOW_PALACE_BESIDE), "crown B3"),
            ok(
                "palace B3",
                "+2 from the tile and 1 for province B",
                (3, 0, 0, 0),
                {
                    "palaces": [["B3", 0, False], ["B3", 0, True]],
                    "bonus_on_board": {"C1": "bonus-02"},
                },
            ),
            clauses=("TM.REWARD.CROWN.OWN_NORMAL_LATER", "TM.REWARD.FORTRESS.BONUS"),
        ),
        case(
            "RUL.CROWN.OWN_PALACE_BESIDE_CROWN/other-player-joins",
            "Another player's palace may join a crown palace and takes the bonus under it.",
            rival_beside_crown_on_b3(("yellow-13",)),
            ok(
                "palace B3",
                "seat 1 (the monk; elephants tied with nobody left: 1 to 0, province tile 1): "
                "+2, province tile 1, palace 1",
                (0, 4, 0, 0),
                {"palaces": [["B3", 0, True], ["B3", 1, False]]},
            ),
            clauses=("TM.REWARD.CROWN.LATER_NORMAL", "TM.REWARD.CROWN.NO_BONUS"),
        ),
        case(
            "RUL.CROWN.PLACEMENT_ORDER/palace-first-takes-bonus",
            "Palace first on the fortress takes the +2; the crown may then join it.",
            vizier_and_crown(B_FIRST),
            ok("palace B3", "+2 at once", (2, 0, 0, 0), {"step": "place"}),
            clauses=("TM.REWARD.PLACEMENT_ORDER", "TM.REWARD.FORTRESS.BONUS"),
        ),
        case(
            "RUL.CROWN.PLACEMENT_ORDER/crown-after-palace",
            "After the palace took the bonus, the crown palace may join it (default).",
            run(vizier_and_crown(B_FIRST), "palace B3"),
            actions({"crown B1", "crown B2", "crown B3", "crown B4"}, "any city of B"),
            ok(
                "crown B3",
                "1 for province B",
                (1, 0, 0, 0),
                {"palaces": [["B3", 0, False], ["B3", 0, True]]},
            ),
            clauses=("TM.REWARD.PLACEMENT_ORDER", "TM.REWARD.CROWN.BESIDE_OWN"),
        ),
        case(
            "RUL.CROWN.PLACEMENT_ORDER/crown-first",
            "Crown first on the fortress: no bonus, and the player's palace may not follow it "
            "there (default).",
            vizier_and_crown(B_FIRST),
            ok(
                "crown B3",
                "no points yet; the +2 tile stays",
                (0, 0, 0, 0),
                {"step": "place", "bonus_on_board": {"B3": "bonus-01", "C1": "bonus-02"}},
            ),
            clauses=("TM.REWARD.PLACEMENT_ORDER", "TM.REWARD.CROWN.NO_BONUS"),
        ),
        case(
            "RUL.CROWN.COUNTS_AS_PALACE/alone-scores-province",
            "A crown palace alone earns the current province's point.",
            run(table(("red-05",), TWO_ELEPHANTS), "withdraw"),
            actions({"crown A1", "crown A2", "crown A3", "crown A4"}, "the crown only"),
            ok("crown A1", "1 point for province A", (1, 0, 0, 0), {"crown_in_court": False}),
            clauses=("TM.REWARD.CROWN.PALACE", "TM.SCORE.PALACE.CURRENT"),
        ),
        case(
            "RUL.CROWN.COUNTS_AS_PALACE/links-a-later-chain",
            "A crown palace from an earlier visit links a chain: B1-A2.",
            later,
            ok(
                "withdraw",
                "seat 0 wins the vizier (elephants tie 1 to 2: no province)",
                (0, 0, 0, 0),
                {"step": "place", "withdrawal": {"palaces_owed": 1, "province_won": None}},
            ),
            clauses=("TM.SCORE.PALACE.CHAIN",),
        ),
        case(
            "RUL.CROWN.COUNTS_AS_PALACE/chain-scores",
            "The palace in B1 reaches A through the crown palace in A2: 2 points.",
            run(later, "withdraw"),
            ok("palace B1", "1 for B and 1 for A", (2, 0, 0, 0)),
            clauses=("TM.SCORE.PALACE.CHAIN", "TM.VISIT.NEXT.CROWN"),
        ),
        case(
            "RUL.REWARD.NO_LEGAL_CITY/fourth-palace-forfeit",
            "With the crown and three palaces placed, the fourth palace has no city: the "
            "withdrawal goes on, the tile is kept.",
            run(all_forces, "crown A1", "palace A2", "palace A3"),
            actions({"palace A4"}, "A4 is the last empty city"),
            ok(
                "palace A4",
                "the fourth palace is forfeited; 1 point for province A",
                (1, 0, 0, 0),
                {
                    "step": "take",
                    "seats": {"0": {"influence": ["vizier", "general", "monk", "princess"]}},
                },
            ),
            clauses=("TM.REWARD.INFLUENCE.PALACE", "TM.REWARD.INFLUENCE.TILE"),
        ),
        case(
            "RUL.REWARD.NO_LEGAL_CITY/all-forces-owed",
            "Four influence tiles and the crown: four palaces and the crown palace owed.",
            table(("red-01", "red-03", "red-05"), TWO_ELEPHANTS),
            ok(
                "withdraw",
                "palaces_owed 4, crown owed",
                (0, 0, 0, 0),
                {"withdrawal": {"palaces_owed": 4, "crown_owed": True}},
            ),
            clauses=("TM.REWARD.INFLUENCE.TILE", "TM.REWARD.CROWN.TAKE"),
        ),
    ]
