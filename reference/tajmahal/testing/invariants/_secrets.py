"""The state invariant that views hide secrets, and the walk that finds strings in them."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterable
from typing import cast

import attrs

from tajmahal.model import GameState, View, view

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


_Seen = tuple[object, frozenset[str], frozenset[str], bool]
"""A part looked at: the part itself (kept, so its ``id`` is not reused), the strings
inside it, those of them hidden from some seat, and whether it can never change."""


class _Table:
    """What the last check kept for the next one (consecutive states of a game share
    most of their parts, and so do their views)."""

    __slots__ = ("against", "deck", "hands", "parts", "players", "strings", "union")

    def __init__(self) -> None:
        self.hands: dict[int, tuple[tuple[str, ...], object, frozenset[str]]] = {}
        """Per hand tuple of the last state (by ``id``; the hand and the special cards
        it was read with kept beside, so the id cannot be reused while it is
        remembered), its cards that are not special cards."""
        self.deck: tuple[tuple[str, ...], frozenset[str]] = ((), frozenset())
        """The last deck, and its cards as a set."""
        self.parts: tuple[object, ...] = ()
        """The shared parts of the last view looked at (:data:`_SHARED`), kept alive; a
        part that may change (see :func:`_walk`) is not kept (None in its place)."""
        self.strings: tuple[frozenset[str], ...] = ()
        """The strings inside each of them."""
        self.union: frozenset[str] = frozenset()
        """All those strings."""
        self.against: frozenset[str] = frozenset()
        """The cards hidden from some seat in the last check."""
        self.players: dict[int, _Seen] = {}
        """The player views of the last check's views (by ``id``, kept beside), each
        with the strings inside it and those of them in :attr:`against`."""


_LAST = _Table()
"""The one table of :func:`views_hide_secrets` (replaced part by part by each check)."""

_NO_CHANGES: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())


_SHARED = operator.attrgetter(
    *(name for name in attrs.fields_dict(View) if name not in ("viewer", "players"))
)
"""Every field of a view but the viewer and the players: the parts every seat's view
of a state shows alike (the very same objects, taken from the state)."""


def _secret(state: GameState) -> tuple[list[frozenset[str]], frozenset[str]]:
    """Per seat, the cards of its hand that are not special cards; and the deck's cards.
    A hand or deck that is the very object seen in the last check is not read again."""
    specials = state.config.components.specials
    known = _LAST.hands
    hands: dict[int, tuple[tuple[str, ...], object, frozenset[str]]] = {}
    secret: list[frozenset[str]] = []
    for player in state.players:
        hand = player.hand
        entry = known.get(id(hand))
        if entry is None or entry[0] is not hand or entry[1] is not specials:
            entry = (hand, specials, frozenset([card for card in hand if card not in specials]))
        hands[id(hand)] = entry
        secret.append(entry[2])
    _LAST.hands = hands
    if _LAST.deck[0] is not state.deck:
        _LAST.deck = (state.deck, frozenset(state.deck))
    return secret, _LAST.deck[1]


def _shared_strings(parts: tuple[object, ...]) -> frozenset[str]:
    """Every string inside ``parts`` (a view's shared parts): those of the parts that
    are the very objects of the last call are taken from it, the others walked."""
    last = _LAST.parts
    if len(last) != len(parts):
        last = (None,) * len(parts)
    strings = list(_LAST.strings) or [_NO_STRINGS] * len(parts)
    kept = list(parts)
    stale = False  # whether a part's strings changed, so the union must be made again
    for index in itertools.compress(range(len(parts)), map(operator.is_not, parts, last)):
        found, fixed = _walk(parts[index])
        stale = stale or bool(found) or bool(strings[index])
        strings[index] = found
        if not fixed:
            kept[index] = None
    union = frozenset().union(*strings) if stale else _LAST.union
    _LAST.parts, _LAST.strings, _LAST.union = tuple(kept), tuple(strings), union
    return union


def _suspects_in_view(
    seen: View,
    anyone: frozenset[str],
    shared: list[tuple[tuple[object, ...], frozenset[str]]],
    players: dict[int, _Seen],
    changes: tuple[frozenset[str], frozenset[str]],
) -> frozenset[str]:
    """The strings of ``anyone`` inside the view ``seen``: exactly
    ``anyone & _strings_in(seen)``, gathered over its parts.

    The shared parts (:data:`_SHARED`) of the first view of a state are looked at once,
    and in the other views only checked to be the very same objects (``shared`` holds
    them, and the strings of ``anyone`` inside them). Each player view is looked at once
    per state (``players``, by ``id``, the player view kept beside with its strings and
    those in ``anyone``); one met in the last check (the very same object) has its
    strings in the last check's cards hidden from some seat brought up to date with
    ``changes`` (the cards that joined them, the cards that left), one not met is
    walked."""
    parts: tuple[object, ...] = _SHARED(seen)
    if not shared:
        shared.append((parts, anyone.intersection(_shared_strings(parts))))
    first_parts, first_found = shared[0]
    if parts is first_parts or all(map(operator.is_, parts, first_parts)):
        found = first_found
    else:
        found = anyone.intersection(_strings_in(parts))
    viewer = seen.viewer
    if type(viewer) is not int:
        found = found.union(anyone.intersection(_strings_in(viewer)))
    last = _LAST.players
    for player in seen.players:
        key = id(player)
        entry = players.get(key)
        if entry is None:
            entry = last.get(key)
            if entry is not None:
                strings, inside = entry[1], entry[2]
                added, removed = changes
                if removed and inside:
                    inside = inside - removed
                if added and not strings.isdisjoint(added):
                    inside = inside | (strings & added)
                entry = (player, strings, inside, True)
            else:
                strings, fixed = _walk(player)
                entry = (player, strings, anyone.intersection(strings), fixed)
            players[key] = entry
        if entry[2]:
            found = found.union(entry[2])
    return found


def views_hide_secrets(state: GameState) -> Iterable[str]:
    """A player's view shows no card of the deck (hence no deck order) and, of another
    player's hand, only the special cards (public: they change hands openly); it shows
    the viewer's own hand.

    Every string anywhere inside each seat's view is compared with the cards hidden
    from that seat: first with the cards hidden from any seat, part by part (the parts
    every seat's view shows alike are looked at once per state, and only those that
    are not the very objects of the last check are walked; each player view once per
    state), then those found with the cards hidden from this seat.
    :func:`hidden_cards_shown` is the same comparison without memos, for tests."""
    secret, deck = _secret(state)
    anyone = deck.union(*secret)  # hidden from some seat
    # Apart (no card both in the deck and a hand, or in two hands): a card hidden from
    # some seat is hidden from this one unless it is in this seat's own hand.
    apart = len(anyone) == len(deck) + sum(map(len, secret))
    before = _LAST.against
    changes = (anyone - before, before - anyone) if anyone != before else _NO_CHANGES
    shared: list[tuple[tuple[object, ...], frozenset[str]]] = []
    players: dict[int, _Seen] = {}
    try:
        for seat in range(state.config.players):
            seen = view(state, seat)
            if type(seen) is View:
                suspects: frozenset[str] | set[str] = _suspects_in_view(
                    seen, anyone, shared, players, changes
                )
            else:
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
    finally:
        # Only the player views that can never change are carried over.
        _LAST.players = {key: entry for key, entry in players.items() if entry[3]}
        _LAST.against = anyone
