"""Built-in players: a uniformly random one and a simple greedy one.

They exist to drive the engine (demonstrations, fuzzing, benchmarks), not to play
well. Both are deterministic given their seed. The greedy player looks only at what it
may know (public information and its own hand); its look-ahead applies actions to the
state, but the quantities it compares (its own score and majorities) do not depend on
hidden information.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Protocol

from tajmahal.actions import WITHDRAW, Action, PlaceCrown, PlacePalace, Play, Take, Withdraw
from tajmahal.engine import apply, legal_actions
from tajmahal.scoring import palace_points, symbol_counts
from tajmahal.state import GameState, Step
from tajmahal.symbols import CardColour


class Player(Protocol):
    """Anything that picks one of the legal actions."""

    name: str
    """A short label for accounts and records."""

    def choose(self, state: GameState, legal: tuple[Action, ...]) -> Action:
        """One of ``legal`` (never empty) for the player to move in ``state``."""
        ...


class RandomPlayer:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        """The player's own generator (never the global one)."""

    def choose(self, state: GameState, legal: tuple[Action, ...]) -> Action:
        """A uniformly random legal action."""
        return legal[self.rng.randrange(len(legal))]


class GreedyPlayer:
    """Withdraws as soon as withdrawing scores, otherwise plays the card that gains the
    most leads; places palaces for the best immediate score; takes cards that build its
    longest colour. Ties go to the first action in canonical order."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        """Unused (the greedy player is deterministic); kept for a uniform constructor."""

    def choose(self, state: GameState, legal: tuple[Action, ...]) -> Action:
        """The greedy choice for the current step (see the class docstring)."""
        if state.step is Step.PLACE:
            return max(legal, key=lambda action: self._placement_value(state, action))
        if state.step is Step.TAKE:
            return max(legal, key=lambda action: self._take_value(state, action))
        return self._play_or_withdraw(state, legal)

    def _placement_value(self, state: GameState, action: Action) -> int:
        seat = state.to_move
        assert seat is not None and isinstance(action, PlacePalace | PlaceCrown)
        after = apply(state, action)
        own = {palace.city for palace in after.palaces if palace.seat == seat}
        return (after.players[seat].score - state.players[seat].score) * 10 + palace_points(
            state.config.components.board, own, state.current_province
        )

    def _take_value(self, state: GameState, action: Action) -> int:
        seat = state.to_move
        assert seat is not None and isinstance(action, Take)
        components = state.config.components
        hand = state.players[seat].hand + action.cards
        colours = Counter(components.cards[c].colour for c in hand if c in components.cards)
        whites = colours.pop(CardColour.WHITE, 0)
        return (
            max(colours.values(), default=0)
            + whites
            + sum(1 for c in hand if components.is_special(c))
        )

    def _play_or_withdraw(self, state: GameState, legal: tuple[Action, ...]) -> Action:
        seat = state.to_move
        assert seat is not None
        if self._withdraw_gain(state) > 0:
            return WITHDRAW
        current = self._leads(state, seat)
        best: Action = WITHDRAW
        best_value = 0
        for action in legal:
            if isinstance(action, Withdraw):
                continue
            assert isinstance(action, Play)
            after_leads = self._leads_after(state, seat, action)
            value = (after_leads - current) * 2 - (action.extra is not None)
            if value > best_value:
                best, best_value = action, value
        return best

    @staticmethod
    def _withdraw_gain(state: GameState) -> int:
        seat = state.to_move
        assert seat is not None
        before = state.players[seat].score
        after = apply(state, WITHDRAW)
        while after.step is Step.PLACE and after.to_move == seat:
            after = apply(after, legal_actions(after)[0])
        return after.players[seat].score - before

    @staticmethod
    def _leads(state: GameState, seat: int, extra: tuple[str, ...] = ()) -> int:
        components = state.config.components
        own = symbol_counts(components, state.players[seat].played + extra)
        others = [
            symbol_counts(components, player.played)
            for other, player in enumerate(state.players)
            if other != seat and not player.withdrawn
        ]
        return sum(
            1
            for index, count in enumerate(own)
            if count >= 1 and all(count > other[index] for other in others)
        )

    def _leads_after(self, state: GameState, seat: int, action: Play) -> int:
        cards = (action.coloured,) + ((action.extra,) if action.extra is not None else ())
        return self._leads(state, seat, cards)


PLAYER_TYPES: dict[str, type[RandomPlayer] | type[GreedyPlayer]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
}
"""Built-in players by name (the CLI's ``--agents``)."""
