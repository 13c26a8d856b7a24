"""The adapters' fast observation tensor gives exactly the tensor of the view."""

from __future__ import annotations

import pytest
from ai_helpers import extra, random_game

from tajmahal import default_components
from tajmahal.observation import observation_tensor, tensor_layout
from tajmahal.view import view


@pytest.mark.parametrize(("players", "seed"), [(3, 61), (4, 62), (5, 63)])
def test_the_encoder_writes_the_tensor_of_the_view(players: int, seed: int) -> None:
    np = extra("numpy", "pettingzoo")
    encoding = extra("tajmahal.encoding", "pettingzoo")
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
    encoding = extra("tajmahal.encoding", "pettingzoo")
    components = default_components()
    encoder = encoding.TensorEncoder(components)
    size = tensor_layout(components).size
    monkeypatch.setattr(encoding, "_CACHE_LIMIT", 8)
    for _before, _action, after in random_game(4, 64):
        found = encoder.encode(after, 2, np.zeros(size, np.float32))
        assert found.tolist() == observation_tensor(view(after, 2), components)
        assert len(encoder._cache) <= 8
