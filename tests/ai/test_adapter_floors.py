"""The floors of ``tools/bench/adapter_speed.py --floors`` replay the real games: the trivial
OpenSpiel game and PettingZoo environment of ``tools/bench/adapter_floors.py`` hand the caller
lists of the recorded lengths, at the recorded players, as many times as the real loop
(so a floor counts the same calls as the loop it bounds)."""

from __future__ import annotations

import random

import pytest
from ai_helpers import extra


@pytest.mark.parametrize("setup", ["seeded", "staged"])
def test_openspiel_floor_replays_the_script(setup: str) -> None:
    pyspiel = extra("pyspiel", "openspiel")
    import adapter_floors as floors

    script = floors.record_openspiel(setup, 3, 5)
    # A real game: a staged one starts with the 123 draws of the dealing (11 province
    # tiles, 15 bonus tiles, 96 cards, the start player), a seeded one with a decision;
    # OpenSpiel's terminal id last.
    chance = int(pyspiel.PlayerId.CHANCE)
    if setup == "staged":
        assert [length for _, length in script[:123]] == [
            *range(11, 0, -1),
            *range(15, 0, -1),
            *range(96, 0, -1),
            3,
        ]
    else:
        assert script[0][0] in (0, 1, 2)
    assert script[-1] == (int(pyspiel.PlayerId.TERMINAL), 0)
    floors._register_openspiel()
    floors._NEXT.append(floors._openspiel_entries(script))
    state = pyspiel.load_game("tajmahal_floor", {"players": 3}).new_initial_state()
    seen = []
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            seen.append((chance, len(outcomes)))
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            seen.append((state.current_player(), len(legal)))
            state.apply_action(legal[rng.randrange(len(legal))])
    seen.append((state.current_player(), 0))
    assert seen == script


@pytest.mark.parametrize(("observe", "tensors"), [(False, False), (True, False), (True, True)])
def test_pettingzoo_floor_replays_the_script(observe: bool, tensors: bool) -> None:
    np = extra("numpy", "pettingzoo")
    extra("pettingzoo", "pettingzoo")
    import adapter_floors as floors

    script = floors.record_pettingzoo(3, 5)
    assert script[-3:] == [(-1, 0)] * 3  # every agent's step once done
    game = floors._pettingzoo_env(3, tensors)
    floors._NEXT_PZ.append(floors._pettingzoo_entries(script))
    game.reset(seed=5)
    seen = []
    for agent in game.agent_iter():
        observation, _, termination, _, info = game.last(observe=observe)
        if termination:
            seen.append((-1, 0))
            game.step(None)
            continue
        mask = info["action_mask"]
        if observe:
            assert observation["observation"].shape == (floors.TENSOR_SIZE,)
            # Copied only for the loop that reads every tensor.
            assert (observation["observation"] is game._tensor) is not tensors
            assert np.array_equal(observation["action_mask"], mask)
        seen.append((int(agent.removeprefix("seat_")), int(mask.sum())))
        game.step(int(np.flatnonzero(mask)[0]))
    assert seen == script
