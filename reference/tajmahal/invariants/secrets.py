"""The state invariant that views hide secrets, and the walk that finds strings in them."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from typing import cast

import attrs

from tajmahal.state import GameState
from tajmahal.view import view

# State invariants


_NO_STRINGS: frozenset[str] = frozenset()

_FIELDS: dict[type, Callable[[object], tuple[object, ...]] | None] = {}
"""Per class, a getter of all its attrs fields at once (None: not an attrs class)."""

_STRINGS_MEMO: dict[int, tuple[object, frozenset[str]]] = {}
"""The strings inside a tuple, by the tuple's ``id``. The tuple itself is kept beside
them, so the id cannot be reused while the entry lives; only tuples that can never
change (strings, numbers, enums, tuples and frozen attrs values all the way down) are
kept, so an entry stays true. Parts a view shares with its state (the discard pile, the
cards played, the palaces...) are walked once, not once per seat and step."""

_LEAVES: set[type] = {int, bool, type(None)}
"""Types holding no string: numbers, None, and (added when first met) any other type
that is neither a string, a tuple or list, nor an attrs class (enums)."""

_WALKED = 5
"""A tuple of at most this many attrs values, not yet remembered, is checked value by
value rather than remembered (the players of a view are made anew for every view)."""

_MEMO_SIZE = 50_000
"""Entries kept before the memo starts afresh."""


def _field_getter(kind: type) -> Callable[[object], tuple[object, ...]] | None:
    getter = _FIELDS.get(kind, _field_getter)
    if getter is not _field_getter:
        return getter  # type: ignore[return-value]
    found: Callable[[object], tuple[object, ...]] | None = None
    if attrs.has(kind):
        names = tuple(attrs.fields_dict(kind))
        if len(names) == 1:
            single = operator.attrgetter(names[0])
            found = lambda value: (single(value),)  # noqa: E731
        elif names:
            found = operator.attrgetter(*names)
    _FIELDS[kind] = found
    return found


def _strings_in(value: object) -> frozenset[str]:
    """Every string inside ``value``: a string, a tuple or list, an attrs value (its
    fields), nested to any depth; other values (numbers, enums, None) hold none. Tuples
    are looked up in the memo first (a view shares most of its parts with its state,
    and a state with the state before it)."""
    return _walk(value)[0]


def _walk(value: object) -> tuple[frozenset[str], bool]:
    """The strings inside ``value`` (see :func:`_strings_in`), and whether they can never
    change: no list and no attrs value that is not frozen anywhere inside. Only such
    tuples are remembered."""
    kind = type(value)
    if kind is tuple:
        hit = _STRINGS_MEMO.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1], True
        items: Iterable[object] = value  # type: ignore[assignment]
        fixed = True
    elif isinstance(value, str):
        return frozenset((value,)), True
    elif isinstance(value, tuple | list):
        items = value
        fixed = isinstance(value, tuple)
    else:
        getter = _field_getter(kind)
        if getter is None:
            _LEAVES.add(kind)
            return _NO_STRINGS, True
        items = getter(value)
        fixed = kind.__setattr__ is _FROZEN_SETATTR
    found: set[str] = set()
    memo = _STRINGS_MEMO
    for item in items:
        inner = type(item)
        if inner is str:
            found.add(item)  # type: ignore[arg-type]
        elif inner in _LEAVES:
            continue
        else:
            if inner is tuple:
                hit = memo.get(id(item))
                if hit is not None and hit[0] is item:
                    found.update(hit[1])
                    continue
            strings, unchanging = _walk(item)
            found.update(strings)
            fixed = fixed and unchanging
    result = frozenset(found)
    if kind is tuple and fixed:
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        memo[id(value)] = (value, result)
    return result, fixed


@attrs.frozen
class _Frozen:
    """Any frozen attrs class: its ``__setattr__`` is the one every frozen class has."""


_FROZEN_SETATTR = _Frozen.__setattr__
"""How :func:`_walk` tells a frozen attrs value from one that may change."""


def _shows(value: object, hidden: frozenset[str]) -> bool:
    """True when a string of ``hidden`` is anywhere inside ``value`` (as
    :func:`_strings_in` finds them), checked part by part without gathering them all."""
    getter = _field_getter(type(value))
    if getter is None:
        return not hidden.isdisjoint(_strings_in(value))
    memo = _STRINGS_MEMO
    for item in getter(value):
        kind = type(item)
        if kind is str:
            if item in hidden:
                return True
        elif kind is tuple:
            row = cast(tuple[object, ...], item)
            hit = memo.get(id(row))
            if hit is not None and hit[0] is row:
                if not hidden.isdisjoint(hit[1]):
                    return True
            elif len(row) <= _WALKED and row and _field_getter(type(row[0])) is not None:
                # A few values made for the view itself (its players): checked one by
                # one, not remembered.
                if any(_shows(inner, hidden) for inner in row):
                    return True
            elif not hidden.isdisjoint(_strings_in(row)):
                return True
        elif kind not in _LEAVES and not hidden.isdisjoint(_strings_in(item)):
            return True
    return False


def views_hide_secrets(state: GameState) -> Iterable[str]:
    """A player's view shows no card of the deck (hence no deck order) and, of another
    player's hand, only the special cards (public: they change hands openly); it shows
    the viewer's own hand.

    Every string anywhere inside each seat's view is compared with the cards hidden
    from that seat."""
    specials = state.config.components.specials
    secret = [
        frozenset(card for card in player.hand if card not in specials) for player in state.players
    ]
    deck = frozenset(state.deck)
    for seat in range(state.config.players):
        hidden = deck.union(*(cards for other, cards in enumerate(secret) if other != seat))
        seen = view(state, seat)
        if _shows(seen, hidden):
            leaked = sorted(hidden & _strings_in(seen))
            yield f"player {seat}'s view shows hidden cards {leaked[:5]}"
        if seen.players[seat].hand != state.players[seat].hand:
            yield f"player {seat}'s view does not show their own hand"
