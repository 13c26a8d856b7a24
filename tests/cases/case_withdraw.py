"""Position cases: withdrawing (majorities, discarding, taking cards from the display).

Positions and expected values follow ``tests/rules/test_withdraw.py``; the hands are
``SMALL_HANDS`` and the display ``PLAIN_DISPLAY`` of ``tests/rules/positions.py``.
"""

from __future__ import annotations

from itertools import combinations

from casekit import Case, actions, case, ok, refused
from positions import PLAIN_DISPLAY, SMALL_HANDS, run, table, with_deck_top, with_hand
from scenes import last_seat_alone, withdrawn

from tajmahal.model import MajorityScope, RuleSet, WithdrawWithoutPlaying

ALL_INFLUENCE = ["vizier", "general", "monk", "princess"]
DISPLAY = PLAIN_DISPLAY[:7]


def cases() -> list[Case]:
    everyone_out = withdrawn(table(("red-19",)), 1, 2, 3)
    return [
        case(
            "TM.WITHDRAW.MAJORITY.STRICT/more-viziers-win",
            "Two viziers against one win the vizier; tied elephants leave the province tile.",
            table(("red-07", "white-01"), ("yellow-07",)),
            ok(
                "withdraw",
                "seat 0 wins the vizier and owes one palace",
                (0, 0, 0, 0),
                {
                    "step": "place",
                    "court_influence": ["general", "monk", "princess"],
                    "court_province_tile": "province-01",
                    "seats": {"0": {"influence": ["vizier"]}},
                    "withdrawal": {"palaces_owed": 1, "crown_owed": False, "province_won": None},
                },
            ),
            clauses=("TM.WITHDRAW.COMPARE", "TM.REWARD.INFLUENCE.TILE"),
        ),
        case(
            "TM.WITHDRAW.MAJORITY.STRICT/tie-wins-nothing",
            "A tie is not a majority: nothing is won.",
            table(("red-07",), ("yellow-07",), ("green-08",)),
            ok(
                "withdraw",
                "seat 0 ties seats 1 and 2",
                (0, 0, 0, 0),
                {
                    "step": "take",
                    "court_influence": ALL_INFLUENCE,
                    "court_province_tile": "province-01",
                    "seats": {"0": {"influence": []}},
                },
            ),
        ),
        case(
            "TM.WITHDRAW.MAJORITY.ZERO/elephants-only-alone",
            "Zero symbols never win a force, even with nobody left to compare with.",
            everyone_out,
            ok(
                "withdraw",
                "seat 0 shows two elephants and nothing else; it wins the province tile only",
                (1, 0, 0, 0),
                {
                    "court_influence": ALL_INFLUENCE,
                    "crown_in_court": True,
                    "seats": {"0": {"influence": [], "province_tiles": ["province-01"]}},
                },
            ),
            clauses=("TM.REWARD.ELEPHANT.PROVINCE",),
        ),
        case(
            "TM.WITHDRAW.MAJORITY.ZERO/nobody-showed",
            "A force nobody showed is won by nobody.",
            table(("red-07",), ("yellow-19",)),
            ok(
                "withdraw",
                "seat 0 wins the vizier only",
                (0, 0, 0, 0),
                {
                    "court_influence": ["general", "monk", "princess"],
                    "seats": {"0": {"influence": ["vizier"]}},
                },
            ),
            clauses=("TM.WITHDRAW.COMPARE",),
        ),
        case(
            "TM.WITHDRAW.MAJORITY.REMAINING/tie-broken-by-withdrawal",
            "A tie breaks when a tied player withdraws: the cards discarded no longer count.",
            run(table(("red-07",), ("yellow-07",)), "withdraw", "take white-06 white-07"),
            ok(
                "withdraw",
                "seat 1 now wins the vizier and the province tile (scored after its palace)",
                (0, 0, 0, 0),
                {
                    "seats": {"1": {"influence": ["vizier"]}},
                    "withdrawal": {"province_won": "province-01", "palaces_owed": 1},
                },
            ),
            clauses=("TM.WITHDRAW.DISCARDED_NO_INFLUENCE", "TM.WITHDRAW.MAJORITY.STRICT"),
            rulings=("RUL.MAJORITY.REMAINING_PLAYERS", "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL"),
        ),
        case(
            "RUL.MAJORITY.REMAINING_PLAYERS/option-all",
            "Option all: players who withdrew earlier still count with the cards they had "
            "played, so the tie stays.",
            run(
                table(("red-07",), ("yellow-07",), rules=RuleSet(majority_scope=MajorityScope.ALL)),
                "withdraw",
                "take white-06 white-07",
            ),
            ok(
                "withdraw",
                "seat 1 still ties seat 0: nothing won",
                (0, 0, 0, 0),
                {"court_province_tile": "province-01", "seats": {"1": {"influence": []}}},
            ),
            clauses=("TM.WITHDRAW.MAJORITY.REMAINING",),
        ),
        case(
            "TM.WITHDRAW.ANY_COMBINATION/all-six",
            "One withdrawal can win all four influence tiles, the crown and the province.",
            table(("red-01", "red-03", "red-05")),
            ok(
                "withdraw",
                "seat 0 wins everything",
                (0, 0, 0, 0),
                {
                    "court_influence": [],
                    "crown_in_court": False,
                    "court_province_tile": None,
                    "seats": {"0": {"influence": ALL_INFLUENCE}},
                    "withdrawal": {
                        "palaces_owed": 4,
                        "crown_owed": True,
                        "province_won": "province-01",
                    },
                },
            ),
            clauses=(
                "TM.REWARD.INFLUENCE.TILE",
                "TM.REWARD.CROWN.TAKE",
                "TM.REWARD.ELEPHANT.PROVINCE",
            ),
        ),
        case(
            "TM.WITHDRAW.DISCARD/after-the-last-palace",
            "Played cards are discarded once the rewards are placed and scored; a played "
            "special card returns to the hand.",
            run(
                table(("red-16", "special-plus-two", "red-08", "white-01")), "withdraw", "palace A1"
            ),
            ok(
                "palace A2",
                "the second palace; scoring: province tile 1 (rice, 1) for two elephants, "
                "1 for the palaces in A; then the discard",
                (2, 0, 0, 0),
                {
                    "step": "take",
                    "discard": ["red-08", "red-16", "white-01"],
                    "seats": {
                        "0": {
                            "played": [],
                            "hand": ["red-02", "red-03", "red-14", "special-plus-two"],
                        }
                    },
                },
            ),
            clauses=("TM.SPECIAL.RETURN_TO_HAND", "TM.SCORE.ORDER"),
        ),
        case(
            "TM.WITHDRAW.PICK_TWO/any-pair",
            "The withdrawing player chooses any two display cards: 21 pairs from 7.",
            run(table(("red-07",), ("yellow-19",)), "withdraw", "palace A1"),
            actions(
                {"take " + " ".join(pair) for pair in combinations(DISPLAY, 2)},
                "every pair of the seven display cards",
            ),
            ok(
                "take white-08 white-11",
                "seat 0 takes two; seat 1 moves",
                (0, 0, 0, 0),
                {
                    "step": "play",
                    "to_move": 1,
                    "display": ["white-06", "white-07", "white-09", "white-10", "white-12"],
                    "seats": {
                        "0": {"hand": ["red-02", "red-03", "red-14", "white-08", "white-11"]}
                    },
                },
            ),
        ),
        case(
            "TM.REWARD.ELEPHANT.PROVINCE/five-players",
            "Five players: two elephants against none take the province tile at once.",
            table(("red-19",), players=5),
            ok(
                "withdraw",
                "province tile 1 (1 point); no palace; the take step follows",
                (1, 0, 0, 0, 0),
                {"step": "take", "seats": {"0": {"province_tiles": ["province-01"]}}},
            ),
            clauses=("TM.SCORE.PROVINCE",),
        ),
        case(
            "TM.WITHDRAW.PICK_TWO/nine-card-display",
            "Five players: any two of the nine display cards, 36 pairs.",
            run(table(("red-19",), players=5), "withdraw"),
            actions(
                {"take " + " ".join(pair) for pair in combinations(sorted(PLAIN_DISPLAY), 2)},
                "every pair of the nine display cards",
            ),
            clauses=("TM.SETUP.DISPLAY.SIZE",),
        ),
        case(
            "TM.WITHDRAW.PICK_TWO/wrong-takes",
            "One card when two are left, a card not in the display, or another action "
            "are refused at a take step.",
            run(table(("red-19",)), "withdraw"),
            refused("take white-08", "TM.WITHDRAW.PICK_TWO", "one card of seven"),
            refused("take red-01 white-08", "TM.WITHDRAW.PICK_TWO", "a card not in the display"),
            refused("withdraw", "TM.WITHDRAW.PICK_TWO", "withdrawing again"),
        ),
        case(
            "TM.WITHDRAW.LAST_TAKES_ONE/last-card",
            "The last player takes the last display card without a choice; the visit ends.",
            run(last_seat_alone(), "play violet-14", "withdraw"),
            ok(
                "palace A1",
                "seat 3 (monk and elephant, alone) places its monk palace: province tile 1 "
                "(1) and the palace (1); it takes white-12; visit 2 starts",
                (0, 0, 0, 2),
                {"visit": 2, "step": "play", "to_move": 1},
            ),
            clauses=("TM.VISIT.END", "TM.TURN.VISIT_ENDS"),
        ),
        case(
            "TM.WITHDRAW.WITHOUT_PLAYING/extra-card",
            "Withdrawing without having played draws the top card of the deck (default).",
            with_deck_top(table(), ["yellow-21"]),
            ok(
                "withdraw",
                "seat 0 draws yellow-21 and wins nothing",
                (0, 0, 0, 0),
                {
                    "step": "take",
                    "palaces": [],
                    "seats": {"0": {"hand": ["red-02", "red-03", "red-14", "yellow-21"]}},
                },
            ),
            clauses=("TM.WITHDRAW.WITHOUT_PLAYING.NOTHING",),
            rulings=("RUL.WITHDRAW.WITHOUT_PLAYING",),
        ),
        case(
            "RUL.WITHDRAW.WITHOUT_PLAYING/option-none",
            "Option none: withdrawing without having played draws nothing.",
            with_deck_top(
                table(rules=RuleSet(withdraw_without_playing=WithdrawWithoutPlaying.NONE)),
                ["yellow-21"],
            ),
            ok(
                "withdraw",
                "seat 0 keeps its hand; yellow-21 stays on the deck",
                (0, 0, 0, 0),
                {"step": "take", "seats": {"0": {"hand": list(SMALL_HANDS[0])}}},
            ),
            clauses=("TM.WITHDRAW.WITHOUT_PLAYING",),
        ),
        case(
            "TM.WITHDRAW.WITHOUT_PLAYING.NOTHING/last-alone",
            "The last player withdrawing without a card wins nothing; the visit ends.",
            run(
                table((), ("yellow-07",)),
                "withdraw",
                "take white-06 white-07",
                "withdraw",
                "palace A1",
                "take white-08 white-09",
                "withdraw",
                "take white-10 white-11",
            ),
            ok(
                "withdraw",
                "seat 3 withdraws alone with no card played",
                (0, 0, 0, 0),
                {"visit": 2, "seats": {"3": {"influence": []}}},
            ),
            clauses=("TM.WITHDRAW.MAJORITY.ZERO",),
        ),
        case(
            "TM.WITHDRAW.FINAL/skipped-after",
            "A player who has withdrawn plays no more in the visit.",
            run(
                table(("red-07",)),
                "withdraw",
                "palace A1",
                "take white-06 white-07",
                "play yellow-02",
                "play green-02",
            ),
            ok("play violet-02", "seat 3 plays; seat 0 is skipped", (0, 0, 0, 0), {"to_move": 1}),
            clauses=("TM.TURN.WITHDRAWN_SKIPPED",),
        ),
        case(
            "TM.WITHDRAW.ONCE_PER_VISIT/won-forces-gone",
            "A force won once cannot be won again in the visit, whatever is shown later.",
            run(
                with_hand(
                    table(("red-07", "red-05", "white-01"), ("yellow-07",)),
                    1,
                    (*SMALL_HANDS[1], "white-05"),
                ),
                "withdraw",
                "palace A1",
                "crown A2",
                "take white-06 white-07",
                "play yellow-02 white-05",
                "play green-02",
                "play violet-02",
            ),
            ok(
                "withdraw",
                "seat 1 shows more viziers and a Grand Mogul than anyone left",
                (0, 0, 0, 0),
                {"seats": {"1": {"influence": [], "province_tiles": []}}},
            ),
            clauses=("TM.REWARD.CROWN.TAKE",),
        ),
    ]
