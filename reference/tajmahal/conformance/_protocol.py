"""The engine protocol, version 1: JSON lines over standard input and output.

A client writes one JSON object per line (a *request*, with an ``op`` naming the
operation); the engine answers every request with exactly one JSON object on one line (a
*reply*, with ``ok`` true or false), in order. ``docs/protocol.md`` defines every
operation, field and error code so that an engine in any language can speak it;
``specs/schemas/protocol.schema.json`` states the shapes of requests and replies.

This module is the engine side: :class:`Session` answers requests with the reference
engine, :func:`serve` runs a session over two streams (``tajmahal serve``). The client
side is :mod:`tajmahal.conformance`; :mod:`tajmahal.conformance` uses both to compare
another engine with this one step by step.

Errors are data, never a crash: a malformed line, an unknown operation, a bad setup or an
illegal action each get a reply ``{"ok": false, "error": CODE, "message": ...}`` with a
stable code from :class:`ErrorCode`, and the session goes on.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Iterable
from typing import IO, Any

import attrs

from tajmahal import engine as reference
from tajmahal._version import __version__
from tajmahal.accel import legal_digest, state_digest
from tajmahal.engine import new_game, random_setup
from tajmahal.errors import ActionSyntaxError, IllegalActionError, TajMahalError
from tajmahal.inputs import (
    InputError,
    Limits,
    check_document,
    field_path,
    first_violation,
    parse_json,
)
from tajmahal.model import (
    Action,
    Components,
    GameState,
    Picks,
    RuleSet,
    default_components,
    no_picks,
    parse_action,
    track_picks,
    view,
)
from tajmahal.notation import position_from_json, sha256_text, state_to_json
from tajmahal.records import setup_from_json, setup_to_json

PROTOCOL_VERSION = 1
"""The protocol version this module speaks (the ``protocol`` of ``hello``)."""

ENGINE_NAME = "tajmahal-reference"
"""The ``engine`` this server names in its ``hello`` reply."""

MAX_LINE_BYTES = 1 << 20
"""The longest request line the server reads (1 MiB); longer lines get ``bad-json``."""

REQUEST_LIMITS = Limits(MAX_LINE_BYTES)
"""Requests are read as strictly as files (:mod:`tajmahal.inputs`): no ``NaN`` or
``Infinity``, no key twice in one object, no lone surrogate or control character in a
string, integers of at most 40 digits, nesting at most 32 levels. A line that breaks
one of these gets ``bad-json`` naming the field, and the session goes on."""

VIEW_FORMAT = "tajmahal-view"
"""The ``format`` tag of a view document."""


class Op(enum.Enum):
    """The operations of protocol version 1, valued by their JSON spelling."""

    HELLO = "hello"
    """Handshake: the client's protocol version in, the engine's name and version out."""
    NEW = "new"
    """Start a game from a setup outcome, a seed, or a full position."""
    LEGAL = "legal"
    """The legal actions of the current position: list, count and digest."""
    APPLY = "apply"
    """Apply one canonical action string (a decision or a ``reshuffle``)."""
    STATE = "state"
    """The state digest and status of the current position, the full state on request."""
    SCORES = "scores"
    """Every seat's score, and the winners once the game is over."""
    VIEW = "view"
    """What one seat may see of the current position."""
    QUIT = "quit"
    """End the session; the engine replies, then exits."""


class ErrorCode(enum.Enum):
    """The stable codes of error replies, valued by their JSON spelling."""

    BAD_JSON = "bad-json"
    """The line is not valid JSON (or not UTF-8, or longer than the engine reads)."""
    BAD_REQUEST = "bad-request"
    """The line is JSON but not a request: not an object, or a field missing or mistyped."""
    UNKNOWN_OP = "unknown-op"
    """``op`` names no operation of this protocol version."""
    HANDSHAKE_REQUIRED = "handshake-required"
    """An operation other than ``hello`` or ``quit`` came before a successful ``hello``."""
    UNSUPPORTED_PROTOCOL = "unsupported-protocol"
    """``hello`` asked for a protocol version the engine does not speak."""
    NO_GAME = "no-game"
    """An operation on the current game came before any successful ``new``."""
    BAD_RULESET = "bad-ruleset"
    """``ruleset`` names an unknown option or value."""
    BAD_SETUP = "bad-setup"
    """``setup`` (or ``state``) is malformed or breaks the setup rules."""
    COMPONENTS_MISMATCH = "components-mismatch"
    """``components`` names a component set digest the engine does not play with."""
    UNSUPPORTED = "unsupported"
    """A valid request the engine chooses not to support (e.g. ``seed`` or ``state``)."""
    BAD_ACTION = "bad-action"
    """``action`` is not a well-formed canonical action string."""
    ILLEGAL_ACTION = "illegal-action"
    """``action`` is well formed but not legal in the current position."""
    INTERNAL_ERROR = "internal-error"
    """The engine failed unexpectedly; the session goes on with the game unchanged."""


