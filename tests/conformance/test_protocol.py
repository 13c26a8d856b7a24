"""The engine protocol, answered in-process by :class:`tajmahal.conformance.Session`.

Expected digests are recomputed here from their published recipes (``docs/protocol.md``)
with ``hashlib`` and ``json``, never taken from the package. Every request and reply is
checked against ``specs/schemas/protocol.schema.json``. No clause markers: these tests
check the protocol, not a rule.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource

from tajmahal.conformance import Engine, Session, serve
from tajmahal.errors import IllegalActionError
from tajmahal.model import GameState

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "specs" / "schemas" / "protocol.schema.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


REGISTRY: Registry[Any] = Registry().with_resources(
    (document["$id"], Resource.from_contents(document))
    for document in (
        json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(SCHEMA_PATH.parent.glob("*.schema.json"))
    )
)
"""Every published schema by its ``$id``: the view refers to the position's shapes."""


def _validator(definition: str) -> jsonschema.Draft202012Validator:
    schema = {**SCHEMA, "oneOf": [{"$ref": f"#/$defs/{definition}"}]}
    return jsonschema.Draft202012Validator(schema, registry=REGISTRY)


REQUEST = _validator("request")
REPLY = _validator("reply")


def _sha256(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _canonical(document: Any) -> str:
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Client:
    """Sends requests to a session, checking both sides against the schema."""

    def __init__(self, session: Session | None = None) -> None:
        self.session = session if session is not None else Session()

    def __call__(self, request: dict[str, Any], *, valid: bool = True) -> dict[str, Any]:
        if valid:
            REQUEST.validate(request)
        reply = self.session.handle_line(json.dumps(request))
        REPLY.validate(reply)
        return reply

    def greet(self) -> Client:
        assert self({"op": "hello", "protocol": 1})["ok"]
        return self


def _error(reply: dict[str, Any]) -> str:
    assert reply["ok"] is False, reply
    error: str = reply["error"]
    return error


def test_hello_names_the_engine_and_the_protocol() -> None:
    reply = Client()({"op": "hello", "protocol": 1, "id": "h1"})
    assert reply["ok"] and reply["op"] == "hello" and reply["protocol"] == 1
    assert reply["engine"] == "tajmahal-reference"
    assert reply["id"] == "h1"
    assert set(reply["ops"]) == {
        "hello",
        "new",
        "legal",
        "apply",
        "state",
        "scores",
        "view",
        "quit",
    }


def test_every_game_request_needs_the_handshake_first() -> None:
    client = Client()
    assert _error(client({"op": "new", "players": 3, "seed": 1})) == "handshake-required"
    assert _error(client({"op": "hello", "protocol": 2}, valid=False)) == "unsupported-protocol"
    assert _error(client({"op": "legal"})) == "handshake-required"
    client.greet()
    assert _error(client({"op": "legal"})) == "no-game"


def test_malformed_lines_are_answered_with_errors_and_the_session_goes_on() -> None:
    session = Session()
    assert session.handle_line(b"{not json")["error"] == "bad-json"
    assert session.handle_line(b"\xff\xfe")["error"] == "bad-json"
    assert session.handle_line("[1, 2]")["error"] == "bad-request"
    assert session.handle_line("[" * 100_000)["error"] == "bad-json"
    assert session.handle_line("9" * 5000)["error"] == "bad-json"
    unknown = session.handle_line('{"op": "undo", "id": 4}')
    assert unknown["error"] == "unknown-op" and unknown["op"] == "undo" and unknown["id"] == 4
    for reply in (unknown, session.handle_line('{"op": 7}'), session.handle_line("{}")):
        REPLY.validate(reply)
        assert reply["error"] in ("unknown-op", "bad-request")
    assert session.handle_line('{"id": 1}')["error"] == "bad-request"
    client = Client(session).greet()
    assert _error(client({"op": "apply"}, valid=False)) == "no-game"
    client({"op": "new", "players": 3, "seed": 1})
    assert _error(client({"op": "apply", "action": 5}, valid=False)) == "bad-request"
    assert _error(client({"op": "view", "seat": 3})) == "bad-request"
    assert _error(client({"op": "state", "full": "yes"}, valid=False)) == "bad-request"


def test_new_from_a_seed_returns_the_setup_and_the_setup_starts_the_same_game() -> None:
    client = Client().greet()
    first = client({"op": "new", "players": 4, "seed": 9})
    assert first["ok"] and first["step"] == "play" and first["visit"] == 1
    assert first["scores"] == [0, 0, 0, 0] and first["over"] is False
    assert first["to_move"] == first["setup"]["start_player"]
    again = client({"op": "new", "players": 4, "setup": first["setup"]})
    assert again["state_digest"] == first["state_digest"]
    full = client({"op": "state", "full": True})
    assert full["state_digest"] == _sha256(_canonical(full["state"]))
    assert client({"op": "new", "state": full["state"]})["state_digest"] == first["state_digest"]


def test_new_refuses_bad_setups_rule_sets_and_components() -> None:
    client = Client().greet()
    setup = client({"op": "new", "players": 3, "seed": 2})["setup"]
    short = {**setup, "hands": setup["hands"][:2]}
    assert _error(client({"op": "new", "players": 3, "setup": short})) == "bad-setup"
    assert _error(client({"op": "new", "players": 6, "seed": 1}, valid=False)) == "bad-setup"
    bad_rules = {"op": "new", "players": 3, "seed": 1, "ruleset": {"majority_scope": "most"}}
    assert _error(client(bad_rules, valid=False)) == "bad-ruleset"
    other = "sha256:" + "0" * 64
    assert _error(client({"op": "new", "players": 3, "seed": 1, "components": other})) == (
        "components-mismatch"
    )
    both = {"op": "new", "players": 3, "seed": 1, "setup": setup}
    assert _error(client(both, valid=False)) == "bad-request"
    assert _error(client({"op": "new", "state": {"format": "x"}})) == "bad-setup"
    full = client({"op": "state", "full": True})["state"]
    reply = client({"op": "new", "state": {**full, "sky": "blue"}})
    assert _error(reply) == "bad-setup"
    assert reply["message"] == "'state': sky: unknown field (not in the schema)"


def test_legal_lists_sorted_actions_with_their_count_and_digest() -> None:
    client = Client().greet()
    client({"op": "new", "players": 3, "seed": 4})
    legal = client({"op": "legal"})
    actions = legal["actions"]
    assert actions == sorted(set(actions)) and "withdraw" in actions
    assert legal["count"] == len(actions)
    assert legal["digest"] == _sha256("\n".join(actions))


def test_apply_answers_the_new_status_or_an_error_with_a_clause_field() -> None:
    client = Client().greet()
    client({"op": "new", "players": 3, "seed": 4})
    after = client({"op": "apply", "action": "withdraw"})
    assert after["ok"] and after["step"] == "take"
    full = client({"op": "state", "full": True})
    assert full["state_digest"] == after["state_digest"] == _sha256(_canonical(full["state"]))
    illegal = client({"op": "apply", "action": "crown Z9"})
    assert _error(illegal) == "illegal-action" and "clause" in illegal
    assert "take" in illegal["message"]
    assert _error(client({"op": "apply", "action": "dance"}, valid=False)) == "bad-action"
    assert client({"op": "state"})["state_digest"] == after["state_digest"]


def test_a_view_hides_other_hands_and_the_deck_order() -> None:
    client = Client().greet()
    client({"op": "new", "players": 3, "seed": 4})
    full = client({"op": "state", "full": True})["state"]
    reply = client({"op": "view", "seat": 1})
    view = reply["view"]
    assert reply["view_digest"] == _sha256(_canonical(view))
    assert view["viewer"] == 1 and view["deck"] is None
    assert view["deck_size"] == len(full["deck"]) == 96 - 3 * 6 - 5
    assert view["seats"][1]["hand"] == full["seats"][1]["hand"]
    assert [seat["hand"] for seat in view["seats"]][::2] == [None, None]
    assert [seat["hand_size"] for seat in view["seats"]] == [6, 6, 6]
    assert [seat["specials"] for seat in view["seats"]] == [[], [], []]
    assert [seat["known"] for seat in view["seats"]] == [[], [], []]


def test_a_view_shows_the_display_picks_and_the_special_cards_held() -> None:
    """RUL.PLAY.PUBLIC_INFORMATION, as docs/protocol.md ("Views") says: every seat's
    special cards and the display cards it took and still holds are public; a pick is
    known until it is played."""
    client = Client().greet()
    client({"op": "new", "players": 3, "seed": 4})
    assert client({"op": "apply", "action": "withdraw"})["step"] == "take"
    display = client({"op": "state", "full": True})["state"]["display"]
    pick = display[:2]
    client({"op": "apply", "action": "take " + " ".join(pick)})
    for seat in (0, 1, 2):
        view = client({"op": "view", "seat": seat})["view"]
        assert view["seats"][1]["known"] == pick
        assert view["seats"][0]["known"] == view["seats"][2]["known"] == []
        assert (view["seats"][1]["hand"] is None) == (seat != 1)
    # Seat 1 plays one of its picks in visit 2: on the table, it is no longer a known card.
    state = client({"op": "state", "full": True})["state"]
    while state["to_move"] != 1 or state["step"] != "play":
        client({"op": "apply", "action": client({"op": "legal"})["actions"][-1]})
        state = client({"op": "state", "full": True})["state"]
    assert state["visit"] == 2 and pick[0] in state["seats"][1]["hand"]
    client({"op": "apply", "action": f"play {pick[0]}"})
    assert client({"op": "view", "seat": 0})["view"]["seats"][1]["known"] == pick[1:]


def test_a_whole_game_through_the_protocol_ends_with_winners() -> None:
    client = Client().greet()
    client({"op": "new", "players": 3, "seed": 12})
    steps = 0
    while True:
        legal = client({"op": "legal"})
        if legal["step"] == "over":
            break
        if legal["step"] == "shuffle":
            action = "reshuffle " + " ".join(legal["chance_cards"])
        else:
            action = legal["actions"][-1]  # withdrawing whenever possible: a short game
        assert client({"op": "apply", "action": action})["ok"]
        steps += 1
    scores = client({"op": "scores"})
    assert scores["over"] is True and steps > 12
    best = max(scores["scores"])
    assert scores["winners"] == [s for s, v in enumerate(scores["scores"]) if v == best]
    assert _error(client({"op": "apply", "action": "withdraw"})) == "illegal-action"


def test_an_engine_failure_is_an_internal_error_and_the_game_is_unchanged() -> None:
    def broken(state: GameState, action: object) -> GameState:
        raise RuntimeError("engine bug")

    client = Client(Session(engine=Engine(apply=broken))).greet()
    before = client({"op": "new", "players": 3, "seed": 1})
    reply = client({"op": "apply", "action": "withdraw"})
    assert _error(reply) == "internal-error" and "engine bug" in reply["message"]
    assert client({"op": "state"})["state_digest"] == before["state_digest"]


def test_the_clause_of_an_illegal_action_is_passed_on() -> None:
    def refuse(state: GameState, action: object) -> GameState:
        raise IllegalActionError("no", clause="TM.WITHDRAW.ONCE_PER_VISIT")

    client = Client(Session(engine=Engine(apply=refuse))).greet()
    client({"op": "new", "players": 3, "seed": 1})
    assert client({"op": "apply", "action": "withdraw"})["clause"] == "TM.WITHDRAW.ONCE_PER_VISIT"


def test_serve_answers_each_line_once_skips_blank_ones_and_stops_at_quit() -> None:
    lines = [
        b'{"op":"hello","protocol":1}\n',
        b"\n",
        b"x" * (2 << 20) + b"\n",
        b'{"op":"new","players":3,"seed":1}\n',
        b'{"op":"quit","id":1}\n',
        b'{"op":"legal"}\n',
    ]
    output = io.BytesIO()
    assert serve(io.BytesIO(b"".join(lines)), output) == 0
    replies = [json.loads(line) for line in output.getvalue().splitlines()]
    assert [reply.get("op") for reply in replies] == ["hello", None, "new", "quit"]
    assert replies[1]["error"] == "bad-json" and replies[3] == {"ok": True, "op": "quit", "id": 1}


@pytest.mark.parametrize(
    "bad", [{"op": "hello"}, {"op": "apply", "action": "dance red-01"}, {"x": 1}]
)
def test_the_schema_rejects_malformed_requests(bad: dict[str, Any]) -> None:
    assert not REQUEST.is_valid(bad)
