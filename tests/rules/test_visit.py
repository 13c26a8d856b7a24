"""The end of a visit and the start of the next: special cards, court, display, deck."""

from __future__ import annotations

import attrs
import pytest
from positions import (
    all_cards_once,
    at_visit,
    finish_visit,
    game,
    legal,
    player,
    run,
    table,
    with_bonus,
    with_deck,
    with_hand,
    with_player,
)
from scenes import mogul_held_by, vizier_pair

from tajmahal.engine import apply, chance_cards, legal_actions
from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    DISPLAY_SIZES,
    INFLUENCE_SYMBOLS,
    AlreadyHeldSpecial,
    Reshuffle,
    RuleSet,
    Step,
    Symbol,
)

V = Symbol.VIZIER


@pytest.mark.clause("TM.SPECIAL.EARN", "TM.SPECIAL.EXCHANGE_AT_VISIT_END")
def test_two_identical_tiles_are_exchanged_for_the_special_card_at_the_end_of_the_visit() -> None:
    state = run(vizier_pair(), "withdraw", "palace A1")
    # Not yet: the exchange waits for the end of the visit.
    assert player(state, 0).influence == (V, V)
    assert "special-mogul" not in player(state, 0).hand
    state = finish_visit(state)
    assert state.visit == 2
    assert player(state, 0).influence == ()
    assert "special-mogul" in player(state, 0).hand
    assert "special-mogul" not in state.specials_on_table
    assert V in state.court_influence
    assert all_cards_once(state)


@pytest.mark.clause("TM.SPECIAL.TAKE_FROM_HOLDER", "TM.SPECIAL.EXCHANGE_AT_VISIT_END")
def test_the_special_card_is_taken_from_the_player_who_holds_it() -> None:
    state = finish_visit(run(mogul_held_by(2), "withdraw", "palace A1"))
    assert "special-mogul" in player(state, 0).hand
    assert "special-mogul" not in player(state, 2).hand
    assert all_cards_once(state)


@pytest.mark.clause("TM.SPECIAL.ALREADY_HELD")
def test_tiles_for_a_special_card_already_held_are_returned() -> None:
    state = finish_visit(run(mogul_held_by(0), "withdraw", "palace A1"))
    assert player(state, 0).influence == ()
    assert player(state, 0).hand.count("special-mogul") == 1


@pytest.mark.clause("TM.SPECIAL.ALREADY_HELD")
def test_keeping_the_tiles_is_a_rule_option() -> None:
    rules = RuleSet(already_held_special=AlreadyHeldSpecial.KEEP_TILES)
    state = finish_visit(run(mogul_held_by(0, rules), "withdraw", "palace A1"))
    assert player(state, 0).influence == (V, V)
    assert "special-mogul" in player(state, 0).hand


@pytest.mark.clause(
    "TM.VISIT.NEXT.START_PLAYER",
    "TM.VISIT.NEXT.PROVINCE",
    "TM.VISIT.NEXT.PROVINCE_TILE",
    "TM.VISIT.NEXT.INFLUENCE_REFILL",
    "TM.VISIT.NEXT.CROWN",
    "TM.TURN.VISIT_ENDS",
    "TM.TURN.START_PLAYER_BEGINS",
)
def test_the_next_visit_is_prepared() -> None:
    # Seat 0 wins the vizier, general, crown and the province tile of visit 1.
    state = attrs.evolve(table(("red-01", "red-05")), start_player=3)
    state = run(state, "withdraw", "palace A1", "palace A2", "crown A3")
    assert state.court_influence == (Symbol.MONK, Symbol.PRINCESS)
    assert not state.crown_in_court and state.court_province_tile is None
    state = finish_visit(state)
    assert state.visit == 2
    assert state.start_player == 0 and state.to_move == 0
    assert state.current_province == "B"
    assert state.court_province_tile == "province-02"
    assert state.court_influence == INFLUENCE_SYMBOLS
    assert state.crown_in_court
    assert all(not p.withdrawn and p.played == () for p in state.players)
    assert player(state, 0).influence == (V, Symbol.GENERAL)
    state = finish_visit(state)
    assert state.start_player == 1 and state.current_province == "C"


@pytest.mark.clause("TM.VISIT.NEXT.INFLUENCE_REFILL", "RUL.COMPONENTS.INFLUENCE_TILES")
def test_the_court_is_refilled_only_while_the_supply_lasts() -> None:
    # Six vizier tiles in all: seats 0 to 2 hold five (seat 0 keeps three beside the
    # special card it holds), seat 3 wins the sixth from the court.
    rules = RuleSet(already_held_special=AlreadyHeldSpecial.KEEP_TILES)
    state = table((), (), (), ("violet-07",), rules=rules)
    state = with_hand(state, 0, (*player(state, 0).hand, "special-mogul"))
    state = with_player(state, 0, influence=(V, V, V))
    state = with_player(state, 1, influence=(V,))
    state = with_player(state, 2, influence=(V,))
    state = finish_visit(state)
    assert sum(p.influence.count(V) for p in state.players) == 6
    assert state.court_influence == (Symbol.GENERAL, Symbol.MONK, Symbol.PRINCESS)
    # Once tiles go back to the supply, the court is refilled again.
    state = finish_visit(with_player(state, 0, influence=()))
    assert state.court_influence == INFLUENCE_SYMBOLS


