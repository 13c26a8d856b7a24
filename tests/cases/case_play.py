"""Position cases: playing cards (the three forms of a play, colours, turn order).

Positions and expected values follow ``tests/rules/test_play.py``.
"""

from __future__ import annotations

from casekit import Case, actions, before_visit_end, case, ok, refused
from positions import finish_visit, run, with_hand, with_hands
from scenes import seat_two_starts, three

from tajmahal.engine import legal_actions
from tajmahal.model import ColourChangeFirstTurn, GameState, RuleSet


def red_locked() -> GameState:
    """Seat 0 opened with red-01; seats 1 and 2 played; seat 0 to move again."""
    return run(three(), "play red-01", "play green-07", "play violet-07")


def take_first(state: GameState, *texts: str) -> GameState:
    """Apply ``texts``; at a take step, take the first legal pair (as the tests do)."""
    for text in texts:
        state = run(state, text)
        if state.step.value == "take":
            state = run(state, sorted(str(a) for a in legal_actions(state))[0])
    return state


def plays_of(coloured: tuple[str, ...], extras: tuple[str, ...]) -> set[str]:
    """Each coloured card alone or with one of ``extras``."""
    return {f"play {c}" for c in coloured} | {f"play {c} {e}" for c in coloured for e in extras}


def cases() -> list[Case]:
    opening = plays_of(
        ("red-01", "red-02", "red-13", "yellow-03"), ("white-01", "special-plus-two")
    )
    colour_change = with_hand(
        three(), 0, ("red-01", "yellow-03", "yellow-04", "green-01", "special-colour-change")
    )
    reset_at, reset_action = before_visit_end(red_locked())
    next_visit = with_hands(
        finish_visit(red_locked()), (("red-05", "yellow-05"), ("yellow-06", "green-06"), ())
    )
    return [
        case(
            "TM.PLAY.COLOUR_RESET/visit-ends",
            "When the visit ends every player's colour is cleared.",
            reset_at,
            ok(
                reset_action,
                "seat 2, last (vizier and elephant against nobody), places its palace: "
                "province tile 1 (1) and the palace (1); visit 2 starts with no colour set",
                (0, 0, 2),
                {
                    "visit": 2,
                    "seats": {"0": {"colour": None}, "1": {"colour": None}, "2": {"colour": None}},
                },
            ),
            clauses=("TM.VISIT.END",),
        ),
        case(
            "TM.PLAY.COLOUR_RESET/any-colour-again",
            "In the next visit a player who played red may open with another colour.",
            next_visit,
            actions(
                {"play yellow-06", "play green-06", "withdraw"},
                "seat 1 starts visit 2 and may play either colour",
            ),
            clauses=("TM.PLAY.FIRST_ANY_COLOUR", "TM.VISIT.NEXT.START_PLAYER"),
        ),
        case(
            "TM.PLAY.THREE_FORMS/opening-hand",
            "The first play of a visit: any coloured card, alone or with one white or special "
            "card, or withdraw.",
            three(),
            actions(opening | {"withdraw"}, "4 coloured cards x (alone, +white, +special) + 1"),
            clauses=("TM.TURN.CHOICE", "TM.PLAY.FIRST_ANY_COLOUR", "TM.PLAY.EXTRA_CARD"),
        ),
        case(
            "TM.PLAY.NEVER_ALONE/white-alone",
            "A white card is never played alone.",
            three(),
            refused("play white-01", "TM.PLAY.NEVER_ALONE", "a white card alone"),
        ),
        case(
            "TM.SPECIAL.PLAY_LIKE_WHITE/special-alone",
            "A special card is never played alone, nor with a white card only.",
            three(),
            refused("play special-plus-two", "TM.PLAY.NEVER_ALONE", "a special card alone"),
            refused(
                "play white-01 special-plus-two",
                "TM.PLAY.NEVER_ALONE",
                "a white and a special card without a coloured card",
            ),
            clauses=("TM.PLAY.NEVER_ALONE",),
        ),
        case(
            "TM.PLAY.ONE_COLOURED/two-coloured-cards",
            "Two coloured cards are never one play, of one colour or of two.",
            three(),
            refused("play red-01 red-02", "TM.PLAY.ONE_COLOURED", "two red cards"),
            refused("play red-01 yellow-03", "TM.PLAY.ONE_COLOURED", "a red and a yellow card"),
        ),
        case(
            "TM.PLAY.FROM_HAND/card-not-in-hand",
            "Only cards in the player's hand can be played; an id that names no card of the "
            "game is not in the hand either.",
            three(),
            refused("play red-03", "TM.PLAY.FROM_HAND", "a coloured card held by nobody"),
            refused("play red-01 white-02", "TM.PLAY.FROM_HAND", "another seat's white card"),
            refused("play red-99", "TM.PLAY.FROM_HAND", "no card of the game"),
            refused("play white-01 red-02", "TM.PLAY.THREE_FORMS", "the coloured card second"),
        ),
        case(
            "TM.SPECIAL.ONE_PER_TURN/two-specials",
            "At most one extra card per play: two special cards are refused.",
            with_hand(three(), 0, ("red-01", "white-01", "special-plus-two", "special-elephant")),
            actions(
                plays_of(("red-01",), ("white-01", "special-plus-two", "special-elephant"))
                | {"withdraw"},
                "red-01 alone or with exactly one of the three extra cards",
            ),
            refused(
                "play special-elephant special-plus-two",
                "TM.PLAY.NEVER_ALONE",
                "two special cards and no coloured card",
            ),
            clauses=("TM.PLAY.THREE_FORMS",),
        ),
        case(
            "TM.PLAY.COLOUR_LOCK/red-after-red",
            "The first coloured card sets the player's colour for the visit.",
            red_locked(),
            actions(
                plays_of(("red-02", "red-13"), ("white-01", "special-plus-two")) | {"withdraw"},
                "only red cards remain playable",
            ),
            refused("play yellow-03", "TM.PLAY.COLOUR_LOCK", "a yellow card after red"),
            refused("play yellow-03 white-01", "TM.PLAY.COLOUR_LOCK", "yellow with a white card"),
            clauses=("TM.PLAY.FIRST_ANY_COLOUR",),
        ),
        case(
            "TM.PLAY.EXTRA_CARD/red-with-white",
            "A coloured card with a white card: both stay on the table, the next seat moves.",
            three(),
            ok(
                "play red-01 white-01",
                "seat 0 plays red-01 and white-01",
                (0, 0, 0),
                {
                    "to_move": 1,
                    "seats": {"0": {"played": ["red-01", "white-01"], "colour": "red"}},
                },
            ),
            clauses=("TM.PLAY.NO_TAKE_BACK", "TM.TURN.CLOCKWISE"),
        ),
        case(
            "TM.SPECIAL.PLUS_TWO/scores-at-once",
            "The +2 card scores two points for its player the moment it is played.",
            three(),
            ok(
                "play red-01 special-plus-two",
                "seat 0 plays red-01 with the +2 card",
                (2, 0, 0),
                {"step": "play", "to_move": 1, "seats": {"0": {"score": 2}}},
            ),
            clauses=("TM.SCORE.TRACK",),
        ),
        case(
            "TM.TURN.START_PLAYER_BEGINS/seat-two-starts",
            "The start player opens the visit; play passes clockwise, wrapping to seat 0.",
            seat_two_starts(),
            actions({"play green-01", "play green-02", "withdraw"}, "seat 2 moves first and alone"),
            ok("play green-01", "after seat 2 comes seat 3", (0, 0, 0, 0), {"to_move": 3}),
            clauses=("TM.TURN.CLOCKWISE",),
        ),
        case(
            "TM.TURN.CLOCKWISE/wraps-round",
            "After the last seat comes seat 0.",
            run(seat_two_starts(), "play green-01"),
            ok("play violet-01", "seat 3 plays, seat 0 is next", (0, 0, 0, 0), {"to_move": 0}),
        ),
        case(
            "TM.TURN.WITHDRAWN_SKIPPED/skip-seat-one",
            "A withdrawn player is skipped when play passes.",
            take_first(three(), "play red-01", "withdraw", "play violet-07"),
            ok("play red-02", "seat 0 plays; seat 1 has withdrawn", (0, 0, 0), {"to_move": 2}),
            clauses=("TM.WITHDRAW.FINAL",),
        ),
        case(
            "TM.TURN.LAST_PLAYER_CONTINUES/alone-keeps-playing",
            "The last player in the visit keeps playing, one play per turn, until withdrawing.",
            take_first(three(), "withdraw", "withdraw"),
            ok(
                "play violet-07",
                "seat 2 plays and moves again",
                (0, 0, 0),
                {"to_move": 2, "visit": 1, "step": "play"},
            ),
            clauses=("TM.TURN.WITHDRAWN_SKIPPED",),
        ),
        case(
            "TM.TURN.NO_LEGAL_PLAY/only-white-cards",
            "A player without a coloured card can only withdraw.",
            with_hand(three(), 0, ("white-01", "white-06", "special-mogul")),
            actions({"withdraw"}, "no coloured card, no play"),
            refused("play white-01", "TM.PLAY.NEVER_ALONE", "the white card alone"),
        ),
        case(
            "TM.TURN.NO_LEGAL_PLAY/wrong-colours",
            "A player whose colour is red and who holds no red card can only withdraw.",
            with_hand(red_locked(), 0, ("yellow-03", "green-01", "white-01")),
            actions({"withdraw"}, "only yellow and green cards left"),
            refused("play green-01", "TM.PLAY.COLOUR_LOCK", "green after red"),
        ),
        case(
            "TM.TURN.NO_LEGAL_PLAY/empty-hand",
            "A player with an empty hand can only withdraw.",
            with_hand(red_locked(), 0, ()),
            actions({"withdraw"}, "nothing to play"),
        ),
        case(
            "TM.WITHDRAW.EMPTY_HANDED/tied-everywhere",
            "Withdrawing with no majority wins nothing and keeps the cards in hand.",
            run(three(), "play red-01", "play green-07", "play violet-07", "play red-13"),
            ok(
                "withdraw",
                "seat 1 ties the vizier and the elephant",
                (0, 0, 0),
                {
                    "step": "take",
                    "to_move": 1,
                    "palaces": [],
                    "court_province_tile": "province-01",
                    "crown_in_court": True,
                    "seats": {"1": {"influence": [], "province_tiles": [], "withdrawn": True}},
                },
            ),
        ),
        case(
            "TM.SPECIAL.COLOUR_CHANGE/breaks-the-colour",
            "With the colour-change card a card of another colour may be played, once.",
            run(
                with_hand(
                    three(),
                    0,
                    (
                        "red-01",
                        "red-02",
                        "yellow-03",
                        "yellow-04",
                        "white-01",
                        "special-colour-change",
                    ),
                ),
                "play red-01",
                "play green-07",
                "play violet-07",
            ),
            actions(
                plays_of(("red-02",), ("white-01", "special-colour-change"))
                | {"play yellow-03 special-colour-change", "play yellow-04 special-colour-change"}
                | {"withdraw"},
                "yellow only with the colour-change card",
            ),
            refused("play yellow-03", "TM.PLAY.COLOUR_LOCK", "yellow without the special card"),
            ok(
                "play yellow-03 special-colour-change",
                "the colour stays red",
                (0, 0, 0),
                {
                    "seats": {
                        "0": {
                            "colour": "red",
                            "played": ["red-01", "yellow-03", "special-colour-change"],
                        }
                    }
                },
            ),
            clauses=("TM.SPECIAL.COLOUR_CHANGE.ONE_TURN", "TM.PLAY.COLOUR_LOCK"),
        ),
        case(
            "TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN/next-card-sets-colour",
            "Colour-change card on the first play: no colour is set yet (default option).",
            colour_change,
            ok(
                "play red-01 special-colour-change",
                "the player's colour stays open",
                (0, 0, 0),
                {"seats": {"0": {"colour": None}}},
            ),
            rulings=("RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN",),
        ),
        case(
            "TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN/next-card-any-colour",
            "After the colour-change opening the next coloured card may be any colour "
            "(default option).",
            run(
                colour_change,
                "play red-01 special-colour-change",
                "play green-07",
                "play violet-07",
            ),
            actions(
                {"play yellow-03", "play yellow-04", "play green-01", "withdraw"},
                "yellow and green are both open",
            ),
            ok(
                "play yellow-03",
                "yellow sets the colour now",
                (0, 0, 0),
                {"seats": {"0": {"colour": "yellow"}}},
            ),
            rulings=("RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN",),
        ),
        case(
            "TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN/played-card-sets-colour",
            "Option played-card: the coloured card played with the colour-change card sets "
            "the colour.",
            with_hand(
                three(RuleSet(colour_change_first_turn=ColourChangeFirstTurn.PLAYED_CARD)),
                0,
                ("red-01", "red-02", "yellow-03", "special-colour-change"),
            ),
            ok(
                "play red-01 special-colour-change",
                "the colour is red at once",
                (0, 0, 0),
                {"seats": {"0": {"colour": "red"}}},
            ),
            rulings=("RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN",),
        ),
        case(
            "TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN/played-card-locks",
            "Option played-card: after a red colour-change opening only red may follow.",
            run(
                with_hand(
                    three(RuleSet(colour_change_first_turn=ColourChangeFirstTurn.PLAYED_CARD)),
                    0,
                    ("red-01", "red-02", "yellow-03", "special-colour-change"),
                ),
                "play red-01 special-colour-change",
                "play green-07",
                "play violet-07",
            ),
            actions({"play red-02", "withdraw"}, "only red-02 remains playable"),
            refused("play yellow-03", "TM.PLAY.COLOUR_LOCK", "yellow after the red opening"),
            rulings=("RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN",),
        ),
    ]
