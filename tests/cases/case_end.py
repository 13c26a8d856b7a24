"""Position cases: the end of the game (the twelfth visit, hand points, the winners).

Positions and expected values follow ``tests/rules/test_end.py`` and
``tests/rulings/test_ruling_end.py``. Hand points (worked by hand for each case): 1 per
special card, 1 per white card, and 1 per card of the colour the player holds most of
(one colour, counted once on a tie).
"""

from __future__ import annotations

from casekit import Case, actions, case, ok, refused
from positions import (
    at_visit,
    finish_visit,
    game,
    run,
)
from scenes import last_visit, last_withdrawal

HANDS: tuple[tuple[str, tuple[tuple[str, ...], ...], tuple[int, int, int], str], ...] = (
    (
        "tied-winners",
        (("white-01",), ("red-01", "red-02", "green-01"), ("yellow-01",)),
        (1, 2, 1),
        "a white card 1; red 2; yellow 1",
    ),
    (
        "no-coloured-card",
        ((), ("special-plus-two", "white-01", "white-06"), ()),
        (0, 3, 0),
        "a special and two white cards, no colour: 3",
    ),
    (
        "largest-colour-tie",
        ((), ("green-01", "green-02", "green-03", "red-01", "red-02", "red-03", "white-01"), ()),
        (0, 4, 0),
        "green and red tie at 3, counted once, plus a white card: 4",
    ),
    (
        "worked-example",
        (
            (
                "special-elephant",
                "white-01",
                "white-06",
                "red-01",
                "red-02",
                "red-03",
                "green-01",
                "green-02",
                "violet-01",
            ),
            (
                "special-mogul",
                "white-07",
                "yellow-01",
                "yellow-02",
                "violet-02",
                "violet-03",
                "red-04",
            ),
            (
                "special-plus-two",
                "green-04",
                "green-05",
                "green-06",
                "green-07",
                "green-08",
                "red-05",
                "red-06",
            ),
        ),
        (6, 4, 6),
        "1 + 2 + red 3; 1 + 1 + a 2-2 tie 2; 1 + 0 + green 5",
    ),
    (
        "empty-hands",
        ((), (), ()),
        (0, 0, 0),
        "nothing held: 0",
    ),
    (
        "four-specials",
        (
            ("special-plus-two", "special-mogul", "special-elephant", "special-colour-change"),
            (),
            (),
        ),
        (4, 0, 0),
        "four special cards: 4",
    ),
    (
        "one-of-each-colour",
        (("red-01", "yellow-01", "green-01", "violet-01"), (), ()),
        (1, 0, 0),
        "one card of each colour: the largest colour is 1",
    ),
    (
        "all-white",
        ((), ("white-01", "white-02", "white-03", "white-04", "white-05"), ()),
        (0, 5, 0),
        "five white cards: 5",
    ),
)


def cases() -> list[Case]:
    found = [
        case(
            f"TM.END.HAND.LARGEST_COLOUR/{slug}",
            f"Hand points when the last player's withdrawal ends the game: {text}.",
            last_withdrawal(hands),
            ok(
                "withdraw",
                "the game ends and only the hands score",
                points,
                {"step": "over", "to_move": None},
            ),
            clauses=("TM.END.HAND.SPECIAL", "TM.END.HAND.WHITE", "TM.END.AFTER_TWELVE"),
            rulings=("RUL.END.LARGEST_COLOUR",),
        )
        for slug, hands, points, text in HANDS
    ]
    start = last_visit((10, 12, 14))
    one = run(start, "withdraw", "take white-02 white-03")
    two = run(one, "withdraw", "take green-02 white-04")
    found += [
        case(
            "TM.END.HAND.INCLUDES_LAST_PICKS/last-withdrawal",
            "The last withdrawal of the game: the extra card and the last display card "
            "are in the hand when hands are scored; influence tiles are worth nothing.",
            two,
            ok(
                "withdraw",
                "seat 2 draws violet-03 and takes red-03; hands: 1 special + 3 white + 2 "
                "red = 6; 1 white + 3 yellow = 4; one card of a colour = 1",
                (6, 4, 1),
                {
                    "step": "over",
                    "seats": {
                        "0": {"score": 16},
                        "1": {"score": 16, "influence": ["vizier", "monk"]},
                        "2": {"score": 15, "hand": ["green-01", "red-03", "violet-03"]},
                    },
                },
            ),
            clauses=("TM.END.LEFTOVER_NO_VALUE", "TM.END.TIE", "TM.END.HAND.LARGEST_COLOUR"),
            rulings=("RUL.END.TIED_WINNERS", "RUL.VISIT.LAST_VISIT_DISPLAY"),
        ),
        case(
            "TM.END.WINNER/higher-score",
            "The player with the most points wins (21 against 16 and 16).",
            run(
                last_visit((10, 12, 20)),
                "withdraw",
                "take white-02 white-03",
                "withdraw",
                "take green-02 white-04",
            ),
            ok(
                "withdraw",
                "final scores 16, 16, 21",
                (6, 4, 1),
                {"step": "over", "seats": {"2": {"score": 21}}},
            ),
            clauses=("TM.END.HAND.LARGEST_COLOUR",),
        ),
        case(
            "TM.END.AFTER_TWELVE/game-over",
            "After the twelfth visit the game is over: no action is legal.",
            finish_visit(finish_visit(at_visit(game(4), 11))),
            actions((), "nothing"),
            refused("withdraw", "TM.END.AFTER_TWELVE", "any action"),
            clauses=("TM.TURN.TWELVE_VISITS",),
        ),
        case(
            "TM.VISIT.NEXT.DISPLAY/last-visit-picks",
            "In visit 12 the withdrawing player picks from the display as in any visit.",
            run(start, "withdraw"),
            actions(
                {
                    "take " + " ".join(sorted(pair))
                    for pair in (
                        (a, b)
                        for i, a in enumerate(
                            ("green-02", "red-03", "white-02", "white-03", "white-04")
                        )
                        for b in ("green-02", "red-03", "white-02", "white-03", "white-04")[i + 1 :]
                    )
                },
                "the 10 pairs of 5 cards",
            ),
            rulings=("RUL.VISIT.LAST_VISIT_DISPLAY",),
            clauses=("TM.WITHDRAW.PICK_TWO",),
        ),
    ]
    return found
