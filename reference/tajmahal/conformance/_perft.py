"""Perft: count the move paths of a given length from a position (``docs/perft.md``).

As in chess engines, perft checks move generation: two engines that agree on every
count to depth N almost surely agree on every legal-action list along the way. Here:

- a *move* is one decision action (``play``, ``withdraw``, ``palace``, ``crown``,
  ``take``) together with everything :func:`tajmahal.engine.apply` does automatically
  after it (scoring, discards, the last player's take, draws, the next visit's setup)
  up to the next decision, chance step or the end of the game;
- ``perft(s, 0) = 1``; a chance step (``shuffle``) and the end of the game (``over``) are
  leaves, counted once at any remaining depth and never expanded (a reshuffle has as
  many outcomes as orders of the discard pile);
- otherwise ``perft(s, d) = sum(perft(apply(s, a), d - 1) for a in legal_actions(s))``.

So ``perft(s, 1)`` is the number of legal actions of a decision position.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from tajmahal.engine import apply, legal_actions
from tajmahal.errors import TajMahalError
from tajmahal.model import Action, GameState, Step

LEAF_STEPS = (Step.SHUFFLE, Step.OVER)
"""Steps that end a path: chance (not expanded) and the end of the game."""


def perft(state: GameState, depth: int) -> int:
    """The number of move paths of length ``depth`` from ``state`` (leaves counted once)."""
    if depth < 0:
        raise ValueError(f"depth must be at least 0, not {depth}")
    if depth == 0 or state.step in LEAF_STEPS:
        return 1
    moves = legal_actions(state)
    if depth == 1:
        return len(moves)
    return sum(perft(apply(state, action), depth - 1) for action in moves)


def divide(state: GameState, depth: int) -> list[tuple[Action, int]]:
    """``perft(apply(state, a), depth - 1)`` for each legal action ``a``, sorted by the
    action's canonical string (the usual way to find where two engines differ)."""
    if depth < 1:
        raise ValueError(f"divide needs a depth of at least 1, not {depth}")
    if state.step in LEAF_STEPS:
        return []
    moves = sorted(legal_actions(state), key=str)
    return [(action, perft(apply(state, action), depth - 1)) for action in moves]


@attrs.frozen(slots=True)
class Vector:
    """One ``.perft`` file: a position and its expected counts."""

    id: str
    """The vector's name."""
    position: Path
    """The position file (a ``tajmahal-state`` document), resolved beside the vector."""
    description: str
    """What the position is."""
    counts: tuple[tuple[int, int], ...]
    """``(depth, count)`` pairs, in file order."""


def read_vector(path: Path) -> Vector:
    """Parse a ``.perft`` file: ``#`` comments, then ``id``, ``position``, ``description``
    and ``perft DEPTH COUNT`` lines (one keyword and its value per line)."""
    fields: dict[str, str] = {}
    counts: list[tuple[int, int]] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, value = line.partition(" ")
        if keyword == "perft":
            parts = value.split()
            if len(parts) != 2 or not all(part.isdigit() for part in parts):
                raise PerftFormatError(f"{path}: line {number}: expected 'perft DEPTH COUNT'")
            counts.append((int(parts[0]), int(parts[1])))
        elif keyword in ("id", "position", "description") and value:
            fields[keyword] = value
        else:
            raise PerftFormatError(f"{path}: line {number}: unknown line {line!r}")
    for needed in ("id", "position"):
        if needed not in fields:
            raise PerftFormatError(f"{path}: the '{needed}' line is missing")
    return Vector(
        fields["id"], path.parent / fields["position"], fields.get("description", ""), tuple(counts)
    )


class PerftFormatError(TajMahalError):
    """A ``.perft`` file is malformed; names the file and line."""
