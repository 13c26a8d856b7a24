"""The protocol server (``tajmahal serve``), given generated request lines.

Every line gets exactly one reply, a line of strict JSON (readable under the limits of
files); no line ends the session, and the session answers correctly afterwards. A
malformed ``setup`` is ``bad-setup`` naming the field, never ``internal-error``; requests
are read as strictly as files (``NaN``, ``Infinity``, a key twice, a lone surrogate or a
control character in a string are ``bad-json``). The lines are generated: JSON values
of every shape with hostile strings and numbers spliced in, valid requests with one field
replaced, and setups with one part mutated.
"""

from __future__ import annotations

import copy
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostile.support import HOSTILE
from tajmahal.conformance import Session, serve
from tajmahal.conformance._protocol import REQUEST_LIMITS
from tajmahal.engine import random_setup
from tajmahal.inputs import parse_json
from tajmahal.model import RULE_OPTIONS, default_components
from tajmahal.records import setup_to_json

ROOT = Path(__file__).resolve().parents[2]
COMPONENTS = default_components()
SETUP = setup_to_json(random_setup(COMPONENTS, 4, 11))
HELLO = b'{"op":"hello","protocol":1}'
OPS = ["hello", "new", "legal", "apply", "state", "scores", "view", "quit"]


def _session(lines: list[bytes]) -> list[dict[str, Any]]:
    """Serve ``lines`` (a hello first, and a check that the session still answers at
    the end); every reply is strict JSON, one per non-blank line, never internal-error."""
    session = Session(COMPONENTS)
    probe = [
        HELLO,
        b'{"op":"new","players":3,"seed":4,"id":"probe"}',
        b'{"op":"legal","id":"probe"}',
    ]
    out = io.BytesIO()
    feed = [HELLO, *lines, *probe]
    assert serve(feed, out, session) == 0
    text = out.getvalue().decode("utf-8")
    assert text.endswith("\n")
    replies = [parse_json(line, REQUEST_LIMITS, "reply") for line in text[:-1].split("\n")]
    asked = [line for line in feed if line.strip()]
    if session.finished:  # a quit among the lines: nothing is read after it
        assert len(replies) <= len(asked)
        return replies
    assert len(replies) == len(asked)
    for reply in replies:
        assert isinstance(reply["ok"], bool)
        assert reply.get("error") != "internal-error", reply
    assert replies[-2]["ok"] and replies[-2]["id"] == "probe"
    assert replies[-1]["ok"] and replies[-1]["count"] > 0
    return replies


# -- hostile values --------------------------------------------------------------------

HOSTILE_TEXT = [
    '"\\ud800"',
    '"\\udfff\\ud800"',
    '"a\\u0000b"',
    '"\\u001b[2J"',
    '"\\u2028"',
    "NaN",
    "Infinity",
    "-Infinity",
    "1e400",
    "1" * 50,
    "-0",
    "0.5",
    "[" * 40 + "]" * 40,
    "{}",
    "[]",
    "null",
    "true",
    '""',
    '"x"',
]
"""JSON text (or what looks like it) that a strict reader refuses or a careless one
mishandles."""

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**45), 10**45)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=8,
)
"""Ordinary JSON values (dumped with json.dumps)."""

value_text = st.one_of(
    json_values.map(lambda value: json.dumps(value)),
    st.sampled_from(HOSTILE_TEXT),
)


