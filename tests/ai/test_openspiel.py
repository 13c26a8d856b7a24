"""The OpenSpiel game: OpenSpiel's own random simulation test, ISMCTS, parameters."""

from __future__ import annotations

import io
import json
import pickle
import random
from pathlib import Path

import numpy as np
import pytest
from ai_helpers import extra

from tajmahal import default_components

pyspiel = extra("pyspiel", "openspiel")
openspiel = extra("tajmahal.ai.openspiel", "openspiel")


@pytest.mark.parametrize(
    "players",
    # Four players: a deep case; make check plays four in the seeded simulation below.
    [3, pytest.param(4, marks=pytest.mark.deep), 5],
)
def test_random_sim_test_with_serialization(players: int) -> None:
    game = pyspiel.load_game("tajmahal", {"players": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_random_sim_test_seeded_setup_and_scores() -> None:
    game = pyspiel.load_game(
        "tajmahal", {"players": 4, "setup": "seeded", "seed": 9, "utility": "score"}
    )
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_game_information() -> None:
    game = pyspiel.load_game("tajmahal", {"players": 5})
    assert game.num_players() == 5
    assert game.num_distinct_actions() == 6183
    assert game.max_chance_outcomes() == 96
    assert game.observation_tensor_size() == 2573
    assert game.information_state_tensor_size() == 3073
    assert game.max_utility() == 1.0
    # decisions + reshuffled cards + setup draws, for five players (docs/ai.md)
    assert game.max_game_length() == 382 + 202 + 123


def test_rule_set_parameters() -> None:
    game = pyspiel.load_game("tajmahal", {"majority_scope": "all"})
    state = game.new_initial_state()
    assert state.node.rules.majority_scope.value == "all"


def play_to(state: object, steps: int, seed: int) -> object:
    rng = np.random.RandomState(seed)
    for _ in range(steps):
        if state.is_terminal():  # type: ignore[attr-defined]
            break
        if state.is_chance_node():  # type: ignore[attr-defined]
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)  # type: ignore[attr-defined]
            state.apply_action(int(rng.choice(actions, p=probabilities)))  # type: ignore[attr-defined]
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))  # type: ignore[attr-defined]
    return state


def test_resampled_states_keep_the_information_state() -> None:
    game = pyspiel.load_game("tajmahal", {"players": 4})
    state = play_to(game.new_initial_state(), 400, seed=3)
    while state.is_chance_node():  # type: ignore[attr-defined]
        state = play_to(state, 1, seed=4)
    player = state.current_player()  # type: ignore[attr-defined]
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(3):
        sampled = state.resample_from_infostate(player, sampler)  # type: ignore[attr-defined]
        assert sampled.information_state_string(player) == state.information_state_string(player)  # type: ignore[attr-defined]
        assert sampled.observation_string(player) == state.observation_string(player)  # type: ignore[attr-defined]
        assert sampled.legal_actions() == state.legal_actions()  # type: ignore[attr-defined]
        play_to(sampled, 50, seed=5)


def test_states_pickle_and_clone() -> None:
    game = pyspiel.load_game("tajmahal", {"players": 3})
    state = play_to(game.new_initial_state(), 250, seed=1)
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state)
    assert again.information_state_string(0) == state.information_state_string(0)  # type: ignore[attr-defined]
    clone = state.clone()  # type: ignore[attr-defined]
    assert clone.history() == state.history()  # type: ignore[attr-defined]


def test_a_game_keeps_its_configuration_through_pickles_copies_and_its_states() -> None:
    """The game holds the configuration it was loaded with; a pickled or deep-copied game
    is loaded again from its parameters, and a state's game is the game itself."""
    import copy

    game = pyspiel.load_game("tajmahal", {"players": 5, "setup": "seeded", "seed": 9})
    config = game.config()
    assert (config.players, config.seed, config.staged) == (5, 9, False)
    state = game.new_initial_state()
    assert state.get_game().config() is config
    for again in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert str(again) == str(game)
        assert again.config().parameters == config.parameters
        assert again.config().space.actions == config.space.actions
        assert str(again.new_initial_state()) == str(state)


class PackageNames(pickle.Unpickler):
    """Reads a pickle as one written before the adapter became a package would be read:
    every name of the adapter looked up in ``tajmahal.ai.openspiel`` itself."""

    looked_up: list[str]

    def find_class(self, module: str, name: str) -> object:
        if module.startswith("tajmahal.ai.openspiel."):
            self.looked_up.append(name)
            module = "tajmahal.ai.openspiel"
        return super().find_class(module, name)


@pytest.mark.parametrize("setup", ["staged", "seeded"])
def test_states_pickled_before_the_adapter_was_a_package_still_load(setup: str) -> None:
    game = pyspiel.load_game("tajmahal", {"players": 4, "setup": setup, "seed": 7})
    state = play_to(game.new_initial_state(), 300, seed=2)
    reader = PackageNames(io.BytesIO(pickle.dumps(state)))
    reader.looked_up = []
    again = reader.load()
    assert set(reader.looked_up) <= {"TajMahalState", "game_config", "HistoryData", "HistoryBase"}
    assert "TajMahalState" in reader.looked_up
    assert str(again) == str(state)
    assert again.history() == state.history()  # type: ignore[attr-defined]
    for seat in range(4):
        assert again.information_state_string(seat) == state.information_state_string(seat)  # type: ignore[attr-defined]
    assert again.legal_actions() == state.legal_actions()  # type: ignore[attr-defined]


def test_information_set_mcts_plays_a_game() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("tajmahal", {"players": 3})
    rng = np.random.RandomState(7)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, rng, max_length=20),
        2.0,
        4,
        random_state=rng,
        allow_inconsistent_action_sets=True,
    )
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            searched += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert searched > 20
    assert sum(state.returns()) == pytest.approx(1.0)


