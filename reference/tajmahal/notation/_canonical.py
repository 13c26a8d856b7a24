"""The one canonical text of a state and its digest (:func:`canonical_json`,
:func:`state_digest`).

The text is put together from the texts of the state's parts
(:mod:`tajmahal.notation`), taking the texts of the parts a state shares with
the state written last from that state's text. This module holds that assembly and its
caches only, apart from reading and validation, because it is on the hot path of every
step a verifier digests.
"""

from __future__ import annotations

import hashlib
import operator
from collections.abc import Callable
from itertools import compress
from typing import Any

from tajmahal.model import GameState, PlayerState
from tajmahal.notation._canonical_parts import (
    ENCODE,
    SeatTexts,
    bonus_text,
    config_text,
    draw_text,
    member_text,
    palaces_text,
    scalar_text,
    seat_text,
    seat_texts,
    string_list_text,
    symbol_list_text,
    withdrawal_text,
)
from tajmahal.notation._writing import STATE_FORMAT, STATE_VERSION, player_to_json

_WRITERS: tuple[Callable[[Any], Any], ...] = (
    bonus_text,  # bonus_on_board
    config_text,  # components, players, ruleset
    symbol_list_text,  # court_influence
    scalar_text,  # court_province_tile
    scalar_text,  # crown_in_court
    string_list_text,  # deck
    string_list_text,  # discard
    string_list_text,  # display
    draw_text,  # draw
    palaces_text,  # palaces
    string_list_text,  # province_order
    string_list_text,  # specials_on_table
    scalar_text,  # start_player
    member_text,  # step
    scalar_text,  # to_move
    scalar_text,  # visit
    withdrawal_text,  # withdrawal
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
    tuple[Any, ...], list[Any], tuple[PlayerState, ...], list[str], list[SeatTexts | None], str
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
            seat_fields = seat_texts(player, last_players[index], last_fields[index])
            fields[index] = seat_fields
            seats[index] = (
                ENCODE(player_to_json(player)) if seat_fields is None else seat_text(seat_fields)
            )
    else:
        fields = [seat_texts(player, None, None) for player in players]
        seats = [
            ENCODE(player_to_json(player)) if seat_fields is None else seat_text(seat_fields)
            for player, seat_fields in zip(players, fields, strict=True)
        ]
    if (changed and changed[0] < _HEAD_PARTS) or not last_head:
        components, players_to_order, ruleset_to_seats = texts[1]
        # f-strings join their pieces in one step, without a tuple built first
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


_FORMAT = scalar_text(STATE_FORMAT)
_VERSION = scalar_text(STATE_VERSION)


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


# The functions are documented under tajmahal.notation, which users import them from.
__all__: list[str] = []
