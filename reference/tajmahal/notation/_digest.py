"""The digests that conformance checks compare, each defined so another language can copy it.

Two digests identify what an engine must agree on after a step:

``state_digest(state)``
    ``"sha256:"`` followed by the lower-case hex SHA-256 of the UTF-8 bytes of the
    position's canonical JSON (:func:`tajmahal.notation.canonical_json`: the
    ``state_to_json`` document with keys sorted, separators ``,`` and ``:`` and no other
    white space, non-ASCII characters written as themselves). Hidden information (hands,
    deck order) is included.

``legal_digest(actions)``
    ``"sha256:"`` followed by the lower-case hex SHA-256 of the UTF-8 bytes of the
    canonical action strings, sorted by code point and joined with a single line feed
    (``"\\n"``), with no trailing line feed. No legal action (a chance step, the end of
    the game) digests the empty string. The number of actions is reported beside it.

A reference in a few lines of Python::

    import hashlib
    def legal_digest(strings):
        text = "\\n".join(sorted(strings))
        return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from tajmahal.model import Action
from tajmahal.notation._canonical import canonical_json, state_digest

__all__ = ["action_strings", "canonical_json", "legal_digest", "sha256_text", "state_digest"]


def sha256_text(text: str) -> str:
    """``sha256:`` and the hex SHA-256 of ``text`` encoded as UTF-8."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


_TEXTS: dict[int, str] = {}
"""``id(action)``: the action's canonical string. The engine hands out the same action
objects again and again (it looks them up in tables), so each is written once. Every
action remembered here is kept alive by :data:`_ALIVE`, so an ``id`` found here is the
``id`` of that very action (no other object can have it while it lives)."""
_ALIVE: list[object] = []
"""The actions whose strings :data:`_TEXTS` holds (emptied with it)."""
_TEXTS_KEPT = 1 << 15
"""Actions remembered at most (both are emptied when full): more than every play, pick
and placement of the default component set."""


def _remember(action: Action | str) -> str:
    """The canonical string of ``action``, remembered when it is an action object."""
    if isinstance(action, str):
        return action
    text = str(action)
    if len(_TEXTS) >= _TEXTS_KEPT:
        _TEXTS.clear()
        _ALIVE.clear()
    _ALIVE.append(action)
    _TEXTS[id(action)] = text
    return text


def action_strings(actions: Iterable[Action | str]) -> list[str]:
    """The canonical strings of ``actions``, sorted by code point (as listed in records
    and digested by :func:`legal_digest`).

    Strings (what a record lists, or tables of action strings hold) are sorted as they
    are. When every action is remembered the strings are looked up in C, by identity;
    else each is looked up, or written and remembered, in turn."""
    items = actions if isinstance(actions, _SEQUENCES) else list(actions)
    if items and type(items[0]) is str:
        try:
            return sorted(items)  # sorted only if every item is a string
        except TypeError:  # an action among the strings: they do not compare
            pass
    try:
        return sorted(map(_TEXTS.__getitem__, map(id, items)))
    except KeyError:
        return sorted([_TEXTS.get(id(action)) or _remember(action) for action in items])


_SEQUENCES = (tuple, list)
"""Sequences :func:`action_strings` reads as they are (others are listed first)."""


def legal_digest(actions: Iterable[Action | str]) -> str:
    """The digest of a legal-action list (see the module docstring for the exact recipe)."""
    return sha256_text("\n".join(action_strings(actions)))
