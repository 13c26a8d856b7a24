"""A random-simulation contract test, in the spirit of OpenSpiel's ``random_sim_test``.

Random 3-, 4- and 5-player games (under the default rule set and under a rule set with
every configurable ruling at a non-default option) are played to the end. At every step
the engine's API contract and the game's invariants are checked: legal actions sorted,
unique and non-empty; action strings round-trip; states round-trip through canonical
JSON; every card is in exactly one place; the court and the influence supply stay within
their limits; scores never decrease; cities hold at most two palaces; views hide other
hands and the deck order; the game ends after visit 12; and the game's record replays to
the same final state and verifies.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from positions import NON_DEFAULT_RULES

from tajmahal import (
    Action,
    Components,
    GameState,
    Play,
    RuleSet,
    Step,
    Withdraw,
    apply,
    apply_with_events,
    chance_cards,
    default_components,
    legal_actions,
    new_game,
    parse_action,
    random_reshuffle,
    random_setup,
)
from tajmahal.model import INFLUENCE_SYMBOLS, INFLUENCE_TILES_PER_KIND, VISITS, view
from tajmahal.notation import canonical_json, state_from_json, state_to_json
from tajmahal.records import Recorder, replay, verify

SEEDS_DEFAULT = range(14)
"""Seeds per player count under the default rule set (3 x 14 = 42 games)."""
SEEDS_VARIANT = range(100, 106)
"""Seeds per player count under :data:`NON_DEFAULT_RULES` (3 x 6 = 18 games)."""
QUICK_SEEDS = 5
"""``make check`` plays the first five default seeds and the first two variant seeds of
each player count (21 games, every withdrawal bias); the others are deep cases."""

MAX_STEPS = 5000
"""A generous bound: a game that takes longer than this is taken not to end."""

CASES = [
    pytest.param(
        players,
        seed,
        RuleSet(),
        id=f"default-{players}p-seed{seed}",
        marks=() if seed < QUICK_SEEDS else pytest.mark.deep,
    )
    for players in (3, 4, 5)
    for seed in SEEDS_DEFAULT
] + [
    pytest.param(
        players,
        seed,
        NON_DEFAULT_RULES,
        id=f"variant-{players}p-seed{seed}",
        marks=() if seed < SEEDS_VARIANT.start + 2 else pytest.mark.deep,
    )
    for players in (3, 4, 5)
    for seed in SEEDS_VARIANT
]


def _components() -> Components:
    return default_components()


def _choose(state: GameState, rng: random.Random, withdraw_bias: float) -> Action:
    """A random legal action; withdraws with probability ``withdraw_bias`` when it may."""
    if state.is_chance:
        return random_reshuffle(state, rng)
    legal = legal_actions(state)
    if withdraw_bias and Withdraw() in legal and rng.random() < withdraw_bias:
        return Withdraw()
    return legal[rng.randrange(len(legal))]


def _check_legal_actions(state: GameState) -> None:
    legal = legal_actions(state)
    strings = [str(action) for action in legal]
    assert strings == sorted(strings), "legal_actions is not sorted by canonical string"
    assert len(set(legal)) == len(legal), "legal_actions holds duplicates"
    assert len(set(strings)) == len(strings), "two legal actions share a canonical string"
    if state.is_over:
        assert legal == ()
        assert state.to_move is None
    elif state.is_chance:
        assert legal == ()
        assert state.to_move is None
        assert chance_cards(state) == state.discard
        assert chance_cards(state), "a chance step with an empty discard pile"
    else:
        assert legal, f"no legal action at a {state.step.value} step"
        assert chance_cards(state) == ()
        assert state.to_move is not None
    for action in legal:
        assert parse_action(str(action)) == action


def _check_turn_choice(state: GameState) -> None:
    """TM.TURN.CHOICE and TM.WITHDRAW.ONCE_PER_VISIT at a play step."""
    if state.step is not Step.PLAY:
        return
    assert state.to_move is not None
    assert not state.players[state.to_move].withdrawn, "a withdrawn player is to play"
    legal = legal_actions(state)
    assert Withdraw() in legal
    assert all(isinstance(action, Play | Withdraw) for action in legal)


def _check_cards(state: GameState, components: Components) -> None:
    """TM.COMP.CARDS.COUNT: each of the 100 cards is in exactly one place."""
    places: list[str] = []
    for player in state.players:
        places.extend(player.hand)
        places.extend(player.played)
    places.extend(state.deck)
    places.extend(state.discard)
    places.extend(state.display)
    places.extend(state.specials_on_table)
    counts = Counter(places)
    doubled = sorted(card for card, count in counts.items() if count > 1)
    assert not doubled, f"cards in two places: {doubled}"
    everything = set(components.cards) | set(components.specials)
    assert len(everything) == 100
    assert set(counts) == everything, (
        f"missing {sorted(everything - set(counts))[:5]}, "
        f"unknown {sorted(set(counts) - everything)[:5]}"
    )


def _check_influence(state: GameState) -> None:
    """TM.COMP.INFLUENCE_TILES: six tiles per kind; the court holds at most one of a kind."""
    court = Counter(state.court_influence)
    assert all(count == 1 for count in court.values()), f"court holds {court}"
    assert set(court) <= set(INFLUENCE_SYMBOLS)
    for symbol in INFLUENCE_SYMBOLS:
        held = sum(player.influence.count(symbol) for player in state.players)
        assert held + court[symbol] <= INFLUENCE_TILES_PER_KIND, (
            f"{held} {symbol.value} tiles held and {court[symbol]} in court"
        )


def _check_refill(before: GameState, after: GameState) -> None:
    """TM.VISIT.NEXT.INFLUENCE_REFILL: a new visit starts with a full court."""
    if after.visit == before.visit:
        return
    assert after.visit == before.visit + 1
    for symbol in INFLUENCE_SYMBOLS:
        held = sum(player.influence.count(symbol) for player in after.players)
        assert (symbol in after.court_influence) == (held < INFLUENCE_TILES_PER_KIND), (
            f"visit {after.visit}: {symbol.value} in court is "
            f"{symbol in after.court_influence} with {held} held"
        )
    assert after.crown_in_court
    assert after.court_province_tile is not None
    tiles = after.config.components.province_tiles
    assert tiles[after.court_province_tile].number == after.visit
    assert all(not player.withdrawn and not player.played for player in after.players)


def _check_court_once(before: GameState, after: GameState) -> None:
    """TM.WITHDRAW.ONCE_PER_VISIT: what leaves the court does not come back within a visit,
    so each influence tile, the crown and the province tile is won at most once."""
    if after.visit != before.visit:
        return
    assert set(after.court_influence) <= set(before.court_influence)
    assert before.crown_in_court or not after.crown_in_court
    assert after.court_province_tile in (before.court_province_tile, None)
    for symbol in INFLUENCE_SYMBOLS:
        held_before = sum(player.influence.count(symbol) for player in before.players)
        held_after = sum(player.influence.count(symbol) for player in after.players)
        won = held_after - held_before
        left_court = (symbol in before.court_influence) - (symbol in after.court_influence)
        if after.is_over:  # the last visit's end may exchange tiles for special cards
            assert won <= left_court
        else:
            assert won == left_court
    crowns_before = sum(1 for palace in before.palaces if palace.crowned)
    crowns_after = sum(1 for palace in after.palaces if palace.crowned)
    assert crowns_after - crowns_before <= 1
    tiles_before = sum(len(player.province_tiles) for player in before.players)
    tiles_after = sum(len(player.province_tiles) for player in after.players)
    assert tiles_after - tiles_before <= 1


def _check_palaces(state: GameState) -> None:
    per_city = Counter(palace.city for palace in state.palaces)
    assert all(count <= 2 for count in per_city.values()), f"palaces: {per_city}"


def _check_views(state: GameState) -> None:
    """TM.PLAY.HANDS_SECRET: a view shows only the viewer's own hand and the deck size."""
    for seat in range(state.players_count):
        seen = view(state, seat)
        assert seen.viewer == seat
        assert seen.deck_size == len(state.deck)
        assert not hasattr(seen, "deck")
        for other, player in enumerate(seen.players):
            if other == seat:
                assert player.hand == state.players[seat].hand
            else:
                assert player.hand is None
            assert player.hand_size == len(state.players[other].hand)
            assert player.score == state.players[other].score


