"""Chance as explicit distributions, one small draw at a time.

The engine takes every random result as an explicit outcome: a whole
:class:`~tajmahal.engine.SetupOutcome` before the game and a whole
:class:`~tajmahal.model.Reshuffle` (an order of the discard pile) at a chance step.
Search and learning frameworks instead need each chance node to list its outcomes with
their probabilities, and a reshuffle of n cards has n! orders. This module stages both
into draws of one piece each (at most 96 outcomes, one per card):

* :class:`Dealing` deals a setup step by step (TM.SETUP.PROVINCE.SHUFFLE,
  TM.SETUP.BONUS.FORTRESSES, TM.SETUP.DECK.SHUFFLE, TM.SETUP.HANDS, TM.SETUP.DISPLAY.SIZE,
  TM.SETUP.START_PLAYER): the province tiles of the eleven provinces other than Agra's
  (sorted by province id; tile 12 always lies on Agra's, TM.SETUP.PROVINCE.AGRA_TWELVE),
  the bonus tiles of the fortresses other than Agra (sorted by city id; the Taj Mahal
  tile lies on Agra, TM.SETUP.BONUS.TAJ), then the shuffled cards one by one (six for
  seat 0, six for seat 1, ..., the display, then the deck top card first), then the
  start player. Every draw is uniform over what is left, so a finished dealing has
  exactly the distribution of a shuffled setup.
* :class:`Shuffling` draws the new deck of a reshuffle card by card, top first, each
  uniform over the cards not yet drawn (TM.VISIT.NEXT.RESHUFFLE). When the last card is
  drawn the draws fold into the single ``reshuffle`` action of the trace format.

:func:`chance_outcomes` lists the outcomes of any chance node with their probabilities
and :func:`apply_chance` applies one; both accept a :class:`~tajmahal.model.GameState`
at a chance step, which starts a :class:`Shuffling`.
"""

from __future__ import annotations

from typing import Literal

import attrs

from tajmahal.engine import SetupOutcome, apply, chance_cards, new_game
from tajmahal.model import (
    DISPLAY_SIZES,
    HAND_SIZE,
    CardId,
    Components,
    GameState,
    Reshuffle,
    RuleSet,
)

ChanceOutcome = str | int
"""One draw: a card, province tile or bonus tile id, or a seat number (the start player)."""

Phase = Literal["province-tile", "bonus-tile", "card", "start-player"]
"""What a :class:`Dealing` draws next."""


@attrs.frozen(slots=True)
class Shuffling:
    """A reshuffle in progress: the new deck drawn so far from the discard pile."""

    state: GameState
    """The state at the chance step (its discard pile is what is being shuffled)."""
    order: tuple[CardId, ...] = ()
    """The cards drawn so far, top of the new deck first."""
    left: tuple[CardId, ...] | None = attrs.field(default=None, eq=False, repr=False)
    """The cards still to draw, sorted (None: computed from the discard pile and ``order``)."""

    def remaining(self) -> tuple[CardId, ...]:
        """The cards still to draw, sorted."""
        if self.left is not None:
            return self.left
        drawn = set(self.order)
        return tuple(card for card in chance_cards(self.state) if card not in drawn)

    def draw(self, card: CardId) -> Shuffling | GameState:
        """Draw ``card`` next; after the last card, the state after the whole reshuffle."""
        remaining = self.remaining()
        try:
            index = remaining.index(card)
        except ValueError:
            raise ValueError(f"{card!r} is not among the cards still to shuffle") from None
        order = (*self.order, card)
        if len(remaining) == 1:
            return apply(self.state, Reshuffle(order))
        return Shuffling(self.state, order, remaining[:index] + remaining[index + 1 :])


