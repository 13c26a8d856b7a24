"""Actions and their canonical strings.

Every decision of the game is one action, written as one canonical string in records:

========================  ==============================================================
``play red-07``           play one coloured card
``play red-07 white-03``  a coloured card and a white card (or a special card)
``withdraw``              leave the visit and claim its rewards
``palace C3``             place a normal palace in city C3 (one per influence tile won)
``crown C3``              place the crown palace in city C3
``take red-01 white-04``  take two cards from the display (one when only one is left)
``reshuffle a b c ...``   chance: the new deck order (top first) after the discard pile
                          is shuffled
========================  ==============================================================

``parse_action(str(action)) == action`` for every action. Card lists inside ``take`` are
sorted, so an unordered choice has one canonical spelling.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from tajmahal.errors import ActionSyntaxError

CardId = str
CityId = str


@attrs.frozen(slots=True)
class Play:
    """Play a coloured card, optionally with one white or special card."""

    coloured: CardId
    """The coloured card."""
    extra: CardId | None = None
    """The white or special card played with it, if any."""

    @property
    def cards(self) -> tuple[CardId, ...]:
        """The cards played: the coloured card, then the other one if any."""
        return (self.coloured,) if self.extra is None else (self.coloured, self.extra)

    def __str__(self) -> str:
        return (
            f"play {self.coloured}"
            if self.extra is None
            else (f"play {self.coloured} {self.extra}")
        )


@attrs.frozen(slots=True)
class Withdraw:
    """Withdraw from the visit: compare majorities, claim rewards, score, take cards."""

    def __str__(self) -> str:
        return "withdraw"


@attrs.frozen(slots=True)
class PlacePalace:
    """Place one normal palace (owed for an influence tile won) in a city."""

    city: CityId
    """Where the palace goes."""

    def __str__(self) -> str:
        return f"palace {self.city}"


@attrs.frozen(slots=True)
class PlaceCrown:
    """Place the crown palace (owed for the Grand Mogul) in a city."""

    city: CityId
    """Where the crown palace goes."""

    def __str__(self) -> str:
        return f"crown {self.city}"


def _sorted(cards: Iterable[CardId]) -> tuple[CardId, ...]:
    """The cards of a take in canonical order: a choice of cards has one spelling."""
    try:
        return tuple(sorted(cards))
    except TypeError:  # built by hand from values that do not sort (5 and "red-01")
        raise ActionSyntaxError(
            f"take: the cards are card ids (strings), found a {type(cards).__name__} "
            "that does not sort"
        ) from None


@attrs.frozen(slots=True)
class Take:
    """Take cards from the display into the hand (two, or one when one is left)."""

    cards: tuple[CardId, ...] = attrs.field(converter=_sorted)
    """The cards taken, sorted (whatever order they are given in)."""

    def __str__(self) -> str:
        return "take " + " ".join(self.cards)


@attrs.frozen(slots=True)
class Reshuffle:
    """Chance outcome: the discard pile, shuffled, becomes the deck in this order (top first)."""

    order: tuple[CardId, ...]
    """The new deck, top card first."""

    def __str__(self) -> str:
        return "reshuffle " + " ".join(self.order)


Action = Play | Withdraw | PlacePalace | PlaceCrown | Take | Reshuffle
"""Any action, decision or chance."""

WITHDRAW = Withdraw()
"""The one withdraw action."""


def parse_action(text: str) -> Action:
    """Parse a canonical action string; raises :class:`ActionSyntaxError` saying what is wrong.

    Only syntax is checked here; whether the cards and cities exist and the action is
    legal is for :func:`tajmahal.engine.apply` to say.
    """
    if not isinstance(text, str):
        raise ActionSyntaxError(f"an action is a string, found {type(text).__name__}")
    words = text.split(" ")
    if not text or any(not word for word in words):
        raise ActionSyntaxError(
            f"malformed action {text!r}: words are separated by single spaces, with no "
            "leading or trailing space"
        )
    verb, arguments = words[0], words[1:]
    if verb == "play":
        if len(arguments) not in (1, 2):
            raise ActionSyntaxError(f"'play' takes one or two card ids, found {len(arguments)}")
        return Play(arguments[0], arguments[1] if len(arguments) == 2 else None)
    if verb == "withdraw":
        if arguments:
            raise ActionSyntaxError("'withdraw' takes no arguments")
        return WITHDRAW
    if verb in ("palace", "crown"):
        if len(arguments) != 1:
            raise ActionSyntaxError(f"'{verb}' takes one city id, found {len(arguments)}")
        return PlacePalace(arguments[0]) if verb == "palace" else PlaceCrown(arguments[0])
    if verb == "take":
        if len(arguments) not in (1, 2):
            raise ActionSyntaxError(f"'take' takes one or two card ids, found {len(arguments)}")
        if arguments != sorted(arguments):
            raise ActionSyntaxError(
                f"'take' lists its cards sorted: 'take {' '.join(sorted(arguments))}'"
            )
        return Take(tuple(arguments))
    if verb == "reshuffle":
        if not arguments:
            raise ActionSyntaxError("'reshuffle' lists the new deck order, top card first")
        return Reshuffle(tuple(arguments))
    raise ActionSyntaxError(
        f"unknown action {verb!r} (expected play, withdraw, palace, crown, take or reshuffle)"
    )
