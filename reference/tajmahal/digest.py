"""The digests that conformance checks compare, each defined so another language can copy it.

Two digests identify what an engine must agree on after a step:

``state_digest(state)``
    ``"sha256:"`` followed by the lower-case hex SHA-256 of the UTF-8 bytes of the
    position's canonical JSON (:func:`tajmahal.serialize.canonical_json`: the
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

from tajmahal.actions import Action
from tajmahal.serialize import canonical_json, state_digest

__all__ = ["action_strings", "canonical_json", "legal_digest", "sha256_text", "state_digest"]


def sha256_text(text: str) -> str:
    """``sha256:`` and the hex SHA-256 of ``text`` encoded as UTF-8."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


_TEXTS: dict[int, tuple[Action, str]] = {}
"""``id(action)``: the action and its canonical string. The engine hands out the same
action objects again and again (it looks them up in tables), so each is written once;
each entry keeps its action alive, so an ``id`` is not reused while it is remembered."""
_TEXTS_KEPT = 8192
"""Actions remembered at most (emptied when full)."""


def _remember(action: Action | str) -> str:
    """The canonical string of ``action``, remembered when it is an action object."""
    if isinstance(action, str):
        return action
    text = str(action)
    if len(_TEXTS) >= _TEXTS_KEPT:
        _TEXTS.clear()
    _TEXTS[id(action)] = (action, text)
    return text


def action_strings(actions: Iterable[Action | str]) -> list[str]:
    """The canonical strings of ``actions``, sorted by code point (as listed in records
    and digested by :func:`legal_digest`)."""
    texts = _TEXTS
    return sorted(
        [
            entry[1]
            if (entry := texts.get(id(action))) is not None and entry[0] is action
            else _remember(action)
            for action in actions
        ]
    )


def legal_digest(actions: Iterable[Action | str]) -> str:
    """The digest of a legal-action list (see the module docstring for the exact recipe)."""
    return sha256_text("\n".join(action_strings(actions)))
