"""Views as JSON and tensors, per-seat observations, accumulated knowledge."""

from __future__ import annotations

import json
import random

import pytest
from scenes import random_game

from tajmahal import Take, default_components
from tajmahal.ai import (
    MAX_SEATS,
    Knowledge,
    information_tensor,
    information_tensor_size,
    observation_tensor,
    observe,
    tensor_layout,
    view_to_json,
)
from tajmahal.ai._sampling import sample_consistent_state
from tajmahal.model import view


def test_the_layout_is_fixed_and_documented() -> None:
    layout = tensor_layout(default_components())
    # The figure docs/ai.md states; a change here is a change of the published layout.
    assert layout.size == 2573
    assert information_tensor_size(default_components()) == 2573 + MAX_SEATS * 100
    assert layout.section("players").offset == 0
    assert layout.section("hand").shape == (100,)
    assert layout.section("played").shape == (5, 100)
    assert layout.section("palaces").shape == (49, 5)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_tensors_have_one_length_and_show_only_the_view(players: int) -> None:
    components = default_components()
    layout = tensor_layout(components)
    hand = layout.section("hand")
    for index, (_before, _action, after) in enumerate(random_game(players, seed=players)):
        if index % 17:
            continue
        seat = index % players
        seen = view(after, seat)
        tensor = observation_tensor(seen, components)
        assert len(tensor) == layout.size
        own = {layout.cards[c] for c in after.players[seat].hand}
        row = tensor[hand.offset : hand.offset + hand.size]
        assert {i for i, value in enumerate(row) if value} == own
        json.dumps(view_to_json(seen))
        assert view_to_json(seen)["players"][seat]["hand"] == list(after.players[seat].hand)
        other = (seat + 1) % players
        assert view_to_json(seen)["players"][other]["hand"] is None


@pytest.mark.clause("TM.PLAY.HANDS_SECRET")
def test_observations_say_who_saw_what() -> None:
    components = default_components()
    for before, action, after in random_game(4, seed=21):
        seen = observe(before, action, after)
        assert len(seen) == 4
        if isinstance(action, Take):
            taker = before.to_move
            assert taker is not None
            assert seen[0].gains[taker] == action.cards
        for observation in seen:
            # A seat's private cards are its own face-down draws, nobody else's.
            assert observation.private == tuple(
                c
                for c in sorted(set(after.players[observation.seat].hand))
                if c not in before.players[observation.seat].hand
                and c not in before.display
                and c not in components.specials
            )
            assert observation.hidden_draws[observation.seat] == len(observation.private)
        if action.__class__.__name__ == "Reshuffle":
            assert seen[0].action == "reshuffle"
            assert seen[0].reshuffled == tuple(sorted(before.discard))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_knowledge_tracks_cards_taken_from_the_display(players: int) -> None:
    steps = list(random_game(players, seed=40 + players))
    first = steps[0][0]
    knowledge = [Knowledge.initial(first, seat) for seat in range(players)]
    taken: dict[int, set[str]] = {seat: set() for seat in range(players)}
    for before, action, after in steps:
        seen = observe(before, action, after)
        knowledge = [k.update(o) for k, o in zip(knowledge, seen, strict=True)]
        for seat in range(players):
            still = taken[seat] & set(after.players[seat].hand)
            taken[seat] = still
        if isinstance(action, Take) and before.to_move is not None:
            taken[before.to_move] |= set(action.cards)
        for seat in range(players):
            for viewer in range(players):
                # Everyone knows the taken cards still in the taker's hand.
                assert taken[seat] <= set(knowledge[viewer].known[seat])
                # Nobody "knows" a card that is not there.
                assert set(knowledge[viewer].known[seat]) <= set(after.players[seat].hand)
            assert knowledge[seat].known[seat] == after.players[seat].hand


def test_information_tensor_adds_known_cards() -> None:
    components = default_components()
    steps = list(random_game(3, seed=8))
    _before, _action, after = steps[60]
    knowledge = Knowledge.initial(steps[0][0], 0)
    for b, a, c in steps[:61]:
        knowledge = knowledge.update(observe(b, a, c)[0])
    values = information_tensor(view(after, 0), knowledge, components)
    assert len(values) == information_tensor_size(components)
    sampled = sample_consistent_state(
        view(after, 0), knowledge, random.Random(1), config=after.config
    )
    assert observation_tensor(view(sampled, 0), components) == observation_tensor(
        view(after, 0), components
    )


@pytest.mark.parametrize(("players", "seed"), [(3, 43), (4, 44), (5, 45)])
def test_observations_account_for_every_change_of_hand(players: int, seed: int) -> None:
    """Derived from the events, the open gains, open losses and private draws of a seat
    add up to the change of its hand, step by step."""
    from collections import Counter

    for before, action, after in random_game(players, seed):
        seen = observe(before, action, after)
        for seat in range(players):
            change = Counter(after.players[seat].hand)
            change.subtract(before.players[seat].hand)
            claimed = Counter(seen[seat].gains[seat]) + Counter(seen[seat].private)
            claimed.subtract(seen[seat].losses[seat])
            assert {c: n for c, n in change.items() if n} == {c: n for c, n in claimed.items() if n}
            assert all(o.gains == seen[0].gains and o.losses == seen[0].losses for o in seen)
