"""Canonical JSON for any game state, the way FEN writes down a chess position.

``state_from_json(state_to_json(state), components) == state`` for every state, and
:func:`canonical_json` gives one exact text per state (sorted keys, no spaces), so a
digest of it identifies a position. The components are not embedded: the document
names their digest, and loading checks it against the component set supplied.
"""

from __future__ import annotations

import enum
import hashlib
import json
import operator
from collections.abc import Callable
from itertools import compress
from pathlib import Path
from typing import Any

from tajmahal.components import Components
from tajmahal.engine import crown_cities, palace_cities
from tajmahal.errors import RecordError, StateFormatError
from tajmahal.inputs import RECORD_LIMITS, STDIN, InputError, read_json
from tajmahal.rules import RuleSet
from tajmahal.schemas import first_violation
from tajmahal.state import (
    DISPLAY,
    DISPLAY_SIZES,
    INFLUENCE_TILES_PER_KIND,
    VISITS,
    GameConfig,
    GameState,
    Palace,
    PendingDraw,
    PlayerState,
    Step,
    Withdrawal,
    palace_sort_key,
)
from tajmahal.symbols import INFLUENCE_SYMBOLS, SYMBOL_INDEX, CardColour, SpecialKind, Symbol

STATE_FORMAT = "tajmahal-state"
"""The ``format`` tag of a state document."""
STATE_VERSION = 1
"""The version of the state document layout."""
DRAW_REASONS: tuple[str, ...] = ("display", "bonus-card", "extra-card")
"""Why cards are drawn (``draw.reason``): the display of a new visit, a card bonus tile,
or the extra card of a player who withdrew without playing."""


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
        "withdrawal": None if withdrawal is None else _withdrawal_to_json(withdrawal),
        "draw": None if draw is None else _draw_to_json(draw),
    }


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
"""The settings of :func:`canonical_json`."""


def _c_encoder() -> Callable[[Any], str]:
    """``_ENCODER.encode`` for the values of a state document (dicts with string keys,
    lists, strings, integers, booleans and None), calling the C encoder that ``encode``
    itself uses without setting it up anew for every call; ``encode`` itself where the C
    encoder is missing."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # pragma: no cover - CPython has it
        return _ENCODER.encode
    try:
        chunks = make(
            None,  # no markers: a state document holds no cycle
            _ENCODER.default,
            json.encoder.encode_basestring,  # the encoder of ensure_ascii=False
            None,
            _ENCODER.key_separator,
            _ENCODER.item_separator,
            _ENCODER.sort_keys,
            _ENCODER.skipkeys,
            _ENCODER.allow_nan,
        )
    except TypeError:  # pragma: no cover - another signature in another Python
        return _ENCODER.encode

    def encode(value: Any) -> str:
        return "".join(chunks(value, 0))

    return encode


_ENCODE = _c_encoder()
"""One JSON value in canonical form (the settings of :func:`canonical_json`)."""


_ESCAPED = bytes(range(0x20)) + b'"\\'
"""The bytes whose characters JSON writes escaped (``ensure_ascii=False`` escapes only the
quote, the backslash and the control characters below U+0020; UTF-8 writes every other
character with bytes outside this set)."""


def _escapes(text: str) -> int:
    """How many characters of ``text`` JSON writes escaped."""
    data = text.encode("utf-8", "surrogatepass")
    return len(data) - len(data.translate(None, _ESCAPED))


def _plain(joined: str, count: int) -> bool:
    """Whether ``count`` strings joined by ``'","'`` need no escape: their only escaped
    characters are the separators' quotes. Printable text has no control character, so
    only quotes and backslashes are counted then (in C, without encoding)."""
    if joined.isprintable():
        return "\\" not in joined and joined.count('"') == 2 * count - 2
    return _escapes(joined) == 2 * count - 2


def _string_list(values: tuple[str, ...]) -> str:
    """``_ENCODE(list(values))``, written directly when no string needs an escape (no
    quote, no backslash, no control character): then each is written as itself between
    quotes."""
    if not values:
        return "[]"
    try:
        joined = '","'.join(values)
    except TypeError:  # not only strings
        return _ENCODE(list(values))
    if _plain(joined, len(values)):
        return '["' + joined + '"]'
    return _ENCODE(list(values))


_SYMBOL_TEXTS = {id(symbol): _ENCODE(symbol.value) for symbol in Symbol}
"""The text of each symbol, by the identity of the enum member (hashing a member runs
Python code)."""


def _symbol_list(symbols: tuple[Symbol, ...]) -> str:
    """``_ENCODE([symbol.value for symbol in symbols])``."""
    try:
        return "[" + ",".join(map(_SYMBOL_TEXTS.__getitem__, map(id, symbols))) + "]"
    except KeyError:  # not a Symbol member: let the encoder say what it is
        return _ENCODE([symbol.value for symbol in symbols])


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


def _draw_to_json(draw: PendingDraw) -> dict[str, Any]:
    return {"destination": draw.destination, "count": draw.count, "reason": draw.reason}


def _scalar(value: Any) -> str:
    """The canonical text of an integer, a boolean, a string or null."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return int.__repr__(value)
    return _ENCODE(value)


_STEP_TEXTS = {id(step): _ENCODE(step.value) for step in Step}
"""The text of each step, by the identity of the enum member."""


def _member(member: enum.Enum) -> str:
    text = _STEP_TEXTS.get(id(member))
    return _ENCODE(member.value) if text is None else text


def _bonus(pairs: tuple[tuple[str, str], ...]) -> str:
    return _ENCODE({city: tile for city, tile in pairs})


def _palace(palace: Palace) -> str:
    return _ENCODE([palace.city, palace.seat, palace.crowned])


