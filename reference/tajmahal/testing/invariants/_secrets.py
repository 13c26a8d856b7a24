"""The state invariant that views hide secrets, and the walk that finds strings in them."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from tajmahal.model import GameState, View, view


def strings_inside(value: object) -> set[str]:
    """Every string inside ``value``: a string, the items of a tuple or list, the fields
    of an attrs value, nested to any depth (walked without recursion); numbers, enum
    members and None hold none."""
    found: set[str] = set()
    pending: list[object] = [value]
    while pending:
        item = pending.pop()
        kind = type(item)
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, tuple | list):
            for inner in item:
                if isinstance(inner, str):
                    found.add(inner)
                else:
                    pending.append(inner)
        elif item is None or isinstance(item, int | enum.Enum):
            continue
        elif attrs.has(kind):
            pending.extend(getattr(item, field.name) for field in attrs.fields(kind))
    return found


def hidden_cards(state: GameState, seat: int) -> set[str]:
    """The cards hidden from ``seat`` in ``state``: the deck, and the cards other than
    special cards in every other hand."""
    specials = state.config.components.specials
    hidden = set(state.deck)
    for other, player in enumerate(state.players):
        if other != seat:
            hidden.update(card for card in player.hand if card not in specials)
    return hidden


def hidden_cards_shown(state: GameState, seat: int, seen: object) -> list[str]:
    """The cards hidden from ``seat`` in ``state`` that appear anywhere in ``seen``, sorted."""
    return sorted(hidden_cards(state, seat) & strings_inside(seen))


def _gather(column: Sequence[Any], shown: list[set[str]]) -> None:
    """Add the strings inside ``column[i]`` to ``shown[i]`` for every ``i``: the values of
    one field in every seat's view. Equal values hold the same strings, so a value equal
    to one already walked is not walked again (the table is the same in every seat's
    view); tuples of one length (the players) are gathered position by position."""
    first = column[0]
    if all(value == first for value in column):
        inside = strings_inside(first)
        for seen in shown:
            seen.update(inside)
    elif all(type(value) is tuple for value in column) and len({len(v) for v in column}) == 1:
        for position in range(len(first)):
            _gather([value[position] for value in column], shown)
    else:
        walked: list[tuple[object, set[str]]] = []
        for value, seen in zip(column, shown, strict=True):
            strings: set[str] | None = next(
                (inside for known, inside in walked if known == value), None
            )
            if strings is None:
                strings = strings_inside(value)
                walked.append((value, strings))
            seen.update(strings)


def views_hide_secrets(state: GameState) -> Iterable[str]:
    """A player's view shows no card of the deck (hence no deck order) and, of another
    player's hand, only the special cards (public: they change hands openly); it shows
    the viewer's own hand.

    Every string anywhere inside each seat's view is compared with the cards hidden from
    that seat (:func:`hidden_cards`). The strings are gathered field by field over every
    seat's view at once, each distinct value of a field walked once (:func:`_gather`)."""
    seats = range(state.config.players)
    views = [view(state, seat) for seat in seats]
    shown: list[set[str]] = [set() for _ in seats]
    for field in attrs.fields(View):
        _gather([getattr(seen, field.name) for seen in views], shown)
    for seat, seen in zip(seats, views, strict=True):
        leaked = sorted(hidden_cards(state, seat) & shown[seat])
        if leaked:
            yield f"P{seat}'s view shows hidden cards {leaked[:5]}"
        if seen.players[seat].hand != state.players[seat].hand:
            yield f"P{seat}'s view does not show its own hand"
