"""A PettingZoo observation dict whose tensor is written when it is first read.

PettingZoo's standard loop asks the environment for the mover's observation at every
step (``env.last()``), and many players read only its ``action_mask``: writing the
2,573-value tensor then costs several times what the rest of the step does. A
:class:`LazyObservation` is a ``dict`` holding ``"observation"`` and ``"action_mask"``
as the plain dict would, except that the tensor is written only when something first
looks at it or at the dict as a whole.

Why the value is the same whenever it is written: the observation is a pure function of
the engine state and the seat, and the dict keeps both (states are frozen values, never
changed); :meth:`tajmahal.ai._tensor_cache.TensorCache.encode` gives the tensor of any state
in any order, and returns a new array each time. ``tests/ai/test_lazy_observation.py``
compares it with the tensor written at once, at every step of random games under every
rule set and player count.

How a plain dict's behaviour is kept: until the tensor is written, the dict's own storage
holds only ``"action_mask"``. Reading that key is the dict's own C look-up, which is why
the mask costs nothing more. Every other method a dict has (``obs["observation"]``
through ``__missing__``, ``get``, ``in``, ``len``, iteration, ``keys``, ``values``,
``items``, ``reversed``, ``repr``, ``==``, ``|``, ``copy``, the changing methods, and
``copy.copy``, ``copy.deepcopy`` and pickling) first writes the tensor into the storage,
in the plain dict's key order, and then is the dict's own method. CPython's C code that
takes a dict apart (``dict(obs)``, ``{**obs}``, ``f(**obs)``, ``d.update(obs)``,
``json``, ``pickle``) goes through the overridden ``keys``, ``__iter__`` or ``items`` of
a dict subclass; the tests check each of these. A copy, deep copy or pickle gives a plain
``dict``, as copying a plain dict does.

What differs from a plain dict: ``type(obs)`` is this class (``isinstance(obs, dict)``
holds); C code reading the storage through CPython's concrete dict functions
(``PyDict_Next``, ``PyDict_GetItem``) without calling a method would see only the mask
until the tensor has been read; ``pprint`` prints it on one line. Reading it from
several threads at once is safe: the environment's cache of tensors is locked while a
tensor is written.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from tajmahal.ai._tensor_cache import TensorCache
from tajmahal.model import GameState

_OBSERVATION = "observation"
_MASK = "action_mask"

_get = dict.__getitem__
_set = dict.__setitem__
_put = dict.setdefault  # into an empty dict: what _set does, through a faster call
_new = dict.__new__


def _writing(method: Callable[..., Any], both: bool = False) -> Callable[..., Any]:
    """``method`` of ``dict``, called after the tensor is written (and, with ``both``,
    that of a :class:`LazyObservation` given as the first argument)."""

    def call(self: LazyObservation, *args: Any, **kwargs: Any) -> Any:
        self._write()
        if both and args and isinstance(args[0], LazyObservation):
            args[0]._write()
        return method(self, *args, **kwargs)

    call.__name__ = method.__name__
    call.__doc__ = f"``dict.{method.__name__}``, once the tensor is written."
    return call


class LazyObservation(dict[str, Any]):
    """``{"observation": tensor, "action_mask": mask}``, the tensor written on first use
    (see the module docstring). Made by :func:`lazy_observation` (and the same way,
    inline, by :meth:`tajmahal.ai.pettingzoo.TajMahalEnv.observe`)."""

    __slots__ = ("_pending",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """A plain dict of this class (nothing pending), as ``dict(...)`` makes one."""
        self._pending: tuple[TensorCache, GameState, int] | None = None
        super().__init__(*args, **kwargs)

    def _write(self) -> None:
        """Write the tensor into the storage, before the mask (the plain dict's order)."""
        pending = self._pending
        if pending is None:
            return
        cache, state, seat = pending
        with cache.lock:
            if self._pending is None:  # written meanwhile by another thread
                return
            tensor = cache.encode(state, seat)
            mask = _get(self, _MASK)
            dict.clear(self)
            _set(self, _OBSERVATION, tensor)
            _set(self, _MASK, mask)
            self._pending = None

    @property
    def pending(self) -> bool:
        """True while the tensor is not written yet."""
        return self._pending is not None

    def __missing__(self, key: str) -> Any:
        if self._pending is None:
            raise KeyError(key)
        self._write()
        return self[key]

    def get(self, key: str, default: Any = None) -> Any:
        """``dict.get``; the tensor is written unless ``key`` is already there."""
        if self._pending is not None and not dict.__contains__(self, key):
            self._write()
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        if self._pending is not None and not dict.__contains__(self, key):
            self._write()
        return dict.__contains__(self, key)

    __len__ = _writing(dict.__len__)
    __iter__ = _writing(dict.__iter__)
    __reversed__ = _writing(dict.__reversed__)
    __repr__ = _writing(dict.__repr__)
    __sizeof__ = _writing(dict.__sizeof__)
    __setitem__ = _writing(dict.__setitem__)
    __delitem__ = _writing(dict.__delitem__)
    keys = _writing(dict.keys)
    values = _writing(dict.values)
    items = _writing(dict.items)
    setdefault = _writing(dict.setdefault)
    pop = _writing(dict.pop)
    popitem = _writing(dict.popitem)
    clear = _writing(dict.clear)
    # With another mapping: that one's tensor is written too, as the dict's method may
    # read its storage directly.
    __eq__ = _writing(dict.__eq__, both=True)
    __ne__ = _writing(dict.__ne__, both=True)
    __or__ = _writing(dict.__or__, both=True)
    __ror__ = _writing(dict.__ror__, both=True)
    __ior__ = _writing(dict.__ior__, both=True)
    update = _writing(dict.update, both=True)
    __hash__ = None

    def copy(self) -> dict[str, Any]:
        """A plain dict of the same items, as ``dict.copy`` gives."""
        self._write()
        return dict(dict.items(self))

    def __copy__(self) -> dict[str, Any]:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        """A plain dict of deep copies, as ``copy.deepcopy`` of a plain dict gives."""
        self._write()
        result: dict[str, Any] = {}
        memo[id(self)] = result
        for key, value in dict.items(self):
            result[copy.deepcopy(key, memo)] = copy.deepcopy(value, memo)
        return result

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        """Pickled as a plain dict of the same items."""
        self._write()
        return (dict, (), None, None, iter(dict.items(self)))

    def __reduce__(self) -> tuple[Any, ...]:
        return self.__reduce_ex__(2)


def lazy_observation(mask: Any, cache: TensorCache, state: GameState, seat: int) -> LazyObservation:
    """The observation of ``seat`` in ``state`` with ``mask``, its tensor to be written
    by ``cache`` on first use."""
    observation: LazyObservation = _new(LazyObservation)
    _put(observation, _MASK, mask)
    observation._pending = (cache, state, seat)
    return observation
