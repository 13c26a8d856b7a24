"""The state invariant that views hide secrets, and the walk that finds strings in them."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from typing import cast

import attrs

from tajmahal.state import GameState
from tajmahal.view import view

_NO_STRINGS: frozenset[str] = frozenset()

_FIELDS: dict[type, Callable[[object], tuple[object, ...]] | None] = {}
"""Per class, a getter of all its attrs fields at once (None: not an attrs class)."""

_STRINGS_MEMO: dict[int, tuple[object, frozenset[str]]] = {}
"""The strings inside a tuple or a frozen attrs value, by its ``id``. The value itself is
kept beside them, so the id cannot be reused while the entry lives; only values that
can never change (strings, numbers, enums, tuples and frozen attrs values all the way
down) are kept, so an entry stays true. Parts a view shares with its state (the discard pile, the
cards played, the palaces...) are walked once, not once per seat and step."""

_LEAVES: set[type] = {int, bool, type(None)}
"""Types holding no string: numbers, None, and (added when first met) any other type
that is neither a string, a tuple or list, nor an attrs class (enums)."""

_WALKED = 5
"""A tuple of at most this many attrs values, not yet remembered, is checked value by
value (each value remembered) rather than remembered itself: the tuple of a view's
players is made anew for every view, its player views are mostly the same objects."""

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
    and frozen attrs values are looked up in the memo first (a view shares most of its
    parts with its state, and a state with the state before it)."""
    return _walk(value)[0]


def _walk(value: object) -> tuple[frozenset[str], bool]:
    """The strings inside ``value`` (see :func:`_strings_in`), and whether they can never
    change: no list and no attrs value that is not frozen anywhere inside. Only such
    tuples and frozen attrs values are remembered."""
    kind = type(value)
    memo = _STRINGS_MEMO
    if kind is str:
        return frozenset((value,)), True  # type: ignore[arg-type]
    hit = memo.get(id(value))
    if hit is not None and hit[0] is value:
        return hit[1], True
    getter = None
    if kind is tuple:
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
    for item in items:
        inner = type(item)
        if inner is str:
            found.add(item)  # type: ignore[arg-type]
        elif inner in _LEAVES:
            continue
        else:
            hit = memo.get(id(item))
            if hit is not None and hit[0] is item:
                found.update(hit[1])
                continue
            strings, unchanging = _walk(item)
            found.update(strings)
            fixed = fixed and unchanging
    result = frozenset(found)
    if fixed and (kind is tuple or getter is not None):
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        memo[id(value)] = (value, result)
    return result, fixed


@attrs.frozen
class _Frozen:
    """Any frozen attrs class: its ``__setattr__`` is the one every frozen class has."""


_FROZEN_SETATTR = _Frozen.__setattr__
"""How :func:`_walk` tells a frozen attrs value from one that may change."""


def _suspects(value: object, candidates: frozenset[str]) -> set[str]:
    """The strings of ``candidates`` found anywhere inside ``value``: exactly
    ``candidates & _strings_in(value)``, gathered part by part (each part's strings come
    from the memo when the very same part was walked before)."""
    getter = _field_getter(type(value))
    if getter is None:
        return set(candidates.intersection(_strings_in(value)))
    found: set[str] = set()
    memo = _STRINGS_MEMO
    for item in getter(value):
        kind = type(item)
        if kind is str:
            if item in candidates:
                found.add(item)
            continue
        if kind in _LEAVES:
            continue
        hit = memo.get(id(item))
        if hit is not None and hit[0] is item:
            strings = hit[1]
        elif kind is tuple and _made_for_the_view(cast(tuple[object, ...], item)):
            # A few values in a tuple made for the view itself (its players): each
            # value is looked up and remembered, the tuple is not.
            for inner in cast(tuple[object, ...], item):
                known = memo.get(id(inner))
                inside = known[1] if known is not None and known[0] is inner else None
                if inside is None:
                    inside = _strings_in(inner)
                if not candidates.isdisjoint(inside):
                    found.update(candidates.intersection(inside))
            continue
        else:
            strings = _strings_in(item)
        if not candidates.isdisjoint(strings):
            found.update(candidates.intersection(strings))
    return found


def _made_for_the_view(row: tuple[object, ...]) -> bool:
    """True for a short tuple of attrs values (see :data:`_WALKED`)."""
    return 0 < len(row) <= _WALKED and _field_getter(type(row[0])) is not None


def hidden_cards_shown(state: GameState, seat: int, seen: object) -> list[str]:
    """The cards hidden from ``seat`` in ``state`` (the deck, and the cards other than
    special cards in every other hand) that appear anywhere in ``seen``, sorted: the
    full walk of every string in ``seen``, without memos."""
    specials = state.config.components.specials
    hidden = set(state.deck)
    for other, player in enumerate(state.players):
        if other != seat:
            hidden.update(card for card in player.hand if card not in specials)
    strings: set[str] = set()
    pending: list[object] = [seen]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            strings.add(value)
        elif isinstance(value, tuple | list):
            pending.extend(value)
        else:
            getter = _field_getter(type(value))
            if getter is not None:
                pending.extend(getter(value))
    return sorted(hidden & strings)


def views_hide_secrets(state: GameState) -> Iterable[str]:
    """A player's view shows no card of the deck (hence no deck order) and, of another
    player's hand, only the special cards (public: they change hands openly); it shows
    the viewer's own hand.

    Every string anywhere inside each seat's view is compared with the cards hidden
    from that seat: first with the cards hidden from any seat (most parts of a view are
    the very same objects as in the views and states before, whose strings are
    remembered), then those found with the cards hidden from this seat.
    :func:`hidden_cards_shown` is the same comparison without memos, for tests."""
    specials = state.config.components.specials
    secret = [
        frozenset(card for card in player.hand if card not in specials) for player in state.players
    ]
    deck = frozenset(state.deck)
    anyone = deck.union(*secret)  # hidden from some seat
    # Apart (no card both in the deck and a hand, or in two hands): a card hidden from
    # some seat is hidden from this one unless it is in this seat's own hand.
    apart = len(anyone) == len(deck) + sum(map(len, secret))
    for seat in range(state.config.players):
        seen = view(state, seat)
        suspects = _suspects(seen, anyone)
        if suspects:
            if apart:
                leaked = sorted(suspects.difference(secret[seat]))
            else:
                others = [cards for other, cards in enumerate(secret) if other != seat]
                leaked = sorted(
                    card
                    for card in suspects
                    if card in deck or any(card in cards for cards in others)
                )
            if leaked:
                yield f"player {seat}'s view shows hidden cards {leaked[:5]}"
        if seen.players[seat].hand != state.players[seat].hand:
            yield f"player {seat}'s view does not show their own hand"
