"""Rulings on majorities: zero symbols, ties and whom a withdrawing player is compared with."""

from __future__ import annotations

import pytest
from positions import (
    legal,
    player,
    run,
    run_events,
    symbols,
    table,
    with_hand,
)
from scenes import tied_generals

from tajmahal.model import INFLUENCE_SYMBOLS, GameState, MajorityScope, RuleSet, Step, Symbol

V, G, M, P = Symbol.VIZIER, Symbol.GENERAL, Symbol.MONK, Symbol.PRINCESS


@pytest.mark.clause(
    "TM.WITHDRAW.MAJORITY.ZERO",
    "TM.WITHDRAW.MAJORITY.STRICT",
    "TM.WITHDRAW.WITHOUT_PLAYING.NOTHING",
    "TM.TURN.LAST_PLAYER_CONTINUES",
)
def test_zero_symbols_never_win_when_alone() -> None:
    """RUL.MAJORITY.ZERO_SYMBOLS: alone in the visit, A still wins only what A showed."""
    state = table()
    state = with_hand(state, 0, ("red-07", "red-08", "red-19"))
    state = run(state, "play red-07")
    # B, C and D withdraw without playing and win nothing.
    for seat, pick in ((1, "take white-06 white-07"), (2, "take white-08 white-09")):
        assert state.to_move == seat
        state = run(state, "withdraw", pick)
    assert state.to_move == 3
    state = run(state, "withdraw", "take white-10 white-11")
    assert all(player(state, seat).influence == () for seat in (1, 2, 3))
    assert state.palaces == ()
    # A plays on alone, then withdraws.
    assert state.to_move == 0
    state = run(state, "play red-08")
    assert state.to_move == 0
    shown = symbols(player(state, 0).played)
    assert shown[V] > 0 and shown[Symbol.ELEPHANT] > 0
    assert shown[G] == shown[M] == shown[P] == shown[Symbol.MOGUL] == 0

    state = run(state, "withdraw")
    assert player(state, 0).influence == (V,)
    assert set(state.court_influence) == {G, M, P}
    assert state.crown_in_court
    withdrawal = state.withdrawal
    assert withdrawal is not None
    assert withdrawal.province_won == "province-01"
    assert withdrawal.palaces_owed == 1 and not withdrawal.crown_owed
    assert state.step is Step.PLACE
    assert all(action.startswith("palace ") for action in legal(state))

    state = run(state, "palace A1")
    # A was the last player: the visit is over and exactly one palace of A stands.
    assert state.visit == 2
    assert [(p.city, p.seat) for p in state.palaces] == [("A1", 0)]
    assert player(state, 0).influence == (V,)
    assert player(state, 0).province_tiles == ("province-01",)


@pytest.mark.clause(
    "TM.WITHDRAW.MAJORITY.ZERO",
    "TM.WITHDRAW.MAJORITY.STRICT",
    "TM.WITHDRAW.WITHOUT_PLAYING.NOTHING",
    "TM.TURN.LAST_PLAYER_CONTINUES",
)
def test_zero_symbols_never_win_against_zeros() -> None:
    """RUL.MAJORITY.ZERO_SYMBOLS: nobody showed a monk, so nobody wins the monk."""
    # A: elephant + vizier; B: elephant + general; C: elephant + princess.
    state = table(("red-07",), ("yellow-10",), ("green-16",), players=3)
    assert all(symbols(player(state, seat).played)[M] == 0 for seat in range(3))
    assert not any(player(state, seat).withdrawn for seat in range(3))
    state = run(state, "withdraw")
    assert player(state, 0).influence == (V,)
    assert M in state.court_influence
    assert M not in player(state, 0).influence


@pytest.mark.clause(
    "TM.WITHDRAW.MAJORITY.ZERO",
    "TM.WITHDRAW.MAJORITY.STRICT",
    "TM.WITHDRAW.WITHOUT_PLAYING.NOTHING",
    "TM.TURN.LAST_PLAYER_CONTINUES",
)
def test_last_player_withdrawing_without_playing_wins_nothing() -> None:
    """RUL.MAJORITY.ZERO_SYMBOLS: the last player, alone and without cards, wins nothing."""
    state = table(players=3)
    state = run(state, "withdraw", "take white-06 white-07")
    state = run(state, "withdraw", "take white-08 white-09")
    assert state.to_move == 2 and player(state, 2).played == ()
    assert state.court_influence == INFLUENCE_SYMBOLS
    assert state.crown_in_court
    assert state.court_province_tile == "province-01"
    score = player(state, 2).score

    state, events = run_events(state, "withdraw")
    mine = [event.kind for event in events if event.seat == 2]
    assert "win" not in mine
    assert "palace" not in mine and "crown" not in mine
    assert "forfeit" not in mine
    assert state.palaces == ()
    assert player(state, 2).score == score
    assert player(state, 2).influence == ()
    assert player(state, 2).province_tiles == ()
    assert all(p.province_tiles == () and p.influence == () for p in state.players)
    # The visit ended with every prize unwon: the court was never emptied.
    assert state.visit == 2
    assert any(event.kind == "unwon" and event.tiles == ("province-01",) for event in events)
    assert state.court_influence == INFLUENCE_SYMBOLS
    assert state.crown_in_court


@pytest.mark.clause(
    "TM.WITHDRAW.MAJORITY.STRICT",
    "TM.WITHDRAW.DISCARDED_NO_INFLUENCE",
    "TM.WITHDRAW.MAJORITY.REMAINING",
)
def test_tied_player_withdrawing_wins_nothing() -> None:
    """RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL: a tie is no majority for the first to leave."""
    state = run(tied_generals(), "withdraw")
    assert G not in player(state, 0).influence
    assert G in state.court_influence
    # A won nothing, so A goes straight to the display: no palace to place.
    assert state.step is Step.TAKE
    assert state.withdrawal is not None and state.withdrawal.palaces_owed == 0
    assert not any(action.startswith("palace ") for action in legal(state))
    assert [p for p in state.palaces if p.seat == 0] == []


