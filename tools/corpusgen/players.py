"""The players that seek edge cases, and the named mixes of players a record is played by.

Apart from the entries because a mix is only a way of choosing actions: an entry names
its mix, and the same mix serves the seeded, option, edge and scenario records.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from tajmahal.agents import GreedyPlayer, Player, RandomPlayer
from tajmahal.engine import apply_with_events
from tajmahal.model import Action, GameState, Step, Withdraw
from tajmahal.records import edge_tags


class EdgeSeeker:
    """Prefers, at each decision, an action whose step reaches one of ``wanted`` (tried
    by applying each legal action); otherwise decides like ``base``."""

    def __init__(self, seed: int, wanted: Iterable[str], base: Player | None = None) -> None:
        self.name = "edge"
        self.wanted = frozenset(wanted)
        self.base: Player = base if base is not None else RandomPlayer(seed)
        self.rng = random.Random(seed)

    def choose(self, state: GameState, legal: tuple[Action, ...]) -> Action:
        hits = []
        for action in legal:
            after, events = apply_with_events(state, action)
            if edge_tags(state, action, events, after) & self.wanted:
                hits.append(action)
        if hits:
            return hits[self.rng.randrange(len(hits))]
        return self.base.choose(state, legal)


class Hoarder:
    """Withdraws at once, without playing, in every visit, and takes cards at random:
    the deck runs dry because cards only ever go into hands."""

    def __init__(self, seed: int) -> None:
        self.name = "hoarder"
        self.rng = random.Random(seed)

    def choose(self, state: GameState, legal: tuple[Action, ...]) -> Action:
        if state.step is Step.PLAY and any(isinstance(a, Withdraw) for a in legal):
            return next(a for a in legal if isinstance(a, Withdraw))
        return legal[self.rng.randrange(len(legal))]


MIXES: dict[str, Callable[[int, int, frozenset[str]], list[Player]]] = {
    "greedy-random": lambda n, s, w: [
        GreedyPlayer(s * 10 + i) if i % 2 == 0 else RandomPlayer(s * 10 + i) for i in range(n)
    ],
    "edge-random": lambda n, s, w: [
        EdgeSeeker(s * 10 + i, w) if i % 2 == 0 else RandomPlayer(s * 10 + i) for i in range(n)
    ],
    "edge-greedy": lambda n, s, w: [
        EdgeSeeker(s * 10 + i, w, GreedyPlayer(s)) if i % 2 == 0 else GreedyPlayer(s * 10 + i)
        for i in range(n)
    ],
    "edge-all": lambda n, s, w: [EdgeSeeker(s * 10 + i, w) for i in range(n)],
    "hoarders": lambda n, s, w: [
        Hoarder(s * 10 + i) if i < n - 1 else EdgeSeeker(s * 10 + i, w) for i in range(n)
    ],
    "all-hoarders": lambda n, s, w: [Hoarder(s * 10 + i) for i in range(n)],
    "hoarders-after-seat-0": lambda n, s, w: [
        EdgeSeeker(s * 10, w) if i == 0 else Hoarder(s * 10 + i) for i in range(n)
    ],
}
"""Named player mixes: (players, seed, wanted tags) -> players, seat 0 first."""
