"""Chance as explicit distributions: a staged setup and card-by-card reshuffles."""

from __future__ import annotations

import random

import pytest

from tajmahal import GameState, Reshuffle, Step, apply, default_components
from tajmahal.ai._chance import Dealing, Shuffling, apply_chance, chance_outcomes, deal_phases
from tajmahal.engine import validate_setup


def deal(players: int, seed: int) -> tuple[list[str], GameState]:
    rng = random.Random(seed)
    node: Dealing | GameState = Dealing(default_components(), players)
    phases: list[str] = []
    while isinstance(node, Dealing):
        outcomes = chance_outcomes(node)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        phases.append(node.phase())
        drawn = apply_chance(node, outcomes[rng.randrange(len(outcomes))][0])
        assert isinstance(drawn, Dealing | GameState)
        node = drawn
    return phases, node


@pytest.mark.clause("TM.SETUP.PROVINCE.AGRA_TWELVE", "TM.SETUP.BONUS.TAJ", "TM.SETUP.HANDS")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_staged_setup_deals_every_piece_once(players: int) -> None:
    phases, state = deal(players, seed=players)
    # 11 province tiles (tile 12 lies on Agra's), 15 bonus tiles (the Taj Mahal tile lies
    # on Agra), the 96 cards one by one, then the start player.
    assert phases.count("province-tile") == 11
    assert phases.count("bonus-tile") == 15
    assert phases.count("card") == 96
    assert phases.count("start-player") == 1
    assert state.step is Step.PLAY and state.visit == 1
    assert all(len(player.hand) == 6 for player in state.players)
    assert len(state.display) == {3: 5, 4: 7, 5: 9}[players]
    board = default_components().board
    assert state.province_order[11] == board.agra_province  # tile 12: visited last
    assert dict(state.bonus_on_board)[board.agra] == "bonus-taj-mahal"


def test_first_draws_have_the_expected_counts() -> None:
    node = Dealing(default_components(), 4)
    outcomes = chance_outcomes(node)
    assert len(outcomes) == 11
    assert "province-12" not in [o for o, _ in outcomes]
    assert outcomes[0][1] == pytest.approx(1 / 11)


def test_a_dealing_outcome_is_a_valid_setup() -> None:
    node = Dealing(default_components(), 3)
    rng = random.Random(5)
    while node.phase() != "start-player":
        outcomes = node.outcomes()
        following = node.draw(outcomes[rng.randrange(len(outcomes))])
        assert isinstance(following, Dealing)
        node = following
    setup = node.outcome(2)
    validate_setup(default_components(), 3, setup)
    assert setup.start_player == 2
    with pytest.raises(ValueError):
        node.draw(3)


def chance_state(seed: int) -> GameState:
    from scenes import random_game

    for before, _action, _after in random_game(5, seed):
        if before.is_chance:
            return before
    raise AssertionError("no reshuffle in this game")


@pytest.mark.clause("TM.VISIT.NEXT.RESHUFFLE")
def test_a_reshuffle_drawn_card_by_card_folds_into_one_reshuffle() -> None:
    state = chance_state(2)
    discard = state.discard
    node: Shuffling | GameState = Shuffling(state)
    order: list[str] = []
    rng = random.Random(0)
    while isinstance(node, Shuffling):
        outcomes = chance_outcomes(node)
        assert len(outcomes) == len(discard) - len(order)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        card = str(outcomes[rng.randrange(len(outcomes))][0])
        order.append(card)
        following = apply_chance(node, card)
        assert isinstance(following, Shuffling | GameState)
        node = following
    assert sorted(order) == sorted(discard)
    assert node == apply(state, Reshuffle(tuple(order)))


def test_chance_outcomes_of_a_state() -> None:
    state = chance_state(2)
    outcomes = chance_outcomes(state)
    assert [card for card, _ in outcomes] == list(state.discard)
    following = apply_chance(state, state.discard[0])
    assert isinstance(following, Shuffling) and following.order == (state.discard[0],)
    after = apply(state, Reshuffle(tuple(state.discard)))
    if not after.is_chance:
        assert chance_outcomes(after) == ()
        with pytest.raises(ValueError):
            apply_chance(after, "red-01")
    with pytest.raises(ValueError):
        Shuffling(state).draw("not-a-card")


def test_the_phase_of_each_draw_is_fixed() -> None:
    components = default_components()
    phases = deal_phases(components)
    assert phases.count("province-tile") == 11
    assert phases.count("card") == 96
    assert phases[-1] == "start-player"
    rng = random.Random(3)
    node: Dealing | GameState = Dealing(components, 4)
    drawn = 0
    while isinstance(node, Dealing):
        assert node.phase() == phases[drawn]
        outcomes = node.outcomes()
        node = node.draw(outcomes[rng.randrange(len(outcomes))])
        drawn += 1
    assert drawn == len(phases)
