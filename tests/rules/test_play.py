"""Playing cards: the three forms of a play, the colour of a visit, turn order."""

from __future__ import annotations

import pytest
from positions import (
    finish_visit,
    legal,
    player,
    run,
    table,
    with_display,
    with_hand,
)
from scenes import seat_two_starts, three

from tajmahal.engine import apply, legal_actions
from tajmahal.errors import IllegalActionError
from tajmahal.model import CardColour, ColourChangeFirstTurn, RuleSet, Step, view


@pytest.mark.clause(
    "TM.TURN.CHOICE",
    "TM.PLAY.ONE_COLOURED",
    "TM.PLAY.FIRST_ANY_COLOUR",
    "TM.PLAY.EXTRA_CARD",
    "TM.PLAY.NEVER_ALONE",
    "TM.PLAY.THREE_FORMS",
    "TM.SPECIAL.PLAY_LIKE_WHITE",
)
def test_legal_plays_are_a_coloured_card_alone_or_with_one_white_or_special() -> None:
    state = three()
    expected = {"withdraw"}
    for coloured in ("red-01", "red-02", "red-13", "yellow-03"):
        expected |= {
            f"play {coloured}",
            f"play {coloured} white-01",
            f"play {coloured} special-plus-two",
        }
    assert legal(state) == expected


@pytest.mark.clause("TM.PLAY.NEVER_ALONE", "TM.SPECIAL.PLAY_LIKE_WHITE", "TM.PLAY.ONE_COLOURED")
@pytest.mark.parametrize(
    "action", ["play white-01", "play special-plus-two", "play white-01 special-plus-two"]
)
def test_white_and_special_cards_are_never_played_alone(action: str) -> None:
    state = three()
    with pytest.raises(IllegalActionError, match="not coloured"):
        run(state, action)


@pytest.mark.clause("TM.PLAY.ONE_COLOURED")
def test_two_coloured_cards_are_not_one_play() -> None:
    state = three()
    assert not any(a for a in legal(state) if a.startswith("play red-01 red-"))
    with pytest.raises(IllegalActionError, match="only one coloured card"):
        run(state, "play red-01 red-02")
    with pytest.raises(IllegalActionError, match="only one coloured card"):
        run(state, "play red-01 yellow-03")


@pytest.mark.clause("TM.SPECIAL.ONE_PER_TURN", "TM.PLAY.THREE_FORMS")
def test_at_most_one_extra_card_per_play() -> None:
    state = with_hand(three(), 0, ("red-01", "white-01", "special-plus-two", "special-elephant"))
    plays = [a for a in legal_actions(state) if str(a).startswith("play")]
    assert all(len(str(a).split()) <= 3 for a in plays)
    assert "play red-01 special-elephant" in legal(state)
    with pytest.raises(IllegalActionError, match="not coloured"):
        run(state, "play special-elephant special-plus-two")


@pytest.mark.clause("TM.PLAY.ONE_COLOURED")
def test_a_card_not_in_hand_cannot_be_played() -> None:
    state = three()
    with pytest.raises(IllegalActionError, match="red-03 is not in P0's hand"):
        run(state, "play red-03")
    with pytest.raises(IllegalActionError, match="white-02 is not in P0's hand"):
        run(state, "play red-01 white-02")
    assert apply(state, legal_actions(state)[0]) != state


@pytest.mark.clause("TM.PLAY.COLOUR_LOCK", "TM.PLAY.FIRST_ANY_COLOUR")
def test_first_coloured_card_sets_the_colour_for_the_visit() -> None:
    state = run(three(), "play red-01", "play green-07", "play violet-07")
    assert player(state, 0).colour is CardColour.RED
    assert state.to_move == 0
    plays = {a for a in legal(state) if a.startswith("play")}
    assert plays == {
        f"play {c}{extra}"
        for c in ("red-02", "red-13")
        for extra in ("", " white-01", " special-plus-two")
    }
    with pytest.raises(IllegalActionError, match="must play red this visit; yellow-03 is yellow"):
        run(state, "play yellow-03")
    with pytest.raises(IllegalActionError, match="must play red"):
        run(state, "play yellow-03 white-01")


