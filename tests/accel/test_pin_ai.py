"""The accelerated layer's drop-ins for the AI interfaces give what the core functions give.

- :class:`tajmahal.accel.PartwiseObserver` against :class:`tajmahal.ai.TensorObserver`:
  every seat's tensor at every step of random games of 3, 4 and 5 players under several
  rule sets, in order, out of order, across player counts, after copies and pickles;
- :func:`tajmahal.accel.lazy_masked_observation` (PettingZoo's observation dict, its
  tensor written when first read) against :func:`tajmahal.ai.masked_observation`
  (written at once): the tensors read at once or long after; every dict operation;
  reading from several threads.
"""

from __future__ import annotations

import collections
import copy
import functools
import importlib
import json
import os
import pickle
import sys
import threading
import types
from types import ModuleType
from typing import Any

import pytest

from depth import depth
from tajmahal.accel import (
    ENABLED,
    FastPath,
    LazyObservation,
    PartwiseObserver,
    lazy_masked_observation,
    legal_mask,
)
from tajmahal.ai import FAST_PATHS, TensorObserver, masked_observation, tensor_layout
from tajmahal.ai._fast_paths import LEGAL_IDS, MASKED_OBSERVATION, TENSOR_OBSERVER
from tajmahal.engine import apply, legal_actions, new_game, random_reshuffle, random_setup
from tajmahal.model import RULE_OPTIONS, GameState, RuleSet, Step, default_components


def _extra(module: str) -> ModuleType:
    """An optional extra's module (the test is skipped without it, except under ``make
    check``, which sets ``TAJMAHAL_REQUIRE_EXTRAS=1``)."""
    if os.environ.get("TAJMAHAL_REQUIRE_EXTRAS") == "1":
        return importlib.import_module(module)
    found: ModuleType = pytest.importorskip(module, reason="the [pettingzoo] extra is absent")
    return found


np = _extra("numpy")
environment = _extra("tajmahal.ai.pettingzoo")

RULE_SETS = [
    RuleSet(),
    *(
        RuleSet.from_json({name: values[-1]})
        for name, values in sorted(RULE_OPTIONS.items())
        if values[-1] != RuleSet().to_json()[name]
    ),
]
"""The default rule set and, for each option, the rule set with its last value."""


def _rule_sets(players: int) -> list[tuple[int, RuleSet]]:
    """The numbered rule sets a test plays with ``players``: under ``make check`` the
    default one and each other one with one player count (its number modulo 3 is the
    player count's); all of them under ``TAJMAHAL_DEEP=1``."""
    numbered = list(enumerate(RULE_SETS))
    return depth([(n, r) for n, r in numbered if n == 0 or n % 3 == players % 3], numbered)


LEGAL_MASK: FastPath[Any] = environment.LEGAL_MASK

PLAIN = TensorObserver(tensor_layout(default_components()))


def _tensor(state: Any, seat: int) -> Any:
    """The core's tensor of ``seat`` in ``state``, as a new float32 array."""
    return PLAIN.write(state, seat, np.zeros(PLAIN.layout.size, np.float32))


def _both(state: Any, seat: int, mask: Any) -> tuple[Any, dict[str, Any]]:
    """The drop-in's observation and the core's, of the same tensor and mask."""
    tensor = functools.partial(_tensor, state, seat)
    return lazy_masked_observation(tensor, mask), masked_observation(tensor, mask.copy())


def test_the_fast_paths_pair_the_core_functions_with_the_drop_ins() -> None:
    assert FAST_PATHS == (LEGAL_IDS, MASKED_OBSERVATION, TENSOR_OBSERVER)
    assert MASKED_OBSERVATION.core is masked_observation
    assert MASKED_OBSERVATION.fast is lazy_masked_observation
    assert TENSOR_OBSERVER.core is TensorObserver
    assert TENSOR_OBSERVER.fast is PartwiseObserver


def _game(players: int, rules: RuleSet, seed: int) -> list[GameState]:
    """Every state of a random game (the chance steps included)."""
    import random

    rng = random.Random(seed)
    components = default_components()
    state = new_game(components, players, random_setup(components, players, seed), rules)
    states = [state]
    while state.step is not Step.OVER:
        if state.step is Step.SHUFFLE:
            state = apply(state, random_reshuffle(state, rng))
        else:
            state = apply(state, rng.choice(legal_actions(state)))
        states.append(state)
    return states


