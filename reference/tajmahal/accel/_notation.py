"""Fast drop-ins for the notation's digests: the canonical text written part by part, and
the legal actions listed as strings.

:func:`tajmahal.notation.canonical_json` is ``json.dumps`` of the whole
:func:`~tajmahal.notation.state_to_json` document, and the verifier digests the state
after every step. A step changes a few parts of a state and shares every other part (the
same tuple, the same player object) with the state before it; the parts are frozen
values. So :func:`canonical_json` here writes the text part by part, in the order of the
sorted keys, and takes the text of every part that the state written last shares with
this one from that state's text; a seat's text is put together from its fields' texts
the same way. :func:`state_digest` goes on from the SHA-256 of the text before the seats
while that text stays the same string. :func:`legal_strings` lists the legal actions'
strings from the engine's action tables mapped to strings once per component set, and
:func:`legal_digest` remembers the digests of the lists of strings met.

Every text is the one ``json.dumps(..., sort_keys=True, separators=(",", ":"),
ensure_ascii=False)`` gives for the same value (``tests/accel/test_notation.py`` compares
them on every state of random games and on odd values).
"""

from __future__ import annotations

import enum
import functools
import hashlib
import json
import operator
from collections.abc import Callable, Iterable
from itertools import compress
from operator import is_
from typing import Any, cast

from tajmahal import notation
from tajmahal.accel._engine import ChoiceTables, action_tables, legal_choices
from tajmahal.accel._identity import IdentityMemo
from tajmahal.accel._path import FastPath
from tajmahal.model import (
    Action,
    CardColour,
    Components,
    GameConfig,
    GameState,
    Palace,
    PendingDraw,
    PlayerState,
    Step,
    Symbol,
    Withdrawal,
)

# ---------------------------------------------------------------------------------------
# The texts of the parts of a state

