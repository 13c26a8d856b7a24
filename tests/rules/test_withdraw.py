"""Withdrawing: majorities, what is won, discarding and taking cards from the display."""

from __future__ import annotations

from itertools import combinations

import pytest
from positions import (
    PLAIN_DISPLAY,
    SMALL_HANDS,
    legal,
    player,
    run,
    table,
    with_deck_top,
    with_hand,
)
from scenes import last_seat_alone, withdrawn

from tajmahal.engine import legal_actions
from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    INFLUENCE_SYMBOLS,
    MajorityScope,
    RuleSet,
    Step,
    Symbol,
    WithdrawWithoutPlaying,
)

V, G, M, P = Symbol.VIZIER, Symbol.GENERAL, Symbol.MONK, Symbol.PRINCESS

HANDS = SMALL_HANDS
DISPLAY = PLAIN_DISPLAY[:7]


@pytest.mark.clause(
    "TM.WITHDRAW.COMPARE",
    "TM.WITHDRAW.MAJORITY.STRICT",
    "TM.REWARD.INFLUENCE.TILE",
    "TM.COMP.CARDS.SYMBOL_MEANING",
)
def test_strictly_more_symbols_wins_the_force() -> None:
    # Seat 0: 2 viziers, 1 elephant; seat 1: 1 vizier, 1 elephant.
    state = run(table(("red-07", "white-01"), ("yellow-07",)), "withdraw")
    assert player(state, 0).influence == (V,)
    assert V not in state.court_influence
    assert state.withdrawal is not None and state.withdrawal.palaces_owed == 1
    # The elephants tie: the province tile stays in the court.
    assert state.withdrawal.province_won is None
    assert state.court_province_tile == "province-01"


@pytest.mark.clause("TM.WITHDRAW.MAJORITY.STRICT")
def test_a_tie_wins_nothing() -> None:
    state = run(table(("red-07",), ("yellow-07",), ("green-08",)), "withdraw")
    assert player(state, 0).influence == ()
    assert state.court_influence == INFLUENCE_SYMBOLS
    assert state.court_province_tile == "province-01"
    assert state.step is Step.TAKE


@pytest.mark.clause("TM.WITHDRAW.MAJORITY.ZERO")
def test_zero_symbols_never_win_even_against_nobody() -> None:
    # Everyone else has withdrawn; seat 0 showed only elephants.
    state = withdrawn(table(("red-19",)), 1, 2, 3)
    state = run(state, "withdraw")
    assert state.court_influence == INFLUENCE_SYMBOLS
    assert state.crown_in_court
    assert player(state, 0).province_tiles == ("province-01",)
    assert player(state, 0).influence == ()


@pytest.mark.clause("TM.WITHDRAW.MAJORITY.ZERO", "TM.WITHDRAW.COMPARE")
def test_nobody_wins_a_force_nobody_showed() -> None:
    state = run(table(("red-07",), ("yellow-19",)), "withdraw")
    # Seat 0 wins the vizier (1 against 0) but nobody ever wins monk, princess, general.
    assert player(state, 0).influence == (V,)
    assert {G, M, P} <= set(state.court_influence)


@pytest.mark.clause(
    "TM.WITHDRAW.MAJORITY.REMAINING",
    "TM.WITHDRAW.DISCARDED_NO_INFLUENCE",
    "TM.WITHDRAW.MAJORITY.STRICT",
)
def test_a_tie_breaks_when_a_tied_player_withdraws() -> None:
    state = table(("red-07",), ("yellow-07",))
    state = run(state, "withdraw")
    assert player(state, 0).influence == ()
    state = run(state, "take white-06 white-07")
    assert state.to_move == 1
    state = run(state, "withdraw")
    # Seat 0's vizier and elephant were discarded: seat 1 now has the majority.
    assert player(state, 1).influence == (V,)
    assert state.withdrawal is not None
    assert state.withdrawal.province_won == "province-01"


@pytest.mark.clause("TM.WITHDRAW.MAJORITY.REMAINING")
def test_comparing_against_every_player_is_a_rule_option() -> None:
    rules = RuleSet(majority_scope=MajorityScope.ALL)
    state = table(("red-07",), ("yellow-07",), rules=rules)
    state = run(state, "withdraw", "take white-06 white-07", "withdraw")
    assert player(state, 1).influence == ()
    assert state.court_province_tile == "province-01"


