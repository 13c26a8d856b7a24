"""The rule set: the chosen option of every configurable ruling.

Where the rulebooks disagree or are silent in a way that reasonable tables settle
differently, the rulings registry (``rulings/``) names the options and the chosen
default. Each such ruling is a field here. Every game record names the rule set it was
played under, so an implementation that ruled differently can still be checked.
"""

from __future__ import annotations

import enum
import typing
from typing import Any

import attrs

from tajmahal.errors import RecordError


class MajorityScope(enum.Enum):
    """Against whom a withdrawing player's symbols are compared (RUL.MAJORITY.REMAINING_PLAYERS)."""

    REMAINING = "remaining"
    """Only players still in the visit (their cards are still on the table). Default."""
    ALL = "all"
    """Every other player of the visit, including those who withdrew earlier, with the
    cards they had played when they withdrew."""


class ColourChangeFirstTurn(enum.Enum):
    """The colour set when the colour-change card opens a player's visit
    (RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN)."""

    NEXT_CARD = "next-card"
    """The player's next coloured card sets the colour (001 and 002). Default."""
    PLAYED_CARD = "played-card"
    """The coloured card played with the special card sets the colour."""


class WithdrawWithoutPlaying(enum.Enum):
    """The compensation for withdrawing without having played (RUL.WITHDRAW.WITHOUT_PLAYING)."""

    EXTRA_CARD = "extra-card"
    """Draw the top card of the deck before the display picks (001, 002, 003). Default."""
    NONE = "none"
    """No compensation (the reading of 000, which does not mention it)."""


class Permission(enum.Enum):
    """A yes/no option for a placement question."""

    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"


class AlreadyHeldSpecial(enum.Enum):
    """Two identical influence tiles for a special card the player already holds
    (RUL.SPECIAL.ALREADY_HELD)."""

    RETURN_TILES = "return-tiles"
    """The tiles go back to the supply; the player keeps the card (001). Default."""
    KEEP_TILES = "keep-tiles"
    """The tiles stay with the player; nothing happens."""


@attrs.frozen
class RuleSet:
    """One value per configurable ruling; the defaults are the registry's resolutions."""

    majority_scope: MajorityScope = MajorityScope.REMAINING
    """RUL.MAJORITY.REMAINING_PLAYERS."""
    colour_change_first_turn: ColourChangeFirstTurn = ColourChangeFirstTurn.NEXT_CARD
    """RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN."""
    withdraw_without_playing: WithdrawWithoutPlaying = WithdrawWithoutPlaying.EXTRA_CARD
    """RUL.WITHDRAW.WITHOUT_PLAYING."""
    crown_beside_own_palace: Permission = Permission.ALLOWED
    """RUL.CROWN.BESIDE_OWN_PALACE: may the crown palace join the player's own palace?"""
    own_palace_beside_own_crown: Permission = Permission.FORBIDDEN
    """RUL.CROWN.OWN_PALACE_BESIDE_CROWN: may a normal palace join the player's own crown
    palace?"""
    already_held_special: AlreadyHeldSpecial = AlreadyHeldSpecial.RETURN_TILES
    """RUL.SPECIAL.ALREADY_HELD."""

    def to_json(self) -> dict[str, str]:
        """Every option by field name, values as their canonical strings."""
        return {field.name: getattr(self, field.name).value for field in attrs.fields(RuleSet)}

    @classmethod
    def from_json(cls, document: Any, *, source: str = "", field: str = "ruleset") -> RuleSet:
        """Parse :meth:`to_json` output; missing options take their defaults."""
        if not isinstance(document, dict):
            raise RecordError("expected an object of rule-set options", source=source, field=field)
        values: dict[str, Any] = {}
        for name, raw in document.items():
            enum_type = _OPTION_TYPES.get(name) if isinstance(name, str) else None
            if enum_type is None:
                shown = repr(name) if isinstance(name, str) else f"a {type(name).__name__}"
                raise RecordError(
                    f"unknown rule-set option {shown} (known: {', '.join(sorted(_OPTION_TYPES))})",
                    source=source,
                    field=f"{field}.{name}" if isinstance(name, str) else field,
                )
            if not isinstance(raw, str):  # a value is a string (and its repr is short)
                raise RecordError(
                    f"expected a string, found a {type(raw).__name__}",
                    source=source,
                    field=f"{field}.{name}",
                )
            try:
                values[name] = enum_type(raw)
            except ValueError:
                allowed = ", ".join(repr(member.value) for member in enum_type)
                raise RecordError(
                    f"unknown value {raw!r} (expected one of {allowed})",
                    source=source,
                    field=f"{field}.{name}",
                ) from None
        return cls(**values)


_OPTION_TYPES: dict[str, type[enum.Enum]] = {
    name: hint
    for name, hint in typing.get_type_hints(RuleSet).items()
    if isinstance(hint, type) and issubclass(hint, enum.Enum)
}
"""Each option's enum type, by field name."""

DEFAULT_RULES = RuleSet()
"""The reference rule set: every configurable ruling at its registry default."""

RULE_OPTIONS: dict[str, tuple[str, ...]] = {
    name: tuple(member.value for member in enum_type) for name, enum_type in _OPTION_TYPES.items()
}
"""Every option and its allowed values (the spec checker compares rulings against this)."""
