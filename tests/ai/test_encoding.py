"""The adapters' fast observation tensor gives exactly the tensor of the view."""

from __future__ import annotations

import copy
import pickle

import pytest
from ai_helpers import extra
from scenes import random_game

from tajmahal import default_components
from tajmahal.ai import observation_tensor, tensor_layout
from tajmahal.ai._action_space import action_space
from tajmahal.model import view


@pytest.mark.parametrize(("players", "seed"), [(3, 61), (4, 62), (5, 63)])
def test_the_encoder_writes_the_tensor_of_the_view(players: int, seed: int) -> None:
    np = extra("numpy", "pettingzoo")
    encoding = extra("tajmahal.ai._encoding", "pettingzoo")
    components = default_components()
    encoder = encoding.TensorEncoder(components)
    size = tensor_layout(components).size
    steps = 0
    for _before, _action, after in random_game(players, seed):
        steps += 1
        # Every seat, twice: the second time the remembered parts are used.
        for seat in [*range(players), *range(players)]:
            expected = observation_tensor(view(after, seat), components)
            found = encoder.encode(after, seat, np.zeros(size, np.float32))
            assert found.tolist() == expected
    assert steps > 100


def test_the_encoder_starts_over_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    np = extra("numpy", "pettingzoo")
    encoding = extra("tajmahal.ai._encoding", "pettingzoo")
    components = default_components()
    encoder = encoding.TensorEncoder(components)
    size = tensor_layout(components).size
    monkeypatch.setattr(encoding, "_CACHE_LIMIT", 8)
    for _before, _action, after in random_game(4, 64):
        found = encoder.encode(after, 2, np.zeros(size, np.float32))
        assert found.tolist() == observation_tensor(view(after, 2), components)
        assert len(encoder._cache) <= 8


def test_copies_share_nothing_remembered_by_identity() -> None:
    """Remembered parts are keyed by object identity, which a copy or another process
    does not share: a deep copy is the encoder itself, a pickle starts empty."""
    np = extra("numpy", "pettingzoo")
    encoding = extra("tajmahal.ai._encoding", "pettingzoo")
    encoder = encoding.TensorEncoder(default_components())
    for _before, _action, after in random_game(4, 65):
        encoder.encode(after, 0, np.zeros(2573, np.float32))
    assert encoder._cache
    assert copy.deepcopy(encoder) is encoder
    again = pickle.loads(pickle.dumps(encoder))
    assert not again._cache
    space = action_space()
    assert copy.deepcopy(space) is space
    assert pickle.loads(pickle.dumps(space)) is space
