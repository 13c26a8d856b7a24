"""The part-by-part tensor cache gives exactly the encoder's (and so the view's) tensor."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
from ai_helpers import extra
from scenes import random_game

from tajmahal import default_components
from tajmahal.ai import observation_tensor, tensor_layout
from tajmahal.model import view


def _encoder_and_cache() -> tuple[Any, Any, Any]:
    """numpy, a tensor encoder of the embedded components and an empty tensor cache over
    it, all from the [pettingzoo] extra (see ``ai_helpers.extra``)."""
    np = extra("numpy", "pettingzoo")
    encoding = extra("tajmahal.ai._encoding", "pettingzoo")
    cached = extra("tajmahal.ai._tensor_cache", "pettingzoo")
    encoder = encoding.TensorEncoder(default_components())
    return np, encoder, cached.TensorCache(encoder)


@pytest.mark.parametrize(("players", "seed"), [(3, 71), (4, 72), (5, 73)])
def test_every_seat_at_every_step_is_the_encoders_tensor(players: int, seed: int) -> None:
    np, encoder, tensors = _encoder_and_cache()
    components = default_components()
    size = tensor_layout(components).size
    steps = 0
    for _before, _action, after in random_game(players, seed):
        steps += 1
        # The mover first (as an environment asks), then every seat; each seat twice, the
        # second time with nothing to rewrite.
        seats = [after.to_move or 0, *range(players), *range(players)]
        for seat in seats:
            expected = encoder.encode(after, seat, np.zeros(size, np.float32))
            found = tensors.encode(after, seat)
            assert found.dtype == np.float32
            assert found.tolist() == expected.tolist()
        if steps % 50 == 0:
            for seat in range(players):
                assert tensors.encode(after, seat).tolist() == observation_tensor(
                    view(after, seat), components
                )
    assert steps > 100


def test_a_returned_tensor_is_never_changed_afterwards() -> None:
    np, _encoder, tensors = _encoder_and_cache()
    kept = []
    for _before, _action, after in random_game(4, 74):
        found = tensors.encode(after, 1)
        kept.append((after, found, found.copy()))
    for _state, found, copied in kept:
        assert np.array_equal(found, copied)


def test_games_of_other_player_counts_and_states_out_of_order() -> None:
    """Any state, in any order: fewer seats clear the slots of the seats gone."""
    np, encoder, tensors = _encoder_and_cache()
    states = [
        after
        for players, seed in [(5, 75), (3, 76), (4, 77)]
        for _before, _action, after in random_game(players, seed)
    ]
    order = list(range(0, len(states), 7)) + list(range(len(states) - 1, 0, -13))
    for number in order:
        state = states[number]
        seat = number % state.players_count
        expected = encoder.encode(state, seat, np.zeros(encoder.layout.size, np.float32))
        assert tensors.encode(state, seat).tolist() == expected.tolist()


def test_copies_and_pickles_start_empty_and_agree() -> None:
    np, encoder, tensors = _encoder_and_cache()
    unset = extra("tajmahal.ai._tensor_cache", "pettingzoo")._UNSET
    for number, (_before, _action, after) in enumerate(random_game(4, 78)):
        found = tensors.encode(after, number % 4)
        if number % 40 == 0:
            expected = encoder.encode(after, number % 4, np.zeros(found.shape, np.float32))
            for other in (copy.deepcopy(tensors), pickle.loads(pickle.dumps(tensors))):
                assert not other._seats and not other._palace_counts
                assert all(owner is unset for owner, _ in other._parts.values())
                assert other.encode(after, number % 4).tolist() == expected.tolist()
            assert tensors.encode(after, number % 4).tolist() == expected.tolist()


def test_palaces_changed_in_any_way_are_written_as_the_encoder_writes_them() -> None:
    """Insertions, crownings, removals, equal copies, reorderings and a palace listed twice
    (which no game makes: its indices stay set until both are gone)."""
    import attrs

    np, encoder, tensors = _encoder_and_cache()
    final = [after for _before, _action, after in random_game(4, 80)][-1]
    palaces = final.palaces
    assert len(palaces) > 6
    first = palaces[0]
    crowned = attrs.evolve(first, crowned=not first.crowned)
    variants = [
        (),
        palaces[:3],
        palaces[:4],
        palaces[:2] + palaces[3:4],
        (crowned, *palaces[1:4]),
        (copy.copy(crowned), *palaces[1:4]),
        (first, first, *palaces[1:4]),
        (first, *palaces[1:4]),
        palaces[1:4],
        tuple(reversed(palaces)),
        palaces,
        (*palaces[:5], crowned, *palaces[5:]),
        palaces,
    ]
    for number, variant in enumerate(variants):
        state = attrs.evolve(final, palaces=variant)
        seat = number % 4
        expected = encoder.encode(state, seat, np.zeros(encoder.layout.size, np.float32))
        assert tensors.encode(state, seat).tolist() == expected.tolist(), number


def test_played_cards_grown_shrunk_or_replaced_are_written_as_the_encoder_writes_them() -> None:
    """The played cards of a seat are extended by the new cards only when the cards
    written are a prefix of the new ones (equal, not only the same objects); any other
    change is written whole."""
    import attrs

    np, encoder, tensors = _encoder_and_cache()
    states = [after for _before, _action, after in random_game(4, 81)]
    played = max(states, key=lambda state: len(state.players[0].played)).players[0].played
    assert len(played) >= 4
    variants = [
        played[:1],
        played[:3],  # two cards added
        tuple(list(played[:4])),  # an equal prefix that is another object, then one more
        played[1:4],  # the same length minus one, another first card
        (played[0], *played[2:4]),  # one card fewer, not a prefix
        played[:2],
        (played[3], *played[:2]),  # longer, but the old cards are not its prefix
        (),
        played,
    ]
    base = states[-1]
    for number, variant in enumerate(variants):
        seats = list(base.players)
        seats[0] = attrs.evolve(seats[0], played=variant)
        state = attrs.evolve(base, players=tuple(seats))
        seat = number % 4
        expected = encoder.encode(state, seat, np.zeros(encoder.layout.size, np.float32))
        assert tensors.encode(state, seat).tolist() == expected.tolist(), number
