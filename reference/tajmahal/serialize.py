"""Canonical JSON for any game state, the way FEN writes down a chess position.

``state_from_json(state_to_json(state), components) == state`` for every state, and
:func:`canonical_json` gives one exact text per state (sorted keys, no spaces), so a
digest of it identifies a position. The components are not embedded: the document
names their digest, and loading checks it against the component set supplied.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from tajmahal.components import Components
from tajmahal.errors import RecordError, StateFormatError
from tajmahal.rules import RuleSet
from tajmahal.state import (
    GameConfig,
    GameState,
    Palace,
    PendingDraw,
    PlayerState,
    Step,
    Withdrawal,
    palace_sort_key,
)
from tajmahal.symbols import SYMBOL_INDEX, CardColour, Symbol

STATE_FORMAT = "tajmahal-state"
"""The ``format`` tag of a state document."""
STATE_VERSION = 1
"""The version of the state document layout."""


def _player_to_json(player: PlayerState) -> dict[str, Any]:
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
        "seats": [_player_to_json(player) for player in state.players],
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
        "withdrawal": None
        if withdrawal is None
        else {
            "seat": withdrawal.seat,
            "palaces_owed": withdrawal.palaces_owed,
            "crown_owed": withdrawal.crown_owed,
            "placed": list(withdrawal.placed),
            "province_won": withdrawal.province_won,
            "played_nothing": withdrawal.played_nothing,
            "scored": withdrawal.scored,
        },
        "draw": None
        if draw is None
        else {
            "destination": draw.destination,
            "count": draw.count,
            "reason": draw.reason,
        },
    }


def canonical_json(state: GameState) -> str:
    """The one canonical text of a state: sorted keys, compact separators, UTF-8."""
    return json.dumps(
        state_to_json(state), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )


def state_digest(state: GameState) -> str:
    """``sha256:`` of :func:`canonical_json`; identifies a position."""
    return "sha256:" + hashlib.sha256(canonical_json(state).encode("utf-8")).hexdigest()


class _Fields:
    """Typed access to a JSON object that names the failing field in errors."""

    def __init__(self, document: Any, path: str) -> None:
        if not isinstance(document, dict):
            raise StateFormatError(f"{path or '(root)'}: expected an object")
        self.document = document
        self.path = path

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get(self, key: str) -> Any:
        if key not in self.document:
            raise StateFormatError(f"{self.where(key)}: missing")
        return self.document[key]

    def integer(self, key: str) -> int:
        value = self.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise StateFormatError(f"{self.where(key)}: expected an integer")
        return value

    def optional_integer(self, key: str) -> int | None:
        value = self.get(key)
        return None if value is None else self.integer(key)

    def boolean(self, key: str) -> bool:
        value = self.get(key)
        if not isinstance(value, bool):
            raise StateFormatError(f"{self.where(key)}: expected true or false")
        return value

    def text(self, key: str) -> str:
        value = self.get(key)
        if not isinstance(value, str):
            raise StateFormatError(f"{self.where(key)}: expected a string")
        return value

    def optional_text(self, key: str) -> str | None:
        value = self.get(key)
        return None if value is None else self.text(key)

    def strings(self, key: str) -> tuple[str, ...]:
        value = self.get(key)
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise StateFormatError(f"{self.where(key)}: expected a list of strings")
        return tuple(value)

    def symbols(self, key: str) -> tuple[Symbol, ...]:
        try:
            return tuple(Symbol(value) for value in self.strings(key))
        except ValueError as error:
            raise StateFormatError(f"{self.where(key)}: {error}") from None


def _in_symbol_order(symbols: tuple[Symbol, ...]) -> tuple[Symbol, ...]:
    return tuple(sorted(symbols, key=SYMBOL_INDEX.__getitem__))


def _player_from_json(document: Any, path: str) -> PlayerState:
    fields = _Fields(document, path)
    colour_text = fields.optional_text("colour")
    counts = fields.get("withdrawn_counts")
    if counts is not None and (
        not isinstance(counts, list) or not all(isinstance(c, int) for c in counts)
    ):
        raise StateFormatError(f"{fields.where('withdrawn_counts')}: expected a list of integers")
    try:
        colour = CardColour(colour_text) if colour_text is not None else None
    except ValueError:
        raise StateFormatError(
            f"{fields.where('colour')}: unknown colour {colour_text!r}"
        ) from None
    return PlayerState(
        hand=tuple(sorted(fields.strings("hand"))),
        played=fields.strings("played"),
        colour=colour,
        withdrawn=fields.boolean("withdrawn"),
        withdrawn_counts=tuple(counts) if counts is not None else None,
        influence=_in_symbol_order(fields.symbols("influence")),
        province_tiles=fields.strings("province_tiles"),
        goods_tiles=fields.strings("goods_tiles"),
        score=fields.integer("score"),
    )


def state_from_json(document: Any, components: Components) -> GameState:
    """Rebuild a state from :func:`state_to_json` output.

    Collections whose order carries no meaning (hands, the discard pile, the display,
    tiles held, palaces) are put in canonical order, so a position written by hand loads
    equal to the same position reached in play. Order that matters (the deck, cards
    played this visit, tiles won) is kept as given.

    Raises :class:`StateFormatError` naming the field when the document is malformed or
    was written for another component set.
    """
    fields = _Fields(document, "")
    if fields.get("format") != STATE_FORMAT:
        raise StateFormatError(f"format: expected {STATE_FORMAT!r}")
    if fields.get("version") != STATE_VERSION:
        raise StateFormatError(f"version: this reader understands version {STATE_VERSION}")
    if fields.text("components") != components.digest:
        raise StateFormatError(
            "components: the state was written for another component set "
            f"({fields.text('components')}, not {components.digest})"
        )
    try:
        rules = RuleSet.from_json(fields.get("ruleset"))
    except RecordError as error:
        raise StateFormatError(str(error)) from None
    seats = fields.get("seats")
    if not isinstance(seats, list):
        raise StateFormatError("seats: expected a list")
    bonus = fields.get("bonus_on_board")
    if not isinstance(bonus, dict) or not all(isinstance(v, str) for v in bonus.values()):
        raise StateFormatError("bonus_on_board: expected an object of city: tile id")
    raw_palaces = fields.get("palaces")
    palaces = []
    if not isinstance(raw_palaces, list):
        raise StateFormatError("palaces: expected a list")
    for index, entry in enumerate(raw_palaces):
        if (
            not isinstance(entry, list)
            or len(entry) != 3
            or not isinstance(entry[0], str)
            or not isinstance(entry[1], int)
            or not isinstance(entry[2], bool)
        ):
            raise StateFormatError(f"palaces[{index}]: expected [city, seat, crowned]")
        palaces.append(Palace(entry[0], entry[1], entry[2]))
    withdrawal = None
    if fields.get("withdrawal") is not None:
        w = _Fields(fields.get("withdrawal"), "withdrawal")
        withdrawal = Withdrawal(
            seat=w.integer("seat"),
            palaces_owed=w.integer("palaces_owed"),
            crown_owed=w.boolean("crown_owed"),
            placed=w.strings("placed"),
            province_won=w.optional_text("province_won"),
            played_nothing=w.boolean("played_nothing"),
            scored=w.boolean("scored"),
        )
    draw = None
    if fields.get("draw") is not None:
        d = _Fields(fields.get("draw"), "draw")
        draw = PendingDraw(d.integer("destination"), d.integer("count"), d.text("reason"))
    try:
        step = Step(fields.text("step"))
    except ValueError:
        raise StateFormatError(f"step: unknown step {fields.get('step')!r}") from None
    state = GameState(
        config=GameConfig(fields.integer("players"), rules, components),
        visit=fields.integer("visit"),
        step=step,
        to_move=fields.optional_integer("to_move"),
        start_player=fields.integer("start_player"),
        players=tuple(
            _player_from_json(seat, f"seats[{index}]") for index, seat in enumerate(seats)
        ),
        deck=fields.strings("deck"),
        discard=tuple(sorted(fields.strings("discard"))),
        display=tuple(sorted(fields.strings("display"))),
        specials_on_table=tuple(sorted(fields.strings("specials_on_table"))),
        court_influence=_in_symbol_order(fields.symbols("court_influence")),
        crown_in_court=fields.boolean("crown_in_court"),
        court_province_tile=fields.optional_text("court_province_tile"),
        province_order=fields.strings("province_order"),
        bonus_on_board=tuple(sorted(bonus.items())),
        palaces=tuple(sorted(palaces, key=palace_sort_key)),
        withdrawal=withdrawal,
        draw=draw,
    )
    validate_state(state)
    return state


def validate_state(state: GameState) -> None:
    """Check that a state's contents make sense for its components; raises
    :class:`StateFormatError` naming the first field that does not.

    Loading a position written by hand or by another program must fail here, with a clear
    message, rather than later inside the engine.
    """
    components = state.config.components
    board = components.board
    count = state.config.players
    if count not in (3, 4, 5):
        raise StateFormatError(f"players: expected 3, 4 or 5, found {count}")
    if len(state.players) != count:
        raise StateFormatError(f"seats: expected {count} seats, found {len(state.players)}")
    if not 1 <= state.visit <= 12:
        raise StateFormatError(f"visit: expected 1 to 12, found {state.visit}")
    for name, seat in (("to_move", state.to_move), ("start_player", state.start_player)):
        if seat is not None and not 0 <= seat < count:
            raise StateFormatError(f"{name}: no seat {seat} in a {count}-player game")
    if (state.to_move is None) != (state.step in (Step.SHUFFLE, Step.OVER)):
        raise StateFormatError("to_move: null exactly when the step is shuffle or over")
    if sorted(state.province_order) != sorted(board.provinces):
        raise StateFormatError("province_order: must name each province once")
    places: dict[str, str] = {}

    def place(card: str, where: str) -> None:
        if card not in components.cards and card not in components.specials:
            raise StateFormatError(f"{where}: unknown card id {card!r}")
        if card in places:
            raise StateFormatError(f"{where}: card {card!r} is also at {places[card]}")
        places[card] = where

    for index, player in enumerate(state.players):
        for field_name in ("hand", "played"):
            for position, card in enumerate(getattr(player, field_name)):
                place(card, f"seats[{index}].{field_name}[{position}]")
        for tile in player.province_tiles:
            if tile not in components.province_tiles:
                raise StateFormatError(f"seats[{index}].province_tiles: unknown tile {tile!r}")
        for tile in player.goods_tiles:
            if tile not in components.bonus_tiles or components.bonus_tiles[tile].good is None:
                raise StateFormatError(
                    f"seats[{index}].goods_tiles: {tile!r} is not a goods bonus tile"
                )
    for field_name in ("deck", "discard", "display", "specials_on_table"):
        for position, card in enumerate(getattr(state, field_name)):
            place(card, f"{field_name}[{position}]")
    missing = (set(components.cards) | set(components.specials)) - set(places)
    if missing:
        raise StateFormatError(
            f"cards: every card must be somewhere; missing {sorted(missing)[:5]}"
        )
    for city, tile in state.bonus_on_board:
        if city not in board.fortresses:
            raise StateFormatError(f"bonus_on_board.{city}: not a fortress city")
        if tile not in components.bonus_tiles:
            raise StateFormatError(f"bonus_on_board.{city}: unknown bonus tile {tile!r}")
    for index, palace in enumerate(state.palaces):
        if palace.city not in board.cities:
            raise StateFormatError(f"palaces[{index}]: unknown city {palace.city!r}")
        if not 0 <= palace.seat < count:
            raise StateFormatError(f"palaces[{index}]: no seat {palace.seat}")
    court_tile = state.court_province_tile
    if court_tile is not None and court_tile not in components.province_tiles:
        raise StateFormatError(f"court_province_tile: unknown tile {court_tile!r}")
    withdrawal = state.withdrawal
    if withdrawal is not None and not 0 <= withdrawal.seat < count:
        raise StateFormatError(f"withdrawal.seat: no seat {withdrawal.seat}")
    if state.step in (Step.PLACE, Step.TAKE) and (
        withdrawal is None or state.to_move != withdrawal.seat
    ):
        raise StateFormatError(
            f"withdrawal: a {state.step.value} step needs the withdrawal of the player to move"
        )
    if (
        state.step is Step.PLACE
        and withdrawal is not None
        and not (withdrawal.palaces_owed > 0 or withdrawal.crown_owed)
    ):
        raise StateFormatError("withdrawal: a place step needs a palace or the crown owed")
    if state.step is Step.PLAY and (
        withdrawal is not None or state.to_move is None or state.players[state.to_move].withdrawn
    ):
        raise StateFormatError(
            "to_move: a play step needs a player still in the visit and no "
            "withdrawal being resolved"
        )
    if state.step is Step.SHUFFLE and (state.draw is None or state.deck or not state.discard):
        raise StateFormatError(
            "draw: a shuffle step needs a pending draw, an empty deck and a discard pile"
        )
    if state.draw is not None and (
        state.draw.count < 1
        or not (state.draw.destination == -1 or 0 <= state.draw.destination < count)
    ):
        raise StateFormatError("draw: expected a positive count and a seat or -1 (display)")
    if withdrawal is not None and (
        withdrawal.palaces_owed < 0 or any(city not in board.cities for city in withdrawal.placed)
    ):
        raise StateFormatError(
            "withdrawal: palaces_owed must not be negative and placed must name cities"
        )