def _check_json(state: GameState, components: Components) -> None:
    document = state_to_json(state)
    assert state_from_json(document, components) == state
    text = canonical_json(state)
    assert canonical_json(state) == text
    rebuilt = state_from_json(json.loads(text), components)
    assert rebuilt == state
    assert canonical_json(rebuilt) == text


@pytest.mark.clause(
    "TM.TURN.TWELVE_VISITS",
    "TM.END.AFTER_TWELVE",
    "TM.TURN.CHOICE",
    "TM.PLAY.HANDS_SECRET",
    "TM.COMP.CARDS.COUNT",
    "TM.WITHDRAW.ONCE_PER_VISIT",
    "TM.VISIT.NEXT.INFLUENCE_REFILL",
    "RUL.COMPONENTS.INFLUENCE_TILES",
    "TM.REWARD.TWO_PALACES_PER_CITY",
)
@pytest.mark.parametrize(("players", "seed", "rules"), CASES)
def test_random_game_contract(players: int, seed: int, rules: RuleSet) -> None:
    components = _components()
    setup = random_setup(components, players, seed)
    state = new_game(components, players, setup, rules)
    recorder = Recorder(components, players, setup, rules, seed=seed)
    rng = random.Random(seed * 7919 + players)
    withdraw_bias = (0.0, 0.15, 0.4)[seed % 3]
    visits_seen = {state.visit}
    withdrawals: Counter[tuple[int, int]] = Counter()
    steps = 0
    while True:
        assert 1 <= state.visit <= VISITS
        _check_legal_actions(state)
        _check_turn_choice(state)
        _check_cards(state, components)
        _check_influence(state)
        _check_palaces(state)
        _check_views(state)
        if steps % 10 == 0 or state.is_chance or state.draw is not None:
            _check_json(state, components)
        if state.is_over:
            break
        assert steps < MAX_STEPS, "the game does not end"
        action = _choose(state, rng, withdraw_bias)
        assert parse_action(str(action)) == action
        if isinstance(action, Withdraw):
            assert state.to_move is not None
            withdrawals[(state.visit, state.to_move)] += 1
            assert withdrawals[(state.visit, state.to_move)] == 1, "withdrew twice in a visit"
        after = apply(state, action)
        assert after.config == state.config
        assert all(new >= old for new, old in zip(after.scores, state.scores, strict=True)), (
            f"a score went down: {state.scores} -> {after.scores} after {action}"
        )
        assert after.visit in (state.visit, state.visit + 1)
        _check_refill(state, after)
        _check_court_once(state, after)
        recorder.add(state, action, after)
        visits_seen.add(after.visit)
        state = after
        steps += 1
    _check_json(state, components)

    assert state.visit == VISITS
    assert visits_seen == set(range(1, VISITS + 1))
    assert len(set(state.province_order)) == VISITS
    for seat in range(players):
        assert sum(count for (_, who), count in withdrawals.items() if who == seat) == VISITS
    assert len(withdrawals) == players * VISITS, "someone skipped a visit's withdrawal"
    assert not any(player.played for player in state.players)

    record = recorder.record(state)
    assert record.final_scores == state.scores
    assert record.winners == state.winners()
    assert replay(record, components) == state
    assert verify(record, components) == state


def test_simulation_is_not_vacuous() -> None:
    """The random games above reach every kind of step and the rarer rules (reshuffles,
    special-card exchanges, crown palaces, bonus tiles), so their checks bite."""
    components = _components()
    steps: Counter[str] = Counter()
    events: Counter[str] = Counter()
    for players, seed, rules in [(3, 0, RuleSet()), (4, 1, RuleSet()), (5, 2, NON_DEFAULT_RULES)]:
        state = new_game(components, players, random_setup(components, players, seed), rules)
        rng = random.Random(seed * 7919 + players)
        while not state.is_over:
            steps[state.step.value] += 1
            state, happened = apply_with_events(state, _choose(state, rng, 0.15))
            events.update(event.kind for event in happened)
    assert {step.value for step in Step} - {Step.OVER.value} <= set(steps)
    assert {"reshuffle", "exchange", "crown", "palace", "bonus", "take"} <= set(events)