@pytest.mark.pins(LEGAL_MASK)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_fast_masks_are_the_core_ones_at_every_step(players: int) -> None:
    """The mask at every state of a random game under each rule set played (sampled under
    ``make check``: :func:`_rule_sets`): the same flags,
    an int8 array of its own, new at each call, zeros where there is no decision."""
    from tajmahal.ai._action_space import action_space

    path = LEGAL_MASK
    assert path.core is environment.legal_mask and path.fast is legal_mask
    space = action_space(default_components())
    for number, rules in _rule_sets(players):
        for state in _game(players, rules, 300 * players + number):
            found, expected = path.fast(space, state), path.core(space, state)
            assert found.dtype == expected.dtype == np.int8
            assert found.shape == expected.shape == (space.size,)
            assert np.array_equal(found, expected)
            assert found.flags.owndata and found.flags.writeable
            assert path.fast(space, state) is not found
            assert int(found.sum()) == len(legal_actions(state))


def _partwise(observer: Any, state: GameState, seat: int) -> Any:
    return observer.write(state, seat, np.zeros(PLAIN.layout.size, np.float32))


@pytest.mark.pins(TENSOR_OBSERVER)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_partwise_tensors_are_the_core_ones_at_every_step_for_every_seat(players: int) -> None:
    """Every seat's tensor at every state of a random game under each rule set played
    (:func:`_rule_sets`), asked in
    the game's order (one observer for all the games: the player count of the last game
    differs from the next one's only between tests), then every tenth state in reverse."""
    fast = PartwiseObserver(PLAIN.layout)
    compared = 0
    for number, rules in _rule_sets(players):
        states = _game(players, rules, 100 * players + number)
        for state in states:
            for seat in range(players):
                expected = _tensor(state, seat)
                found = _partwise(fast, state, seat)
                assert found.dtype == expected.dtype and np.array_equal(found, expected)
                compared += 1
        for state in reversed(states[::10]):
            seat = state.to_move if state.to_move is not None else 0
            assert np.array_equal(_partwise(fast, state, seat), _tensor(state, seat))
    assert compared > len(_rule_sets(players)) * 150 * players


@pytest.mark.pins(TENSOR_OBSERVER)
def test_partwise_tensors_are_the_core_ones_across_player_counts_copies_and_buffers() -> None:
    """States of 5-, 3- and 4-player games in turn through one observer (seat slots
    emptied and filled again), a deep copy and a pickle of it (which start empty), and a
    float64 buffer."""
    fast = PartwiseObserver(PLAIN.layout)
    games = [_game(players, RuleSet(), players) for players in (5, 3, 4)]
    for step in range(0, 300, 7):
        for states in games:
            state = states[min(step, len(states) - 1)]
            for seat in range(len(state.players)):
                assert np.array_equal(_partwise(fast, state, seat), _tensor(state, seat))
    state = games[0][40]
    for other in (copy.deepcopy(fast), pickle.loads(pickle.dumps(fast))):
        assert isinstance(other, PartwiseObserver) and other is not fast
        assert np.array_equal(_partwise(other, state, 2), _tensor(state, 2))
    wide = fast.write(state, 1, np.zeros(PLAIN.layout.size, np.float64))
    assert wide.dtype == np.float64 and np.array_equal(wide, _tensor(state, 1))


@pytest.mark.skipif(not ENABLED, reason="the accelerated layer is switched off")
def test_the_adapters_write_with_the_partwise_observer() -> None:
    assert isinstance(environment.env(players=3)._observer, PartwiseObserver)


def test_the_rule_sets_differ() -> None:
    assert len(set(RULE_SETS)) == len(RULE_SETS) > 3


