"""Reading a state document back into a :class:`~tajmahal.model.GameState`.

:func:`state_from_json` reads a :func:`~tajmahal.notation.state_to_json` document and
checks it (:func:`~tajmahal.notation.validate_state`); :func:`reads_back` answers the
same question cheaply for a state and its own document; :func:`position_from_json` and
:func:`read_position` load positions that come from outside. Reading is kept apart from
writing because it has its own errors (naming the field) and its own memos of parts
read before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeGuard

from tajmahal.errors import RecordError, StateFormatError
from tajmahal.inputs import (
    MAX_INT_DIGITS,
    RECORD_LIMITS,
    InputError,
    check_document,
    first_violation,
    read_json,
    source_name,
)
from tajmahal.model import (
    SYMBOL_INDEX,
    CardColour,
    Components,
    GameConfig,
    GameState,
    Palace,
    PendingDraw,
    PlayerState,
    RuleSet,
    Step,
    Symbol,
    Withdrawal,
    palace_sort_key,
)
from tajmahal.notation._validation import validate_state
from tajmahal.notation._writing import STATE_FORMAT, STATE_VERSION

_STR_ONLY = frozenset({str})


_INTEGER_BOUND = 10**MAX_INT_DIGITS
"""Integers of a state are smaller than this (as in a file: at most
:data:`~tajmahal.inputs.MAX_INT_DIGITS` digits), so messages can always quote them."""


def _is_integer(value: object) -> TypeGuard[int]:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and -_INTEGER_BOUND < value < _INTEGER_BOUND
    )


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
        if not _is_integer(value):
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
        not isinstance(counts, list) or not all(_is_integer(c) for c in counts)
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
    try:
        key = repr(document)
    except ValueError:  # an integer too long to write: the reader refuses it
        return _player_from_json(document, path)
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
    try:
        key = repr(raw) if plain else ""
    except ValueError:  # an integer too long to write: the reader refuses it
        plain, key = False, ""
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
            or not _is_integer(entry[1])
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
    """Rebuild a state from :func:`~tajmahal.notation.state_to_json` output.

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
    :func:`~tajmahal.notation.validate_state` every time.
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
    try:  # nothing has bounded a document built in Python yet (nesting, types)
        check_document(document, RECORD_LIMITS, "")
    except InputError as error:
        raise StateFormatError(f"{error.field or '(root)'}: {error.detail}") from None
    problem = first_violation("position", document)
    if problem is not None:
        raise StateFormatError(f"{problem.field}: {problem.message}")
    return state_from_json(document, components)


def read_position(path: str | Path, components: Components) -> GameState:
    """Read a position file (``-``: standard input) written by
    :func:`~tajmahal.notation.state_to_json`.

    Reading is bounded like every input (see :mod:`tajmahal.inputs`) and the document is
    loaded by :func:`position_from_json`; every failure is a :class:`StateFormatError`
    naming the file and the field.
    """
    source = source_name(path)
    try:
        document = read_json(path, RECORD_LIMITS)
    except InputError as error:
        raise StateFormatError(str(error)) from None
    try:
        return position_from_json(document, components)
    except StateFormatError as error:
        raise StateFormatError(f"{source}: {error}") from None


# The functions are documented under tajmahal.notation, which users import them from.
__all__: list[str] = []
