"""Position cases: whose turn it is, what may be done at each step, start positions.

Positions follow ``tests/rulings/test_ruling_visit.py`` (RUL.TURN.NO_LEGAL_PLAY) and the
readable setup of ``tests/rules/positions.py``: the sorted regular cards are dealt six
to each seat in turn, so in every start position seat 0 holds green-01 to green-06,
seat 1 green-07 to green-12, seat 2 green-13 to green-18, seat 3 green-19 to green-21
and red-01 to red-03, seat 4 red-04 to red-09. Their legal actions are worked out from
the hand: each coloured card alone (no white or special card is held), or withdraw.
"""

from __future__ import annotations

from casekit import Case, actions, case, ok, refused
from positions import game, run, table, with_hand, with_played

START_HANDS = {
    0: [f"green-{n:02}" for n in range(1, 7)],
    1: [f"green-{n:02}" for n in range(7, 13)],
    2: [f"green-{n:02}" for n in range(13, 19)],
    3: ["green-19", "green-20", "green-21", "red-01", "red-02", "red-03"],
    4: [f"red-{n:02}" for n in range(4, 10)],
}


def cases() -> list[Case]:
    found = [
        case(
            f"TM.TURN.START_PLAYER_BEGINS/{players}-players-seat-{start}",
            f"{players} players, seat {start} starts: each of its six cards alone, or withdraw.",
            game(players, start=start),
            actions(
                {f"play {card}" for card in START_HANDS[start]} | {"withdraw"},
                "six single-card plays and withdraw",
            ),
            refused(
                f"play {START_HANDS[(start + 1) % players][0]}",
                "TM.PLAY.FROM_HAND",
                "a card of the next seat's hand",
            ),
            clauses=("TM.TURN.CHOICE", "TM.PLAY.FIRST_ANY_COLOUR", "TM.SETUP.HANDS"),
            rulings=("RUL.SETUP.START_PLAYER",),
        )
        for players, start in ((3, 0), (3, 2), (4, 0), (4, 3), (5, 0), (5, 4))
    ]
    forced = with_hand(
        with_played(game(4), 0, ("red-02",)), 0, ("green-01", "green-07", "white-01", "white-06")
    )
    found += [
        case(
            "RUL.TURN.NO_LEGAL_PLAY/no-card-of-the-colour",
            "No card of the visit's colour and no colour change: withdraw only.",
            forced,
            actions({"withdraw"}, "withdraw only"),
            refused("play green-01", "TM.PLAY.COLOUR_LOCK", "green after red"),
            refused("play green-01 white-01", "TM.PLAY.COLOUR_LOCK", "green with white after red"),
            ok("withdraw", "seat 0 withdraws", (0, 0, 0, 0), {"seats": {"0": {"withdrawn": True}}}),
            clauses=("TM.TURN.NO_LEGAL_PLAY",),
        ),
        case(
            "RUL.TURN.NO_LEGAL_PLAY/white-and-special-only",
            "White and special cards only: withdraw only.",
            with_hand(game(4), 0, ("white-01", "white-06", "special-colour-change")),
            actions({"withdraw"}, "withdraw only"),
            refused("play white-01", "TM.PLAY.NEVER_ALONE", "a white card alone"),
            refused("play special-colour-change", "TM.PLAY.NEVER_ALONE", "a special card alone"),
            clauses=("TM.TURN.NO_LEGAL_PLAY",),
        ),
        case(
            "RUL.TURN.NO_LEGAL_PLAY/colour-change-keeps-play-legal",
            "The colour-change card lets a card of another colour be played.",
            with_hand(
                with_played(game(4), 0, ("red-02",)),
                0,
                ("green-01", "green-07", "special-colour-change"),
            ),
            actions(
                {
                    "play green-01 special-colour-change",
                    "play green-07 special-colour-change",
                    "withdraw",
                },
                "green only with the colour-change card",
            ),
            ok(
                "play green-01 special-colour-change",
                "played in order",
                (0, 0, 0, 0),
                {"seats": {"0": {"played": ["red-02", "green-01", "special-colour-change"]}}},
            ),
            clauses=("TM.TURN.NO_LEGAL_PLAY", "TM.SPECIAL.COLOUR_CHANGE"),
        ),
        case(
            "TM.TURN.CHOICE/wrong-step-actions",
            "At a play step only plays and withdraw are possible.",
            table(),
            refused("palace A1", "TM.TURN.CHOICE", "a palace at a play step"),
            refused("crown A1", "TM.TURN.CHOICE", "a crown palace at a play step"),
            refused("take white-06 white-07", "TM.TURN.CHOICE", "a take at a play step"),
        ),
        case(
            "TM.REWARD.PLACE_AT_ONCE/place-before-anything-else",
            "While palaces are owed, the withdrawing player only places.",
            run(table(("red-01",)), "withdraw"),
            actions({"palace A1", "palace A2", "palace A3", "palace A4"}, "palaces only"),
            refused("withdraw", "TM.REWARD.PLACE_AT_ONCE", "withdrawing again"),
            refused("take white-06 white-07", "TM.REWARD.PLACE_AT_ONCE", "taking before placing"),
            refused("play red-02", "TM.REWARD.PLACE_AT_ONCE", "playing"),
        ),
        case(
            "TM.WITHDRAW.PICK_TWO/take-step-only-takes",
            "At a take step only takes are possible.",
            run(table(("red-19",)), "withdraw"),
            refused("play red-02", "TM.WITHDRAW.PICK_TWO", "playing"),
            refused("palace A1", "TM.WITHDRAW.PICK_TWO", "a palace nothing earned"),
            refused("take white-06 white-06", "TM.WITHDRAW.PICK_TWO", "the same card twice"),
        ),
    ]
    return found
