"""The canonical texts of the parts of a state (a list of ids, a seat, a palace...).

Each writer here gives exactly the text ``json.dumps(..., sort_keys=True,
separators=(",", ":"), ensure_ascii=False)`` gives for its part of the
:func:`~tajmahal.notation.state_to_json` document, written directly where that is
faster. :mod:`tajmahal.notation` puts these texts together into the text of a whole
state; the writers are kept apart from that assembly, and from its caches, because they
depend on one part alone.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable
from operator import is_
from typing import Any, cast

from tajmahal.model import (
    CardColour,
    GameConfig,
    Palace,
    PendingDraw,
    PlayerState,
    Step,
    Symbol,
    Withdrawal,
)
from tajmahal.notation._writing import draw_to_json

_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
"""The settings of :func:`~tajmahal.notation.canonical_json`."""


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


ENCODE = _c_encoder()
"""One JSON value in canonical form (the settings of :func:`~tajmahal.notation.canonical_json`)."""


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


_PLAIN_IDS: set[str] = set()
"""Strings found to need no escape (see :func:`_plain_list`): the ids of one component
set, most of all, met again in every hand, deck and display."""
_PLAIN_KEPT = 4096
"""Strings remembered at most in :data:`_PLAIN_IDS` (emptied when full)."""


def _plain_list(values: tuple[str, ...]) -> str | None:
    """The text of a non-empty list of strings written as themselves between quotes, or
    None when one is not a string or needs an escape.

    A list whose strings were all found plain before is joined at once (the membership
    test hashes each string, whose hash Python keeps, instead of reading every
    character); otherwise the joined text is checked by :func:`_plain`, and its strings
    are remembered when it passes (a joined text with no escape but the separators'
    quotes has none in any of its strings)."""
    try:
        if _PLAIN_IDS.issuperset(values):
            return '["' + '","'.join(values) + '"]'
        joined = '","'.join(values)
    except TypeError:  # not only strings (an unhashable value, or a join refused)
        return None
    if not _plain(joined, len(values)):
        return None
    if len(_PLAIN_IDS) >= _PLAIN_KEPT:
        _PLAIN_IDS.clear()
    _PLAIN_IDS.update(values)
    return '["' + joined + '"]'


def string_list_text(values: tuple[str, ...]) -> str:
    """``ENCODE(list(values))``, written directly when no string needs an escape (no
    quote, no backslash, no control character): then each is written as itself between
    quotes."""
    if not values:
        return "[]"
    text = _plain_list(values)
    return ENCODE(list(values)) if text is None else text


_SYMBOL_TEXTS = {id(symbol): ENCODE(symbol.value) for symbol in Symbol}
"""The text of each symbol, by the identity of the enum member (hashing a member runs
Python code)."""


def symbol_list_text(symbols: tuple[Symbol, ...]) -> str:
    """``ENCODE([symbol.value for symbol in symbols])``."""
    try:
        return "[" + ",".join(map(_SYMBOL_TEXTS.__getitem__, map(id, symbols))) + "]"
    except KeyError:  # not a Symbol member: let the encoder say what it is
        return ENCODE([symbol.value for symbol in symbols])


def scalar_text(value: Any) -> str:
    """The canonical text of an integer, a boolean, a string or null."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return int.__repr__(value)
    return ENCODE(value)


_STEP_TEXTS = {id(step): ENCODE(step.value) for step in Step}
"""The text of each step, by the identity of the enum member."""


def member_text(member: enum.Enum) -> str:
    text = _STEP_TEXTS.get(id(member))
    return ENCODE(member.value) if text is None else text


def bonus_text(pairs: tuple[tuple[str, str], ...]) -> str:
    return ENCODE({city: tile for city, tile in pairs})


def _palace(palace: Palace) -> str:
    return ENCODE([palace.city, palace.seat, palace.crowned])


def palaces_text(palaces: tuple[Palace, ...]) -> str:
    """The palaces' texts, each written once while remembered (a palace stays the same
    object for the rest of the game). They are looked up by identity in C; only those not
    found (a step adds at most one palace) are written in Python.

    The usual change is one palace placed: the palaces of the last tuple written, as the
    same objects, with one more among them. That is found by comparing identities in C,
    and the last texts are taken with the new palace's text inserted."""
    global _last_palaces  # one tuple, replaced whole
    last, last_texts = _last_palaces
    count = len(palaces)
    if count == len(last) + 1:
        same = list(map(is_, palaces, last))  # stops at the shorter: the last tuple
        where = same.index(False) if False in same else count - 1
        if all(map(is_, palaces[where + 1 :], last[where:])):
            inserted = last_texts.copy()
            inserted.insert(where, _PALACE.text(palaces[where]))
            _last_palaces = (palaces, inserted)
            return "[" + ",".join(inserted) + "]"
    texts = list(map(_PALACE.texts.get, map(id, palaces)))
    try:
        index = texts.index(None)
        while True:
            texts[index] = _PALACE.text(palaces[index])
            index = texts.index(None, index + 1)
    except ValueError:  # no text missing (any more)
        pass
    written = cast("list[str]", texts)  # no None is left
    _last_palaces = (palaces, written)
    return "[" + ",".join(written) + "]"