@pytest.mark.clause(
    "TM.WITHDRAW.MAJORITY.STRICT",
    "TM.WITHDRAW.DISCARDED_NO_INFLUENCE",
    "TM.WITHDRAW.MAJORITY.REMAINING",
)
def test_tie_resolves_for_remaining_player() -> None:
    """RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL: once A has left, B's 2 generals beat C's 0."""
    state = run(tied_generals(), "withdraw", "take white-06 white-07")
    assert player(state, 0).played == ()
    assert state.to_move == 1
    state = run(state, "play yellow-19")
    assert state.to_move == 2
    state = run(state, "play green-03")
    assert symbols(player(state, 2).played)[G] == 0
    assert state.to_move == 1 and not player(state, 2).withdrawn
    state = run(state, "withdraw")
    assert G in player(state, 1).influence
    assert G not in state.court_influence
    assert state.step is Step.PLACE and state.to_move == 1
    assert state.withdrawal is not None and state.withdrawal.palaces_owed == 1
    state = run(state, "palace A2")
    assert [(p.city, p.seat) for p in state.palaces] == [("A2", 1)]


def b_withdraws_after_a(scope: MajorityScope) -> GameState:
    """:func:`tied_generals` under ``scope``: A withdraws (its generals are discarded and
    win nothing) and takes its pick; B, next with C still in the visit, withdraws."""
    state = run(tied_generals(RuleSet(majority_scope=scope)), "withdraw")
    assert G not in player(state, 0).influence and G in state.court_influence
    state = run(state, "take white-06 white-07")
    assert state.to_move == 1 and not player(state, 2).withdrawn
    return run(state, "withdraw")


@pytest.mark.clause(
    "TM.WITHDRAW.MAJORITY.REMAINING",
    "TM.WITHDRAW.DISCARDED_NO_INFLUENCE",
    "TM.WITHDRAW.COMPARE",
    "TM.WITHDRAW.MAJORITY.STRICT",
)
def test_scope_remaining_ignores_withdrawn_players() -> None:
    """RUL.MAJORITY.REMAINING_PLAYERS (remaining): A's discarded generals no longer count."""
    state = b_withdraws_after_a(MajorityScope.REMAINING)
    assert G in player(state, 1).influence
    assert G not in state.court_influence


@pytest.mark.clause(
    "TM.WITHDRAW.MAJORITY.REMAINING",
    "TM.WITHDRAW.DISCARDED_NO_INFLUENCE",
    "TM.WITHDRAW.COMPARE",
    "TM.WITHDRAW.MAJORITY.STRICT",
)
def test_scope_all_counts_withdrawn_players() -> None:
    """RUL.MAJORITY.REMAINING_PLAYERS (all): A's 2 generals still tie with B's 2."""
    state = b_withdraws_after_a(MajorityScope.ALL)
    assert G not in player(state, 1).influence
    assert G in state.court_influence
    assert [p for p in state.palaces if p.seat == 1] == []


# ---------------------------------------------------------------------------------------
# RUL.TEXT.WITHDRAWAL_EXAMPLE_ORDER


def settle(state: GameState) -> GameState:
    """Resolve the placements and the display pick of a withdrawal with the first legal
    action each, until a player is to play or withdraw."""
    while state.step in (Step.PLACE, Step.TAKE):
        state = run(state, sorted(legal(state))[0])
    return state


@pytest.mark.clause(
    "TM.WITHDRAW.DISCARDED_NO_INFLUENCE",
    "TM.WITHDRAW.MAJORITY.STRICT",
    "TM.WITHDRAW.MAJORITY.REMAINING",
)
def test_example_order_doris_then_chris() -> None:
    """RUL.TEXT.WITHDRAWAL_EXAMPLE_ORDER: the shape of 001's example. Anna and Bob have
    left; Chris (seat 2) and Doris (seat 3) stand level on the general and the princess,
    Doris leads on the monk and the Grand Mogul. Chris plays one more card (no monk, no
    Grand Mogul) instead of withdrawing; Doris withdraws and wins the monk and the crown
    only; then Chris withdraws and wins the princess and the general. Had Chris withdrawn
    first, the tie would have won him neither."""
    chris = ("green-10", "green-16")  # elephant + general, elephant + princess
    doris = ("violet-02", "violet-03", "violet-05")  # general + monk, monk + princess, ...
    state = table((), (), chris, doris)
    state = with_hand(state, 2, ("green-19",))  # two elephants
    state = settle(run(state, "withdraw"))
    state = settle(run(state, "withdraw"))
    assert player(state, 0).withdrawn and player(state, 1).withdrawn
    assert state.to_move == 2
    for symbol in (G, P):
        assert symbols(player(state, 2).played)[symbol] == 1
        assert symbols(player(state, 3).played)[symbol] == 1
    # As printed: Chris withdrawing first wins neither tied force.
    early = run(state, "withdraw")
    assert G not in player(early, 2).influence and P not in player(early, 2).influence
    # As read: Chris plays on, Doris withdraws, then Chris withdraws.
    state = run(state, "play green-19")
    assert state.to_move == 3
    state = settle(run(state, "withdraw"))
    assert sorted(player(state, 3).influence, key=INFLUENCE_SYMBOLS.index) == [M]
    assert any(p.seat == 3 and p.crowned for p in state.palaces)
    assert state.to_move == 2
    state = run(state, "withdraw")
    assert sorted(player(state, 2).influence, key=INFLUENCE_SYMBOLS.index) == [G, P]
