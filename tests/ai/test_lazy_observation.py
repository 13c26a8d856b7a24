"""PettingZoo observations written on first use are the observations written at once, and
behave as plain dicts under every dict operation (``tajmahal.ai``)."""

from __future__ import annotations

import collections
import copy
import itertools
import json
import pickle
import sys
import threading
import types
from typing import Any

import pytest
from ai_helpers import extra

from tajmahal import default_components
from tajmahal.model import RULE_OPTIONS, RuleSet

np = extra("numpy", "pettingzoo")
environment = extra("tajmahal.ai.pettingzoo", "pettingzoo")
lazy = extra("tajmahal.ai._lazy_observation", "pettingzoo")
encoding = extra("tajmahal.ai._encoding", "pettingzoo")

EVERY_RULE_SET = [
    RuleSet.from_json(dict(zip(sorted(RULE_OPTIONS), values, strict=True)))
    for values in itertools.product(*(RULE_OPTIONS[name] for name in sorted(RULE_OPTIONS)))
]
"""Every rule set: each configurable ruling at each of its options, in every combination."""


ENCODER = encoding.TensorEncoder(default_components())
"""The plain encoder (tested against the view's tensor in ``test_encoding.py``), which
writes a tensor at once, without the environment's cache."""


def _eager(state: Any, seat: int) -> Any:
    """The tensor of ``seat`` in ``state`` written at once."""
    return ENCODER.encode(state, seat, np.zeros(ENCODER.layout.size, np.float32))


def test_every_rule_set_is_listed_once() -> None:
    assert len(EVERY_RULE_SET) == 2 ** len(RULE_OPTIONS) == len(set(EVERY_RULE_SET))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_lazy_and_eager_tensors_agree_at_every_step_under_every_rule_set(players: int) -> None:
    """At every step of a random game under each rule set, the mover's observation from
    ``last()`` read at once, every agent's now and then, and every mover's observation
    kept unread and read only at the end of the game (in reverse order, so the cache
    writes states out of order), equal the encoder's tensor written at once."""
    steps = 0
    for number, rules in enumerate(EVERY_RULE_SET):
        game = environment.env(players=players, rules=rules, utility="score")
        game.reset(seed=1000 * players + number)
        rng = np.random.default_rng(number)
        kept: list[tuple[Any, Any, int]] = []
        for agent in game.agent_iter():
            observation, _, termination, truncation, info = game.last()
            assert isinstance(observation, lazy.LazyObservation) and observation.pending
            state, seat = game.state_, game.possible_agents.index(agent)
            mask = observation["action_mask"]
            assert observation.pending  # reading the mask writes nothing
            if termination or truncation:
                game.step(None)
                continue
            assert (mask == info["action_mask"]).all() and mask is not info["action_mask"]
            if steps % 2:
                assert np.array_equal(observation["observation"], _eager(state, seat))
                assert not observation.pending
            else:
                kept.append((observation, state, seat))
            if steps % 37 == 0:
                for other, name in enumerate(game.possible_agents):
                    found = game.observe(name)["observation"]
                    assert np.array_equal(found, _eager(state, other))
            steps += 1
            game.step(int(rng.choice(np.flatnonzero(mask))))
        for observation, state, seat in reversed(kept):
            assert observation.pending
            assert np.array_equal(observation["observation"], _eager(state, seat))
    assert steps > 64 * 150


def _pending() -> Any:
    """A fresh observation of the mover whose tensor is not written yet, and the plain
    dict it stands for (made from another observation of the same step)."""
    game = environment.env(players=4)
    game.reset(seed=5)
    for _ in range(7):
        game.step(int(np.flatnonzero(game.infos[game.agent_selection]["action_mask"])[0]))
    observation = game.observe(game.agent_selection)
    assert observation.pending
    return observation


def _plain(observation: Any) -> dict[str, Any]:
    """The plain dict with the same (written) values."""
    assert observation.pending
    return {"observation": observation["observation"], "action_mask": observation["action_mask"]}


def _same(found: Any, expected: Any) -> None:
    """Equal as a plain dict's results are: types, keys in order, and arrays by value."""
    assert type(found) is type(expected)
    if isinstance(expected, dict):
        assert list(found) == list(expected)
        for key in expected:
            _same(found[key], expected[key])
    elif isinstance(expected, np.ndarray):
        assert found.dtype == expected.dtype and np.array_equal(found, expected)
    elif isinstance(expected, tuple | list):
        assert len(found) == len(expected)
        for one, other in zip(found, expected, strict=True):
            _same(one, other)
    else:
        assert found == expected


def _keyword(**arguments: Any) -> dict[str, Any]:
    return arguments


def _shape(value: Any) -> Any:
    return list(value.shape)