@st.composite
def request_lines(draw: st.DrawFn) -> bytes:
    """A request line: an object with an op (known or not) and fields given hostile
    values, sometimes a key twice, sometimes raw bytes that are not UTF-8 or not JSON."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.binary(max_size=40)).replace(b"\n", b" ")
    if kind == 1:
        return draw(value_text).encode("utf-8")
    op = draw(st.one_of(st.sampled_from(OPS).map(json.dumps), value_text))
    fields = [f'"op":{op}']
    names = [
        "id",
        "protocol",
        "players",
        "seed",
        "setup",
        "state",
        "ruleset",
        "action",
        "seat",
        "full",
        "components",
        "\\ud800",
        "op",
    ]
    for _ in range(draw(st.integers(0, 4))):
        name = draw(st.sampled_from(names))
        fields.append(f'"{name}":{draw(value_text)}')
    return ("{" + ",".join(fields) + "}").encode("utf-8")


@HOSTILE
@given(lines=st.lists(request_lines(), min_size=1, max_size=6))
def test_generated_lines_each_get_one_strict_reply_and_the_session_goes_on(
    lines: list[bytes],
) -> None:
    _session(lines)


# -- setups ----------------------------------------------------------------------------


def _paths(document: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(document, dict):
        for key, value in document.items():
            found.extend(_paths(value, (*path, key)))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found.extend(_paths(value, (*path, index)))
    return found


SETUP_PATHS = _paths(SETUP)
CARDS = sorted(COMPONENTS.cards) + sorted(COMPONENTS.specials)


@st.composite
def mutated_setups(draw: st.DrawFn) -> Any:
    """A valid setup with one to three mutations: a value replaced (by any JSON value,
    a card or tile id, a number), a key deleted or added, a card moved or duplicated."""
    setup = copy.deepcopy(SETUP)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(setup)
        path = draw(st.sampled_from(paths))
        parent: Any = setup
        for key in path[:-1]:
            parent = parent[key]
        replacement = draw(
            st.one_of(
                json_values,
                st.sampled_from(CARDS),
                st.sampled_from(sorted(COMPONENTS.province_tiles) + sorted(COMPONENTS.bonus_tiles)),
                st.integers(-3, 8),
            )
        )
        action = draw(st.integers(0, 3))
        if not path:
            setup = replacement
            continue
        key = path[-1]
        if action == 0 or not isinstance(parent, dict | list):
            parent[key] = replacement
        elif action == 1:
            del parent[key]
        elif action == 2 and isinstance(parent, list):
            parent.append(parent[key] if draw(st.booleans()) else replacement)
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=4))] = replacement
        else:
            parent.insert(0, replacement)
    return setup


@HOSTILE
@given(setup=mutated_setups(), players=st.sampled_from([3, 4, 4, 5]))
def test_a_mutated_setup_is_played_or_refused_as_bad_setup(setup: Any, players: int) -> None:
    line = json.dumps({"op": "new", "players": players, "setup": setup}).encode()
    reply = _session([line])[1]
    if not reply["ok"]:
        if reply["error"] == "bad-json":  # a string no file may hold (a control character)
            assert reply["message"].startswith("request: setup"), reply
        else:
            assert reply["error"] == "bad-setup", reply
            assert "setup" in reply["message"], reply


@pytest.mark.parametrize(
    "setup", [None, True, 0, "", [], {}, {"a": 1}, [SETUP], {**SETUP, "extra": 1}]
)
def test_the_reported_malformed_setups_are_bad_setup_naming_the_field(setup: Any) -> None:
    reply = _session([json.dumps({"op": "new", "players": 4, "setup": setup}).encode()])[1]
    assert reply["error"] == "bad-setup"
    assert reply["message"].startswith("'setup")


@pytest.mark.parametrize(
    "line",
    [
        b'{"op":"\\ud800"}',
        b'{"op":"legal","id":"\\ud800"}',
        b'{"op":"new","players":3,"seed":1,"ruleset":{"\\ud800":"x"}}',
        b'{"op":"hello","protocol":1,"id":NaN}',
        b'{"op":"hello","protocol":1,"id":Infinity}',
        b'{"op":"hello","protocol":1,"id":1,"id":2}',
        b'{"op":"hello","protocol":1,"id":"\\u001b[2J"}',
        b'{"op":"legal","id":' + b"1" * 60 + b"}",
    ],
)
def test_requests_are_read_as_strictly_as_files(line: bytes) -> None:
    reply = _session([line])[1]
    assert reply["error"] == "bad-json"
    assert "id" not in reply


def test_a_request_built_in_python_is_held_to_the_same_limits() -> None:
    session = Session(COMPONENTS)
    assert session.handle({"op": "hello", "protocol": 1, "id": float("nan")})["error"] == (
        "bad-request"
    )
    assert session.handle({"op": "hello", "protocol": 1, "id": "\ud800"})["error"] == (
        "bad-request"
    )
    assert session.handle({"op": "hello", "protocol": 1, "id": 7})["id"] == 7


def test_the_serve_command_survives_every_reported_line() -> None:
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "reference")}
    lines = [
        HELLO,
        b'{"op":"\\ud800"}',
        b'{"op":"hello","protocol":1,"id":NaN}',
        b'{"op":"new","players":3,"setup":null}',
        b'{"op":"new","players":3,"seed":2}',
        b'{"op":"legal"}',
        b'{"op":"quit"}',
    ]
    process = subprocess.run(
        [sys.executable, "-m", "tajmahal.cli", "serve"],
        input=b"\n".join(lines) + b"\n",
        capture_output=True,
        env=environment,
        timeout=120,
        check=False,
    )
    assert process.returncode == 0, process.stderr
    replies = [json.loads(line) for line in process.stdout.decode().splitlines()]
    assert [reply.get("error") for reply in replies] == [
        None,
        "bad-json",
        "bad-json",
        "bad-setup",
        None,
        None,
        None,
    ]


def test_every_rule_option_is_accepted_in_a_new_game() -> None:
    for name, values in RULE_OPTIONS.items():
        for value in values:
            line = json.dumps({"op": "new", "players": 3, "seed": 1, "ruleset": {name: value}})
            assert _session([line.encode()])[1]["ok"]