def _palaces(palaces: tuple[Palace, ...]) -> str:
    """The palaces' texts, each written once while remembered (a palace stays the same
    object for the rest of the game)."""
    texts = _PALACE.texts
    write = _PALACE.text
    return "[" + ",".join([texts.get(id(palace)) or write(palace) for palace in palaces]) + "]"


_WITHDRAWAL = (
    '{"crown_owed":%s,"palaces_owed":%s,"placed":%s,"played_nothing":%s,'
    '"province_won":%s,"scored":%s,"seat":%s}'
)
"""The canonical text of a withdrawal, keys sorted."""


def _withdrawal(withdrawal: Withdrawal | None) -> str:
    if withdrawal is None:
        return "null"
    crown_owed = withdrawal.crown_owed
    played_nothing = withdrawal.played_nothing
    scored = withdrawal.scored
    owed = withdrawal.palaces_owed
    seat = withdrawal.seat
    return _WITHDRAWAL % (
        "true" if crown_owed is True else "false" if crown_owed is False else _scalar(crown_owed),
        int.__repr__(owed) if type(owed) is int else _scalar(owed),
        _string_list(withdrawal.placed),
        "true"
        if played_nothing is True
        else "false"
        if played_nothing is False
        else _scalar(played_nothing),
        _scalar(withdrawal.province_won),
        "true" if scored is True else "false" if scored is False else _scalar(scored),
        int.__repr__(seat) if type(seat) is int else _scalar(seat),
    )


def _draw(draw: PendingDraw | None) -> str:
    return "null" if draw is None else _ENCODE(_draw_to_json(draw))


def _config(config: GameConfig) -> tuple[str, str, str]:
    """The texts that depend on the configuration only: from ``"components"`` to
    ``"court_influence"``, from ``"players"`` to ``"province_order"`` and from
    ``"ruleset"`` to ``"seats"`` (keys and separators included)."""
    return (
        ',"components":' + _ENCODE(config.components.digest) + ',"court_influence":',
        ',"players":' + _scalar(config.players) + ',"province_order":',
        ',"ruleset":' + _ENCODE(config.rules.to_json()) + ',"seats":[',
    )


_PLAYER = (
    '{"colour":%s,"goods_tiles":%s,"hand":%s,"influence":%s,"played":%s,'
    '"province_tiles":%s,"score":%s,"withdrawn":%s,"withdrawn_counts":%s}'
)
"""The canonical text of a seat, keys sorted."""

_COLOUR_TEXTS = {id(colour): _ENCODE(colour.value) for colour in CardColour}
"""The text of each colour, by the identity of the enum member."""


def _ids_text(ids: tuple[str, ...]) -> str | None:
    """The text of a list of card or tile ids written as themselves between quotes, or
    None when one is not a string or needs an escape."""
    if not ids:
        return "[]"
    try:
        joined = '","'.join(ids)
    except TypeError:  # not only strings
        return None
    if not _plain(joined, len(ids)):
        return None
    return '["' + joined + '"]'


_SeatTexts = tuple[str, str, str, str, str, str, str, str, str]
"""The texts of a seat's fields, keys sorted (as :data:`_PLAYER` puts them)."""


def _seat_texts(player: PlayerState, last: PlayerState | None, old: _SeatTexts | None) -> Any:
    """The texts of ``player``'s fields, taking those of the fields it shares (as the
    same objects) with ``last``, the seat's player written before (whose texts are
    ``old``); None when a field needs the general encoder (a value that is not a string, an id
    that needs an escape)."""
    colour = player.colour
    colour_text = "null" if colour is None else _COLOUR_TEXTS.get(id(colour))
    if colour_text is None:
        return None
    goods = player.goods_tiles
    hand = player.hand
    influence = player.influence
    played = player.played
    tiles = player.province_tiles
    counts = player.withdrawn_counts
    score = player.score
    withdrawn = player.withdrawn
    if last is None or old is None:
        goods_text = _ids_text(goods)
        hand_text = _ids_text(hand)
        influence_text = _symbol_list(influence)
        played_text = _ids_text(played)
        tiles_text = _ids_text(tiles)
    else:
        goods_text = old[1] if goods is last.goods_tiles else _ids_text(goods)
        hand_text = old[2] if hand is last.hand else _ids_text(hand)
        influence_text = old[3] if influence is last.influence else _symbol_list(influence)
        played_text = old[4] if played is last.played else _ids_text(played)
        tiles_text = old[5] if tiles is last.province_tiles else _ids_text(tiles)
    if goods_text is None or hand_text is None or played_text is None or tiles_text is None:
        return None
    return (
        colour_text,
        goods_text,
        hand_text,
        influence_text,
        played_text,
        tiles_text,
        int.__repr__(score) if type(score) is int else _scalar(score),
        "true" if withdrawn is True else "false" if withdrawn is False else _scalar(withdrawn),
        "null" if counts is None else _COUNTS.text(counts),
    )


class _Remembered:
    """Texts of values written before, by the identity of the value; for frozen values
    that stay the same object over many states. Every value whose text is remembered is
    kept alive (:attr:`alive`), so an ``id`` found in :attr:`texts` is the ``id`` of that
    very value: no other object can have it while it lives."""

    __slots__ = ("alive", "texts", "write")

    def __init__(self, write: Callable[[Any], str]) -> None:
        self.write = write
        self.texts: dict[int, str] = {}
        """``id(value)``: the value's text."""
        self.alive: list[object] = []
        """The values whose texts are remembered (emptied with :attr:`texts`)."""

    def text(self, value: Any) -> str:
        """The text of ``value``, written once while remembered."""
        text = self.texts.get(id(value))
        if text is not None:
            return text
        text = self.write(value)
        if len(self.texts) >= 256:
            self.texts.clear()
            self.alive.clear()
        self.alive.append(value)
        self.texts[id(value)] = text
        return text


def _int_list(values: tuple[int, ...]) -> str:
    return _ENCODE(list(values))


