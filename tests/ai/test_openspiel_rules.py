"""The OpenSpiel game under every rule set: each option is a game parameter of its own, and
every game's string loads back (``pyspiel.load_game(str(game))``), so OpenSpiel's
serialization works with non-default rules too."""

from __future__ import annotations

from pathlib import Path

import pytest
from ai_helpers import extra

from tajmahal.model import DEFAULT_RULES, RULE_OPTIONS

pyspiel = extra("pyspiel", "openspiel")
openspiel = extra("tajmahal.ai.openspiel", "openspiel")

NON_DEFAULT = [
    (option, value)
    for option, values in RULE_OPTIONS.items()
    for value in values
    if value != DEFAULT_RULES.to_json()[option]
]
"""Every option with each value other than its default."""


def play_to(state: object, steps: int) -> object:
    """``state`` after its first legal action ``steps`` times (or at the end)."""
    for _ in range(steps):
        if state.is_terminal():  # type: ignore[attr-defined]
            break
        state.apply_action(state.legal_actions()[0])  # type: ignore[attr-defined]
    return state


def test_a_game_with_non_default_rules_loads_back_from_its_string() -> None:
    """The reproducer: with the rules as one parameter (``rules=majority_scope=all``)
    OpenSpiel read the game string back as an unknown parameter ``rules=majority_scope``."""
    game = pyspiel.load_game("tajmahal", {"players": 3, "majority_scope": "all"})
    assert "majority_scope=all" in str(game)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.config().rules.majority_scope.value == "all"
    state = play_to(game.new_initial_state(), 200)
    restored_game, restored = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert str(restored_game) == str(game)
    assert str(restored) == str(state)
    assert restored.node.config.rules.majority_scope.value == "all"


def test_random_sim_test_with_serialization_under_every_option_at_once() -> None:
    """Every option at its other value in one game (each alone: the deep test below)."""
    game = pyspiel.load_game("tajmahal", {"players": 3, **dict(NON_DEFAULT)})
    assert all(getattr(game.config().rules, option).value == value for option, value in NON_DEFAULT)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.deep
@pytest.mark.parametrize(("option", "value"), NON_DEFAULT)
def test_random_sim_test_with_serialization_under_each_option(option: str, value: str) -> None:
    game = pyspiel.load_game("tajmahal", {"players": 3, option: value})
    assert getattr(game.config().rules, option).value == value
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("setup", ["staged", "seeded"])
def test_every_game_string_loads_back(players: int, setup: str) -> None:
    every_option = {option: value for option, value in NON_DEFAULT}
    for params in (
        {"players": players, "setup": setup},
        {"players": players, "setup": setup, "seed": 12, "utility": "score", **every_option},
    ):
        game = pyspiel.load_game("tajmahal", params)
        again = pyspiel.load_game(str(game))
        assert str(again) == str(game)
        assert again.config().rules == game.config().rules
        assert pyspiel.load_game(str(again)).get_parameters() == game.get_parameters()


def test_an_unknown_option_value_is_refused_naming_the_option() -> None:
    with pytest.raises(ValueError, match="majority_scope: unknown value 'nobody'"):
        pyspiel.load_game("tajmahal", {"majority_scope": "nobody"})


@pytest.mark.parametrize("folder", ["a,b", "a=b", "a(b)", "12", "-3.5", "true", "False"])
def test_a_components_folder_that_a_game_string_cannot_hold_is_refused(
    folder: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder whose name OpenSpiel would split, or read back as a number or a boolean,
    is refused with one line naming the parameter (its game string could not load back)."""
    (tmp_path / folder).mkdir()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=r"^components: .* OpenSpiel game string"):
        pyspiel.load_game("tajmahal", {"components": folder, "setup": "seeded"})


def test_a_components_folder_with_other_characters_loads_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "my parts 1e5").mkdir()
    monkeypatch.chdir(tmp_path)
    game = pyspiel.load_game("tajmahal", {"components": "my parts 1e5", "setup": "seeded"})
    assert pyspiel.load_game(str(game)).get_parameters()["components"] == "my parts 1e5"
