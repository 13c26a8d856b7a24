"""The AI interfaces' drop-ins: observation dicts whose tensor is written when first read.

:func:`lazy_masked_observation` is a drop-in for
:func:`tajmahal.ai.masked_observation` (PettingZoo's observation dict), chosen by
:mod:`tajmahal.ai` (which stands above this layer, so it pairs its own functions with
these drop-ins) and pinned to it by ``tests/accel/test_pin_ai.py``. It buys most of
the ``pettingzoo-observe`` loop of ``tools/bench/adapter_speed.py`` (``docs/ai.md``):
PettingZoo's standard loop asks for the mover's observation at every step, and a player
that reads only the mask never pays for the tensor.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from typing import Any

OBSERVATION = "observation"
"""The key of the tensor (:data:`tajmahal.ai.OBSERVATION`; the pinning tests compare the
dicts whole)."""

ACTION_MASK = "action_mask"
"""The key of the mask (:data:`tajmahal.ai.ACTION_MASK`)."""

_WRITING = threading.Lock()
"""Held while a pending tensor is written into its dict (it may be read from any thread)."""


def _writing(method: Callable[..., Any], both: bool = False) -> Callable[..., Any]:
    """``method`` of ``dict``, called after the tensor is written (and, with ``both``,
    after that of a :class:`LazyObservation` given as the first argument)."""

    def call(self: LazyObservation, *args: Any, **kwargs: Any) -> Any:
        self._write()
        if both and args and isinstance(args[0], LazyObservation):
            args[0]._write()
        return method(self, *args, **kwargs)

    call.__name__ = method.__name__
    call.__doc__ = f"``dict.{method.__name__}``, once the tensor is written."
    return call


class LazyObservation(dict[str, Any]):
    """``{"observation": tensor, "action_mask": mask}``, the tensor written when first read.

    Until then the dict's own storage holds only ``"action_mask"``, read by the dict's own
    C look-up, so reading the mask costs what it costs in a plain dict. Every other
    method (``obs["observation"]`` through ``__missing__``, ``get``, ``in``, ``len``,
    iteration, ``keys``, ``values``, ``items``, ``reversed``, ``repr``, ``==``, ``|``,
    ``copy``, the changing methods, ``copy.copy``, ``copy.deepcopy`` and pickling) first
    writes the tensor into the storage, in the plain dict's key order, then is the dict's
    own. CPython's C code that takes a dict apart (``dict(obs)``, ``{**obs}``,
    ``f(**obs)``, ``d.update(obs)``, ``json``) goes through the overridden ``keys``,
    ``__iter__`` or ``items`` of a dict subclass. A copy, deep copy or pickle is a plain
    ``dict``.

    What differs from a plain dict: ``type(obs)`` is this class (``isinstance(obs, dict)``
    holds); C code reading the storage through CPython's concrete dict functions
    (``PyDict_Next``, ``PyDict_GetItem``) without calling a method sees only the mask
    until the tensor is read; ``pprint`` prints it on one line.
    """

    __slots__ = ("_pending",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """A plain dict of this class (nothing pending), as ``dict(...)`` makes one."""
        self._pending: Callable[[], Any] | None = None
        super().__init__(*args, **kwargs)

    def _write(self) -> None:
        """Write the tensor into the storage, before the mask (the plain dict's order)."""
        if self._pending is None:
            return
        with _WRITING:
            tensor = self._pending
            if tensor is None:  # written meanwhile by another thread
                return
            mask = dict.__getitem__(self, ACTION_MASK)
            dict.clear(self)
            dict.__setitem__(self, OBSERVATION, tensor())
            dict.__setitem__(self, ACTION_MASK, mask)
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


_new = dict.__new__
_put = dict.setdefault  # into an empty dict: what __setitem__ does, through a faster call


def lazy_masked_observation(tensor: Callable[[], Any], mask: Any) -> dict[str, Any]:
    """:func:`tajmahal.ai.masked_observation`, ``tensor()`` called when the tensor is first
    read (a :class:`LazyObservation`; made without its Python ``__init__``: one is made
    per step of PettingZoo's standard loop)."""
    observation: LazyObservation = _new(LazyObservation)
    _put(observation, ACTION_MASK, mask)
    observation._pending = tensor
    return observation
