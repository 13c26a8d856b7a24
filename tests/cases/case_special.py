"""Position cases: the four special cards when played.

Positions and expected values follow ``tests/rules/test_special.py``: seat 0 holds
red-01 (vizier, general) and red-02 (general, monk) and the special cards named; seats 1
to 3 hold ``SMALL_HANDS``.
"""

from __future__ import annotations

from casekit import Case, actions, case, ok
from positions import finish_visit, run, with_hand
from scenes import SPECIALS, holding

from tajmahal.model import GameState


def around(state: GameState, first: str) -> GameState:
    """Seat 0 plays ``first``; seats 1 to 3 play their x-02 card."""
    return run(state, first, "play yellow-02", "play green-02", "play violet-02")


def cases() -> list[Case]:
    return [
        case(
            "TM.SPECIAL.ELEPHANT/counts-one-elephant",
            "The elephant card counts as one elephant: it wins the province tile.",
            around(holding("special-elephant"), "play red-01 special-elephant"),
            ok(
                "withdraw",
                "seat 0: vizier (1 to 0) and the province (1 elephant to 0); general tied",
                (0, 0, 0, 0),
                {"withdrawal": {"province_won": "province-01", "palaces_owed": 1}},
            ),
            clauses=("TM.COMP.SPECIALS",),
        ),
        case(
            "TM.SPECIAL.MOGUL/counts-one-mogul",
            "The Grand Mogul card counts as one Grand Mogul: it wins the crown.",
            around(holding("special-mogul"), "play red-01 special-mogul"),
            ok(
                "withdraw",
                "seat 0 wins the crown",
                (0, 0, 0, 0),
                {"crown_in_court": False, "withdrawal": {"crown_owed": True}},
            ),
        ),
        case(
            "TM.SPECIAL.NO_EFFECT_IN_HAND/held-specials",
            "Special cards in hand do nothing: no crown, no province, no points.",
            run(
                holding(*SPECIALS),
                "play red-01",
                "play yellow-14",
                "play green-02",
                "play violet-02",
            ),
            ok(
                "withdraw",
                "seat 0 wins the vizier only",
                (0, 0, 0, 0),
                {
                    "crown_in_court": True,
                    "withdrawal": {"crown_owed": False, "province_won": None},
                },
            ),
        ),
        case(
            "TM.SPECIAL.NO_EFFECT_IN_HAND/plain-play",
            "Playing a coloured card alone while holding +2 scores nothing.",
            holding(*SPECIALS),
            ok("play red-01", "no points", (0, 0, 0, 0)),
        ),
        case(
            "TM.SPECIAL.RETURN_TO_HAND/after-scoring",
            "A played special card returns to its player's hand when the withdrawal is "
            "scored; the coloured card is discarded.",
            run(around(holding("special-elephant"), "play red-01 special-elephant"), "withdraw"),
            ok(
                "palace A1",
                "province tile 1 (1) and the palace (1)",
                (2, 0, 0, 0),
                {
                    "step": "take",
                    "discard": ["red-01"],
                    "seats": {"0": {"hand": ["red-02", "special-elephant"], "played": []}},
                },
            ),
            clauses=("TM.SPECIAL.PLAY_LIKE_WHITE", "TM.WITHDRAW.DISCARD"),
        ),
        case(
            "TM.SPECIAL.ONE_PER_TURN/four-specials-held",
            "Holding all four special cards: each play adds at most one of them.",
            holding(*SPECIALS),
            actions(
                {"play red-01", "play red-02", "withdraw"}
                | {f"play {c} {s}" for c in ("red-01", "red-02") for s in SPECIALS},
                "2 coloured cards x (alone + 4 specials) + withdraw",
            ),
            clauses=("TM.SPECIAL.PLAY_LIKE_WHITE",),
        ),
        case(
            "TM.SPECIAL.PLUS_TWO/played-again",
            "The +2 card scores each time it is played, in a later visit too.",
            run(
                with_hand(
                    finish_visit(run(holding("special-plus-two"), "play red-01 special-plus-two")),
                    0,
                    ("red-03", "special-plus-two"),
                ),
                "play yellow-03",
                "play green-03",
                "play violet-03",
            ),
            ok(
                "play red-03 special-plus-two",
                "two more points in visit 2",
                (2, 0, 0, 0),
                {"visit": 2},
            ),
            clauses=("TM.SCORE.TRACK",),
        ),
    ]
