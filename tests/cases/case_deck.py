"""Position cases: running out of cards, reshuffles and a short display.

Positions and expected values follow ``tests/rulings/test_ruling_deck.py``
(RUL.DECK.EXHAUSTED, RUL.DECK.RESHUFFLE_TIMING, RUL.DISPLAY.SHORT).
"""

from __future__ import annotations

from casekit import Case, actions, case, ok, refused
from positions import (
    game,
    run,
    table,
    with_deck,
    with_display,
    with_played,
)
from scenes import card_tile_on_b3, last_four_cards, stow, withdrawn

from tajmahal.engine import chance_cards


def cases() -> list[Case]:
    exhausted = last_four_cards()
    bonus_nothing = run(card_tile_on_b3(("red-07",)), "withdraw")
    no_extra = stow(with_deck(game(4), ()), keeper=3)
    display_draw = with_deck(withdrawn(with_played(game(4), 0, ("red-07",)), 1, 2, 3), ())
    played = ("red-07", "white-01", "red-08")
    mid = card_tile_on_b3(played, keep_discard=6)
    mid_shuffle = run(mid, "withdraw", "palace B3")
    discarded = chance_cards(mid_shuffle)
    short = with_display(
        table(("red-02",), ("yellow-02",), ("green-02",), ("violet-02",)),
        ("white-06", "white-07", "white-08"),
    )
    short3 = with_display(
        table(("red-02",), ("yellow-02",), ("green-02",), players=3),
        ("white-06", "white-07", "white-08", "white-09"),
    )
    return [
        case(
            "RUL.DECK.EXHAUSTED/short-next-display",
            "Deck and discard pile short: the last player's extra card and the last display "
            "card are taken, and the next display holds the 3 cards left.",
            exhausted,
            ok(
                "withdraw",
                "seat 0 draws red-21, takes white-06; visit 2 starts with a 3-card display",
                (0, 0, 0, 0),
                {
                    "visit": 2,
                    "display": ["green-21", "violet-21", "yellow-21"],
                    "deck": [],
                    "discard": [],
                    "step": "play",
                    "to_move": 1,
                },
            ),
            clauses=("TM.VISIT.DISPLAY_SHORT", "TM.WITHDRAW.WITHOUT_PLAYING"),
            rulings=("RUL.DISPLAY.SHORT",),
        ),
        case(
            "RUL.DECK.EXHAUSTED/card-bonus-gives-nothing",
            "A card bonus tile with no card to draw anywhere gives nothing; no chance step.",
            bonus_nothing,
            ok(
                "palace B3",
                "the tile is taken, no card; province tile 1 (1) and the palace (1)",
                (2, 0, 0, 0),
                {"step": "take", "to_move": 0, "bonus_on_board": {"C1": "bonus-02"}},
            ),
            clauses=("TM.SCORE.BONUS.CARD",),
            rulings=("RUL.COMPONENTS.BONUS_MIX",),
        ),
        case(
            "RUL.DECK.EXHAUSTED/no-extra-card",
            "No extra card for withdrawing without playing when no card is left.",
            no_extra,
            ok(
                "withdraw",
                "seat 0 keeps its six cards and picks from the display",
                (0, 0, 0, 0),
                {
                    "step": "take",
                    "to_move": 0,
                    "seats": {"0": {"hand": list(no_extra.players[0].hand)}},
                },
            ),
            clauses=("TM.WITHDRAW.WITHOUT_PLAYING",),
            rulings=("RUL.WITHDRAW.WITHOUT_PLAYING",),
        ),
        case(
            "RUL.DECK.RESHUFFLE_TIMING/display-waits",
            "A display drawn from an empty deck waits for the reshuffle of the discard pile.",
            run(display_draw, "withdraw"),
            ok(
                "palace A1",
                "seat 0, last, places: province tile 1 (1), palace (1); the visit ends and "
                "the game waits for a reshuffle",
                (2, 0, 0, 0),
                {
                    "visit": 2,
                    "step": "shuffle",
                    "to_move": None,
                    "display": [],
                    "deck": [],
                    "draw": {"destination": -1, "count": 7, "reason": "display"},
                },
            ),
            clauses=("TM.VISIT.NEXT.RESHUFFLE", "TM.WITHDRAW.DISCARD"),
        ),
        case(
            "RUL.DECK.RESHUFFLE_TIMING/mid-withdrawal",
            "A reshuffle in the middle of a withdrawal orders the earlier discards only; the "
            "withdrawing player's cards are discarded after it, and the withdrawal resumes.",
            mid_shuffle,
            actions((), "a chance step"),
            refused(
                "reshuffle " + " ".join((*discarded, "red-07")),
                "TM.VISIT.NEXT.RESHUFFLE",
                "the player's own played card is not in the discard pile yet",
            ),
            ok(
                "reshuffle " + " ".join(reversed(discarded)),
                "seat 0 draws the new top card; scoring (province tile 1: 1, palace: 1), "
                "then its played cards are discarded",
                (2, 0, 0, 0),
                {
                    "step": "take",
                    "to_move": 0,
                    "deck": list(reversed(discarded))[1:],
                    "discard": sorted(played),
                    "seats": {"0": {"played": []}},
                },
            ),
            clauses=("TM.VISIT.NEXT.RESHUFFLE", "TM.SCORE.BONUS.CARD", "TM.WITHDRAW.DISCARD"),
            rulings=("RUL.COMPONENTS.BONUS_MIX",),
        ),
        case(
            "RUL.DISPLAY.SHORT/three-cards-first-pick",
            "Three display cards: the first withdrawing player chooses two of them.",
            run(short, "withdraw"),
            actions(
                {"take white-06 white-07", "take white-06 white-08", "take white-07 white-08"},
                "3 pairs",
            ),
            clauses=("TM.WITHDRAW.PICK_TWO",),
        ),
        case(
            "RUL.DISPLAY.SHORT/one-card-left",
            "One display card left for a player who is not last: that card only.",
            run(short, "withdraw", "take white-06 white-07", "withdraw"),
            actions({"take white-08"}, "the one card"),
            refused("take white-06 white-08", "TM.WITHDRAW.PICK_TWO", "a card no longer there"),
            ok(
                "take white-08",
                "seat 1 takes the last card; seat 2 moves",
                (0, 0, 0, 0),
                {"display": [], "step": "play", "to_move": 2},
            ),
            clauses=("TM.VISIT.DISPLAY_SHORT", "TM.WITHDRAW.PICK_TWO"),
        ),
        case(
            "RUL.DISPLAY.SHORT/nothing-to-take",
            "With the display empty a withdrawing player takes nothing; the turn passes on.",
            run(short, "withdraw", "take white-06 white-07", "withdraw", "take white-08"),
            ok(
                "withdraw",
                "seat 2 wins nothing, takes nothing; seat 3 moves",
                (0, 0, 0, 0),
                {"step": "play", "to_move": 3},
            ),
            clauses=("TM.VISIT.DISPLAY_SHORT",),
        ),
        case(
            "RUL.DISPLAY.SHORT/last-gets-nothing",
            "The last player takes what remains, possibly nothing.",
            run(short3, "withdraw", "take white-06 white-07", "withdraw", "take white-08 white-09"),
            ok(
                "withdraw",
                "seat 2, alone, wins general and monk: two palaces to place",
                (0, 0, 0),
                {"step": "place", "to_move": 2, "display": []},
            ),
            clauses=("TM.WITHDRAW.LAST_TAKES_ONE", "TM.VISIT.DISPLAY_SHORT"),
        ),
    ]
