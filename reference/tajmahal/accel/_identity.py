"""The one memo of values computed from frozen objects, by the objects' identity."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class IdentityMemo(Generic[K, V]):
    """``compute(key)`` remembered by the identity of ``key``, for frozen values that stay
    the same object over many states (a palace on the board, the counts of a withdrawn
    seat). Every key whose value is remembered is kept alive beside it, so an ``id``
    found is the ``id`` of that very object: no other can have it while it lives. When
    ``size`` keys are remembered, the memo starts afresh."""

    __slots__ = ("compute", "entries", "size")

    def __init__(self, compute: Callable[[K], V], size: int) -> None:
        self.compute = compute
        self.size = size
        self.entries: dict[int, tuple[K, V]] = {}
        """``id(key)``: the key itself and its value."""

    def get(self, key: K) -> V:
        """``compute(key)``, computed once while remembered."""
        entry = self.entries.get(id(key))
        if entry is not None and entry[0] is key:
            return entry[1]
        value = self.compute(key)
        if len(self.entries) >= self.size:
            self.entries.clear()
        self.entries[id(key)] = (key, value)
        return value


# Every name here is documented under tajmahal.accel, which users import it from.
__all__: list[str] = []
