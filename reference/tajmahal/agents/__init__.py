"""Built-in players and playing a match between them.

The players (:class:`RandomPlayer`, :class:`GreedyPlayer` and the edge seekers of
:data:`PLAYER_TYPES`) drive the engine for demonstrations, fuzzing and benchmarks;
:func:`play_match` plays a whole game between them and records it.
"""

from tajmahal.agents._match import MatchResult, chance_seed, play_match
from tajmahal.agents._players import PLAYER_TYPES, GreedyPlayer, Player, RandomPlayer

__all__ = [
    "PLAYER_TYPES",
    "GreedyPlayer",
    "MatchResult",
    "Player",
    "RandomPlayer",
    "chance_seed",
    "play_match",
]
