"""The cards a view must not show, and the plain search for them: every string inside
a value, walked."""

from __future__ import annotations

import enum

import attrs

from tajmahal.model import GameState


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
            pending.extend(item)
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