@pytest.mark.clause("TM.PLAY.NO_TAKE_BACK")
def test_played_cards_stay_on_the_table() -> None:
    state = run(three(), "play red-01 white-01")
    assert player(state, 0).played == ("red-01", "white-01")
    assert "red-01" not in player(state, 0).hand
    assert "white-01" not in player(state, 0).hand
    state = run(state, "play green-07", "play violet-07", "play red-02")
    assert player(state, 0).played == ("red-01", "white-01", "red-02")
    assert not any("red-01" in a or "white-01" in a for a in legal(run(state, "play green-08")))


@pytest.mark.clause("TM.PLAY.COLOUR_RESET")
def test_colour_is_chosen_again_in_the_next_visit() -> None:
    state = run(three(), "play red-01", "play green-07", "play violet-07")
    assert player(state, 0).colour is CardColour.RED
    state = finish_visit(state)
    assert state.visit == 2
    assert all(p.colour is None for p in state.players)
    state = with_hand(state, 1, ("red-05", "yellow-05", "green-05"))
    state = with_hand(state, 2, ("red-06", "yellow-06"))
    state = with_hand(state, 0, ("yellow-03", "red-02"))
    assert state.to_move == 1
    state = run(state, "play yellow-05", "play red-06", "play yellow-03")
    assert player(state, 0).colour is CardColour.YELLOW
    assert player(state, 1).colour is CardColour.YELLOW
    assert player(state, 2).colour is CardColour.RED


@pytest.mark.clause("TM.SPECIAL.PLUS_TWO", "TM.SCORE.TRACK")
def test_plus_two_scores_two_points_when_played() -> None:
    state = three()
    assert player(state, 0).score == 0
    state = run(state, "play red-01 special-plus-two")
    assert player(state, 0).score == 2
    assert state.step is Step.PLAY and state.to_move == 1


@pytest.mark.clause("TM.TURN.CLOCKWISE", "TM.TURN.START_PLAYER_BEGINS")
def test_start_player_begins_and_turns_pass_clockwise() -> None:
    state = seat_two_starts()
    assert state.to_move == 2
    seen: list[int | None] = []
    for action in ("play green-01", "play violet-01", "play red-01", "play yellow-01"):
        seen.append(state.to_move)
        state = run(state, action)
    seen.append(state.to_move)
    assert seen == [2, 3, 0, 1, 2]


@pytest.mark.clause("TM.TURN.WITHDRAWN_SKIPPED", "TM.WITHDRAW.FINAL")
def test_withdrawn_players_are_skipped() -> None:
    state = run(three(), "play red-01", "withdraw")
    assert player(state, 1).withdrawn
    state = run(state, sorted(legal(state))[0])  # seat 1 takes two display cards
    assert state.to_move == 2
    state = run(state, "play violet-07")
    assert state.to_move == 0
    state = run(state, "play red-02")
    assert state.to_move == 2
    state = run(state, "play violet-08", "play red-13")
    assert state.to_move == 2


@pytest.mark.clause("TM.TURN.CLOCKWISE", "TM.TURN.WITHDRAWN_SKIPPED")
def test_with_nothing_to_take_the_turn_passes_clockwise_past_withdrawn_players() -> None:
    # An empty display: a player who withdraws takes nothing, and the turn passes at once.
    state = with_display(table(), ())
    state = run(state, "withdraw")
    assert player(state, 0).withdrawn and state.to_move == 1
    state = run(state, "play yellow-02", "play green-02")
    assert state.to_move == 3
    state = run(state, "withdraw")  # seat 0 has withdrawn: skipped
    assert state.to_move == 1
    state = run(state, "withdraw")
    assert state.to_move == 2


@pytest.mark.clause("TM.TURN.LAST_PLAYER_CONTINUES", "TM.TURN.WITHDRAWN_SKIPPED")
def test_the_last_player_keeps_playing_until_they_withdraw() -> None:
    state = run(three(), "withdraw")
    state = run(state, sorted(legal(state))[0])
    state = run(state, "withdraw")
    state = run(state, sorted(legal(state))[0])
    assert state.to_move == 2
    for card in ("violet-07", "violet-08", "violet-09"):
        state = run(state, f"play {card}")
        assert state.to_move == 2
        assert state.visit == 1
    state = run(state, "withdraw")
    state = finish_visit(state)
    assert state.visit == 2


