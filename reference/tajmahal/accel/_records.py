"""Fast drop-ins for reading and replaying records: a compiled schema validator that
vouches for valid records before ``jsonschema`` is asked, action strings parsed once, and
the edge tags of the commonest steps.

``jsonschema`` is the authority on the published schemas and writes every message; it
validates a long record in Python, value by value. ``jsonschema-rs`` (the ``fast``
extra), compiled once from the very schema ``jsonschema`` uses (its references resolved
in advance, :func:`tajmahal.inputs.validator`), checks the same record in a small
fraction of the time. :func:`vouch` asks it; a record it finds valid is valid, and every
other record goes to ``jsonschema``, which decides and writes the message. It is asked
only about records whose numbers are plain (:attr:`tajmahal.inputs.Parsed.plain_numbers`:
integers of at most 15 digits, written without a fraction or an exponent), because on
other numbers the two differ: ``jsonschema-rs`` counts ``4.0`` as an integer, this
package does not. Its regular expressions are stricter than Python's (``$`` does not
match before a final line feed), which only sends more records to ``jsonschema``.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from tajmahal import model, records
from tajmahal.accel._inputs import PARSE_JSON_DOCUMENT
from tajmahal.accel._path import FastPath
from tajmahal.inputs import validator
from tajmahal.model import (
    Action,
    Event,
    EventKind,
    GameState,
    PlaceCrown,
    PlacePalace,
    Play,
    PointSource,
    Step,
    Withdraw,
)


@functools.cache
def _compiled(name: str) -> Callable[[Any], bool] | None:
    """``is_valid`` of a compiled validator for the schema ``name``, built from the
    schema :func:`tajmahal.inputs.validator` uses; None when the ``fast`` extra is not
    installed or cannot compile the schema."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    try:
        compiled = jsonschema_rs.Draft202012Validator(validator(name).schema)
    except Exception:  # a schema it cannot compile: jsonschema alone decides
        return None
    is_valid: Callable[[Any], bool] = compiled.is_valid
    return is_valid


def compiled_available(name: str) -> bool:
    """Whether the compiled validator of schema ``name`` can be asked."""
    return _compiled(name) is not None


def vouch(name: str, document: Any) -> bool:
    """True when the compiled validator finds ``document`` valid against schema ``name``
    (a ``tajmahal.records.SchemaVouch``); False when it finds it invalid, cannot
    read it, or is not installed."""
    is_valid = _compiled(name)
    if is_valid is None:
        return False
    try:
        return is_valid(document)
    except Exception:  # a value it cannot read: jsonschema decides
        return False


def read_record(path: str | Path) -> records.Record:
    """:func:`tajmahal.records.read_record`, the text parsed by the fast
    :func:`~tajmahal.accel.parse_json_document` and :func:`vouch` asked first."""
    return records.read_record(path, parse=_PARSE, vouch=vouch)


_PARSE = PARSE_JSON_DOCUMENT.chosen()
"""The parser the fast :func:`read_record` uses: the fast one unless
``TAJMAHAL_PLAIN=parse_json_document`` switches it off (so that its share is measured)."""


def parse_action(text: str) -> Action:
    """:func:`tajmahal.model.parse_action`, remembering the strings it has parsed: the
    actions of a record recur (``withdraw``, the same plays, picks and cities), and an
    action is a frozen value, so one object stands for every occurrence of its string.
    A refused string is not remembered (the core raises again, with the same message)."""
    if type(text) is not str:  # refused by the core, or a subclass a cache would mix up
        return model.parse_action(text)
    return _parsed(text)


_parsed = functools.lru_cache(maxsize=4096)(model.parse_action)
"""The strings parsed, at most 4,096 (the least recently used go first)."""