@pytest.mark.clause("TM.VISIT.NEXT.START_PLAYER", "TM.TURN.CLOCKWISE")
def test_the_start_player_marker_goes_round_the_table() -> None:
    state = game(3, start=1)
    starts = []
    for _ in range(4):
        starts.append(state.start_player)
        state = finish_visit(state)
    assert starts == [1, 2, 0, 1]


@pytest.mark.clause("TM.VISIT.NEXT.DISPLAY", "TM.SETUP.DISPLAY.SIZE")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_new_display_of_five_seven_or_nine_cards(players: int) -> None:
    state = game(players)
    assert len(state.display) == DISPLAY_SIZES[players] == {3: 5, 4: 7, 5: 9}[players]
    state = finish_visit(state)
    assert len(state.display) == DISPLAY_SIZES[players]
    assert all_cards_once(state)


@pytest.mark.clause("TM.VISIT.NEXT.DISPLAY")
def test_the_twelfth_visit_has_a_display_too() -> None:
    state = finish_visit(at_visit(game(4), 11))
    assert state.visit == 12 and state.current_province == "L"
    assert len(state.display) == 7
    assert state.court_province_tile == "province-12"


@pytest.mark.clause("TM.VISIT.UNWON_PROVINCE")
def test_a_province_tile_nobody_wins_leaves_the_game() -> None:
    # Nobody shows an elephant.
    state = table(("red-01",), ("yellow-02",))
    state = finish_visit(state)
    assert state.court_province_tile == "province-02"
    assert all("province-01" not in p.province_tiles for p in state.players)


@pytest.mark.clause("TM.VISIT.UNWON_COURT")
def test_influence_tiles_and_crown_nobody_wins_stay_in_the_court() -> None:
    # Only the vizier is won; general, monk, princess and the crown stay.
    state = table(("red-07",), ("yellow-19",))
    state = run(state, "withdraw", "palace A1")
    state = finish_visit(state)
    assert state.court_influence == INFLUENCE_SYMBOLS
    assert state.crown_in_court
    assert sum(p.influence.count(Symbol.GENERAL) for p in state.players) == 0


@pytest.mark.clause("TM.VISIT.NEXT.RESHUFFLE", "TM.VISIT.NEXT.DISPLAY")
def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out() -> None:
    state = table(("red-07",), ("yellow-02",), ("green-02",), ("violet-02",))
    state = with_deck(state, ["green-21", "violet-21", "yellow-21"])
    state = finish_visit(state)
    assert state.step is Step.SHUFFLE
    assert state.is_chance and state.to_move is None
    assert legal_actions(state) == ()
    assert state.deck == ()
    assert state.display == ("green-21", "violet-21", "yellow-21")
    discard = chance_cards(state)
    assert discard == state.discard and "red-07" in discard
    with pytest.raises(IllegalActionError, match="reshuffle"):
        apply(state, Reshuffle(discard[1:]))
    with pytest.raises(IllegalActionError, match="not in the discard pile"):
        apply(state, Reshuffle((*discard[1:], "special-mogul")))
    with pytest.raises(IllegalActionError, match="chance outcome"):
        run(state, "withdraw")
    order = tuple(reversed(discard))
    state = apply(state, Reshuffle(order))
    assert state.step is Step.PLAY and state.to_move == state.start_player == 1
    assert state.display == tuple(sorted(("green-21", "violet-21", "yellow-21", *order[:4])))
    assert state.deck == order[4:]
    assert state.discard == ()
    assert all_cards_once(state)


@pytest.mark.clause("TM.VISIT.NEXT.RESHUFFLE")
def test_a_reshuffle_is_refused_when_none_is_due() -> None:
    state = table()
    with pytest.raises(IllegalActionError, match="no reshuffle is due"):
        apply(state, Reshuffle(("red-01",)))


@pytest.mark.clause("TM.VISIT.NEXT.RESHUFFLE", "TM.SCORE.BONUS.CARD")
def test_a_bonus_card_drawn_from_an_empty_deck_waits_for_the_reshuffle() -> None:
    state = table(("red-01",), ("yellow-19",), order="BACDEFGHIJK")
    state = with_bonus(with_deck(state, []), "B3", "bonus-04")
    state = run(state, "withdraw", "palace B3")
    assert state.step is Step.SHUFFLE and legal(state) == set()
    order = chance_cards(state)
    hand = player(state, 0).hand
    state = apply(state, Reshuffle(order))
    assert player(state, 0).hand == tuple(sorted((*hand, order[0])))
    assert state.step is Step.PLACE and state.to_move == 0
    assert legal(state) == {"palace B1", "palace B2", "palace B4"}


@pytest.mark.clause("TM.VISIT.DISPLAY_SHORT")
def test_without_deck_and_discard_the_display_stays_short() -> None:
    state = attrs.evolve(with_deck(table(), []), discard=())
    # Nobody plays: nothing is discarded, the extra cards cannot be drawn.
    state = finish_visit(state)
    assert state.visit == 2
    assert state.display == () and state.deck == ()
    assert state.step is Step.PLAY and state.to_move == 1
    assert legal(state) >= {"withdraw"}