_COUNTS = _Remembered(_int_list)
"""The symbol counts of withdrawn seats (the same tuple until the visit ends)."""
_PALACE = _Remembered(_palace)
"""Palaces on the board."""


_WRITERS: tuple[Callable[[Any], Any], ...] = (
    _bonus,  # bonus_on_board
    _config,  # components, players, ruleset
    _symbol_list,  # court_influence
    _scalar,  # court_province_tile
    _scalar,  # crown_in_court
    _string_list,  # deck
    _string_list,  # discard
    _string_list,  # display
    _draw,  # draw
    _palaces,  # palaces
    _string_list,  # province_order
    _string_list,  # specials_on_table
    _scalar,  # start_player
    _member,  # step
    _scalar,  # to_move
    _scalar,  # visit
    _withdrawal,  # withdrawal
)
"""How each part of :func:`_parts` is written."""


_parts: Callable[[GameState], tuple[Any, ...]] = operator.attrgetter(
    "bonus_on_board",
    "config",
    "court_influence",
    "court_province_tile",
    "crown_in_court",
    "deck",
    "discard",
    "display",
    "draw",
    "palaces",
    "province_order",
    "specials_on_table",
    "start_player",
    "step",
    "to_move",
    "visit",
    "withdrawal",
)
"""The parts of a state whose texts :func:`canonical_json` puts together, in the
order of their keys (the seats apart)."""

_PART_INDICES = range(len(_WRITERS))
"""The positions of the parts, for :func:`itertools.compress`."""


_Written = tuple[
    tuple[Any, ...], list[Any], tuple[PlayerState, ...], list[str], list[_SeatTexts | None], str
]
"""A state's parts, their texts, its players, their texts, their fields' texts and the
head of its canonical text (see :func:`_canonical_texts`)."""

_UNWRITTEN = object()
"""Stands for the parts of a state not written yet (no part is this object)."""
_last_written: _Written = ((_UNWRITTEN,) * len(_WRITERS), [""] * len(_WRITERS), (), [], [], "")
"""The parts and texts of the state :func:`canonical_json` wrote last."""
_HEAD_PARTS = 11
"""The parts whose texts come before the seats' (``bonus_on_board`` to
``province_order``, the configuration's texts among them): the head of the text."""


def canonical_json(state: GameState) -> str:
    """The one canonical text of a state: sorted keys, compact separators, UTF-8.

    The text is exactly ``json.dumps(state_to_json(state), sort_keys=True,
    separators=(",", ":"), ensure_ascii=False)``, put together from the texts of the
    state's parts in the order of their keys. A step changes a few parts of a state and
    shares every other part (the same tuple, the same player object) with the state
    before it; the parts are frozen values, so the text of a part the state shares with
    the state written last is taken from that state's text instead of written again.
    """
    head, rest = _canonical_texts(state)
    return head + rest


def _canonical_texts(state: GameState) -> tuple[str, str]:
    """:func:`canonical_json` in two pieces: the head, everything before the seats'
    texts (the same string object as the last state's when none of its parts changed),
    and the rest."""
    global _last_written  # one tuple, replaced whole: threads see one state's texts
    last_parts, last_texts, last_players, last_seats, last_fields, last_head = _last_written
    parts = _parts(state)
    # Only the parts that are not the last state's objects are written: the comparison
    # and the selection run in C, the loop only over the few parts that changed.
    texts = last_texts.copy()
    changed = list(compress(_PART_INDICES, map(operator.is_not, parts, last_parts)))
    for index in changed:
        texts[index] = _WRITERS[index](parts[index])
    players = state.players
    if len(players) == len(last_players):
        seats = last_seats.copy()
        fields = last_fields.copy()
        for index in compress(range(len(players)), map(operator.is_not, players, last_players)):
            player = players[index]
            seat_fields = _seat_texts(player, last_players[index], last_fields[index])
            fields[index] = seat_fields
            seats[index] = (
                _ENCODE(_player_to_json(player)) if seat_fields is None else _PLAYER % seat_fields
            )
    else:
        fields = [_seat_texts(player, None, None) for player in players]
        seats = [
            _ENCODE(_player_to_json(player)) if seat_fields is None else _PLAYER % seat_fields
            for player, seat_fields in zip(players, fields, strict=True)
        ]
    if (changed and changed[0] < _HEAD_PARTS) or not last_head:
        components, players_to_order, ruleset_to_seats = texts[1]
        head = "".join(
            (
                '{"bonus_on_board":',
                texts[0],
                components,
                texts[2],
                ',"court_province_tile":',
                texts[3],
                ',"crown_in_court":',
                texts[4],
                ',"deck":',
                texts[5],
                ',"discard":',
                texts[6],
                ',"display":',
                texts[7],
                ',"draw":',
                texts[8],
                ',"format":',
                _FORMAT,
                ',"palaces":',
                texts[9],
                players_to_order,
                texts[10],
                ruleset_to_seats,
            )
        )
    else:
        head = last_head
    _last_written = (parts, texts, players, seats, fields, head)
    rest = "".join(
        (
            ",".join(seats),
            '],"specials_on_table":',
            texts[11],
            ',"start_player":',
            texts[12],
            ',"step":',
            texts[13],
            ',"to_move":',
            texts[14],
            ',"version":',
            _VERSION,
            ',"visit":',
            texts[15],
            ',"withdrawal":',
            texts[16],
            "}",
        )
    )
    return head, rest


_FORMAT = _scalar(STATE_FORMAT)
_VERSION = _scalar(STATE_VERSION)


