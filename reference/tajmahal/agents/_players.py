"""Built-in players: a uniformly random one, a simple greedy one, and edge seekers.

They exist to drive the engine (demonstrations, fuzzing, benchmarks), not to play
well. All are deterministic given their seed. The edge seekers steer games into the
situations random play rarely reaches (a deck run dry, a short display, ties, crown
palaces on occupied cities and fortresses, special cards changing hands); the fuzzer
mixes them. The greedy player looks only at what it
may know (public information and its own hand); its look-ahead applies actions to the
state, but the quantities it compares (its own score and majorities) do not depend on
hidden information.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Protocol

from tajmahal.engine import apply, legal_actions, palace_points, symbol_counts
from tajmahal.model import (
    SYMBOL_INDEX,
    WITHDRAW,
    Action,
    CardColour,
    GameState,
    PlaceCrown,
    PlacePalace,
    Play,
    Step,
    Symbol,
    Take,
    Withdraw,
)


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


class HoarderPlayer:
    """Withdraws without playing most of the time, so it keeps taking cards from the
    display (and, under the default rule set, an extra card from the deck): decks run
    dry, displays come up short, hands grow long."""

    name = "hoarder"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        """The player's own generator."""

    def choose(self, state: GameState, legal: tuple[Action, ...]) -> Action:
        """Withdraw (nine times in ten) when playing; otherwise a random legal action."""
        if state.step is Step.PLAY and self.rng.random() < 0.9:
            return WITHDRAW
        return legal[self.rng.randrange(len(legal))]


class StubbornPlayer:
    """Plays a card whenever it can and withdraws only when nothing else is legal (or,
    rarely, by chance): visits grow long, cards stay on the table, hands run out."""

    name = "stubborn"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        """The player's own generator."""

    def choose(self, state: GameState, legal: tuple[Action, ...]) -> Action:
        """A random play, preferring single cards; withdraw only when forced (or 1 in 20)."""
        if state.step is Step.PLAY:
            plays = [a for a in legal if isinstance(a, Play)]
            if plays and self.rng.random() >= 0.05:
                singles = [a for a in plays if a.extra is None]
                pool = singles if singles and self.rng.random() < 0.8 else plays
                return pool[self.rng.randrange(len(pool))]
        return legal[self.rng.randrange(len(legal))]


def _played_counts(state: GameState, seat: int, extra: tuple[str, ...] = ()) -> tuple[int, ...]:
    return symbol_counts(state.config.components, state.players[seat].played + extra)


def _rival_best(state: GameState, seat: int) -> list[int]:
    best = [0] * len(SYMBOL_INDEX)
    for other, player in enumerate(state.players):
        if other == seat or player.withdrawn:
            continue
        for index, count in enumerate(symbol_counts(state.config.components, player.played)):
            best[index] = max(best[index], count)
    return best


def _available(state: GameState) -> set[int]:
    """Indices of the forces still in the court."""
    found = {SYMBOL_INDEX[symbol] for symbol in state.court_influence}
    if state.crown_in_court:
        found.add(SYMBOL_INDEX[Symbol.MOGUL])
    if state.court_province_tile is not None:
        found.add(SYMBOL_INDEX[Symbol.ELEPHANT])
    return found


class TieSeekerPlayer:
    """Plays to equal the leader on some force still in the court, then withdraws while
    tied: majorities tie, nobody wins, tiles stay unwon."""

    name = "tie-seeker"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        """The player's own generator."""

    def choose(self, state: GameState, legal: tuple[Action, ...]) -> Action:
        """Withdraw when tied on an open force; else the play making the most ties."""
        if state.step is not Step.PLAY:
            return legal[self.rng.randrange(len(legal))]
        seat = state.to_move
        assert seat is not None
        best = _rival_best(state, seat)
        open_forces = _available(state)
        own = _played_counts(state, seat)
        if any(own[i] >= 1 and own[i] == best[i] for i in open_forces) and self.rng.random() < 0.8:
            return WITHDRAW
        scored: list[tuple[int, int, Action]] = []
        for order, action in enumerate(legal):
            if not isinstance(action, Play):
                continue
            cards = (action.coloured,) + ((action.extra,) if action.extra else ())
            after = _played_counts(state, seat, cards)
            ties = sum(1 for i in open_forces if after[i] >= 1 and after[i] == best[i])
            scored.append((ties * 4 + self.rng.randrange(4), -order, action))
        if not scored:
            return WITHDRAW
        return max(scored, key=lambda item: (item[0], item[1]))[2]


