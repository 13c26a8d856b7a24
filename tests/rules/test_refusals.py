"""The rule a refusal names: ``IllegalActionError.clause`` for each way a move is refused.

The message wording is the account's business; the clause is data a program reads (the
protocol, the conformance cases), so each refusal below checks the clause id literally,
as docs/refusals.md publishes it (the rows are named in the tests).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from positions import (
    COMPONENTS,
    fresh_game,
    run,
    table,
    with_bonus,
    with_deck,
    with_hand,
    with_palaces,
)

from tajmahal.engine import apply, apply_with_events, legal_actions, random_reshuffle
from tajmahal.errors import IllegalActionError
from tajmahal.model import BonusKind, GameState, Permission, RuleSet, Step, parse_action


def refused(state: GameState, text: str) -> str | None:
    """The clause named by the refusal of ``text`` in ``state``."""
    with pytest.raises(IllegalActionError) as caught:
        apply(state, parse_action(text))
    return caught.value.clause


ROOT = Path(__file__).resolve().parents[2]


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


@pytest.mark.clause("TM.REWARD.TWO_PALACES_PER_CITY")
def test_a_palace_in_a_full_city_names_the_two_palace_limit() -> None:
    """Row 15: a city holding two palaces is full, for a normal palace too."""
    assert refused(placing(("A3", 1), ("A3", 2)), "palace A3") == "TM.REWARD.TWO_PALACES_PER_CITY"
    # Seat 0's crown shares A1 with seat 1's palace: the city is full, whoever is first.
    assert refused(placing(("A1", 1)), "palace A1") == "TM.REWARD.TWO_PALACES_PER_CITY"


@pytest.mark.clause("TM.REWARD.TWO_PALACES_PER_CITY", "TM.REWARD.CROWN.PALACE")
def test_the_crown_in_a_full_city_or_elsewhere_names_the_crown_rules() -> None:
    """Rows 19 and 20: another province's city (or no city) names the crown palace's rule,
    a full city the two-palace limit."""
    assert refused(crowning(("A3", 1), ("A3", 2)), "crown A3") == "TM.REWARD.TWO_PALACES_PER_CITY"
    assert refused(crowning(), "crown B1") == "TM.REWARD.CROWN.PALACE"
    assert refused(crowning(), "crown Q9") == "TM.REWARD.CROWN.PALACE"


@pytest.mark.clause("RUL.CROWN.BESIDE_OWN_PALACE")
def test_the_crown_beside_ones_own_palace_names_the_ruling_when_forbidden() -> None:
    rules = RuleSet(crown_beside_own_palace=Permission.FORBIDDEN)
    assert refused(crowning(("A2", 0), rules=rules), "crown A2") == "RUL.CROWN.BESIDE_OWN_PALACE"


@pytest.mark.clause("TM.PLAY.FROM_HAND")
def test_playing_a_card_one_does_not_hold_names_the_hand_rule() -> None:
    """Rows 7 and 10: a card held elsewhere, or no card of the game at all, is not in the
    hand, in either place of the play."""
    # Seat 0 holds red-02, red-03 and red-14; yellow-02 and white-06 are elsewhere.
    opening = table()
    assert refused(opening, "play yellow-02") == "TM.PLAY.FROM_HAND"
    assert refused(opening, "play red-02 white-06") == "TM.PLAY.FROM_HAND"
    assert refused(opening, "play red-99") == "TM.PLAY.FROM_HAND"
    assert refused(opening, "play red-02 nosuch-card") == "TM.PLAY.FROM_HAND"
    # The first card is checked first: both unknown names the first.
    assert message(opening, "play red-99 white-99") == "red-99 is not in P0's hand"


@pytest.mark.clause("TM.PLAY.NEVER_ALONE", "TM.PLAY.THREE_FORMS", "TM.PLAY.ONE_COLOURED")
def test_a_play_of_the_wrong_form_names_the_form_rules() -> None:
    """Rows 8, 9 and 11: a white or special card alone, a white card named where the
    coloured card goes, and a second coloured card (or the same card twice)."""
    state = with_hand(table(), 0, ("red-02", "red-03", "white-06", "special-plus-two"))
    assert refused(state, "play white-06") == "TM.PLAY.NEVER_ALONE"
    assert refused(state, "play special-plus-two") == "TM.PLAY.NEVER_ALONE"
    assert refused(state, "play white-06 special-plus-two") == "TM.PLAY.NEVER_ALONE"
    assert refused(state, "play white-06 red-99") == "TM.PLAY.NEVER_ALONE"
    assert refused(state, "play white-06 red-02") == "TM.PLAY.THREE_FORMS"
    assert refused(state, "play red-02 red-03") == "TM.PLAY.ONE_COLOURED"
    assert refused(state, "play red-02 red-02") == "TM.PLAY.ONE_COLOURED"


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


@pytest.mark.clause("TM.REWARD.PLACE_AT_ONCE", "TM.REWARD.CROWN.TAKE")
def test_a_placement_step_refuses_other_moves_and_a_crown_not_won() -> None:
    """Rows 5 and 18: the palaces won are placed before anything else, and the crown
    palace only by the seat that won the crown."""
    # Seat 0 played red-05 and white-01 and withdrew: it owes the crown palace and one
    # palace; after placing() it owes only the palace, the crown being placed.
    owed = run(table(("red-05", "white-01"), ("yellow-19",)), "withdraw")
    assert refused(owed, "withdraw") == "TM.REWARD.PLACE_AT_ONCE"
    assert refused(owed, "take white-06 white-07") == "TM.REWARD.PLACE_AT_ONCE"
    assert refused(owed, "play red-02") == "TM.REWARD.PLACE_AT_ONCE"
    assert refused(placing(), "crown A2") == "TM.REWARD.CROWN.TAKE"


@pytest.mark.clause("TM.REWARD.INFLUENCE.PALACE")
def test_a_palace_when_only_the_crown_is_owed_names_the_palace_rule() -> None:
    """Row 13: a normal palace is owed only for an influence tile won."""
    crown_only = run(table(("red-05",), ("yellow-19",)), "withdraw")
    assert crown_only.withdrawal is not None and crown_only.withdrawal.palaces_owed == 0
    assert refused(crown_only, "palace A2") == "TM.REWARD.INFLUENCE.PALACE"


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
        "a palace cannot go in A1, which holds P0 (crown), P1; allowed: A2, A3, A4"
    )
    assert message(crowning(), "crown B1") == (
        "B1 lies in province B; the crown palace must go in the current province A "
        "(allowed: A1, A2, A3, A4)"
    )
    rules = RuleSet(crown_beside_own_palace=Permission.FORBIDDEN)
    assert message(crowning(("A2", 0), rules=rules), "crown A2") == (
        "the crown palace cannot go in A2, which holds P0; allowed: A1, A3, A4"
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


@pytest.mark.clause("TM.PLAY.FROM_HAND", "TM.WITHDRAW.PICK_TWO")
@pytest.mark.parametrize(
    ("moves", "text", "expected"),
    [
        ((), "play violet-02", "violet-02 is not in P0's hand"),
        ((), "play red-02 white-02", "white-02 is not in P0's hand"),
        (("withdraw",), "take white-06", "P0 takes 2 different cards from the display"),
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
            "P0 must play cards or withdraw now, not take white-06 white-07",
            "TM.TURN.CHOICE",
        ),
        (
            ("withdraw",),
            "play red-02",
            "P0 must take cards from the display now, not play red-02",
            "TM.WITHDRAW.PICK_TWO",
        ),
        (
            ("withdraw",),
            "withdraw",
            "P0 must take cards from the display now, not withdraw",
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


@pytest.mark.clause("TM.REWARD.PLACE_AT_ONCE")
def test_a_play_while_a_palace_is_owed_is_refused_with_or_without_events() -> None:
    state = crowning()
    for applying in (apply, apply_with_events):
        with pytest.raises(IllegalActionError) as caught:
            applying(state, parse_action("play red-02"))
        assert (str(caught.value), caught.value.clause) == (
            "P0 must place a palace or the crown palace now, not play red-02",
            "TM.REWARD.PLACE_AT_ONCE",
        )


@pytest.mark.clause("TM.REWARD.INFLUENCE.PALACE", "RUL.CROWN.OWN_PALACE_BESIDE_CROWN")
def test_a_palace_refusal_names_the_unknown_city_the_palace_not_owed_and_the_open_cities() -> None:
    assert message(placing(), "palace Q9") == "unknown city 'Q9'"
    # Seat 0 won only the crown palace with red-05: no normal palace is owed.
    assert message(crowning(), "palace A2") == ("P0 owes no normal palace (only the crown palace)")
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


def _over() -> GameState:
    """A finished game: random choices from a seeded setup, reshuffles in seed order."""
    rng = random.Random(3)
    state = fresh_game(3, seed=3)
    while not state.is_over:
        choices = legal_actions(state)
        state = apply(state, random_reshuffle(state, rng) if not choices else rng.choice(choices))
    return state


def _reshuffle_due() -> GameState:
    """Seat 0's palace on B3 takes a card bonus tile with the deck empty."""
    card_tile = min(t.id for t in COMPONENTS.bonus_tiles.values() if t.kind is BonusKind.CARD)
    state = with_bonus(table(("red-07",), order="BACDEFGHIJK"), "B3", card_tile)
    return run(with_deck(state, ()), "withdraw", "palace B3")