def state_digest(state: GameState) -> str:
    """``sha256:`` of :func:`canonical_json`; identifies a position.

    The SHA-256 of the head of the text (:func:`_canonical_texts`) is kept with the head
    it was computed from; while a step leaves the head the same string object (a play
    changes only the seats and whose turn it is), the digest goes on from a copy of that
    state instead of hashing the head again. The result is the SHA-256 of the whole
    text either way."""
    global _head_hash  # one tuple, replaced whole
    head, rest = _canonical_texts(state)
    hashed_head, hashed = _head_hash
    if hashed_head is not head:
        hashed = hashlib.sha256(head.encode("utf-8"))
        _head_hash = (head, hashed)
    digest = hashed.copy()
    digest.update(rest.encode("utf-8"))
    return "sha256:" + digest.hexdigest()


_head_hash: tuple[str | None, hashlib._Hash] = (None, hashlib.sha256())
"""The head of the text last digested and its SHA-256 (see :func:`state_digest`)."""


_STR_ONLY = frozenset({str})


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
        if not isinstance(value, list) or (
            not _STR_ONLY.issuperset(map(type, value))
            and not all(isinstance(item, str) for item in value)
        ):
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
        not isinstance(counts, list)
        or not all(isinstance(c, int) and not isinstance(c, bool) for c in counts)
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


_SEATS_READ: dict[str, PlayerState] = {}
"""Seats already read, by their canonical JSON text (see :func:`_seat_from_json`)."""

_SEATS_KEPT = 4096
"""Entries kept before the memo starts afresh."""


_PLAIN = frozenset({str, int, bool, type(None)})
"""Types whose ``repr`` names the value exactly (with ``list`` and ``dict`` around them)."""


def _seat_from_json(document: Any, index: int) -> PlayerState:
    """One seat of a state document, read by :func:`_player_from_json`.

    Reading a seat depends on its value alone (the path only names it in errors), so a
    seat read without error is kept under its ``repr``, and the same text gives the same
    (immutable) seat again: consecutive positions of a game share most of their seats.
    Only a seat made of plain JSON values (an object of strings, integers, booleans,
    null and lists of them, as :func:`json.loads` and :func:`state_to_json` give) is
    kept: their ``repr`` tells every value and type apart.
    """
    path = f"seats[{index}]"
    if type(document) is not dict:
        return _player_from_json(document, path)
    for value in document.values():
        kind = type(value)
        if kind is list:
            if not _PLAIN.issuperset(map(type, value)):
                return _player_from_json(document, path)
        elif kind not in _PLAIN:
            return _player_from_json(document, path)
    if not _PLAIN.issuperset(map(type, document)):
        return _player_from_json(document, path)
    key = repr(document)
    found = _SEATS_READ.get(key)
    if found is None:
        found = _player_from_json(document, path)
        if len(_SEATS_READ) >= _SEATS_KEPT:
            _SEATS_READ.clear()
        _SEATS_READ[key] = found
    return found


_PALACES_READ: dict[str, tuple[Palace, ...]] = {}
"""Palace lists already read, by their ``repr`` (see :func:`_palaces_from_json`)."""


def _palaces_from_json(raw: Any) -> tuple[Palace, ...]:
    """The ``palaces`` of a state document, in canonical order.

    Like seats (see :func:`_seat_from_json`), a list of plain JSON values read without
    error is kept under its ``repr``: most steps of a game leave the palaces alone.
    """
    plain = type(raw) is list and all(
        type(entry) is list and _PLAIN.issuperset(map(type, entry)) for entry in raw
    )
    key = repr(raw) if plain else ""
    found = _PALACES_READ.get(key) if plain else None
    if found is not None:
        return found
    if not isinstance(raw, list):
        raise StateFormatError("palaces: expected a list")
    palaces = []
    for index, entry in enumerate(raw):
        if (
            not isinstance(entry, list)
            or len(entry) != 3
            or not isinstance(entry[0], str)
            or not isinstance(entry[1], int)
            or isinstance(entry[1], bool)
            or not isinstance(entry[2], bool)
        ):
            raise StateFormatError(f"palaces[{index}]: expected [city, seat, crowned]")
        palaces.append(Palace(entry[0], entry[1], entry[2]))
    result = tuple(sorted(palaces, key=palace_sort_key))
    if plain:
        if len(_PALACES_READ) >= _SEATS_KEPT:
            _PALACES_READ.clear()
        _PALACES_READ[key] = result
    return result


def state_from_json(document: Any, components: Components) -> GameState:
    """Rebuild a state from :func:`state_to_json` output.

    Collections whose order carries no meaning (hands, the discard pile, the display,
    tiles held, palaces) are put in canonical order, so a position written by hand loads
    equal to the same position reached in play. Order that matters (the deck, cards
    played this visit, tiles won) is kept as given.

    Raises :class:`StateFormatError` naming the field when the document is malformed or
    was written for another component set.
    """
    state = _read_state(document, components, None)
    validate_state(state)
    return state


_READ_BACK: dict[tuple[str, int], object] = {}
"""Parts of states that :func:`reads_back` found read back equal, by field name and
``id``; the part itself (a frozen value) is the entry, so its id cannot be reused while
it is remembered."""

_READ_BACK_KEPT = 16_384
"""Entries kept before the memo starts afresh."""


def _kept(name: str, part: Any) -> Any:
    """``part`` when this very object, as field ``name``, was read back equal before."""
    return part if _READ_BACK.get((name, id(part))) is part else None


_PARTS = (
    "config",
    "deck",
    "discard",
    "display",
    "specials_on_table",
    "court_influence",
    "province_order",
    "bonus_on_board",
    "palaces",
)
"""The fields of a state :func:`reads_back` remembers (besides each seat)."""