OPERATIONS: dict[str, Any] = {
    "keys": lambda d: list(d.keys()),
    "values": lambda d: list(d.values()),
    "items": lambda d: list(d.items()),
    "iteration": lambda d: list(iter(d)),
    "reversed": lambda d: list(reversed(d)),
    "len": len,
    "bool": bool,
    "in observation": lambda d: "observation" in d,
    "in action_mask": lambda d: "action_mask" in d,
    "in other": lambda d: "other" in d,
    "getitem": lambda d: d["observation"],
    "get observation": lambda d: d.get("observation"),
    "get action_mask": lambda d: d.get("action_mask"),
    "getitem action_mask": lambda d: d["action_mask"],
    "get other": lambda d: d.get("other", 3),
    "repr": repr,
    "str": str,
    "format": lambda d: f"{d}",
    "== itself": lambda d: d == d,
    "== plain": lambda d: d == dict(d.items()),
    "plain ==": lambda d: dict(d.items()) == d,
    "!= empty": lambda d: d != {},
    "copy.copy": copy.copy,
    "copy.deepcopy": copy.deepcopy,
    "copy method": lambda d: d.copy(),
    "pickle": lambda d: pickle.loads(pickle.dumps(d)),
    "pickle in Python": lambda d: pickle.loads(pickle._dumps(d)),  # type: ignore[attr-defined]
    "dict()": dict,
    "{**}": lambda d: {**d},
    "f(**)": lambda d: _keyword(**d),
    "update a dict": lambda d: (lambda plain: (plain.update(d), plain)[1])({}),
    "| {}": lambda d: d | {},
    "{} |": lambda d: {} | d,
    "|=": lambda d: (lambda plain: (plain.__ior__(d), plain)[1])({}),
    "json": lambda d: json.dumps(d, default=_shape),
    "json indented": lambda d: json.dumps(d, default=_shape, indent=1),
    "sorted": sorted,
    "set": set,
    "dict.fromkeys": dict.fromkeys,
    "OrderedDict": collections.OrderedDict,
    "ChainMap": lambda d: dict(collections.ChainMap(d)),
    "mappingproxy": lambda d: dict(types.MappingProxyType(d)),
    "format_map": lambda d: "{action_mask.shape} {observation.shape}".format_map(d),
    "% mapping": lambda d: "%(observation)s" % d,  # noqa: UP031
    "setdefault": lambda d: (d.setdefault("observation"), dict(d)),
    "pop": lambda d: (d.pop("observation"), dict(d)),
    "popitem": lambda d: (d.popitem(), dict(d)),
    "del": lambda d: (d.__delitem__("observation"), dict(d))[1],
    "setitem": lambda d: (d.__setitem__("other", 1), dict(d))[1],
    "update": lambda d: (d.update(other=1), dict(d))[1],
    "clear": lambda d: (d.clear(), dict(d))[1],
}
"""Every operation on a dict, applied to an observation and to the plain dict it stands
for; those that change the dict compare the dict afterwards too."""


@pytest.mark.parametrize("name", list(OPERATIONS))
def test_every_dict_operation_sees_both_keys_as_a_plain_dict(name: str) -> None:
    observation = _pending()
    plain = _plain(observation)
    observation = _pending()
    operation = OPERATIONS[name]
    _same(operation(observation), operation(plain))
    # Only asking for the mask's key, which the storage holds, writes no tensor.
    assert observation.pending == name.endswith("action_mask")


def test_missing_keys_raise_as_in_a_plain_dict() -> None:
    observation = _pending()
    with pytest.raises(KeyError) as raised:
        observation["other"]
    assert raised.value.args == ("other",)
    del observation["observation"]
    with pytest.raises(KeyError):
        observation["observation"]
    with pytest.raises(TypeError):
        hash(observation)


def test_two_pending_observations_compare_and_merge_whole() -> None:
    one, other = _pending(), _pending()
    plain = _plain(_pending())
    # Different arrays of equal values: comparing them raises, as for two plain dicts.
    with pytest.raises(ValueError, match="truth value"):
        one == other  # noqa: B015
    with pytest.raises(ValueError, match="truth value"):
        plain == _plain(_pending())  # noqa: B015
    assert np.array_equal(one["observation"], plain["observation"])
    one, other = _pending(), _pending()
    _same(one | other, {**plain})
    one, other = _pending(), _pending()
    one.update(other)
    _same(dict(one), plain)


def test_gymnasiums_contains_and_pettingzoos_checks_see_the_whole_dict() -> None:
    game = environment.env(players=3)
    game.reset(seed=2)
    observation = game.observe(game.agent_selection)
    assert game.observation_space(game.agent_selection).contains(observation)


def test_reading_from_several_threads_gives_each_its_own_tensor() -> None:
    """Observations of many steps, read at once from four threads (each tensor written
    through the environment's one cache), equal the tensors written at once."""
    game = environment.env(players=5)
    game.reset(seed=9)
    kept: list[tuple[Any, Any, int]] = []
    rng = np.random.default_rng(3)
    for agent in game.agent_iter():
        observation, _, termination, truncation, _ = game.last()
        if termination or truncation:
            game.step(None)
            continue
        kept.append((observation, game.state_, game.possible_agents.index(agent)))
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    found: dict[int, Any] = {}

    def read(part: int) -> None:
        for position in range(part, len(kept), 4):
            found[position] = kept[position][0]["observation"]

    threads = [threading.Thread(target=read, args=(part,)) for part in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert len(found) == len(kept)
    for position, (_observation, state, seat) in enumerate(kept):
        assert np.array_equal(found[position], _eager(state, seat))
