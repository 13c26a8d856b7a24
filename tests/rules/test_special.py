"""The four special cards when played (earning them is in test_visit.py)."""

from __future__ import annotations

import pytest
from positions import (
    COMPONENTS,
    finish_visit,
    legal,
    player,
    run,
    symbols,
    with_hand,
)
from scenes import SPECIALS, holding

from tajmahal.engine import symbol_counts
from tajmahal.model import Step, Symbol


@pytest.mark.clause("TM.SPECIAL.ELEPHANT", "TM.COMP.SPECIALS")
def test_the_elephant_card_counts_as_one_elephant_like_a_white_elephant() -> None:
    assert symbol_counts(COMPONENTS, ["special-elephant"]) == symbol_counts(
        COMPONENTS, ["white-06"]
    )
    state = run(holding("special-elephant"), "play red-01 special-elephant")
    state = run(state, "play yellow-02", "play green-02", "play violet-02", "withdraw")
    assert state.withdrawal is not None
    assert state.withdrawal.province_won == "province-01"


@pytest.mark.clause("TM.SPECIAL.NO_SYMBOL")
@pytest.mark.parametrize("special", ["special-plus-two", "special-colour-change"])
def test_the_plus_two_and_colour_change_cards_count_no_symbol(special: str) -> None:
    assert symbol_counts(COMPONENTS, [special]) == (0, 0, 0, 0, 0, 0)
    # Seat 0 plays red-01 (vizier, general) with the card; seats 1 to 3 play their
    # general-and-monk card. Seat 0 wins the vizier only: the general is tied, and the
    # special card adds neither a Grand Mogul nor an elephant.
    state = run(holding(special), f"play red-01 {special}")
    state = run(state, "play yellow-02", "play green-02", "play violet-02", "withdraw")
    assert state.withdrawal is not None
    assert state.withdrawal.palaces_owed == 1
    assert not state.withdrawal.crown_owed and state.crown_in_court
    assert state.withdrawal.province_won is None


@pytest.mark.clause("TM.SPECIAL.MOGUL")
def test_the_mogul_card_counts_as_one_grand_mogul_like_the_white_mogul() -> None:
    assert symbol_counts(COMPONENTS, ["special-mogul"]) == symbol_counts(COMPONENTS, ["white-05"])
    state = run(holding("special-mogul"), "play red-01 special-mogul")
    state = run(state, "play yellow-02", "play green-02", "play violet-02", "withdraw")
    assert state.withdrawal is not None and state.withdrawal.crown_owed
    assert not state.crown_in_court


@pytest.mark.clause("TM.COMP.CARDS.SYMBOLS")
def test_symbol_counts_are_numbers_in_canonical_order() -> None:
    """Counts in the order vizier, general, monk, princess, Grand Mogul, elephant: red-19
    shows two elephants, red-01 a vizier and a general, white-05 a Grand Mogul."""
    assert symbol_counts(COMPONENTS, ["red-19"]) == (0, 0, 0, 0, 0, 2)
    assert symbol_counts(COMPONENTS, ["red-01", "white-05", "red-19"]) == (1, 1, 0, 0, 1, 2)
    assert symbol_counts(COMPONENTS, ["special-elephant", "special-mogul"]) == (0, 0, 0, 0, 1, 1)
    assert symbol_counts(COMPONENTS, []) == (0, 0, 0, 0, 0, 0)


@pytest.mark.clause("TM.SPECIAL.PLUS_TWO", "TM.SPECIAL.COLOUR_CHANGE")
def test_plus_two_and_colour_change_show_no_symbol() -> None:
    assert sum(symbol_counts(COMPONENTS, ["special-plus-two", "special-colour-change"])) == 0


@pytest.mark.clause("TM.SPECIAL.PLUS_TWO", "TM.SCORE.TRACK")
def test_plus_two_scores_when_played_and_again_when_played_again() -> None:
    state = run(holding("special-plus-two"), "play red-01 special-plus-two")
    assert player(state, 0).score == 2
    state = finish_visit(state)
    assert "special-plus-two" in player(state, 0).hand
    score = player(state, 0).score
    state = with_hand(state, 0, ("red-03", "special-plus-two"))
    state = run(state, "play yellow-03", "play green-03", "play violet-03")
    state = run(state, "play red-03 special-plus-two")
    assert player(state, 0).score == score + 2


@pytest.mark.clause("TM.SPECIAL.NO_EFFECT_IN_HAND")
def test_special_cards_in_hand_do_nothing() -> None:
    """Nobody plays an elephant or a Grand Mogul, so a special card counted from seat 0's
    hand would win it the province tile or the crown on its own."""
    state = holding(*SPECIALS)
    state = run(state, "play red-01")
    assert player(state, 0).score == 0
    state = run(state, "play yellow-03", "play green-02", "play violet-02")
    shown = symbols(["red-01", "yellow-03", "green-02", "violet-02"])
    assert shown[Symbol.ELEPHANT] == 0 and shown[Symbol.MOGUL] == 0
    state = run(state, "withdraw")
    withdrawal = state.withdrawal
    assert withdrawal is not None
    assert not withdrawal.crown_owed and withdrawal.province_won is None


@pytest.mark.clause("TM.SPECIAL.RETURN_TO_HAND", "TM.SPECIAL.PLAY_LIKE_WHITE")
def test_a_played_special_card_returns_to_hand_at_withdrawal() -> None:
    state = run(holding("special-elephant"), "play red-01 special-elephant")
    assert "special-elephant" not in player(state, 0).hand
    state = run(state, "play yellow-02", "play green-02", "play violet-02", "withdraw")
    state = run(state, "palace A1")  # the vizier (the general is tied)
    assert state.step is Step.TAKE
    assert "special-elephant" in player(state, 0).hand
    assert "special-elephant" not in state.discard
    assert "red-01" in state.discard


@pytest.mark.clause("TM.SPECIAL.ONE_PER_TURN", "TM.SPECIAL.PLAY_LIKE_WHITE")
def test_one_special_card_per_turn_never_alone() -> None:
    state = holding(*SPECIALS)
    plays = [a.split() for a in legal(state) if a.startswith("play")]
    assert all(sum(1 for word in play if word in SPECIALS) <= 1 for play in plays)
    assert all(play[1] in ("red-01", "red-02") for play in plays)
    assert {" ".join(p) for p in plays} == {"play red-01", "play red-02"} | {
        f"play {c} {s}" for c in ("red-01", "red-02") for s in SPECIALS
    }