def reads_back(state: GameState, document: Any) -> bool:
    """True when ``state_from_json(document, components)`` would return a state equal
    to ``state``, where ``document`` is ``state_to_json(state)``; False when it might
    not (then ask :func:`state_from_json` itself, for its answer and its error).

    A part of ``state`` (a seat, the deck, the palaces...) that is the very object
    found read back equal before, as the same field, is not read again: the writer
    writes each part from that part alone and the reader reads it from its text alone,
    so the same part gives the same text and reads back the same. Every other part is
    read by the code :func:`state_from_json` uses, and the whole state is checked by
    :func:`validate_state` every time.
    """
    try:
        loaded = _read_state(document, state.config.components, state)
        validate_state(loaded)
    except Exception:  # the reader's own answer is wanted: the caller asks it
        return False
    if loaded != state:
        return False
    if len(_READ_BACK) >= _READ_BACK_KEPT:
        _READ_BACK.clear()
    for name in _PARTS:
        part = getattr(state, name)
        _READ_BACK[(name, id(part))] = part
    for seat in state.players:
        _READ_BACK[("seats", id(seat))] = seat
    return True


def _read_state(document: Any, components: Components, known: GameState | None) -> GameState:
    """The state ``document`` describes, before :func:`validate_state`. With ``known``
    (see :func:`reads_back`), its parts already read back equal are taken as they are."""
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
    config = _kept("config", known.config) if known is not None else None
    if config is None:
        try:
            rules = RuleSet.from_json(fields.get("ruleset"))
        except RecordError as error:
            raise StateFormatError(str(error)) from None
    seats = fields.get("seats")
    if not isinstance(seats, list):
        raise StateFormatError("seats: expected a list")
    old = known if known is not None and len(known.players) == len(seats) else None
    bonus_on_board = _kept("bonus_on_board", known.bonus_on_board) if known else None
    if bonus_on_board is None:
        bonus = fields.get("bonus_on_board")
        if not isinstance(bonus, dict) or not all(isinstance(v, str) for v in bonus.values()):
            raise StateFormatError("bonus_on_board: expected an object of city: tile id")
    palaces = _kept("palaces", known.palaces) if known is not None else None
    if palaces is None:
        palaces = _palaces_from_json(fields.get("palaces"))
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
    k = known
    return GameState(
        config=config or GameConfig(fields.integer("players"), rules, components),
        visit=fields.integer("visit"),
        step=step,
        to_move=fields.optional_integer("to_move"),
        start_player=fields.integer("start_player"),
        players=tuple(
            (_kept("seats", old.players[index]) if old is not None else None)
            or _seat_from_json(seat, index)
            for index, seat in enumerate(seats)
        ),
        deck=(k and _kept("deck", k.deck)) or fields.strings("deck"),
        discard=(k and _kept("discard", k.discard)) or tuple(sorted(fields.strings("discard"))),
        display=(k and _kept("display", k.display)) or tuple(sorted(fields.strings("display"))),
        specials_on_table=(k and _kept("specials_on_table", k.specials_on_table))
        or tuple(sorted(fields.strings("specials_on_table"))),
        court_influence=(k and _kept("court_influence", k.court_influence))
        or _in_symbol_order(fields.symbols("court_influence")),
        crown_in_court=fields.boolean("crown_in_court"),
        court_province_tile=fields.optional_text("court_province_tile"),
        province_order=(k and _kept("province_order", k.province_order))
        or fields.strings("province_order"),
        bonus_on_board=(
            bonus_on_board if bonus_on_board is not None else tuple(sorted(bonus.items()))
        ),
        palaces=palaces,
        withdrawal=withdrawal,
        draw=draw,
    )


def position_from_json(document: Any, components: Components) -> GameState:
    """Load a position that comes from outside (a file, a protocol request): the document
    is checked against ``position.schema.json`` first, so that a field the format does
    not have, or a value of the wrong type, is refused by name, and then read by
    :func:`state_from_json`, which checks what a schema cannot say.

    Raises :class:`StateFormatError` naming the field.
    """
    problem = first_violation("position", document)
    if problem is not None:
        raise StateFormatError(f"{problem.field}: {problem.message}")
    return state_from_json(document, components)


def read_position(path: str | Path, components: Components) -> GameState:
    """Read a position file (``-``: standard input) written by :func:`state_to_json`.

    Reading is bounded like every input (see :mod:`tajmahal.inputs`) and the document is
    loaded by :func:`position_from_json`; every failure is a :class:`StateFormatError`
    naming the file and the field.
    """
    source = "(standard input)" if str(path) == STDIN else str(path)
    try:
        document = read_json(path, RECORD_LIMITS)
    except InputError as error:
        raise StateFormatError(str(error)) from None
    try:
        return position_from_json(document, components)
    except StateFormatError as error:
        raise StateFormatError(f"{source}: {error}") from None


def validate_state(state: GameState) -> None:
    """Check that a state's contents make sense for its components and could arise in
    play; raises :class:`StateFormatError` naming the first field that does not.

    Loading a position written by hand or by another program must fail here, with a clear
    message, rather than later inside the engine: every position this accepts can be
    played on (each legal action applies, and the game goes on to its end) without any
    exception. The checks are the invariants play keeps: each card, tile and palace is in
    one place; tiles and palaces belong to visits already reached; the step, the player
    to move, the withdrawal being resolved and the pending draw agree with each other.
    """
    _check_frame(state)
    _check_cards(state)
    _check_players(state)
    _check_province_tiles(state)
    _check_bonus_tiles(state)
    _check_influence(state)
    _check_palaces(state)
    _check_withdrawal(state)
    _check_step(state)


def _check_frame(state: GameState) -> None:
    board = state.config.components.board
    count = state.config.players
    if count not in (3, 4, 5):
        raise StateFormatError(f"players: expected 3, 4 or 5, found {count}")
    if len(state.players) != count:
        raise StateFormatError(f"seats: expected {count} seats, found {len(state.players)}")
    if not 1 <= state.visit <= VISITS:
        raise StateFormatError(f"visit: expected 1 to {VISITS}, found {state.visit}")
    for name, seat in (("to_move", state.to_move), ("start_player", state.start_player)):
        if seat is not None and not 0 <= seat < count:
            raise StateFormatError(f"{name}: no seat {seat} in a {count}-player game")
    if (state.to_move is None) != (state.step in (Step.SHUFFLE, Step.OVER)):
        raise StateFormatError("to_move: null exactly when the step is shuffle or over")
    if sorted(state.province_order) != sorted(board.provinces):
        raise StateFormatError("province_order: must name each province once")
    if state.province_order[-1] != board.agra_province:
        raise StateFormatError(
            f"province_order: Agra's province {board.agra_province} is visited last "
            "(TM.SETUP.PROVINCE_TILES)"
        )