class ProtocolError(TajMahalError):
    """A request the session answers with an error reply (the code and the clause)."""

    def __init__(self, code: ErrorCode, message: str, clause: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        """The stable error code."""
        self.clause = clause
        """For ``illegal-action``: the clause id that forbids the action, if known."""


@attrs.frozen(slots=True)
class Engine:
    """The engine functions a session answers with.

    The reference engine's by default. Tests wrap them to build deliberately wrong
    engines that still speak the protocol; the package itself never changes a rule here.
    """

    legal_actions: Callable[[GameState], tuple[Action, ...]] = reference.legal_actions
    """Every legal action of a position, sorted by canonical string."""
    apply: Callable[[GameState, Action], GameState] = reference.apply
    """The position after an action; raises :class:`IllegalActionError` when illegal."""
    name: str = ENGINE_NAME
    """The engine name given in the ``hello`` reply."""


def view_document(state: GameState, seat: int, picks: Picks | None = None) -> dict[str, Any]:
    """What ``seat`` may know (RUL.PLAY.PUBLIC_INFORMATION): the state document with every
    hidden part masked.

    Built from :func:`tajmahal.notation.state_to_json`: ``format`` becomes
    ``tajmahal-view``, ``viewer`` is added, every seat gains ``hand_size``, ``specials``
    (the special cards in its hand) and ``known`` (the display cards it took and still
    holds, from ``picks``: see :func:`tajmahal.model.track_picks`), every other seat's
    ``hand`` becomes null, and ``deck`` becomes null beside ``deck_size``. The same facts
    as :func:`tajmahal.model.view`.

    Implements: RUL.PLAY.PUBLIC_INFORMATION, TM.PLAY.PUBLIC_INFORMATION, TM.PLAY.HANDS_SECRET
    """
    if not 0 <= seat < state.players_count:
        raise ProtocolError(
            ErrorCode.BAD_REQUEST,
            f"'seat': no seat {seat} in a {state.players_count}-player game",
        )
    seen = view(state, seat, picks)
    document = state_to_json(state)
    document["format"] = VIEW_FORMAT
    document["viewer"] = seat
    for index, entry in enumerate(document["seats"]):
        public = seen.players[index]
        entry["hand_size"] = public.hand_size
        entry["specials"] = list(public.specials)
        entry["known"] = list(public.known)
        if index != seat:
            entry["hand"] = None
    document["deck_size"] = len(document["deck"])
    document["deck"] = None
    return document


def document_digest(document: Any) -> str:
    """``sha256:`` of a JSON document's canonical text (sorted keys, ``,``/``:`` separators,
    no other white space, non-ASCII characters as themselves), as for states."""
    return sha256_text(
        json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    )


def status(state: GameState) -> dict[str, Any]:
    """The status fields every game reply carries (``new``, ``apply``, ``state``)."""
    return {
        "state_digest": state_digest(state),
        "step": state.step.value,
        "to_move": state.to_move,
        "visit": state.visit,
        "scores": list(state.scores),
        "over": state.is_over,
    }


_JSON_TYPES = {int: "an integer", str: "a string", dict: "an object", bool: "a boolean"}


def _field(request: dict[str, Any], name: str, kind: type) -> Any:
    value = request.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        shown = "nothing" if name not in request else json.dumps(value)[:40]
        raise ProtocolError(
            ErrorCode.BAD_REQUEST, f"'{name}': expected {_JSON_TYPES[kind]}, found {shown}"
        )
    return value


class Session:
    """One conversation with a client: the handshake, then games, one at a time."""

    def __init__(self, components: Components | None = None, engine: Engine | None = None) -> None:
        self.components = components if components is not None else default_components()
        """The component set every game is played with."""
        self.engine = engine if engine is not None else Engine()
        """The engine functions answering the requests."""
        self.greeted = False
        """True after a successful ``hello``."""
        self.state: GameState | None = None
        """The current position, once a game was started."""
        self.picks: Picks | None = None
        """The display cards each seat took since the game's ``new`` and still holds (the
        ``known`` cards of a view)."""
        self.finished = False
        """True after ``quit``: the server stops reading."""

    def handle_line(self, line: bytes | str) -> dict[str, Any]:
        """The reply to one request line (never raises for bad input). The line is read
        under :data:`REQUEST_LIMITS`; one that breaks them gets ``bad-json`` (without the
        request's ``id``, which cannot be trusted)."""
        try:
            text = line.decode("utf-8") if isinstance(line, bytes) else line
        except UnicodeDecodeError as error:
            return _error(
                None, ErrorCode.BAD_JSON, f"not UTF-8: byte offset {error.start} ({error.reason})"
            )
        try:
            request = parse_json(text, REQUEST_LIMITS, "request")
        except InputError as error:
            return _error(None, ErrorCode.BAD_JSON, str(error))
        return self.handle(request)  # a subclass's handle() sees every request

    def handle(self, request: Any) -> dict[str, Any]:
        """The reply to one request already parsed (never raises for bad input): a
        request built in Python is first held to :data:`REQUEST_LIMITS` (``bad-request``
        naming the field otherwise), as a line read by :meth:`handle_line` is."""
        try:
            check_document(request, REQUEST_LIMITS, "request")
        except InputError as error:
            return _error(None, ErrorCode.BAD_REQUEST, str(error))
        return self._handle(request)

    def _handle(self, request: Any) -> dict[str, Any]:
        if not isinstance(request, dict):
            return _error(None, ErrorCode.BAD_REQUEST, "a request is a JSON object")
        op_name = request.get("op")
        try:
            if not isinstance(op_name, str):
                raise ProtocolError(ErrorCode.BAD_REQUEST, "'op': expected a string naming the op")
            try:
                op = Op(op_name)
            except ValueError:
                raise ProtocolError(
                    ErrorCode.UNKNOWN_OP,
                    f"unknown op {op_name!r} (known: {', '.join(o.value for o in Op)})",
                ) from None
            reply = {"ok": True, "op": op.value, **self._dispatch(op, request)}
        except ProtocolError as error:
            reply = _error(op_name, error.code, str(error), error.clause)
        except Exception as error:  # an engine bug must not end the session
            reply = _error(op_name, ErrorCode.INTERNAL_ERROR, f"{type(error).__name__}: {error}")
        if "id" in request:
            reply["id"] = request["id"]
        return reply

    def _dispatch(self, op: Op, request: dict[str, Any]) -> dict[str, Any]:
        if op is Op.HELLO:
            return self._hello(request)
        if op is Op.QUIT:
            self.finished = True
            return {}
        if not self.greeted:
            raise ProtocolError(
                ErrorCode.HANDSHAKE_REQUIRED,
                'send {"op":"hello","protocol":1} first',
            )
        if op is Op.NEW:
            return self._new(request)
        state = self.state
        if state is None:
            raise ProtocolError(ErrorCode.NO_GAME, "no game yet: send a 'new' request first")
        if op is Op.LEGAL:
            return self._legal(state)
        if op is Op.APPLY:
            return self._apply(state, _field(request, "action", str))
        if op is Op.STATE:
            full = request.get("full", False)
            if not isinstance(full, bool):
                raise ProtocolError(ErrorCode.BAD_REQUEST, f"'full': expected a boolean: {full!r}")
            reply = status(state)
            if full:
                reply["state"] = state_to_json(state)
            return reply
        if op is Op.SCORES:
            return {
                "scores": list(state.scores),
                "over": state.is_over,
                "winners": list(state.winners()) if state.is_over else None,
            }
        document = view_document(state, _field(request, "seat", int), self.picks)
        return {
            "seat": document["viewer"],
            "view_digest": document_digest(document),
            "view": document,
        }

    def _hello(self, request: dict[str, Any]) -> dict[str, Any]:
        version = _field(request, "protocol", int)
        if version != PROTOCOL_VERSION:
            raise ProtocolError(
                ErrorCode.UNSUPPORTED_PROTOCOL,
                f"this engine speaks protocol {PROTOCOL_VERSION}, not {version}",
            )
        self.greeted = True
        return {
            "protocol": PROTOCOL_VERSION,
            "engine": self.engine.name,
            "version": __version__,
            "components": self.components.digest,
            "ops": [op.value for op in Op],
        }

    def _new(self, request: dict[str, Any]) -> dict[str, Any]:
        digest = request.get("components")
        if digest is not None and digest != self.components.digest:
            raise ProtocolError(
                ErrorCode.COMPONENTS_MISMATCH,
                f"this engine plays with component set {self.components.digest}, not {digest!r}",
            )
        sources = [key for key in ("setup", "seed", "state") if key in request]
        if len(sources) != 1:
            raise ProtocolError(
                ErrorCode.BAD_REQUEST,
                "give exactly one of 'setup', 'seed' or 'state' "
                f"(found {', '.join(sources) or 'none'})",
            )
        if sources == ["state"]:
            try:
                state = position_from_json(_field(request, "state", dict), self.components)
            except TajMahalError as error:
                raise ProtocolError(ErrorCode.BAD_SETUP, f"'state': {error}") from None
            self.state = state
            self.picks = no_picks(state)
            return status(state)
        players = _field(request, "players", int)
        if players not in (3, 4, 5):
            raise ProtocolError(ErrorCode.BAD_SETUP, f"'players': 3, 4 or 5, not {players}")
        try:
            rules = RuleSet.from_json(request.get("ruleset", {}), field="ruleset")
        except TajMahalError as error:
            raise ProtocolError(ErrorCode.BAD_RULESET, str(error)) from None
        try:
            if sources == ["seed"]:
                setup = random_setup(self.components, players, _field(request, "seed", int))
            else:
                problem = first_violation("protocol", request["setup"], definition="setup")
                if problem is not None:
                    raise ProtocolError(
                        ErrorCode.BAD_SETUP,
                        f"'{field_path(('setup', *problem.path))}': {problem.message}",
                    )
                setup = setup_from_json(request["setup"])
            state = new_game(self.components, players, setup, rules)
        except TajMahalError as error:
            raise ProtocolError(ErrorCode.BAD_SETUP, str(error)) from None
        self.state = state
        self.picks = no_picks(state)
        return {"setup": setup_to_json(setup), **status(state)}

    def _legal(self, state: GameState) -> dict[str, Any]:
        actions = sorted(str(action) for action in self.engine.legal_actions(state))
        reply: dict[str, Any] = {
            "step": state.step.value,
            "to_move": state.to_move,
            "count": len(actions),
            "digest": legal_digest(actions),
            "actions": actions,
        }
        if state.is_chance:
            reply["chance_cards"] = sorted(reference.chance_cards(state))
        return reply

    def _apply(self, state: GameState, text: str) -> dict[str, Any]:
        try:
            action = parse_action(text)
        except ActionSyntaxError as error:
            raise ProtocolError(ErrorCode.BAD_ACTION, str(error)) from None
        try:
            after = self.engine.apply(state, action)
        except IllegalActionError as error:
            raise ProtocolError(ErrorCode.ILLEGAL_ACTION, str(error), error.clause) from None
        self.picks = track_picks(state, after, self.picks)
        self.state = after
        return status(after)


def _error(op: Any, code: ErrorCode, message: str, clause: str | None = None) -> dict[str, Any]:
    reply: dict[str, Any] = {
        "ok": False,
        "op": op if isinstance(op, str) else None,
        "error": code.value,
        "message": message,
    }
    if code is ErrorCode.ILLEGAL_ACTION:
        reply["clause"] = clause
    return reply


def encode(reply: dict[str, Any]) -> bytes:
    """One reply as a line: compact JSON, UTF-8, a line feed at the end.

    Never fails: a reply holding what no JSON text can (a lone surrogate, ``NaN``: never
    in a reply to a request that was read under :data:`REQUEST_LIMITS`) becomes an
    ``internal-error`` reply saying so, so that the session goes on."""
    try:
        text = json.dumps(reply, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        return (text + "\n").encode("utf-8")
    except (TypeError, ValueError, RecursionError):  # UnicodeEncodeError is a ValueError
        fallback = _error(
            None, ErrorCode.INTERNAL_ERROR, "the reply could not be written as JSON text"
        )
        return (json.dumps(fallback, separators=(",", ":")) + "\n").encode("utf-8")


def serve(
    lines: Iterable[bytes] | IO[bytes],
    output: IO[bytes],
    session: Session | None = None,
) -> int:
    """Answer request lines until ``quit`` or the end of input; returns the exit code (0).

    ``lines`` is read with a bound (:data:`MAX_LINE_BYTES`) when it is a binary stream;
    blank lines are ignored; every reply is flushed at once.
    """
    current = session if session is not None else Session()
    source = _bounded_lines(lines) if hasattr(lines, "readline") else iter(lines)
    for line in source:
        if not line.strip():
            continue
        if len(line) > MAX_LINE_BYTES:
            reply = _error(None, ErrorCode.BAD_JSON, f"line longer than {MAX_LINE_BYTES} bytes")
        else:
            try:
                reply = current.handle_line(line)
            except Exception as error:  # never ends the session (handle_line should not raise)
                reply = _error(None, ErrorCode.INTERNAL_ERROR, f"{type(error).__name__}: {error}")
        output.write(encode(reply))
        output.flush()
        if current.finished:
            break
    return 0


def _bounded_lines(stream: Any) -> Iterable[bytes]:
    """Lines of a binary stream, each read with a length bound; an over-long line is
    consumed to its end and yielded as one too-long marker."""
    while True:
        line: bytes = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while True:
                rest: bytes = stream.readline(MAX_LINE_BYTES)
                if not rest or rest.endswith(b"\n"):
                    break
        yield line


__all__ = [
    "ENGINE_NAME",
    "MAX_LINE_BYTES",
    "PROTOCOL_VERSION",
    "REQUEST_LIMITS",
    "VIEW_FORMAT",
    "Engine",
    "ErrorCode",
    "Op",
    "ProtocolError",
    "Session",
    "document_digest",
    "encode",
    "serve",
    "status",
    "view_document",
]