class CrownChaserPlayer:
    """Plays Grand Moguls, withdraws as soon as it leads on them, and puts the crown
    palace where it is rarest: beside another palace, on a fortress, beside its own."""

    name = "crown-chaser"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        """The player's own generator."""

    def choose(self, state: GameState, legal: tuple[Action, ...]) -> Action:
        """See the class docstring; random where it has no preference."""
        seat = state.to_move
        assert seat is not None
        if state.step is Step.PLACE:
            return max(legal, key=lambda action: self._placement_value(state, action))
        if state.step is not Step.PLAY:
            return legal[self.rng.randrange(len(legal))]
        mogul = SYMBOL_INDEX[Symbol.MOGUL]
        own = _played_counts(state, seat)
        if state.crown_in_court and own[mogul] > _rival_best(state, seat)[mogul]:
            return WITHDRAW
        moguls: list[Action] = [
            action
            for action in legal
            if isinstance(action, Play)
            and _played_counts(state, seat, (action.coloured,))[mogul] > own[mogul]
        ]
        pool = moguls or list(legal)
        return pool[self.rng.randrange(len(pool))]

    def _placement_value(self, state: GameState, action: Action) -> tuple[int, int]:
        assert isinstance(action, PlaceCrown | PlacePalace)
        board = state.config.components.board
        occupied = sum(1 for palace in state.palaces if palace.city == action.city)
        value = (occupied * 4 + (action.city in board.fortresses) * 2) * isinstance(
            action, PlaceCrown
        ) + isinstance(action, PlaceCrown)
        return value, self.rng.randrange(1000)


_EDGE_CUMULATIVE = (2, 3, 5, 8, 10)
"""The edge player's weights 2:1:2:3:2, summed as ``random.choices`` sums them (the same
draws, without summing them again at every decision)."""


class EdgePlayer:
    """Random choice weighted towards rare situations: each decision is taken by one of
    the edge seekers (or at random), drawn anew every time."""

    name = "edge"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        """The generator that picks which behaviour decides."""
        self.behaviours: tuple[Player, ...] = (
            RandomPlayer(seed + 1),
            HoarderPlayer(seed + 2),
            StubbornPlayer(seed + 3),
            TieSeekerPlayer(seed + 4),
            CrownChaserPlayer(seed + 5),
        )
        """Random, hoarder, stubborn, tie-seeker, crown-chaser."""

    def choose(self, state: GameState, legal: tuple[Action, ...]) -> Action:
        """The choice of a behaviour drawn with weights 2:1:2:3:2."""
        pick = self.rng.choices(self.behaviours, cum_weights=_EDGE_CUMULATIVE)[0]
        return pick.choose(state, legal)


class PlayerType(Protocol):
    """A player class: builds a player from its seed."""

    def __call__(self, seed: int = 0) -> Player:
        """A new player with its own generator seeded by ``seed``."""
        ...


PLAYER_TYPES: dict[str, PlayerType] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "hoarder": HoarderPlayer,
    "stubborn": StubbornPlayer,
    "tie-seeker": TieSeekerPlayer,
    "crown-chaser": CrownChaserPlayer,
    "edge": EdgePlayer,
}
"""Built-in players by name (the CLI's ``--agents``); each is built from a seed."""