def _check_cards(state: GameState) -> None:
    """Each of the 100 cards in exactly one place; special cards only in a hand, among
    the cards played this visit, or on the table; the display no larger than at setup."""
    if not _cards_in_place(state):
        _find_misplaced_card(state)
    size = DISPLAY_SIZES[state.config.players]
    if len(state.display) > size:
        raise StateFormatError(
            f"display: {len(state.display)} cards; a {state.config.players}-player display "
            f"holds at most {size} (TM.SETUP.DISPLAY.SIZE)"
        )


def _cards_in_place(state: GameState) -> bool:
    """True when :func:`_find_misplaced_card` finds nothing, worked out at once: every
    card of the set exactly once, the special cards only in hands, among the cards
    played, or on the table."""
    components = state.config.components
    known = _CARD_IDS.get(components.digest)
    if known is None:
        known = _CARD_IDS[components.digest] = (
            frozenset(components.cards) | frozenset(components.specials),
            frozenset(components.specials),
        )
    every, specials = known
    groups = [state.deck, state.discard, state.display]
    for player in state.players:
        groups.append(player.hand)
        groups.append(player.played)
    table = state.specials_on_table
    held = set().union(*groups)
    count = sum(map(len, groups))
    return (
        count + len(table) == len(every)
        and len(held) == count
        and held.isdisjoint(table)
        and specials.issuperset(table)
        and every.issuperset(held)
        and len(held.union(table)) == len(every)
        and specials.isdisjoint(state.deck)
        and specials.isdisjoint(state.discard)
        and specials.isdisjoint(state.display)
    )


_CARD_IDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
"""Per component set (by digest): every card id, and the special cards' ids."""


def _find_misplaced_card(state: GameState) -> None:
    """Raise for the first card out of place, naming its field."""
    components = state.config.components
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
    for field_name in ("deck", "discard", "display", "specials_on_table"):
        for position, card in enumerate(getattr(state, field_name)):
            place(card, f"{field_name}[{position}]")
            special = card in components.specials
            if special != (field_name == "specials_on_table"):
                raise StateFormatError(
                    f"{field_name}[{position}]: {card!r} "
                    + (
                        "is a special card; special cards are only held, played or on the "
                        "table (TM.SPECIAL.RETURN_TO_HAND)"
                        if special
                        else "is not a special card"
                    )
                )
    missing = (set(components.cards) | set(components.specials)) - set(places)
    if missing:
        raise StateFormatError(
            f"cards: every card must be somewhere; missing {sorted(missing)[:5]}"
        )


def _check_played(state: GameState, index: int, player: PlayerState) -> None:
    """The cards played this visit read as plays (a coloured card, then at most one white
    or special card), each in the player's colour unless it came with the colour-change
    card; a player with a colour has played, and a withdrawn player's cards have left
    the table once their withdrawal is scored."""
    components = state.config.components
    where = f"seats[{index}]"
    colour_change = next(
        (s.id for s in components.specials.values() if s.kind is SpecialKind.COLOUR_CHANGE), None
    )
    played = player.played
    position = 0
    while position < len(played):
        card = components.cards.get(played[position])
        if card is None or card.colour is CardColour.WHITE:
            raise StateFormatError(
                f"{where}.played[{position}]: a play starts with one coloured card "
                "(TM.PLAY.ONE_COLOURED, TM.PLAY.NEVER_ALONE)"
            )
        extra = played[position + 1] if position + 1 < len(played) else None
        if extra is not None:
            extra_card = components.cards.get(extra)
            if extra_card is not None and extra_card.colour is not CardColour.WHITE:
                extra = None
        if extra != colour_change and card.colour is not player.colour:
            raise StateFormatError(
                f"{where}.played[{position}]: {card.id} is {card.colour.value} but the "
                f"player's colour is "
                f"{player.colour.value if player.colour is not None else 'not set'} "
                "(TM.PLAY.COLOUR_LOCK)"
            )
        position += 1 if extra is None else 2
    withdrawal = state.withdrawal
    resolving = withdrawal is not None and withdrawal.seat == index and not withdrawal.scored
    if player.withdrawn and played and not resolving:
        raise StateFormatError(
            f"{where}.played: a withdrawn player's cards leave the table when the "
            "withdrawal is scored (TM.WITHDRAW.DISCARD)"
        )
    if not player.withdrawn and player.colour is not None and not played:
        raise StateFormatError(
            f"{where}.colour: a player still in the visit has a colour only after playing"
        )


def _check_players(state: GameState) -> None:
    for index, player in enumerate(state.players):
        where = f"seats[{index}]"
        if player.score < 0:
            raise StateFormatError(f"{where}.score: scores are never negative")
        counts = player.withdrawn_counts
        if counts is not None and (
            not player.withdrawn
            or len(counts) != len(Symbol)
            or any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts)
        ):
            raise StateFormatError(
                f"{where}.withdrawn_counts: a withdrawn player's {len(Symbol)} symbol "
                "counts (non-negative), or null"
            )
        _check_played(state, index, player)


