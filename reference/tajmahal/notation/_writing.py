"""Writing a game state as a JSON document: the ``tajmahal-state`` format itself.

:func:`state_to_json` gives the document every other serialization concern builds on:
:mod:`tajmahal.notation` writes the same document as one exact text, and
:mod:`tajmahal.notation` reads it back. It lives apart from them, with the format's
constants, so that each of them can import it without importing the others (the public
names are gathered in :mod:`tajmahal.notation`).
"""

from __future__ import annotations

from typing import Any

from tajmahal.model import GameState, PendingDraw, PlayerState, Withdrawal

STATE_FORMAT = "tajmahal-state"
"""The ``format`` tag of a state document."""
STATE_VERSION = 1
"""The version of the state document layout."""
DRAW_REASONS: tuple[str, ...] = ("display", "bonus-card", "extra-card")
"""Why cards are drawn (``draw.reason``): the display of a new visit, a card bonus tile,
or the extra card of a player who withdrew without playing."""


def player_to_json(player: PlayerState) -> dict[str, Any]:
    return {
        "hand": list(player.hand),
        "played": list(player.played),
        "colour": player.colour.value if player.colour is not None else None,
        "withdrawn": player.withdrawn,
        "withdrawn_counts": (
            list(player.withdrawn_counts) if player.withdrawn_counts is not None else None
        ),
        "influence": [symbol.value for symbol in player.influence],
        "province_tiles": list(player.province_tiles),
        "goods_tiles": list(player.goods_tiles),
        "score": player.score,
    }


def state_to_json(state: GameState) -> dict[str, Any]:
    """A JSON-ready document holding the whole state (hidden information included)."""
    withdrawal = state.withdrawal
    draw = state.draw
    return {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "players": state.config.players,
        "ruleset": state.config.rules.to_json(),
        "components": state.config.components.digest,
        "visit": state.visit,
        "step": state.step.value,
        "to_move": state.to_move,
        "start_player": state.start_player,
        "seats": [player_to_json(player) for player in state.players],
        "deck": list(state.deck),
        "discard": list(state.discard),
        "display": list(state.display),
        "specials_on_table": list(state.specials_on_table),
        "court_influence": [symbol.value for symbol in state.court_influence],
        "crown_in_court": state.crown_in_court,
        "court_province_tile": state.court_province_tile,
        "province_order": list(state.province_order),
        "bonus_on_board": {city: tile for city, tile in state.bonus_on_board},
        "palaces": [[p.city, p.seat, p.crowned] for p in state.palaces],
        "withdrawal": None if withdrawal is None else _withdrawal_to_json(withdrawal),
        "draw": None if draw is None else draw_to_json(draw),
    }


def _withdrawal_to_json(withdrawal: Withdrawal) -> dict[str, Any]:
    return {
        "seat": withdrawal.seat,
        "palaces_owed": withdrawal.palaces_owed,
        "crown_owed": withdrawal.crown_owed,
        "placed": list(withdrawal.placed),
        "province_won": withdrawal.province_won,
        "played_nothing": withdrawal.played_nothing,
        "scored": withdrawal.scored,
    }


def draw_to_json(draw: PendingDraw) -> dict[str, Any]:
    return {"destination": draw.destination, "count": draw.count, "reason": draw.reason}


# The functions are documented under tajmahal.notation, which users import them from;
# only the constants, whose docstrings cannot go with them, are listed here.
__all__ = ["DRAW_REASONS", "STATE_FORMAT", "STATE_VERSION"]
