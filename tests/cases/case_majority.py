"""Position cases: majorities (zero symbols, ties, whom a withdrawing player faces).

Positions and expected values follow ``tests/rulings/test_ruling_majority.py``.
"""

from __future__ import annotations

from casekit import Case, case, ok
from positions import run, table, with_hand
from scenes import THREE_WITHDRAWALS, tied_generals

from tajmahal.model import MajorityScope, RuleSet

ALL_INFLUENCE = ["vizier", "general", "monk", "princess"]


def cases() -> list[Case]:
    alone = run(
        with_hand(table(), 0, ("red-07", "red-08", "red-19")),
        "play red-07",
        *THREE_WITHDRAWALS,
        "play red-08",
    )
    return [
        case(
            "RUL.MAJORITY.ZERO_SYMBOLS/alone-wins-only-what-shown",
            "Alone in the visit, a player still wins only the forces it showed.",
            alone,
            ok(
                "withdraw",
                "seat 0 wins the vizier and the province tile, not the other forces",
                (0, 0, 0, 0),
                {
                    "step": "place",
                    "court_influence": ["general", "monk", "princess"],
                    "crown_in_court": True,
                    "seats": {"0": {"influence": ["vizier"]}},
                    "withdrawal": {
                        "province_won": "province-01",
                        "palaces_owed": 1,
                        "crown_owed": False,
                    },
                },
            ),
            clauses=("TM.WITHDRAW.MAJORITY.ZERO", "TM.TURN.LAST_PLAYER_CONTINUES"),
        ),
        case(
            "RUL.MAJORITY.ZERO_SYMBOLS/alone-places-and-ends",
            "The last player's one palace ends the visit.",
            run(alone, "withdraw"),
            ok(
                "palace A1",
                "province tile 1 (1) and the palace (1); visit 2 starts",
                (2, 0, 0, 0),
                {"visit": 2, "palaces": [["A1", 0, False]]},
            ),
            clauses=("TM.WITHDRAW.MAJORITY.ZERO",),
        ),
        case(
            "RUL.MAJORITY.ZERO_SYMBOLS/nobody-showed-a-monk",
            "Nobody showed a monk, so nobody wins the monk.",
            table(("red-07",), ("yellow-10",), ("green-16",), players=3),
            ok(
                "withdraw",
                "seat 0 wins the vizier; elephants tie",
                (0, 0, 0),
                {
                    "court_influence": ["general", "monk", "princess"],
                    "seats": {"0": {"influence": ["vizier"]}},
                    "withdrawal": {"province_won": None},
                },
            ),
            clauses=("TM.WITHDRAW.MAJORITY.ZERO", "TM.WITHDRAW.MAJORITY.STRICT"),
        ),
        case(
            "RUL.MAJORITY.ZERO_SYMBOLS/last-without-cards",
            "The last player, alone and without cards, wins nothing; every prize stays unwon.",
            run(
                table(players=3),
                "withdraw",
                "take white-06 white-07",
                "withdraw",
                "take white-08 white-09",
            ),
            ok(
                "withdraw",
                "nothing won; visit 2 starts with the court full",
                (0, 0, 0),
                {
                    "visit": 2,
                    "palaces": [],
                    "court_influence": ALL_INFLUENCE,
                    "crown_in_court": True,
                    "seats": {"2": {"influence": [], "province_tiles": []}},
                },
            ),
            clauses=("TM.WITHDRAW.WITHOUT_PLAYING.NOTHING",),
        ),
        case(
            "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL/first-to-leave",
            "A tie is no majority for the first tied player to leave.",
            tied_generals(),
            ok(
                "withdraw",
                "seat 0 wins nothing and goes straight to the display",
                (0, 0, 0),
                {
                    "step": "take",
                    "court_influence": ALL_INFLUENCE,
                    "withdrawal": {"palaces_owed": 0},
                },
            ),
            clauses=("TM.WITHDRAW.MAJORITY.STRICT",),
        ),
        case(
            "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL/remaining-player-wins",
            "Once the tied player has left, the other's two generals beat none.",
            run(
                tied_generals(),
                "withdraw",
                "take white-06 white-07",
                "play yellow-19",
                "play green-03",
            ),
            ok(
                "withdraw",
                "seat 1 wins the general and the province tile (4 elephants to 0)",
                (0, 0, 0),
                {
                    "step": "place",
                    "to_move": 1,
                    "court_influence": ["vizier", "monk", "princess"],
                    "withdrawal": {"palaces_owed": 1, "province_won": "province-01"},
                },
            ),
            clauses=("TM.WITHDRAW.DISCARDED_NO_INFLUENCE", "TM.WITHDRAW.MAJORITY.REMAINING"),
        ),
        case(
            "RUL.MAJORITY.REMAINING_PLAYERS/option-remaining",
            "Option remaining (default): the discarded generals of a withdrawn player no "
            "longer count.",
            run(tied_generals(), "withdraw", "take white-06 white-07"),
            ok(
                "withdraw",
                "seat 1 wins the general",
                (0, 0, 0),
                {
                    "court_influence": ["vizier", "monk", "princess"],
                    "seats": {"1": {"influence": ["general"]}},
                },
            ),
            clauses=("TM.WITHDRAW.MAJORITY.REMAINING", "TM.WITHDRAW.COMPARE"),
        ),
        case(
            "RUL.MAJORITY.REMAINING_PLAYERS/option-all-tie-stays",
            "Option all: the withdrawn player's two generals still tie with seat 1's two.",
            run(
                tied_generals(RuleSet(majority_scope=MajorityScope.ALL)),
                "withdraw",
                "take white-06 white-07",
            ),
            ok(
                "withdraw",
                "seat 1 wins nothing",
                (0, 0, 0),
                {"step": "take", "court_influence": ALL_INFLUENCE, "palaces": []},
            ),
            clauses=("TM.WITHDRAW.MAJORITY.REMAINING", "TM.WITHDRAW.COMPARE"),
        ),
    ]
