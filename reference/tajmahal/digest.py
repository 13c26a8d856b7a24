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

__all__ = ["canonical_json", "legal_digest", "sha256_text", "state_digest"]


def sha256_text(text: str) -> str:
    """``sha256:`` and the hex SHA-256 of ``text`` encoded as UTF-8."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def legal_digest(actions: Iterable[Action | str]) -> str:
    """The digest of a legal-action list (see the module docstring for the exact recipe)."""
    return sha256_text("\n".join(sorted(str(action) for action in actions)))