def _check_province_tiles(state: GameState) -> None:
    """Province tile ``n`` is won in visit ``n`` by one player at most; the court shows
    the current visit's tile until it is won."""
    components = state.config.components
    current = components.province_tile_number(state.visit).id
    holders: dict[str, str] = {}
    for index, player in enumerate(state.players):
        for position, tile in enumerate(player.province_tiles):
            where = f"seats[{index}].province_tiles[{position}]"
            if tile not in components.province_tiles:
                raise StateFormatError(f"{where}: unknown tile {tile!r}")
            if tile in holders:
                raise StateFormatError(f"{where}: {tile} is also held at {holders[tile]}")
            holders[tile] = where
            if components.province_tiles[tile].number > state.visit:
                raise StateFormatError(
                    f"{where}: {tile} is won in visit {components.province_tiles[tile].number}, "
                    f"not reached yet (visit {state.visit})"
                )
    court_tile = state.court_province_tile
    if court_tile is not None:
        if court_tile != current:
            raise StateFormatError(
                f"court_province_tile: visit {state.visit} shows its own tile {current}, "
                f"not {court_tile!r} (TM.VISIT.NEXT.PROVINCE_TILE)"
            )
        if court_tile in holders:
            raise StateFormatError(f"court_province_tile: {court_tile} is also held")
    won = state.withdrawal.province_won if state.withdrawal is not None else None
    if won is not None:
        if won != current:
            raise StateFormatError(
                f"withdrawal.province_won: only this visit's tile {current} can be won, not {won!r}"
            )
        assert state.withdrawal is not None
        seat = state.withdrawal.seat
        expected = f"seats[{seat}].province_tiles" if state.withdrawal.scored else None
        found = holders.get(won, "").rpartition("[")[0] or None
        if court_tile is not None or found != expected:
            raise StateFormatError(
                f"withdrawal.province_won: {won} leaves the court when won and is held by "
                "the withdrawing player once scored (TM.SCORE.PROVINCE)"
            )


def _check_bonus_tiles(state: GameState) -> None:
    """A bonus tile lies on one fortress (the Taj Mahal tile on Agra) until a normal
    palace takes it; a goods tile taken is held by one player."""
    components = state.config.components
    board = components.board
    fortresses = board.fortresses
    taj_mahal = components.taj_mahal_tile.id
    places: dict[str, str] = {}
    normal_palaces = {palace.city for palace in state.palaces if not palace.crowned}
    for city, tile in state.bonus_on_board:
        where = f"bonus_on_board.{city}"
        if city not in fortresses:
            raise StateFormatError(f"{where}: not a fortress city")
        if tile not in components.bonus_tiles:
            raise StateFormatError(f"{where}: unknown bonus tile {tile!r}")
        if tile in places:
            raise StateFormatError(f"{where}: {tile} also lies at {places[tile]}")
        places[tile] = where
        if (tile == taj_mahal) != (city == board.agra):
            raise StateFormatError(
                f"{where}: the Taj Mahal tile lies on Agra and only there (TM.SETUP.BONUS_TILES)"
            )
        if city in normal_palaces:
            raise StateFormatError(
                f"{where}: a normal palace stands here and would have taken the tile "
                "(TM.REWARD.FORTRESS.BONUS)"
            )
    for index, player in enumerate(state.players):
        for position, tile in enumerate(player.goods_tiles):
            where = f"seats[{index}].goods_tiles[{position}]"
            if tile not in components.bonus_tiles or components.bonus_tiles[tile].good is None:
                raise StateFormatError(f"{where}: {tile!r} is not a goods bonus tile")
            if tile in places:
                raise StateFormatError(f"{where}: {tile} is also at {places[tile]}")
            places[tile] = where


def _check_influence(state: GameState) -> None:
    """Influence tiles: the four kinds only, at most one of a kind in the court and six of
    a kind in all (TM.COMP.INFLUENCE_TILES)."""
    court = state.court_influence
    for symbol in set(court):
        if symbol not in INFLUENCE_SYMBOLS:
            raise StateFormatError(f"court_influence: {symbol.value} is not an influence tile")
        if court.count(symbol) > 1:
            raise StateFormatError(f"court_influence: two {symbol.value} tiles in the court")
    for index, player in enumerate(state.players):
        for symbol in set(player.influence):
            if symbol not in INFLUENCE_SYMBOLS:
                raise StateFormatError(
                    f"seats[{index}].influence: {symbol.value} is not an influence tile"
                )
    for symbol in INFLUENCE_SYMBOLS:
        total = court.count(symbol) + sum(p.influence.count(symbol) for p in state.players)
        if total > INFLUENCE_TILES_PER_KIND:
            raise StateFormatError(
                f"court_influence: {total} {symbol.value} tiles in play; there are "
                f"{INFLUENCE_TILES_PER_KIND} (TM.COMP.INFLUENCE_TILES)"
            )


def _check_palaces(state: GameState) -> None:
    """Palaces stand in provinces already visited; a city holds at most a normal palace
    and a crown palace; each visit has at most one crown palace, in its own province."""
    board = state.config.components.board
    count = state.config.players
    visited = set(state.province_order[: state.visit])
    crowns: dict[str, str] = {}
    in_city: dict[str, list[Palace]] = {}
    for index, palace in enumerate(state.palaces):
        where = f"palaces[{index}]"
        if palace.city not in board.cities:
            raise StateFormatError(f"{where}: unknown city {palace.city!r}")
        if not 0 <= palace.seat < count:
            raise StateFormatError(f"{where}: no seat {palace.seat}")
        province = board.cities[palace.city].province
        if province not in visited:
            raise StateFormatError(
                f"{where}: {palace.city} lies in province {province}, not visited yet"
            )
        here = in_city.setdefault(palace.city, [])
        if any(other.crowned == palace.crowned for other in here):
            raise StateFormatError(
                f"{where}: {palace.city} already holds a "
                f"{'crown' if palace.crowned else 'normal'} palace (TM.REWARD.INFLUENCE.PALACE,"
                " TM.REWARD.CROWN.OCCUPIED)"
            )
        here.append(palace)
        if palace.crowned:
            if province in crowns:
                raise StateFormatError(
                    f"{where}: province {province} already has its crown palace in "
                    f"{crowns[province]} (one crown per visit)"
                )
            crowns[province] = palace.city
    current = state.current_province
    crown_owed = state.withdrawal is not None and state.withdrawal.crown_owed
    if state.crown_in_court and (current in crowns or crown_owed):
        raise StateFormatError(
            "crown_in_court: the crown of this visit is already won (TM.REWARD.CROWN.TAKE)"
        )
    if crown_owed and current in crowns:
        raise StateFormatError(
            f"withdrawal.crown_owed: this visit's crown palace already stands in {crowns[current]}"
        )