@pytest.mark.clause("TM.TURN.NO_LEGAL_PLAY")
def test_a_player_without_a_legal_play_can_only_withdraw() -> None:
    only_white = with_hand(three(), 0, ("white-01", "white-06", "special-mogul"))
    assert legal(only_white) == {"withdraw"}
    state = run(three(), "play red-01", "play green-07", "play violet-07")
    state = with_hand(state, 0, ("yellow-03", "green-01", "white-01"))
    assert legal(state) == {"withdraw"}
    assert legal(with_hand(state, 0, ())) == {"withdraw"}


@pytest.mark.clause("TM.WITHDRAW.EMPTY_HANDED")
def test_a_player_may_withdraw_winning_nothing_and_keep_their_cards() -> None:
    # Seat 1 ties the vizier and the elephant, and wins nothing.
    state = run(three(), "play red-01", "play green-07", "play violet-07", "play red-13")
    before = player(state, 1)
    state = run(state, "withdraw")
    after = player(state, 1)
    assert after.influence == () and after.province_tiles == () and after.score == 0
    assert set(before.hand) <= set(after.hand)
    assert state.palaces == () and state.step is Step.TAKE
    assert state.court_province_tile == "province-01" and state.crown_in_court


@pytest.mark.clause("TM.PLAY.HANDS_SECRET")
def test_a_players_view_hides_the_other_hands() -> None:
    state = run(three(), "play red-01")
    seen = view(state, 1)
    assert seen.players[1].hand == player(state, 1).hand
    assert seen.players[0].hand is None and seen.players[2].hand is None
    assert seen.players[0].hand_size == len(player(state, 0).hand)
    assert seen.players[0].played == ("red-01",)


@pytest.mark.clause(
    "TM.SPECIAL.COLOUR_CHANGE", "TM.SPECIAL.COLOUR_CHANGE.ONE_TURN", "TM.PLAY.COLOUR_LOCK"
)
def test_colour_change_lets_another_colour_through_for_that_turn_only() -> None:
    state = with_hand(three(), 0, ("red-01", "red-02", "yellow-03", "yellow-04", "white-01"))
    state = with_hand(state, 0, (*player(state, 0).hand, "special-colour-change"))
    state = run(state, "play red-01", "play green-07", "play violet-07")
    plays = {a for a in legal(state) if a.startswith("play")}
    assert "play yellow-03 special-colour-change" in plays
    assert "play yellow-03" not in plays and "play yellow-03 white-01" not in plays
    state = run(state, "play yellow-03 special-colour-change")
    assert player(state, 0).colour is CardColour.RED
    state = run(state, "play green-08", "play violet-08")
    plays = {a for a in legal(state) if a.startswith("play")}
    assert plays == {"play red-02", "play red-02 white-01"}
    with pytest.raises(IllegalActionError, match="must play red"):
        run(state, "play yellow-04")


@pytest.mark.clause("TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN")
def test_colour_change_on_the_first_turn_the_next_card_sets_the_colour() -> None:
    hand = ("red-01", "yellow-03", "yellow-04", "green-01", "special-colour-change")
    state = with_hand(three(), 0, hand)
    state = run(state, "play red-01 special-colour-change")
    assert player(state, 0).colour is None
    state = run(state, "play green-07", "play violet-07")
    assert "play green-01" in legal(state) and "play yellow-03" in legal(state)
    state = run(state, "play yellow-03", "play green-08", "play violet-08")
    assert player(state, 0).colour is CardColour.YELLOW
    assert {a for a in legal(state) if a.startswith("play")} == {"play yellow-04"}


@pytest.mark.clause("TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN")
def test_colour_change_first_turn_played_card_option() -> None:
    rules = RuleSet(colour_change_first_turn=ColourChangeFirstTurn.PLAYED_CARD)
    hand = ("red-01", "red-02", "yellow-03", "special-colour-change")
    state = three(rules)
    state = with_hand(state, 0, hand)
    state = run(state, "play red-01 special-colour-change")
    assert player(state, 0).colour is CardColour.RED
    state = run(state, "play green-07", "play violet-07")
    assert {a for a in legal(state) if a.startswith("play")} == {"play red-02"}