@pytest.mark.clause("TM.WITHDRAW.ONCE_PER_VISIT", "TM.REWARD.CROWN.TAKE")
def test_a_force_once_won_cannot_be_won_again_in_the_visit() -> None:
    # Seat 0: 2 viziers, 2 elephants, 1 Grand Mogul: wins vizier, province and crown.
    state = table(("red-07", "red-05", "white-01"), ("yellow-07",))
    state = with_hand(state, 1, (*HANDS[1], "white-05"))
    state = run(state, "withdraw")
    assert not state.crown_in_court
    assert state.court_province_tile is None
    state = run(state, "palace A1", "crown A2", "take white-06 white-07")
    # Seat 1 now shows more viziers and elephants than anyone left, and plays a mogul.
    state = run(state, "play yellow-02 white-05", "play green-02", "play violet-02", "withdraw")
    assert player(state, 1).influence == ()
    assert player(state, 1).province_tiles == ()
    assert state.withdrawal is None or not state.withdrawal.crown_owed
    assert V not in state.court_influence


@pytest.mark.clause(
    "TM.WITHDRAW.ANY_COMBINATION",
    "TM.REWARD.INFLUENCE.TILE",
    "TM.REWARD.CROWN.TAKE",
    "TM.REWARD.ELEPHANT.PROVINCE",
    "TM.COMP.CARDS.SYMBOL_MEANING",
)
def test_all_six_forces_can_be_won_in_one_withdrawal() -> None:
    state = table(("red-01", "red-03", "red-05"))
    state = run(state, "withdraw")
    assert player(state, 0).influence == (V, G, M, P)
    assert state.court_influence == ()
    assert not state.crown_in_court
    assert state.court_province_tile is None
    withdrawal = state.withdrawal
    assert withdrawal is not None
    assert withdrawal.palaces_owed == 4 and withdrawal.crown_owed
    assert withdrawal.province_won == "province-01"
    state = run(state, "palace A1", "palace A2", "palace A3", "palace A4", "crown A1")
    assert player(state, 0).province_tiles == ("province-01",)
    assert len([p for p in state.palaces if p.seat == 0]) == 5


@pytest.mark.clause("TM.WITHDRAW.DISCARD", "TM.SPECIAL.RETURN_TO_HAND", "TM.SCORE.ORDER")
def test_played_cards_are_discarded_after_scoring_special_cards_return_to_hand() -> None:
    state = table(("red-16", "special-plus-two", "red-08", "white-01"))
    hand_before = player(state, 0).hand
    state = run(state, "withdraw")
    # Vizier 2 and princess 1: two palaces to place; nothing is discarded yet.
    assert player(state, 0).played != ()
    assert state.discard == ()
    state = run(state, "palace A1", "palace A2")
    assert player(state, 0).played == ()
    assert state.discard == ("red-08", "red-16", "white-01")
    assert player(state, 0).hand == tuple(sorted((*hand_before, "special-plus-two")))


@pytest.mark.clause("TM.WITHDRAW.PICK_TWO")
def test_the_withdrawing_player_takes_two_cards_of_their_choice() -> None:
    state = run(table(("red-07",), ("yellow-19",)), "withdraw", "palace A1")
    assert state.step is Step.TAKE and state.to_move == 0
    expected = {"take " + " ".join(pair) for pair in combinations(DISPLAY, 2)}
    assert legal(state) == expected
    assert len(legal_actions(state)) == 21
    hand = player(state, 0).hand
    state = run(state, "take white-08 white-11")
    assert player(state, 0).hand == tuple(sorted((*hand, "white-08", "white-11")))
    assert state.display == ("white-06", "white-07", "white-09", "white-10", "white-12")
    assert state.step is Step.PLAY and state.to_move == 1


@pytest.mark.clause("TM.WITHDRAW.PICK_TWO")
def test_taking_the_wrong_number_of_cards_or_absent_cards_is_illegal() -> None:
    state = run(table(("red-19",)), "withdraw")
    assert state.step is Step.TAKE
    with pytest.raises(IllegalActionError, match="takes 2 different card"):
        run(state, "take white-08")
    with pytest.raises(IllegalActionError, match="red-01 is not in the display"):
        run(state, "take red-01 white-08")
    with pytest.raises(IllegalActionError, match="must take cards"):
        run(state, "withdraw")


@pytest.mark.clause("TM.WITHDRAW.LAST_TAKES_ONE", "TM.VISIT.END", "TM.TURN.VISIT_ENDS")
def test_the_last_player_takes_the_last_card_without_a_choice() -> None:
    state = last_seat_alone()
    hand = player(state, 3).hand
    state = run(state, "play violet-14", "withdraw", "palace A1")
    assert "white-12" in player(state, 3).hand
    assert len(player(state, 3).hand) == len(hand)  # one played, one taken
    assert state.visit == 2 and state.step is Step.PLAY