def _taking() -> GameState:
    return run(table(("red-19",)), "withdraw")


FORBIDDEN_OWN = RuleSet(crown_beside_own_palace=Permission.FORBIDDEN)
ROWS: dict[int, tuple[Callable[[], GameState], str]] = {
    1: (_over, "withdraw"),
    2: (_reshuffle_due, "withdraw"),
    3: (table, "reshuffle red-01"),
    4: (table, "palace A1"),
    5: (lambda: run(table(("red-05", "white-01"), ("yellow-19",)), "withdraw"), "withdraw"),
    6: (_taking, "play red-02"),
    7: (table, "play yellow-02"),
    8: (lambda: with_hand(table(), 0, ("red-02", "white-06")), "play white-06"),
    9: (lambda: with_hand(table(), 0, ("red-02", "white-06")), "play white-06 red-02"),
    10: (table, "play red-02 white-06"),
    11: (table, "play red-02 red-03"),
    12: (lambda: with_hand(table(("red-19",)), 0, ("yellow-02",)), "play yellow-02"),
    13: (lambda: run(table(("red-05",), ("yellow-19",)), "withdraw"), "palace A2"),
    14: (placing, "palace B1"),
    15: (lambda: placing(("A3", 1), ("A3", 2)), "palace A3"),
    16: (placing, "palace A1"),
    17: (lambda: placing(("A2", 1)), "palace A2"),
    18: (placing, "crown A2"),
    19: (crowning, "crown B1"),
    20: (lambda: crowning(("A3", 1), ("A3", 2)), "crown A3"),
    21: (lambda: crowning(("A2", 0), rules=FORBIDDEN_OWN), "crown A2"),
    22: (_taking, "take red-02 white-06"),
    23: (_taking, "take white-06 white-06"),
    24: (_taking, "take white-06"),
    25: (_reshuffle_due, "reshuffle red-01"),
}
"""For each row of the table in docs/refusals.md, a position and an action it refuses."""


