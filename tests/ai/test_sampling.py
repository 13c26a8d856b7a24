"""Sampling a state consistent with one seat's knowledge (determinization)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from scenes import random_game

from tajmahal import Take, legal_actions
from tajmahal.ai import Knowledge, observe
from tajmahal.ai._sampling import sample_consistent_state
from tajmahal.model import view
from tajmahal.notation import validate_state


@pytest.mark.clause("TM.PLAY.HANDS_SECRET")
@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3), (5, 29)])
def test_samples_are_indistinguishable_for_the_viewer(players: int, seed: int) -> None:
    steps = list(random_game(players, seed))
    knowledge = [Knowledge.initial(steps[0][0], s) for s in range(players)]
    taken: dict[int, set[str]] = {s: set() for s in range(players)}
    rng = random.Random(seed)
    reshuffles = 0
    for index, (before, action, after) in enumerate(steps):
        seen = observe(before, action, after)
        knowledge = [k.update(o) for k, o in zip(knowledge, seen, strict=True)]
        reshuffles += action.__class__.__name__ == "Reshuffle"
        for s in range(players):
            taken[s] &= set(after.players[s].hand)
        if isinstance(action, Take) and before.to_move is not None:
            taken[before.to_move] |= set(action.cards)
        if index % 9:
            continue
        for viewer in range(players):
            sample = sample_consistent_state(
                view(after, viewer), knowledge[viewer], rng, config=after.config
            )
            validate_state(sample)
            assert view(sample, viewer) == view(after, viewer)
            if after.to_move == viewer:
                assert legal_actions(sample) == legal_actions(after)
            for s in range(players):
                # Public knowledge: cards taken from the face-up display stay in that hand.
                assert taken[s] <= set(sample.players[s].hand)
                assert len(sample.players[s].hand) == len(after.players[s].hand)
            # The deck holds only cards of the latest shuffle.
            if knowledge[viewer].pools > 1:
                latest = knowledge[viewer].pools - 1
                assert all(knowledge[viewer].pool_of.get(c) == latest for c in sample.deck)
            assert Counter(sample.deck) == Counter(set(sample.deck))
    assert reshuffles == knowledge[0].pools - 1


def test_samples_vary_the_hidden_cards() -> None:
    steps = list(random_game(4, seed=5))
    _before, _action, after = steps[30]
    knowledge = Knowledge.initial(steps[0][0], 0)
    for b, a, c in steps[:31]:
        knowledge = knowledge.update(observe(b, a, c)[0])
    hands = {
        sample_consistent_state(view(after, 0), knowledge, random.Random(n), config=after.config)
        .players[1]
        .hand
        for n in range(10)
    }
    assert len(hands) > 1


def test_knowledge_of_another_seat_is_refused() -> None:
    steps = list(random_game(3, seed=1))
    state = steps[0][0]
    with pytest.raises(ValueError, match="knowledge of seat 1"):
        sample_consistent_state(view(state, 0), Knowledge.initial(state, 1), random.Random(0))


def test_knowledge_of_a_replayed_history() -> None:
    from tajmahal.ai import knowledge_of

    steps = list(random_game(3, seed=12))
    initial = steps[0][0]
    actions = [action for _, action, _ in steps[:80]]
    state, knowledge = knowledge_of(initial, actions, 2)
    assert state == steps[79][2]
    assert knowledge.steps == 80
    assert knowledge.known[2] == state.players[2].hand
    sample = sample_consistent_state(view(state, 2), knowledge, random.Random(3))
    assert view(sample, 2) == view(state, 2)