def edge_tags(
    before: GameState, action: Action, events: Iterable[Event], after: GameState
) -> frozenset[str]:
    """:func:`tajmahal.records.edge_tags`, the commonest events and actions tagged here and
    the rest by the core's own rules.

    Python 3.11 reads an enum member through its class slowly (``EventKind.WIN`` costs
    about ten times a module name), and the core compares each event's kind with up to
    twelve members in turn and asks three functions. Here the kinds are module names, the
    kinds that never show a tag are passed over first, and a play or a withdrawal finds
    ``last-player-alone`` by counting the players who have withdrawn. Every other event
    goes to :func:`tajmahal.records.event_tags`, a step with an exchange to
    :func:`tajmahal.records.step_tags` (``pairs-collide``), every other action to
    :func:`tajmahal.records.action_tags`."""
    happened = events if type(events) is tuple else tuple(events)
    tags: set[str] = set()
    exchanging = False
    for event in happened:
        kind = event.kind
        if kind is _NO_MAJORITY:
            if "RUL.MAJORITY.ZERO_SYMBOLS" in event.clauses:
                tags.add("zero-symbols")
            elif "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL" in event.clauses:
                tags.add("tie")
        elif kind is _TAKE or kind is _DISCARD or kind is _PALACE or kind is _VISIT:
            continue
        elif kind is _PLAY:
            if "TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN" in event.clauses:
                tags.add("colour-change-first-turn")
        elif kind is _WIN:
            if "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL" in event.clauses:
                tags.add("tie-broken")
        elif kind is _WITHDRAW:
            if "TM.WITHDRAW.WITHOUT_PLAYING.NOTHING" in event.clauses:
                tags.add("withdraw-without-playing")
        elif kind is _SCORE:
            if event.source is _PLUS_TWO:
                tags.add("plus-two")
        elif kind is _DRAW:
            if event.counts:
                tags.update(("deck-exhausted", "discard-exhausted"))
                if event.seat is None:
                    tags.add("short-display")
        elif kind is not _HAND:  # a crown, bonus, exchange, forfeit, unwon tile, end
            exchanging = exchanging or kind is _EXCHANGE
            tags.update(records.event_tags(before, event, happened, after))
    if exchanging:
        tags.update(records.step_tags(happened, after))
    elif after.step is _SHUFFLE:
        tags.add("deck-exhausted")
    acted = type(action)
    if acted is _PLAY_ACTION or acted is _WITHDRAW_ACTION:
        seat = before.to_move
        if seat is not None:
            players = before.players
            if sum(map(_WITHDRAWN, players)) == len(players) - 1 + players[seat].withdrawn:
                tags.add("last-player-alone")
    elif acted is not _PLACE_PALACE and acted is not _PLACE_CROWN:
        tags.update(records.action_tags(before, action))
    return frozenset(tags)


(_NO_MAJORITY, _WIN, _TAKE, _DISCARD, _PALACE, _VISIT, _PLAY, _WITHDRAW, _SCORE, _DRAW) = (
    EventKind.NO_MAJORITY,
    EventKind.WIN,
    EventKind.TAKE,
    EventKind.DISCARD,
    EventKind.PALACE,
    EventKind.VISIT,
    EventKind.PLAY,
    EventKind.WITHDRAW,
    EventKind.SCORE,
    EventKind.DRAW,
)
_HAND, _EXCHANGE = EventKind.HAND, EventKind.EXCHANGE
_PLUS_TWO = PointSource.PLUS_TWO
_SHUFFLE = Step.SHUFFLE
_PLAY_ACTION, _WITHDRAW_ACTION, _PLACE_PALACE, _PLACE_CROWN = (
    Play,
    Withdraw,
    PlacePalace,
    PlaceCrown,
)
"""The actions compared by their exact type: an instance of a subclass goes to the core."""
_WITHDRAWN = operator.attrgetter("withdrawn")
"""Whether a seat has withdrawn (read in C by ``map``)."""

READ_RECORD = FastPath(
    core=records.read_record,
    fast=read_record,
    buys="`tajmahal verify` steps/s: 3.8 times (cachegrind: 1,908,000 to 506,000 "
    "instructions a verified step, the fast parser kept)",
)

PARSE_ACTION = FastPath(
    core=model.parse_action,
    fast=parse_action,
    buys="with the replay's other two (apply_with_events, edge_tags), measured together: "
    "`tajmahal verify` steps/s 11 % (see APPLY_WITH_EVENTS; this one alone 6,000 "
    "instructions a verified step)",
)

EDGE_TAGS = FastPath(
    core=records.edge_tags,
    fast=edge_tags,
    buys="with the replay's other two (apply_with_events, parse_action), measured "
    "together: `tajmahal verify` steps/s 11 % (see APPLY_WITH_EVENTS; this one alone "
    "34,000 instructions a verified step; the fuzz campaign's games 1 to 50, 134,000,000 "
    "to 128,000,000 instructions a game)",
)

FAST_PATHS: tuple[FastPath[Any], ...] = (READ_RECORD, PARSE_ACTION, EDGE_TAGS)
"""The records' fast paths."""
