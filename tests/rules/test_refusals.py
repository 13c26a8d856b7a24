"""The rule a refusal names: ``IllegalActionError.clause`` for each way a move is refused.

The message wording is the account's business; the clause is data a program reads (the
protocol, the conformance cases), so each refusal below checks the clause id literally.
"""

from __future__ import annotations

import pytest
from positions import COMPONENTS, run, table, with_bonus, with_deck, with_palaces

from tajmahal.engine import apply, apply_with_events
from tajmahal.errors import IllegalActionError
from tajmahal.model import BonusKind, GameState, Permission, RuleSet, Step, parse_action


def refused(state: GameState, text: str) -> str | None:
    """The clause named by the refusal of ``text`` in ``state``."""
    with pytest.raises(IllegalActionError) as caught:
        apply(state, parse_action(text))
    return caught.value.clause


def crowning(*palaces: tuple[str, int], rules: RuleSet | None = None) -> GameState:
    """Seat 0 has played red-05 and withdrawn, and is to place the crown palace it won
    in province A, with ``palaces`` on the board."""
    state = with_palaces(table(("red-05",), ("yellow-19",), rules=rules), *palaces)
    return run(state, "withdraw")


def placing(*palaces: tuple[str, int]) -> GameState:
    """Seat 0 has placed the crown palace in A1 and still owes a normal palace."""
    state = with_palaces(table(("red-05", "white-01"), ("yellow-19",)), *palaces)
    return run(state, "withdraw", "crown A1")


@pytest.mark.clause("TM.REWARD.INFLUENCE.PALACE")
def test_a_palace_outside_the_current_province_is_refused_by_the_palace_rule() -> None:
    assert refused(placing(), "palace B1") == "TM.REWARD.INFLUENCE.PALACE"
    assert refused(placing(), "palace Q9") == "TM.REWARD.INFLUENCE.PALACE"


@pytest.mark.clause("TM.REWARD.INFLUENCE.PALACE")
def test_a_palace_beside_ones_own_plain_palace_is_refused_by_the_palace_rule() -> None:
    # A2 holds seat 0's own (uncrowned) palace: closed by the palace rule, not by the
    # ruling on one's own crown.
    assert refused(placing(("A2", 0)), "palace A2") == "TM.REWARD.INFLUENCE.PALACE"


@pytest.mark.clause("TM.REWARD.INFLUENCE.PALACE")
def test_a_palace_in_a_full_city_is_refused_by_the_palace_rule() -> None:
    assert refused(placing(("A3", 1), ("A3", 2)), "palace A3") == "TM.REWARD.INFLUENCE.PALACE"
    # Seat 0's crown shares A1 with seat 1's palace: the city is full, whoever is first.
    assert refused(placing(("A1", 1)), "palace A1") == "TM.REWARD.INFLUENCE.PALACE"


@pytest.mark.clause("TM.REWARD.CROWN.OCCUPIED", "TM.REWARD.CROWN.PALACE")
def test_the_crown_in_a_full_city_or_elsewhere_names_the_crown_rules() -> None:
    assert refused(crowning(("A3", 1), ("A3", 2)), "crown A3") == "TM.REWARD.CROWN.OCCUPIED"
    assert refused(crowning(), "crown B1") == "TM.REWARD.CROWN.PALACE"
    assert refused(crowning(), "crown Q9") == "TM.REWARD.CROWN.PALACE"


@pytest.mark.clause("RUL.CROWN.BESIDE_OWN_PALACE")
def test_the_crown_beside_ones_own_palace_names_the_ruling_when_forbidden() -> None:
    rules = RuleSet(crown_beside_own_palace=Permission.FORBIDDEN)
    assert refused(crowning(("A2", 0), rules=rules), "crown A2") == "RUL.CROWN.BESIDE_OWN_PALACE"


@pytest.mark.clause("TM.PLAY.ONE_COLOURED", "TM.PLAY.EXTRA_CARD")
def test_playing_a_card_one_does_not_hold_names_the_play_rules() -> None:
    # Seat 0 holds red-02, red-03 and red-14; yellow-02 and white-06 are elsewhere.
    opening = table()
    assert refused(opening, "play yellow-02") == "TM.PLAY.ONE_COLOURED"
    assert refused(opening, "play red-02 white-06") == "TM.PLAY.EXTRA_CARD"