def test_components_parameter(tmp_path: Path) -> None:
    documents = default_components().to_json()
    documents["bonus_tiles.json"]["note"] = "owned copy"
    (tmp_path / "bonus_tiles.json").write_text(json.dumps(documents["bonus_tiles.json"]))
    game = pyspiel.load_game(
        "tajmahal", {"players": 3, "setup": "seeded", "components": str(tmp_path)}
    )
    state = game.new_initial_state()
    assert state.node.config.components.digest != default_components().digest
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("setup", ["staged", "seeded"])
def test_python_answers_match_openspiels_own(setup: str) -> None:
    """``legal_actions``, ``is_chance_node`` and ``chance_outcomes`` are answered in Python;
    OpenSpiel's C++ methods (which call back into the game) give the same answers."""

    game = pyspiel.load_game("tajmahal", {"players": 4, "setup": setup, "seed": 1})
    state = game.new_initial_state()
    rng = random.Random(1)
    kinds = set()
    while True:
        kinds.add(state.current_player())
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for player in [-4, -1, 0, 1, 2, 3]:
            try:
                expected = pyspiel.State.legal_actions(state, player)
            except pyspiel.SpielError:
                with pytest.raises(pyspiel.SpielError):
                    state.legal_actions(player)
            else:
                assert state.legal_actions(player) == expected
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [action for action, _ in outcomes] == state.legal_actions()
            assert sum(probability for _, probability in outcomes) == pytest.approx(1.0)
            assert {probability for _, probability in outcomes} == {1.0 / len(outcomes)}
        if state.is_terminal():
            break
        legal = state.legal_actions()
        legal.clear()  # a caller may change the list it was given
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert kinds == {-4, -1, 0, 1, 2, 3}  # a reshuffle, and the staged dealing


def test_impossible_chance_outcomes_are_refused() -> None:
    game = pyspiel.load_game("tajmahal", {"players": 4, "setup": "seeded", "seed": 1})
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_chance_node():  # play to the first reshuffle
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    first = state.legal_actions()[0]
    state.apply_action(first)
    with pytest.raises(ValueError, match="not among the cards"):
        state.apply_action(first)  # drawn already
    dealing = pyspiel.load_game("tajmahal", {"players": 4}).new_initial_state()
    tile = dealing.legal_actions()[0]
    dealing.apply_action(tile)
    with pytest.raises(ValueError, match="not possible at the province-tile step"):
        dealing.apply_action(tile)


def test_a_state_restored_in_mid_reshuffle_finishes_it() -> None:
    game = pyspiel.load_game("tajmahal", {"players": 4, "setup": "seeded", "seed": 1})
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_chance_node():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    while state.is_chance_node():
        action = state.legal_actions()[0]
        assert restored.legal_actions()[0] == action
        state.apply_action(action)
        restored.apply_action(action)
    assert not restored.is_chance_node()
    assert str(restored) == str(state)
    for seat in range(4):
        assert restored.information_state_string(seat) == state.information_state_string(seat)
        assert restored.observation_tensor(seat) == state.observation_tensor(seat)


@pytest.mark.parametrize(("players", "setup"), [(3, "staged"), (4, "seeded"), (5, "staged")])
def test_legal_ids_are_the_plain_ones_at_every_decision(players: int, setup: str) -> None:
    """The state's legal actions are the sorted ids of the engine's legal actions at
    every decision, asked with and without the player, in two games of one game object."""
    from tajmahal.engine import legal_actions

    game = pyspiel.load_game("tajmahal", {"players": players, "setup": setup, "seed": 5})
    space = game.config().space
    for _ in range(2):
        state = game.new_initial_state()
        rng = random.Random(players)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            plain = sorted(space.ids[action] for action in legal_actions(state.node))
            assert state.legal_actions() == plain
            assert state.legal_actions(state.current_player()) == plain
            state.apply_action(plain[rng.randrange(len(plain))])


def test_the_game_type_follows_the_utility() -> None:
    from tajmahal.ai.openspiel._config import game_type

    assert game_type("win").utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game_type("score").utility == pyspiel.GameType.Utility.GENERAL_SUM
    for utility in ("win", "score"):
        made = game_type(utility)
        assert made.short_name == "tajmahal"
        assert (made.min_num_players, made.max_num_players) == (3, 5)
        assert made.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert made.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert made.parameter_specification == openspiel.DEFAULT_PARAMETERS
    loaded = pyspiel.load_game("tajmahal", {"utility": "score"}).get_type()
    assert loaded.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert pyspiel.load_game("tajmahal").get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM


def test_a_decisions_position_is_a_plain_position() -> None:
    """A position reached by a decision is built by a shorter initialiser (``HistoryStep``);
    it pickles to the very bytes of the plain ``HistoryData`` with the same node, history and
    player, and answers alike."""
    from tajmahal.ai.openspiel._history import HistoryData, HistoryStep, knowledge_at

    game = pyspiel.load_game("tajmahal", {"players": 3, "setup": "seeded", "seed": 4})
    state = play_to(game.new_initial_state(), 60, seed=4)
    step = state._data  # type: ignore[attr-defined]
    assert type(step) is HistoryStep
    twin = HistoryData(step.node, step.link, None, None, step.player)
    assert (twin.node, twin.link, twin.player, twin.chance) == (
        step.node,
        step.link,
        step.player,
        step.chance,
    )
    assert pickle.dumps(step) == pickle.dumps(twin)
    for seat in range(3):
        assert knowledge_at(step, seat) == knowledge_at(twin, seat)