def _check_withdrawal(state: GameState) -> None:
    withdrawal = state.withdrawal
    if withdrawal is None:
        return
    components = state.config.components
    board = components.board
    count = state.config.players
    if not 0 <= withdrawal.seat < count:
        raise StateFormatError(f"withdrawal.seat: no seat {withdrawal.seat}")
    player = state.players[withdrawal.seat]
    if not player.withdrawn:
        raise StateFormatError(
            f"withdrawal.seat: seat {withdrawal.seat} is resolving a withdrawal but has not "
            "withdrawn"
        )
    if not 0 <= withdrawal.palaces_owed <= len(INFLUENCE_SYMBOLS):
        raise StateFormatError(
            f"withdrawal.palaces_owed: expected 0 to {len(INFLUENCE_SYMBOLS)} (one per "
            "influence tile won)"
        )
    if withdrawal.province_won is not None and withdrawal.province_won not in (
        components.province_tiles
    ):
        raise StateFormatError(f"withdrawal.province_won: unknown tile {withdrawal.province_won!r}")
    own = {palace.city for palace in state.palaces if palace.seat == withdrawal.seat}
    for position, city in enumerate(withdrawal.placed):
        where = f"withdrawal.placed[{position}]"
        if city not in board.cities or board.cities[city].province != state.current_province:
            raise StateFormatError(f"{where}: {city!r} is not a city of the current province")
        if city not in own:
            raise StateFormatError(f"{where}: no palace of seat {withdrawal.seat} in {city}")
    if withdrawal.scored and (withdrawal.palaces_owed or withdrawal.crown_owed):
        raise StateFormatError("withdrawal.scored: scoring comes after every placement")
    if withdrawal.played_nothing and player.played:
        raise StateFormatError(
            "withdrawal.played_nothing: the withdrawing player has cards on the table"
        )


def _check_step(state: GameState) -> None:
    """The step, the player to move, the withdrawal and the pending draw agree, and a
    player to move has a legal action."""
    count = state.config.players
    withdrawal = state.withdrawal
    draw = state.draw
    step = state.step
    if (draw is not None) != (step is Step.SHUFFLE):
        raise StateFormatError(
            "draw: a draw is pending exactly at a shuffle step (it is made at once otherwise)"
        )
    if step is Step.OVER:
        if state.visit != VISITS or withdrawal is not None:
            raise StateFormatError(
                f"step: the game is over only after visit {VISITS}, with no withdrawal pending"
            )
        return
    active = [seat for seat, player in enumerate(state.players) if not player.withdrawn]
    if step in (Step.PLACE, Step.TAKE) and (withdrawal is None or state.to_move != withdrawal.seat):
        raise StateFormatError(
            f"withdrawal: a {step.value} step needs the withdrawal of the player to move"
        )
    if step is Step.PLACE:
        assert withdrawal is not None and state.to_move is not None
        if not (withdrawal.palaces_owed > 0 or withdrawal.crown_owed):
            raise StateFormatError("withdrawal: a place step needs a palace or the crown owed")
        seat = state.to_move
        if not (
            (withdrawal.palaces_owed and palace_cities(state, seat))
            or (withdrawal.crown_owed and crown_cities(state, seat))
        ):
            raise StateFormatError(
                "withdrawal: no city is open for what is owed; it would have been forfeited "
                "(RUL.REWARD.NO_LEGAL_CITY)"
            )
    if step is Step.TAKE:
        assert withdrawal is not None
        if not withdrawal.scored or not state.display or active == []:
            raise StateFormatError(
                "withdrawal: a take step comes after scoring, with cards in the display and "
                "another player still in the visit (TM.WITHDRAW.PICK_TWO)"
            )
    if step is Step.PLAY and (
        withdrawal is not None or state.to_move is None or state.players[state.to_move].withdrawn
    ):
        raise StateFormatError(
            "to_move: a play step needs a player still in the visit and no "
            "withdrawal being resolved"
        )
    if step is Step.SHUFFLE:
        assert draw is not None
        if state.deck or not state.discard:
            raise StateFormatError(
                "draw: a shuffle step needs a pending draw, an empty deck and a discard pile"
            )
        if draw.count < 1 or draw.reason not in DRAW_REASONS:
            raise StateFormatError(
                f"draw: expected a positive count and a reason among {', '.join(DRAW_REASONS)}"
            )
        if draw.reason == "display":
            if draw.destination != DISPLAY or withdrawal is not None or len(active) != count:
                raise StateFormatError(
                    "draw: the display is drawn (destination -1) at the start of a visit, "
                    "with every player in it and no withdrawal pending"
                )
            if draw.count + len(state.display) > DISPLAY_SIZES[count]:
                raise StateFormatError("draw.count: more cards than the display holds")
        elif withdrawal is None or draw.destination != withdrawal.seat or draw.count != 1:
            raise StateFormatError(
                f"draw: a {draw.reason} draw is one card for the withdrawing player"
            )
        elif draw.reason == "extra-card" and not withdrawal.scored:
            raise StateFormatError("draw: the extra card is drawn after scoring")
    if withdrawal is None and step is not Step.SHUFFLE:
        for seat, player in enumerate(state.players):
            if player.withdrawn and player.played:
                raise StateFormatError(f"seats[{seat}].played: withdrawn, cards still on table")
