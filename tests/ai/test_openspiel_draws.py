"""The OpenSpiel adapter's chance draws against the plain recipe of :mod:`tajmahal.ai`.

Inside a dealing or a reshuffle the adapter keeps each chance node as the node the run of
draws started from and the chance ids drawn since, and makes the ``Dealing`` or
``Shuffling`` only when asked (``state.node``). These tests walk staged and seeded games
and check, at every chance node, that the node asked for is the one ``apply_chance``
gives draw after draw, that the outcomes are that node's (same ids, probability 1 / n),
that a game never asked ends as one asked at every node, and that clones and pickles
made in mid-dealing or mid-shuffle go on alike."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from ai_helpers import extra

from tajmahal.ai._chance import ChanceNode, Dealing, Shuffling, apply_chance, chance_outcomes
from tajmahal.model import GameState

pyspiel = extra("pyspiel", "openspiel")
openspiel = extra("tajmahal.ai.openspiel", "openspiel")


def _name(config: Any, node: ChanceNode, chance_id: int) -> str | int:
    """What chance id ``chance_id`` draws at ``node`` (docs/ai.md, OpenSpiel)."""
    if isinstance(node, GameState | Shuffling):
        return str(config.cards[chance_id])
    phase = node.phase()
    if phase == "card":
        return str(config.cards[chance_id])
    if phase == "province-tile":
        return str(config.province_tiles[chance_id])
    if phase == "bonus-tile":
        return str(config.bonus_tiles[chance_id])
    return chance_id


def _walk(game: Any, seed: int, ask: bool) -> tuple[Any, list[Any]]:
    """Play one game with random choices; when ``ask``, compare every chance node with
    the plain recipe. Returns the final state and the engine states after each draw
    run (the end of the dealing, each reshuffle)."""
    config = game.config()
    state = game.new_initial_state()
    rng = random.Random(seed)
    plain: ChanceNode | None = state.node if isinstance(state.node, Dealing) else None
    ends: list[Any] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if plain is None:
                plain = state.node  # the state at the chance step
            if ask:
                node = state.node
                assert plain is not None
                if isinstance(plain, GameState):
                    assert node == plain
                else:
                    assert type(node) is type(plain) and node == plain
                expected = chance_outcomes(plain)
                assert [_name(config, node, i) for i, _ in outcomes] == [o for o, _ in expected]
                assert all(p == 1.0 / len(outcomes) for _, p in outcomes)
            chosen = outcomes[rng.randrange(len(outcomes))][0]
            assert plain is not None
            plain = apply_chance(plain, _name(config, plain, chosen))
            state.apply_action(chosen)
            if isinstance(plain, GameState):
                assert state.node == plain
                ends.append(state.node)
                plain = None
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return state, ends


@pytest.mark.parametrize(("players", "seed", "reshuffles"), [(3, 3, 0), (4, 1, 1), (5, 2, 1)])
def test_staged_draws_match_the_plain_recipe(players: int, seed: int, reshuffles: int) -> None:
    game = pyspiel.load_game("tajmahal", {"players": players, "utility": "score"})
    asked, asked_ends = _walk(game, seed, ask=True)
    quiet, quiet_ends = _walk(game, seed, ask=False)
    assert len(asked_ends) >= 1 + reshuffles  # the dealing, then the reshuffles
    assert asked_ends == quiet_ends
    assert asked.returns() == quiet.returns()
    assert str(asked) == str(quiet)


def test_seeded_reshuffle_draws_match_the_plain_recipe() -> None:
    game = pyspiel.load_game(
        "tajmahal", {"players": 4, "setup": "seeded", "seed": 3, "utility": "score"}
    )
    asked, asked_ends = _walk(game, 3, ask=True)
    quiet, quiet_ends = _walk(game, 3, ask=False)
    assert asked_ends and asked_ends == quiet_ends
    assert asked.returns() == quiet.returns()


def _to_draw(state: Any, rng: random.Random, wanted: type, draws: int) -> Any:
    """Play on until ``draws`` draws into a run of ``wanted`` (Dealing, or Shuffling:
    a reshuffle, which starts at a state at its chance step)."""
    start = GameState if wanted is Shuffling else wanted
    while True:
        assert not state.is_terminal(), "no such run of draws in this game"
        if state.is_chance_node() and isinstance(state.node, start):
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    for _ in range(draws):
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    return state


def _finish(state: Any, seed: int) -> list[float]:
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return list(state.returns())


@pytest.mark.parametrize(("wanted", "draws"), [(Dealing, 30), (Dealing, 11), (Shuffling, 2)])
def test_clones_and_pickles_in_mid_draws_go_on_alike(wanted: type, draws: int) -> None:
    game = pyspiel.load_game("tajmahal", {"players": 4, "utility": "score"})
    rng = random.Random(1)
    state = _to_draw(game.new_initial_state(), rng, wanted, draws)
    clone = state.clone()
    restored = game.deserialize_state(state.serialize())
    node = restored.node
    assert isinstance(node, wanted) and node == state.node
    assert restored.chance_outcomes() == state.chance_outcomes() == clone.chance_outcomes()
    assert _finish(clone, 8) == _finish(state, 8) == _finish(restored, 8)
    assert pickle.loads(pickle.dumps(node)) == node


def test_impossible_draws_are_refused_as_before() -> None:
    game = pyspiel.load_game("tajmahal", {"players": 3})
    state = game.new_initial_state()
    drawn = state.chance_outcomes()[0][0]
    state.apply_action(drawn)
    with pytest.raises(ValueError, match="not possible at the province-tile step"):
        state._apply_action(drawn)
    for _ in range(10 + 15 + 96):
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="start-player"):
        state._apply_action(7)