@pytest.mark.clause("TM.WITHDRAW.WITHOUT_PLAYING", "TM.WITHDRAW.WITHOUT_PLAYING.NOTHING")
def test_withdrawing_without_playing_draws_the_top_card_and_scores_nothing() -> None:
    state = with_deck_top(table(), ["yellow-21"])
    hand = player(state, 0).hand
    state = run(state, "withdraw")
    assert state.step is Step.TAKE
    assert player(state, 0).hand == tuple(sorted((*hand, "yellow-21")))
    assert state.deck[0] != "yellow-21"
    assert player(state, 0).score == 0 and state.palaces == ()
    state = run(state, "take white-06 white-07")
    assert len(player(state, 0).hand) == len(hand) + 3


@pytest.mark.clause("TM.WITHDRAW.WITHOUT_PLAYING")
def test_the_extra_card_is_a_rule_option() -> None:
    rules = RuleSet(withdraw_without_playing=WithdrawWithoutPlaying.NONE)
    state = with_deck_top(table(rules=rules), ["yellow-21"])
    hand = player(state, 0).hand
    state = run(state, "withdraw")
    assert player(state, 0).hand == hand
    assert state.deck[0] == "yellow-21"


@pytest.mark.clause("TM.WITHDRAW.WITHOUT_PLAYING.NOTHING", "TM.WITHDRAW.MAJORITY.ZERO")
def test_the_last_player_withdrawing_without_playing_wins_nothing() -> None:
    state = table((), ("yellow-07",))
    state = run(state, "withdraw")  # seat 0, without playing
    state = run(state, "take white-06 white-07")
    state = run(state, "withdraw", "palace A1", "take white-08 white-09")  # seat 1: vizier
    state = run(state, "withdraw", "take white-10 white-11")  # seat 2, without playing
    assert state.to_move == 3
    state = run(state, "withdraw")
    # Seat 3 withdrew alone without a card: no tile, no palace, no points.
    assert player(state, 3).influence == () and player(state, 3).score == 0
    assert [p.seat for p in state.palaces] == [1]
    assert state.visit == 2


@pytest.mark.clause("TM.WITHDRAW.FINAL", "TM.TURN.WITHDRAWN_SKIPPED")
def test_a_withdrawn_player_plays_no_more_cards_in_the_visit() -> None:
    state = run(table(("red-07",)), "withdraw", "palace A1", "take white-06 white-07")
    assert player(state, 0).withdrawn and player(state, 0).played == ()
    hand = player(state, 0).hand
    seats = []
    for card in ("yellow-02", "green-02", "violet-02", "yellow-03", "green-03", "violet-03"):
        seats.append(state.to_move)
        state = run(state, f"play {card}")
    assert seats == [1, 2, 3, 1, 2, 3]
    assert player(state, 0).hand == hand and player(state, 0).played == ()


SYMBOL_FORCE = {
    Symbol.VIZIER: ("white-01", "vizier tile"),
    Symbol.GENERAL: ("white-02", "general tile"),
    Symbol.MONK: ("white-03", "monk tile"),
    Symbol.PRINCESS: ("white-04", "princess tile"),
    Symbol.MOGUL: ("white-05", "crown"),
    Symbol.ELEPHANT: ("white-06", "province tile"),
}
"""Each symbol, the white card showing it, and the force (what is won) it controls."""


@pytest.mark.clause("TM.COMP.CARDS.SYMBOL_MEANING", "TM.WITHDRAW.MAJORITY.STRICT")
@pytest.mark.parametrize("symbol", list(SYMBOL_FORCE), ids=lambda symbol: symbol.value)
def test_each_symbol_controls_its_own_force(symbol: Symbol) -> None:
    """A and B tie on general + monk; A's one extra symbol wins exactly its force: the
    vizier, general, monk or princess its influence tile, the Grand Mogul the crown, the
    elephant the province tile."""
    white, force = SYMBOL_FORCE[symbol]
    state = run(table(("red-02", white), ("yellow-02",)), "withdraw")
    withdrawal = state.withdrawal
    assert withdrawal is not None
    won = [f"{tile.value} tile" for tile in player(state, 0).influence]
    if withdrawal.crown_owed:
        won.append("crown")
    if withdrawal.province_won is not None:
        won.append("province tile")
    assert won == [force]