@pytest.mark.clause("RUL.DECK.RESHUFFLE_TIMING")
def test_a_decision_while_a_reshuffle_is_due_names_the_reshuffle_ruling() -> None:
    # Seat 0 places a palace on fortress B3, whose bonus tile gives a card, with the deck
    # empty: the game waits for the chance outcome, and no decision is taken meanwhile.
    card_tile = min(t.id for t in COMPONENTS.bonus_tiles.values() if t.kind is BonusKind.CARD)
    state = with_bonus(table(("red-07",), order="BACDEFGHIJK"), "B3", card_tile)
    state = run(with_deck(state, ()), "withdraw", "palace B3")
    assert state.step is Step.SHUFFLE
    assert refused(state, "withdraw") == "RUL.DECK.RESHUFFLE_TIMING"
    assert refused(state, "take white-06 white-07") == "RUL.DECK.RESHUFFLE_TIMING"


@pytest.mark.clause("TM.REWARD.PLACEMENT_ORDER", "TM.REWARD.CROWN.TAKE")
def test_a_placement_step_refuses_other_moves_and_a_crown_not_won() -> None:
    # Seat 0 played red-05 and white-01 and withdrew: it owes the crown palace and one
    # palace; after placing() it owes only the palace, the crown being placed.
    owed = run(table(("red-05", "white-01"), ("yellow-19",)), "withdraw")
    assert refused(owed, "withdraw") == "TM.REWARD.PLACEMENT_ORDER"
    assert refused(owed, "take white-06 white-07") == "TM.REWARD.PLACEMENT_ORDER"
    assert refused(placing(), "crown A2") == "TM.REWARD.CROWN.TAKE"


@pytest.mark.clause("TM.WITHDRAW.PICK_TWO")
def test_a_display_pick_refuses_other_moves_and_cards_not_on_display() -> None:
    taking = run(table(("red-19",)), "withdraw")
    assert taking.step is Step.TAKE
    assert refused(taking, "withdraw") == "TM.WITHDRAW.PICK_TWO"
    assert refused(taking, "take red-02 white-06") == "TM.WITHDRAW.PICK_TWO"
    assert refused(taking, "take white-06") == "TM.WITHDRAW.PICK_TWO"


def message(state: GameState, text: str) -> str:
    """The text of the refusal of ``text`` in ``state`` (what the command line prints)."""
    with pytest.raises(IllegalActionError) as caught:
        apply(state, parse_action(text))
    return str(caught.value)


@pytest.mark.clause("TM.REWARD.INFLUENCE.PALACE", "TM.REWARD.CROWN.PALACE")
def test_a_placement_refusal_says_where_the_palace_may_go() -> None:
    # After the crown in A1 (seat 0's own), a palace may go in A2, A3 or A4.
    assert message(placing(), "palace B1") == (
        "B1 lies in province B; a palace must go in the current province A (allowed: A2, A3, A4)"
    )
    assert message(placing(("A1", 1)), "palace A1") == (
        "a palace cannot go in A1, which holds player 0 (crown), player 1; allowed: A2, A3, A4"
    )
    assert message(crowning(), "crown B1") == (
        "B1 lies in province B; the crown palace must go in the current province A "
        "(allowed: A1, A2, A3, A4)"
    )
    rules = RuleSet(crown_beside_own_palace=Permission.FORBIDDEN)
    assert message(crowning(("A2", 0), rules=rules), "crown A2") == (
        "the crown palace cannot go in A2, which holds player 0; allowed: A1, A3, A4"
    )


@pytest.mark.clause("TM.VISIT.NEXT.RESHUFFLE", "RUL.DECK.RESHUFFLE_TIMING")
def test_a_reshuffle_refusal_says_which_cards_are_wrong() -> None:
    card_tile = min(t.id for t in COMPONENTS.bonus_tiles.values() if t.kind is BonusKind.CARD)
    state = with_bonus(table(("red-07",), order="BACDEFGHIJK"), "B3", card_tile)
    state = run(with_deck(state, ()), "withdraw", "palace B3")
    discard = sorted(state.discard)
    assert discard[:6] == ["green-01", "green-04", "green-05", "green-06", "green-07", "green-08"]
    head = "a reshuffle orders exactly the discarded cards"
    assert message(state, "reshuffle " + " ".join(discard[1:])) == f"{head}; missing: ['green-01']"
    twice = " ".join([*discard, "green-01"])
    assert message(state, f"reshuffle {twice}") == f"{head}; a card is listed twice"
    # Six display cards instead of the first six discarded: five of each are named.
    display = ["white-06", "white-07", "white-08", "white-09", "white-10", "white-11"]
    swapped = " ".join([*discard[6:], *display])
    assert message(state, f"reshuffle {swapped}") == (
        f"{head}; not in the discard pile: "
        "['white-06', 'white-07', 'white-08', 'white-09', 'white-10']; "
        "missing: ['green-01', 'green-04', 'green-05', 'green-06', 'green-07']"
    )
    assert message(table(), "reshuffle red-01") == (
        "no reshuffle is due: the deck is not being drawn from empty"
    )