@attrs.frozen(slots=True)
class Dealing:
    """A setup being dealt: what has been drawn so far (see the module docstring)."""

    components: Components
    """The component set being dealt."""
    players: int
    """3, 4 or 5 (TM.SETUP.PLAYER_COUNT)."""
    rules: RuleSet = attrs.field(factory=RuleSet)
    """The rule set of the game being set up."""
    province_tiles: tuple[str, ...] = ()
    """Tiles drawn for the non-Agra provinces, in sorted province order."""
    bonus_tiles: tuple[str, ...] = ()
    """Tiles drawn for the non-Agra fortresses, in sorted city order."""
    cards: tuple[CardId, ...] = ()
    """Cards drawn: hands seat by seat, the display, then the deck top card first."""

    def _provinces(self) -> tuple[str, ...]:
        return _deal_order(self.components)[0]

    def _fortresses(self) -> tuple[str, ...]:
        return _deal_order(self.components)[1]

    def phase(self) -> Phase:
        """What is drawn next: ``province-tile``, ``bonus-tile``, ``card`` or ``start-player``."""
        provinces, fortresses, _, _, cards = _deal_order(self.components)
        if len(self.province_tiles) < len(provinces):
            return "province-tile"
        if len(self.bonus_tiles) < len(fortresses):
            return "bonus-tile"
        if len(self.cards) < len(cards):
            return "card"
        return "start-player"

    def outcomes(self) -> tuple[ChanceOutcome, ...]:
        """The possible next draws, sorted; each equally likely."""
        _, _, province_tiles, bonus_tiles, cards = _deal_order(self.components)
        phase = self.phase()
        if phase == "province-tile":
            used = set(self.province_tiles)
            return tuple(t for t in province_tiles if t not in used)
        if phase == "bonus-tile":
            used = set(self.bonus_tiles)
            return tuple(t for t in bonus_tiles if t not in used)
        if phase == "card":
            used = set(self.cards)
            return tuple(c for c in cards if c not in used)
        return tuple(range(self.players))

    def _possible(self, phase: Phase, outcome: ChanceOutcome) -> bool:
        if phase == "start-player":
            return isinstance(outcome, int) and 0 <= outcome < self.players
        _, _, province_tiles, bonus_tiles, cards = _deal_order(self.components)
        if phase == "card":
            return outcome in cards and outcome not in self.cards
        if phase == "province-tile":
            return outcome in province_tiles and outcome not in self.province_tiles
        return outcome in bonus_tiles and outcome not in self.bonus_tiles

    def draw(self, outcome: ChanceOutcome) -> Dealing | GameState:
        """Draw ``outcome`` next; after the start player, the initial state of the game."""
        phase = self.phase()
        if not self._possible(phase, outcome):
            raise ValueError(f"{outcome!r} is not a possible draw at the {phase} step")
        if phase == "province-tile":
            assert isinstance(outcome, str)
            return attrs.evolve(self, province_tiles=(*self.province_tiles, outcome))
        if phase == "bonus-tile":
            assert isinstance(outcome, str)
            return attrs.evolve(self, bonus_tiles=(*self.bonus_tiles, outcome))
        if phase == "card":
            assert isinstance(outcome, str)
            return Dealing(
                self.components,
                self.players,
                self.rules,
                self.province_tiles,
                self.bonus_tiles,
                (*self.cards, outcome),
            )
        assert isinstance(outcome, int)
        return new_game(self.components, self.players, self.outcome(outcome), self.rules)

    def outcome(self, start_player: int) -> SetupOutcome:
        """The setup outcome once every tile and card is drawn, with ``start_player``."""
        board = self.components.board
        provinces = dict(zip(self._provinces(), self.province_tiles, strict=True))
        provinces[board.agra_province] = self.components.province_tile_number(12).id
        bonus = dict(zip(self._fortresses(), self.bonus_tiles, strict=True))
        bonus[board.agra] = self.components.taj_mahal_tile.id
        dealt = self.players * HAND_SIZE
        shown = dealt + DISPLAY_SIZES[self.players]
        hands = tuple(
            self.cards[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(self.players)
        )
        return SetupOutcome(
            provinces, bonus, hands, self.cards[dealt:shown], self.cards[shown:], start_player
        )


_DealOrder = tuple[
    tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]
]


def _deal_order(components: Components) -> _DealOrder:
    """Sorted: provinces and fortresses dealt to, province and bonus tiles dealt, cards."""
    board = components.board
    twelve = components.province_tile_number(12).id
    taj = components.taj_mahal_tile.id
    return (
        tuple(sorted(p for p in board.provinces if p != board.agra_province)),
        tuple(sorted(city for city in board.fortresses if city != board.agra)),
        tuple(t for t in sorted(components.province_tiles) if t != twelve),
        tuple(t for t in sorted(components.bonus_tiles) if t != taj),
        tuple(sorted(components.cards)),
    )


def deal_phases(components: Components) -> tuple[Phase, ...]:
    """What each draw of a :class:`Dealing` draws, in order (the n-th item for the n-th
    draw, counted from 0): the phase depends only on how many draws were made."""
    provinces, fortresses, _, _, cards = _deal_order(components)
    phases: list[Phase] = []
    phases += ["province-tile"] * len(provinces)
    phases += ["bonus-tile"] * len(fortresses)
    phases += ["card"] * len(cards)
    phases.append("start-player")
    return tuple(phases)


ChanceNode = Dealing | Shuffling | GameState
"""Anything :func:`chance_outcomes` accepts."""


def chance_outcomes(node: ChanceNode) -> tuple[tuple[ChanceOutcome, float], ...]:
    """The outcomes of the next draw with their probabilities (uniform, summing to 1).

    Empty for a state that is not at a chance step.
    """
    if isinstance(node, GameState):
        if not node.is_chance:
            return ()
        node = Shuffling(node)
    possible = node.remaining() if isinstance(node, Shuffling) else node.outcomes()
    probability = 1.0 / len(possible)
    return tuple((outcome, probability) for outcome in possible)


def apply_chance(node: ChanceNode, outcome: ChanceOutcome) -> ChanceNode:
    """The node after drawing ``outcome`` (a finished draw gives a :class:`GameState`)."""
    if isinstance(node, GameState):
        if not node.is_chance:
            raise ValueError("the state is not at a chance step")
        node = Shuffling(node)
    if isinstance(node, Shuffling):
        if not isinstance(outcome, str):
            raise ValueError(f"a reshuffle draws a card id, not {outcome!r}")
        return node.draw(outcome)
    return node.draw(outcome)