def _published_rows() -> dict[int, str]:
    """Row number -> the id the published table names."""
    page = (ROOT / "docs" / "refusals.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \|.*\| `((?:TM|RUL)\.[A-Z0-9_.]+)` \|$", page, re.MULTILINE)
    return {int(number): clause for number, clause in rows}


@pytest.mark.clause("TM.END.AFTER_TWELVE", "RUL.DECK.RESHUFFLE_TIMING", "TM.VISIT.NEXT.RESHUFFLE")
def test_every_row_of_the_published_refusal_table_is_what_the_engine_names() -> None:
    """docs/refusals.md is the contract: each of its rows, tried on a position, names the
    id the page gives, and the page has no row this test does not try."""
    published = _published_rows()
    assert sorted(published) == sorted(ROWS) == list(range(1, 26))
    for number, (position, text) in ROWS.items():
        assert refused(position(), text) == published[number], (number, text)


@pytest.mark.clause("TM.WITHDRAW.PICK_TWO", "RUL.DISPLAY.SHORT")
def test_a_take_from_a_display_of_one_card_asks_for_that_one_card() -> None:
    from tajmahal.engine._withdraw import check_take
    from tajmahal.model import Take

    with pytest.raises(IllegalActionError) as caught:
        check_take(("red-01",), Take(("red-01", "red-01")), 2)
    assert str(caught.value) == "P2 takes 1 card from the display, not 2"
    assert caught.value.clause == "TM.WITHDRAW.PICK_TWO"
    assert check_take(("red-01",), Take(("red-01",)), 2) == (
        "TM.WITHDRAW.PICK_TWO",
        "TM.VISIT.DISPLAY_SHORT",
        "RUL.DISPLAY.SHORT",
    )