@pytest.mark.clause("TM.PLAY.ONE_COLOURED", "TM.PLAY.EXTRA_CARD", "TM.WITHDRAW.PICK_TWO")
@pytest.mark.parametrize(
    ("moves", "text", "expected"),
    [
        ((), "play violet-02", "violet-02 is not in player 0's hand"),
        ((), "play red-02 white-02", "white-02 is not in player 0's hand"),
        (("withdraw",), "take white-06", "player 0 takes 2 different card(s) from the display"),
    ],
)
def test_with_or_without_events_a_move_is_refused_alike(
    moves: tuple[str, ...], text: str, expected: str
) -> None:
    # Plays and display picks are built on frozen values, with or without events; the
    # refusal must not depend on which.
    state = run(table(("red-19",), ("yellow-03",)), *moves)
    with pytest.raises(IllegalActionError) as plain:
        apply(state, parse_action(text))
    with pytest.raises(IllegalActionError) as recorded:
        apply_with_events(state, parse_action(text))
    assert str(plain.value).startswith(expected)
    assert (str(recorded.value), recorded.value.clause) == (str(plain.value), plain.value.clause)


@pytest.mark.clause("TM.TURN.CHOICE", "TM.WITHDRAW.PICK_TWO")
@pytest.mark.parametrize(
    ("moves", "text", "expected", "clause"),
    [
        (
            (),
            "take white-06 white-07",
            "player 0 must play cards or withdraw now, not take white-06 white-07",
            "TM.TURN.CHOICE",
        ),
        (
            ("withdraw",),
            "play red-02",
            "player 0 must take cards from the display now, not play red-02",
            "TM.WITHDRAW.PICK_TWO",
        ),
        (
            ("withdraw",),
            "withdraw",
            "player 0 must take cards from the display now, not withdraw",
            "TM.WITHDRAW.PICK_TWO",
        ),
    ],
)
def test_a_play_or_pick_at_another_step_is_refused_with_or_without_events(
    moves: tuple[str, ...], text: str, expected: str, clause: str
) -> None:
    # Plays and picks with events skip the working copy only at their own step; anywhere
    # else they are refused like any move out of turn, by the step the game waits at.
    state = run(table(("red-19",), ("yellow-03",)), *moves)
    for applying in (apply, apply_with_events):
        with pytest.raises(IllegalActionError) as caught:
            applying(state, parse_action(text))
        assert (str(caught.value), caught.value.clause) == (expected, clause)


@pytest.mark.clause("TM.REWARD.PLACEMENT_ORDER")
def test_a_play_while_a_palace_is_owed_is_refused_with_or_without_events() -> None:
    state = crowning()
    for applying in (apply, apply_with_events):
        with pytest.raises(IllegalActionError) as caught:
            applying(state, parse_action("play red-02"))
        assert (str(caught.value), caught.value.clause) == (
            "player 0 must place a palace or the crown palace now, not play red-02",
            "TM.REWARD.PLACEMENT_ORDER",
        )


@pytest.mark.clause("TM.REWARD.INFLUENCE.PALACE", "RUL.CROWN.OWN_PALACE_BESIDE_CROWN")
def test_a_palace_refusal_names_the_unknown_city_the_palace_not_owed_and_the_open_cities() -> None:
    assert message(placing(), "palace Q9") == "unknown city 'Q9'"
    # Seat 0 won only the crown palace with red-05: no normal palace is owed.
    assert message(crowning(), "palace A2") == (
        "player 0 owes no normal palace (only the crown palace)"
    )
    # When the ruling allows a palace beside one's own crown, A1 (seat 0's crown) is open.
    rules = RuleSet(own_palace_beside_own_crown=Permission.ALLOWED)
    allowed = run(
        table(("red-05", "white-01"), ("yellow-19",), rules=rules), "withdraw", "crown A1"
    )
    assert message(allowed, "palace B1") == (
        "B1 lies in province B; a palace must go in the current province A "
        "(allowed: A1, A2, A3, A4)"
    )


@pytest.mark.clause("TM.WITHDRAW.PICK_TWO")
def test_a_display_pick_refusal_lists_the_display() -> None:
    # Four players: the display holds the first seven of PLAIN_DISPLAY.
    taking = run(table(("red-19",)), "withdraw")
    assert message(taking, "take red-02 white-06") == (
        "red-02 is not in the display "
        "(white-06, white-07, white-08, white-09, white-10, white-11, white-12)"
    )