_last_palaces: tuple[tuple[Palace, ...], list[str]] = ((), [])
"""The palaces written last and their texts (see :func:`palaces_text`)."""


def withdrawal_text(withdrawal: Withdrawal | None) -> str:
    """The canonical text of a withdrawal, keys sorted (an f-string: its pieces are
    joined in one step, without a format string parsed or a tuple built)."""
    if withdrawal is None:
        return "null"
    crown_owed = withdrawal.crown_owed
    played_nothing = withdrawal.played_nothing
    scored = withdrawal.scored
    owed = withdrawal.palaces_owed
    seat = withdrawal.seat
    placed = withdrawal.placed
    province_won = withdrawal.province_won
    crown_text = (
        "true"
        if crown_owed is True
        else "false"
        if crown_owed is False
        else scalar_text(crown_owed)
    )
    owed_text = int.__repr__(owed) if type(owed) is int else scalar_text(owed)
    placed_text = "[]" if placed == () else string_list_text(placed)
    nothing_text = (
        "true"
        if played_nothing is True
        else "false"
        if played_nothing is False
        else scalar_text(played_nothing)
    )
    won_text = "null" if province_won is None else scalar_text(province_won)
    scored_text = "true" if scored is True else "false" if scored is False else scalar_text(scored)
    seat_text = int.__repr__(seat) if type(seat) is int else scalar_text(seat)
    return (
        f'{{"crown_owed":{crown_text},"palaces_owed":{owed_text},"placed":{placed_text},'
        f'"played_nothing":{nothing_text},"province_won":{won_text},"scored":{scored_text},'
        f'"seat":{seat_text}}}'
    )


def draw_text(draw: PendingDraw | None) -> str:
    return "null" if draw is None else ENCODE(draw_to_json(draw))


def config_text(config: GameConfig) -> tuple[str, str, str]:
    """The texts that depend on the configuration only: from ``"components"`` to
    ``"court_influence"``, from ``"players"`` to ``"province_order"`` and from
    ``"ruleset"`` to ``"seats"`` (keys and separators included)."""
    return (
        ',"components":' + ENCODE(config.components.digest) + ',"court_influence":',
        ',"players":' + scalar_text(config.players) + ',"province_order":',
        ',"ruleset":' + ENCODE(config.rules.to_json()) + ',"seats":[',
    )


SeatTexts = tuple[str, str, str, str, str, str, str, str, str]
"""The texts of a seat's fields, keys sorted (as :func:`seat_text` puts them)."""


def seat_text(fields: SeatTexts) -> str:
    """The canonical text of a seat from the texts of its fields (:func:`seat_texts`),
    keys sorted; an f-string, joined in one step."""
    colour, goods, hand, influence, played, tiles, score, withdrawn, counts = fields
    return (
        f'{{"colour":{colour},"goods_tiles":{goods},"hand":{hand},"influence":{influence},'
        f'"played":{played},"province_tiles":{tiles},"score":{score},"withdrawn":{withdrawn},'
        f'"withdrawn_counts":{counts}}}'
    )


_COLOUR_TEXTS = {id(colour): ENCODE(colour.value) for colour in CardColour}
"""The text of each colour, by the identity of the enum member."""


def _ids_text(ids: tuple[str, ...]) -> str | None:
    """The text of a list of card or tile ids written as themselves between quotes, or
    None when one is not a string or needs an escape."""
    return _plain_list(ids) if ids else "[]"


def seat_texts(player: PlayerState, last: PlayerState | None, old: SeatTexts | None) -> Any:
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
        influence_text = symbol_list_text(influence)
        played_text = _ids_text(played)
        tiles_text = _ids_text(tiles)
        counts_text = "null" if counts is None else _COUNTS.text(counts)
    else:
        goods_text = old[1] if goods is last.goods_tiles else _ids_text(goods)
        hand_text = old[2] if hand is last.hand else _ids_text(hand)
        influence_text = old[3] if influence is last.influence else symbol_list_text(influence)
        played_text = old[4] if played is last.played else _ids_text(played)
        tiles_text = old[5] if tiles is last.province_tiles else _ids_text(tiles)
        counts_text = (
            old[8]
            if counts is last.withdrawn_counts
            else "null"
            if counts is None
            else _COUNTS.text(counts)
        )
    if goods_text is None or hand_text is None or played_text is None or tiles_text is None:
        return None
    return (
        colour_text,
        goods_text,
        hand_text,
        influence_text,
        played_text,
        tiles_text,
        int.__repr__(score) if type(score) is int else scalar_text(score),
        "true" if withdrawn is True else "false" if withdrawn is False else scalar_text(withdrawn),
        counts_text,
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
    return ENCODE(list(values))


_COUNTS = _Remembered(_int_list)
"""The symbol counts of withdrawn seats (the same tuple until the visit ends)."""
_PALACE = _Remembered(_palace)
"""Palaces on the board."""
