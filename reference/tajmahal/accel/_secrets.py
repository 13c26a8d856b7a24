"""The fast search for hidden cards in a view, for the fuzz campaign's secrets invariant.

:func:`hidden_cards_shown` is ``tajmahal.testing.invariants.hidden_cards_shown`` (the
cards hidden from a seat that appear anywhere in what it is shown, sorted) with the
strings inside each frozen part remembered by the part's identity for as long as
consecutive states keep showing it: a view's parts are its state's own (the discard pile,
the palaces, each seat's tiles, and, with the fast :func:`~tajmahal.accel.view`, the
player views), and a step leaves most of them the very same objects. Only values that
can never change are remembered: strings, tuples and frozen ``attrs`` values all the way
down; a list, or an ``attrs`` value that is not frozen, is walked every time. What is
remembered belongs to one search at a time: the campaign's games run one after another
in each worker process, never in several threads of one.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from tajmahal.model import CardId, GameState

_NOTHING: frozenset[str] = frozenset()


@attrs.frozen
class _Frozen:
    """Any frozen ``attrs`` class: its ``__setattr__`` is the one every frozen class has."""


_FROZEN_SETATTR = _Frozen.__setattr__


def _field_names(kind: type) -> tuple[str, ...] | None:
    """The field names of an ``attrs`` class; None for any other class."""
    return tuple(field.name for field in attrs.fields(kind)) if attrs.has(kind) else None


class _Search:
    """What one search keeps for the next: the strings inside the parts met in the last
    two states searched, and the secrets of the state being searched."""

    def __init__(self) -> None:
        self.names: dict[type, tuple[str, ...] | None] = {}
        """The field names of each class met (None: not an ``attrs`` class)."""
        self.now: dict[int, tuple[object, frozenset[str]]] = {}
        """By ``id``: each unchanging part met in this state, kept alive beside the
        strings inside it (so that its ``id`` is not reused while it is remembered)."""
        self.before: dict[int, tuple[object, frozenset[str]]] = {}
        """The same for the state searched before."""
        self.state: GameState | None = None
        """The state being searched (kept alive, so that it is known by identity)."""
        self.deck: frozenset[CardId] = frozenset()
        """Its deck."""
        self.hands: Sequence[frozenset[CardId]] = ()
        """Per seat, its hand's cards that are not special cards."""

    def shown(self, state: GameState, seat: int, seen: object) -> list[str]:
        """The cards hidden from ``seat`` in ``state`` that appear in ``seen``, sorted."""
        if state is not self.state:
            specials = state.config.components.specials
            self.state = state
            self.deck = frozenset(state.deck)
            self.hands = [
                frozenset([card for card in player.hand if card not in specials])
                for player in state.players
            ]
            self.before, self.now = self.now, {}
        others = (cards for other, cards in enumerate(self.hands) if other != seat)
        hidden = self.deck.union(*others)
        found: set[str] = set()
        for part in self._parts(seen):
            kind = type(part)
            if kind is str:
                if part in hidden:
                    found.add(part)
            elif not (kind is int or kind is bool or part is None):
                strings = self._strings(part)[0]
                if not hidden.isdisjoint(strings):
                    found |= hidden & strings
        return sorted(found)

    def _names(self, kind: type) -> tuple[str, ...] | None:
        """The field names of an ``attrs`` class; None for any other class."""
        if kind not in self.names:
            self.names[kind] = _field_names(kind)
        return self.names[kind]

    def _parts(self, value: object) -> Sequence[object]:
        """The fields of an ``attrs`` value, the items of a tuple or list, else the value."""
        kind = type(value)
        if kind is tuple or kind is list:
            return value  # type: ignore[return-value]
        names = self._names(kind)
        return [value] if names is None else [getattr(value, name) for name in names]

    def _strings(self, value: object) -> tuple[frozenset[str], bool]:
        """The strings inside ``value`` (not a string, a number or None), and whether it
        can never change."""
        key = id(value)
        known = self.now.get(key) or self.before.get(key)
        if known is not None and known[0] is value:
            self.now[key] = known
            return known[1], True
        kind = type(value)
        if kind is tuple or kind is list:
            unchanging = kind is tuple
        elif self._names(kind) is not None:
            unchanging = kind.__setattr__ is _FROZEN_SETATTR
        elif isinstance(value, str):
            return frozenset((value,)), True
        else:  # an enum member, or any other value holding no string
            return _NOTHING, True
        found: set[str] = set()
        for part in self._parts(value):
            inner = type(part)
            if inner is str:
                found.add(part)  # type: ignore[arg-type]
            elif not (inner is int or inner is bool or part is None):
                strings, fixed = self._strings(part)
                found |= strings
                unchanging = unchanging and fixed
        result = frozenset(found)
        if unchanging:
            self.now[key] = (value, result)
        return result, unchanging


_SEARCH = _Search()


def hidden_cards_shown(state: GameState, seat: int, seen: object) -> list[str]:
    """``tajmahal.testing.invariants.hidden_cards_shown``, the strings inside each part
    remembered while consecutive states show it."""
    return _SEARCH.shown(state, seat, seen)


# Every name here is documented under tajmahal.accel, which users import it from.
__all__: list[str] = []