_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
"""The settings of :func:`tajmahal.notation.canonical_json`."""


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
"""One JSON value in canonical form."""


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
    test hashes each string, whose hash Python keeps); otherwise the joined text is
    checked by :func:`_plain`, and its strings are remembered when it passes (a joined
    text with no escape but the separators' quotes has none in any of its strings)."""
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


def _string_list_text(values: tuple[str, ...]) -> str:
    """``ENCODE(list(values))``, written directly when no string needs an escape."""
    if not values:
        return "[]"
    text = _plain_list(values)
    return ENCODE(list(values)) if text is None else text


_SYMBOL_TEXTS = {id(symbol): ENCODE(symbol.value) for symbol in Symbol}
"""The text of each symbol, by the identity of the enum member (hashing a member runs
Python code)."""


def _symbol_list_text(symbols: tuple[Symbol, ...]) -> str:
    """``ENCODE([symbol.value for symbol in symbols])``."""
    try:
        return "[" + ",".join(map(_SYMBOL_TEXTS.__getitem__, map(id, symbols))) + "]"
    except KeyError:  # not a Symbol member: let the encoder say what it is
        return ENCODE([symbol.value for symbol in symbols])


def _scalar_text(value: Any) -> str:
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


def _member_text(member: enum.Enum) -> str:
    text = _STEP_TEXTS.get(id(member))
    return ENCODE(member.value) if text is None else text


def _bonus_text(pairs: tuple[tuple[str, str], ...]) -> str:
    return ENCODE({city: tile for city, tile in pairs})


def _palace(palace: Palace) -> str:
    return ENCODE([palace.city, palace.seat, palace.crowned])


_PALACE: IdentityMemo[Palace, str] = IdentityMemo(_palace, 256)
"""The texts of palaces on the board (a palace stays the same object for the rest of
the game)."""
_last_palaces: tuple[tuple[Palace, ...], list[str]] = ((), [])
"""The palaces written last and their texts (see :func:`_palaces_text`)."""


def _palaces_text(palaces: tuple[Palace, ...]) -> str:
    """The palaces' texts, each written once while remembered.

    The usual change is one palace placed: the palaces of the last tuple written, as the
    same objects, with one more among them. That is found by comparing identities in C,
    and the last texts are taken with the new palace's text inserted; otherwise each
    palace's text is looked up by identity."""
    global _last_palaces  # one tuple, replaced whole
    last, last_texts = _last_palaces
    count = len(palaces)
    if count == len(last) + 1:
        same = list(map(is_, palaces, last))  # stops at the shorter: the last tuple
        where = same.index(False) if False in same else count - 1
        if all(map(is_, palaces[where + 1 :], last[where:])):
            inserted = last_texts.copy()
            inserted.insert(where, _PALACE.get(palaces[where]))
            _last_palaces = (palaces, inserted)
            return "[" + ",".join(inserted) + "]"
    written = [_PALACE.get(palace) for palace in palaces]
    _last_palaces = (palaces, written)
    return "[" + ",".join(written) + "]"


def _withdrawal_text(withdrawal: Withdrawal | None) -> str:
    """The canonical text of a withdrawal, keys sorted."""
    if withdrawal is None:
        return "null"
    return (
        f'{{"crown_owed":{_scalar_text(withdrawal.crown_owed)},'
        f'"palaces_owed":{_scalar_text(withdrawal.palaces_owed)},'
        f'"placed":{_string_list_text(withdrawal.placed)},'
        f'"played_nothing":{_scalar_text(withdrawal.played_nothing)},'
        f'"province_won":{_scalar_text(withdrawal.province_won)},'
        f'"scored":{_scalar_text(withdrawal.scored)},"seat":{_scalar_text(withdrawal.seat)}}}'
    )


def _draw_text(draw: PendingDraw | None) -> str:
    if draw is None:
        return "null"
    return ENCODE({"count": draw.count, "destination": draw.destination, "reason": draw.reason})


def _config_text(config: GameConfig) -> tuple[str, str, str]:
    """The texts that depend on the configuration only: from ``"components"`` to
    ``"court_influence"``, from ``"players"`` to ``"province_order"`` and from
    ``"ruleset"`` to ``"seats"`` (keys and separators included)."""
    return (
        ',"components":' + ENCODE(config.components.digest) + ',"court_influence":',
        ',"players":' + _scalar_text(config.players) + ',"province_order":',
        ',"ruleset":' + ENCODE(config.rules.to_json()) + ',"seats":[',
    )


_SeatTexts = tuple[str, str, str, str, str, str, str, str, str]
"""The texts of a seat's fields, keys sorted (as :func:`_seat_text` puts them)."""


def _seat_text(fields: _SeatTexts) -> str:
    """The canonical text of a seat from the texts of its fields, keys sorted."""
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


def _int_list(values: tuple[int, ...]) -> str:
    return ENCODE(list(values))


_COUNTS: IdentityMemo[tuple[int, ...], str] = IdentityMemo(_int_list, 256)
"""The symbol counts of withdrawn seats (the same tuple until the visit ends)."""


def _counts_text(counts: tuple[int, ...] | None) -> str:
    return "null" if counts is None else _COUNTS.get(counts)


def _seat_texts(
    player: PlayerState, last: PlayerState | None, old: _SeatTexts | None
) -> _SeatTexts | None:
    """The texts of ``player``'s fields, taking those of the fields it shares (as the
    same objects) with ``last``, the seat's player written before (whose texts are
    ``old``); None when a field needs the general encoder (a value that is not a string,
    an id that needs an escape)."""
    colour = player.colour
    colour_text = "null" if colour is None else _COLOUR_TEXTS.get(id(colour))
    if colour_text is None:
        return None
    if last is None or old is None:
        goods = _ids_text(player.goods_tiles)
        hand = _ids_text(player.hand)
        influence = _symbol_list_text(player.influence)
        played = _ids_text(player.played)
        tiles = _ids_text(player.province_tiles)
        counts = _counts_text(player.withdrawn_counts)
    else:
        goods = old[1] if player.goods_tiles is last.goods_tiles else _ids_text(player.goods_tiles)
        hand = old[2] if player.hand is last.hand else _ids_text(player.hand)
        influence = (
            old[3] if player.influence is last.influence else _symbol_list_text(player.influence)
        )
        played = old[4] if player.played is last.played else _ids_text(player.played)
        tiles = (
            old[5]
            if player.province_tiles is last.province_tiles
            else _ids_text(player.province_tiles)
        )
        counts = (
            old[8]
            if player.withdrawn_counts is last.withdrawn_counts
            else _counts_text(player.withdrawn_counts)
        )
    if goods is None or hand is None or played is None or tiles is None:
        return None
    score = _scalar_text(player.score)
    withdrawn = _scalar_text(player.withdrawn)
    return (colour_text, goods, hand, influence, played, tiles, score, withdrawn, counts)


# ---------------------------------------------------------------------------------------
# The text of a state, from the texts of its parts

_WRITERS: tuple[Callable[[Any], Any], ...] = (
    _bonus_text,  # bonus_on_board
    _config_text,  # components, players, ruleset
    _symbol_list_text,  # court_influence
    _scalar_text,  # court_province_tile
    _scalar_text,  # crown_in_court
    _string_list_text,  # deck
    _string_list_text,  # discard
    _string_list_text,  # display
    _draw_text,  # draw
    _palaces_text,  # palaces
    _string_list_text,  # province_order
    _string_list_text,  # specials_on_table
    _scalar_text,  # start_player
    _member_text,  # step
    _scalar_text,  # to_move
    _scalar_text,  # visit
    _withdrawal_text,  # withdrawal
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
"""The parts of a state whose texts :func:`canonical_json` puts together, in the order
of their keys (the seats apart)."""

_PART_INDICES = range(len(_WRITERS))
"""The positions of the parts, for :func:`itertools.compress`."""
_HEAD_PARTS = 11
"""The parts whose texts come before the seats' (``bonus_on_board`` to
``province_order``, the configuration's texts among them): the head of the text."""

_Written = tuple[
    tuple[Any, ...], list[Any], tuple[PlayerState, ...], list[str], list[_SeatTexts | None], str
]
"""A state's parts, their texts, its players, their texts, their fields' texts and the
head of its canonical text."""

_UNWRITTEN = object()
"""Stands for the parts of a state not written yet (no part is this object)."""
_last_written: _Written = ((_UNWRITTEN,) * len(_WRITERS), [""] * len(_WRITERS), (), [], [], "")
"""The parts and texts of the state written last."""

_FORMAT = _scalar_text(notation.STATE_FORMAT)
_VERSION = _scalar_text(notation.STATE_VERSION)


def _canonical_texts(state: GameState) -> tuple[str, str] | None:
    """:func:`canonical_json` in two pieces: the head, everything before the seats'
    texts (the same string object as the last state's when none of its parts changed),
    and the rest; None for a state holding a seat that needs the general encoder (a
    value that is not a string where an id belongs, an id that needs an escape: no
    state reached in play), which is then written whole by the core."""
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
            seat_fields = _seat_texts(players[index], last_players[index], last_fields[index])
            if seat_fields is None:
                return None
            fields[index] = seat_fields
            seats[index] = _seat_text(seat_fields)
    else:
        fields = [_seat_texts(player, None, None) for player in players]
        if None in fields:
            return None
        seats = [_seat_text(cast("_SeatTexts", seat_fields)) for seat_fields in fields]
    if (changed and changed[0] < _HEAD_PARTS) or not last_head:
        components, players_to_order, ruleset_to_seats = texts[1]
        head = (
            f'{{"bonus_on_board":{texts[0]}{components}{texts[2]},"court_province_tile":'
            f'{texts[3]},"crown_in_court":{texts[4]},"deck":{texts[5]},"discard":{texts[6]},'
            f'"display":{texts[7]},"draw":{texts[8]},"format":{_FORMAT},"palaces":{texts[9]}'
            f"{players_to_order}{texts[10]}{ruleset_to_seats}"
        )
    else:
        head = last_head
    _last_written = (parts, texts, players, seats, fields, head)
    rest = (
        f'{",".join(seats)}],"specials_on_table":{texts[11]},"start_player":{texts[12]},'
        f'"step":{texts[13]},"to_move":{texts[14]},"version":{_VERSION},"visit":{texts[15]},'
        f'"withdrawal":{texts[16]}}}'
    )
    return head, rest


def canonical_json(state: GameState) -> str:
    """:func:`tajmahal.notation.canonical_json`, put together from the texts of the
    state's parts, taking those of the parts it shares with the state written last from
    that state's text."""
    texts = _canonical_texts(state)
    if texts is None:
        return notation.canonical_json(state)
    head, rest = texts
    return head + rest


_head_hash: tuple[str | None, hashlib._Hash] = (None, hashlib.sha256())
"""The head of the text last digested and its SHA-256 (see :func:`state_digest`)."""


def state_digest(state: GameState) -> str:
    """:func:`tajmahal.notation.state_digest` of the text of :func:`canonical_json`.

    The SHA-256 of the head of the text is kept with the head it was computed from;
    while a step leaves the head the same string object (a play changes only the seats
    and whose turn it is), the digest goes on from a copy of that hash instead of
    hashing the head again."""
    global _head_hash  # one tuple, replaced whole
    texts = _canonical_texts(state)
    if texts is None:
        return notation.state_digest(state)
    head, rest = texts
    hashed_head, hashed = _head_hash
    if hashed_head is not head:
        hashed = hashlib.sha256(head.encode("utf-8"))
        _head_hash = (head, hashed)
    digest = hashed.copy()
    digest.update(rest.encode("utf-8"))
    return "sha256:" + digest.hexdigest()


# ---------------------------------------------------------------------------------------
# The legal actions as strings


@functools.lru_cache(maxsize=8)
def _string_tables(components: Components) -> ChoiceTables[str]:
    """The engine's legal-action tables of a component set holding each action's
    canonical string instead of the action, built once per set."""
    return action_tables(components).mapped(str)


def legal_strings(state: GameState) -> list[str]:
    """:func:`tajmahal.notation.legal_strings`: the legal actions listed by
    :func:`~tajmahal.accel.legal_choices` from tables of their strings (no action
    object is written as a string)."""
    return sorted(legal_choices(state, _string_tables(state.config.components)))


@functools.lru_cache(maxsize=16_384)
def _digest_of_strings(strings: tuple[str, ...]) -> str:
    return notation.legal_digest(strings)


def legal_digest(actions: Iterable[Action | str]) -> str:
    """:func:`tajmahal.notation.legal_digest`, remembered for lists of strings: the same
    lists of legal actions recur (a player left only ``withdraw``, the same display, the
    same cities open; on the golden corpus 7,490 different lists among 18,295
    decisions)."""
    listed = tuple(actions)
    if _STRINGS_ONLY.issuperset(map(type, listed)):  # every type looked at in C
        return _digest_of_strings(cast("tuple[str, ...]", listed))
    return notation.legal_digest(listed)


_STRINGS_ONLY = frozenset({str})
"""The one type of the items of a list :func:`legal_digest` remembers."""


CANONICAL_JSON = FastPath(
    core=notation.canonical_json,
    fast=canonical_json,
    buys="the state digest of every step: see STATE_DIGEST",
)
STATE_DIGEST = FastPath(
    core=notation.state_digest,
    fast=state_digest,
    buys="with CANONICAL_JSON, `tajmahal verify` steps/s: 1.9 times (cachegrind: 938,000 "
    "to 506,000 instructions a verified step)",
)
LEGAL_STRINGS = FastPath(
    core=notation.legal_strings,
    fast=legal_strings,
    buys="with LEGAL_DIGEST, `tajmahal verify` steps/s: 21 % (cachegrind: 614,000 to "
    "506,000 instructions a verified step)",
)
LEGAL_DIGEST = FastPath(
    core=notation.legal_digest,
    fast=legal_digest,
    buys="see LEGAL_STRINGS",
)

FAST_PATHS: tuple[FastPath[Any], ...] = (CANONICAL_JSON, STATE_DIGEST, LEGAL_STRINGS, LEGAL_DIGEST)
"""The notation's fast paths."""
