"""The public test kit (tajmahal.testing.strategies) and the edge-seeking players."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from positions import COMPONENTS, table

import tajmahal.testing.strategies
from tajmahal.agents import PLAYER_TYPES, Player, play_match
from tajmahal.engine import SetupOutcome, apply, legal_actions, validate_setup
from tajmahal.model import (
    RULE_OPTIONS,
    GameState,
    PlaceCrown,
    Play,
    Reshuffle,
    RuleSet,
    Step,
    Withdraw,
)
from tajmahal.records import replay_steps
from tajmahal.testing.strategies import (
    GameMachine,
    games,
    legal_actions_of,
    positions,
    rule_sets,
    setups,
)

SMALL = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_the_public_names_are_exactly_the_documented_ones() -> None:
    public = {
        name
        for name, value in vars(tajmahal.testing.strategies).items()
        if not name.startswith("_")
        and getattr(value, "__module__", "") == "tajmahal.testing.strategies"
    }
    assert set(tajmahal.testing.strategies.__all__) == public
    assert sorted(tajmahal.testing.strategies.__all__) == tajmahal.testing.strategies.__all__


@SMALL
@given(setup=setups())
def test_setups_are_valid_for_their_player_count(setup: SetupOutcome) -> None:
    validate_setup(COMPONENTS, len(setup.hands), setup)
    assert 3 <= len(setup.hands) <= 5


def test_rule_sets_reach_every_option() -> None:
    seen: dict[str, set[str]] = {name: set() for name in RULE_OPTIONS}

    @settings(max_examples=60, deadline=None)
    @given(rules=rule_sets())
    def collect(rules: RuleSet) -> None:
        for name, value in rules.to_json().items():
            seen[name].add(value)

    collect()
    assert seen == {name: set(values) for name, values in RULE_OPTIONS.items()}


@SMALL
@given(state=positions(), data=st.data())
def test_legal_actions_of_a_position_apply(state: GameState, data: st.DataObject) -> None:
    if state.is_over:
        return
    action = data.draw(legal_actions_of(state))
    if state.is_chance:
        assert isinstance(action, Reshuffle)
        assert sorted(action.order) == sorted(state.discard)
    else:
        assert action in legal_actions(state)
    apply(state, action)


@SMALL
@given(game=games(max_choices=5, max_extra=20))
def test_games_follow_their_choices(game: tajmahal.testing.strategies.Game) -> None:
    assert len(game.states) == len(game.actions) + 1
    assert game.states[0].config.players == game.players
    decisions = [a for a, s in zip(game.actions, game.states, strict=False) if not s.is_chance]
    assert len(decisions) <= len(game.choices) + game.extra


TestGames = GameMachine.TestCase
TestGames.settings = settings(
    max_examples=5,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def test_the_state_machine_reports_a_broken_invariant() -> None:
    class Broken(GameMachine):
        engine = (legal_actions, lambda state, action: (state, ()))  # nothing ever changes

    Broken.TestCase.settings = settings(
        max_examples=3, deadline=None, database=None, phases=[Phase.generate]
    )
    with pytest.raises(
        tajmahal.testing.strategies.InvariantBroken, match=r"plays-are-final|majority"
    ):
        Broken.TestCase().runTest()


# ---------------------------------------------------------------------------------------
# Players


def _decisions(name: str, seeds: range) -> Counter[str]:
    """What a player type did in whole games against random players."""
    counts: Counter[str] = Counter()
    for seed in seeds:
        players: list[Player] = [
            PLAYER_TYPES[name](seed),
            *(PLAYER_TYPES["random"](s) for s in (1, 2)),
        ]
        result = play_match(COMPONENTS, players, seed)
        state = result.initial
        for step in replay_steps(result.record, COMPONENTS):
            if step.before.to_move == 0 and step.before.step is Step.PLAY:
                counts["withdraw" if isinstance(step.action, Withdraw) else "play"] += 1
                if isinstance(step.action, Withdraw) and not step.before.players[0].played:
                    counts["withdraw without playing"] += 1
                could_play = any(isinstance(a, Play) for a in legal_actions(step.before))
                if isinstance(step.action, Withdraw) and could_play:
                    counts["withdraw while able to play"] += 1
            if step.before.to_move == 0 and isinstance(step.action, PlaceCrown):
                occupied = any(p.city == step.action.city for p in step.before.palaces)
                counts["crown on occupied city" if occupied else "crown"] += 1
            state = step.after
        assert state.is_over
    return counts


def test_every_player_type_finishes_games_under_every_rule_set() -> None:
    rules = RuleSet.from_json({name: values[-1] for name, values in RULE_OPTIONS.items()})
    for name, make in PLAYER_TYPES.items():
        if name == "greedy":
            continue
        result = play_match(COMPONENTS, [make(1), make(2), make(3), make(4)], 5, rules)
        assert result.final.is_over, name
        assert result.record.names == (name,) * 4


def test_the_hoarder_mostly_withdraws_without_playing() -> None:
    counts = _decisions("hoarder", range(2))
    assert counts["withdraw without playing"] > 3 * counts["play"]


def test_the_stubborn_player_withdraws_only_when_it_cannot_play_or_rarely() -> None:
    counts = _decisions("stubborn", range(2))
    assert counts["withdraw while able to play"] * 5 <= counts["play"]


def test_the_tie_seeker_plays_to_tie_then_withdraws_while_tied() -> None:
    # Seat 1 shows a general and a monk (yellow-02); seat 0 holds red-02 (general and
    # monk), red-03 (monk, princess) and red-14 (elephant, monk).
    before = table([], ["yellow-02"], players=3)
    assert before.to_move == 0
    for seed in range(5):
        player = PLAYER_TYPES["tie-seeker"](seed)
        assert player.choose(before, legal_actions(before)) == Play("red-02")
    tied = table(["red-02"], ["yellow-02"], players=3)
    choices = [
        PLAYER_TYPES["tie-seeker"](seed).choose(tied, legal_actions(tied)) for seed in range(10)
    ]
    assert choices.count(Withdraw()) >= 6
