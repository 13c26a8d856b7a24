"""The canonical text of a position and the digests that conformance checks compare, each
defined so that another language can copy it.

Two digests identify what an engine must agree on after a step:

``state_digest(state)``
    ``"sha256:"`` followed by the lower-case hex SHA-256 of the UTF-8 bytes of the
    position's canonical JSON (:func:`canonical_json`: the ``state_to_json`` document with
    keys sorted, separators ``,`` and ``:`` and no other white space, non-ASCII
    characters written as themselves). Hidden information (hands, deck order) is
    included.

``legal_digest(actions)``
    ``"sha256:"`` followed by the lower-case hex SHA-256 of the UTF-8 bytes of the
    canonical action strings, sorted by code point and joined with a single line feed
    (``"\\n"``), with no trailing line feed. No legal action (a chance step, the end of
    the game) digests the empty string. The number of actions is reported beside it.

The functions below are those recipes, line for line.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from tajmahal.engine import legal_actions
from tajmahal.model import Action, GameState
from tajmahal.notation._writing import state_to_json


def canonical_json(state: GameState) -> str:
    """The one canonical text of a state: the :func:`~tajmahal.notation.state_to_json`
    document with sorted keys, compact separators and non-ASCII characters as themselves."""
    return json.dumps(
        state_to_json(state), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )


def sha256_text(text: str) -> str:
    """``sha256:`` and the hex SHA-256 of ``text`` encoded as UTF-8."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def state_digest(state: GameState) -> str:
    """``sha256:`` of :func:`canonical_json`; identifies a position."""
    return sha256_text(canonical_json(state))


def action_strings(actions: Iterable[Action | str]) -> list[str]:
    """The canonical strings of ``actions`` (actions, or their strings already), sorted
    by code point: as records list them and :func:`legal_digest` digests them."""
    return sorted(str(action) for action in actions)


def legal_strings(state: GameState) -> list[str]:
    """The canonical strings of the legal actions of ``state``, sorted by code point (a
    record's ``legal``)."""
    return action_strings(legal_actions(state))


def legal_digest(actions: Iterable[Action | str]) -> str:
    """The digest of a legal-action list (see the module docstring for the exact recipe)."""
    return sha256_text("\n".join(action_strings(actions)))


# The functions are documented under tajmahal.notation, which users import them from.
__all__: list[str] = []