@pytest.mark.pins(MASKED_OBSERVATION)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_tensors_read_at_once_or_later_are_the_core_ones(players: int) -> None:
    """At every step of a random game under each rule set played (:func:`_rule_sets`),
    the mover's observation read
    at once, or kept unread and read only at the end of the game (in reverse order), has
    the core dict's tensor and mask; reading the mask alone writes no tensor."""
    steps = 0
    for number, rules in _rule_sets(players):
        game = environment.env(players=players, rules=rules, utility="score")
        game.reset(seed=1000 * players + number)
        rng = np.random.default_rng(number)
        kept: list[tuple[Any, dict[str, Any]]] = []
        for agent in game.agent_iter():
            _, _, termination, truncation, info = game.last(observe=False)
            if termination or truncation:
                game.step(None)
                continue
            lazy, plain = _both(game.state_, game.possible_agents.index(agent), info["action_mask"])
            assert lazy["action_mask"] is info["action_mask"] and lazy.pending
            assert list(plain) == ["observation", "action_mask"]
            if steps % 2:
                assert np.array_equal(lazy["observation"], plain["observation"])
                assert not lazy.pending and list(lazy) == list(plain)
            else:
                kept.append((lazy, plain))
            steps += 1
            game.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        for lazy, plain in reversed(kept):
            assert lazy.pending
            assert np.array_equal(lazy["observation"], plain["observation"])
    assert steps > len(_rule_sets(players)) * 150


@pytest.mark.skipif(not ENABLED, reason="the accelerated layer is switched off")
def test_the_environment_gives_observations_written_on_first_read() -> None:
    game = environment.env(players=3)
    game.reset(seed=2)
    observation, *_ = game.last()
    assert isinstance(observation, LazyObservation) and observation.pending
    assert game.observation_space(game.agent_selection).contains(observation)


@functools.cache
def _pending_position() -> tuple[GameState, int, Any]:
    """The position, mover and mask of :func:`_pending` (a game played once)."""
    game = environment.env(players=4)
    game.reset(seed=5)
    for _ in range(7):
        game.step(int(np.flatnonzero(game.infos[game.agent_selection]["action_mask"])[0]))
    mask = game.infos[game.agent_selection]["action_mask"]
    return game.state_, game.possible_agents.index(game.agent_selection), mask


def _pending() -> Any:
    """A fresh observation of the mover whose tensor is not written yet."""
    state, seat, mask = _pending_position()
    observation = _both(state, seat, mask.copy())[0]
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


@pytest.mark.pins(MASKED_OBSERVATION)
@pytest.mark.parametrize("name", list(OPERATIONS))
def test_every_dict_operation_sees_both_keys_as_a_plain_dict(name: str) -> None:
    observation = _pending()
    plain = _plain(observation)
    observation = _pending()
    operation = OPERATIONS[name]
    _same(operation(observation), operation(plain))
    # Only asking for the mask's key, which the storage holds, writes no tensor.
    assert observation.pending == name.endswith("action_mask")


@pytest.mark.pins(MASKED_OBSERVATION)
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


@pytest.mark.pins(MASKED_OBSERVATION)
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


@pytest.mark.pins(MASKED_OBSERVATION)
def test_gymnasiums_contains_sees_the_whole_dict() -> None:
    game = environment.env(players=3)
    game.reset(seed=2)
    observation = _both(game.state_, 0, game.infos[game.agent_selection]["action_mask"])[0]
    assert game.observation_space(game.agent_selection).contains(observation)


@pytest.mark.pins(MASKED_OBSERVATION)
def test_reading_from_several_threads_writes_each_tensor_once() -> None:
    """Observations of a whole game, read at once from four threads (each tensor written
    by one shared part-by-part observer), equal the tensors written at once."""
    game = environment.env(players=5)
    game.reset(seed=9)
    shared = PartwiseObserver(PLAIN.layout)
    kept: list[tuple[Any, Any, int]] = []
    rng = np.random.default_rng(3)
    for agent in game.agent_iter():
        _, _, termination, truncation, info = game.last(observe=False)
        if termination or truncation:
            game.step(None)
            continue
        state, seat = game.state_, game.possible_agents.index(agent)
        tensor = functools.partial(_partwise, shared, state, seat)
        kept.append((lazy_masked_observation(tensor, info["action_mask"]), state, seat))
        game.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
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
        assert np.array_equal(found[position], _tensor(state, seat))
