"""The game state: one frozen value holding everything needed to continue the game.

States are compared and hashed by value. The engine never mutates a state; see
:mod:`tajmahal.engine` for ``legal_actions`` and ``apply``. Hidden information (hands,
the deck order) is part of the state; :func:`tajmahal.model.view` removes it.
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

from tajmahal.model._board import CityId, ProvinceId
from tajmahal.model._components import Components
from tajmahal.model._options import RuleSet
from tajmahal.model._parts import BonusTileId, CardId, ProvinceTileId
from tajmahal.model._symbols import CardColour, Symbol

DISPLAY = -1
"""Destination code of a pending draw that goes to the display rather than a hand."""

DISPLAY_SIZES: dict[int, int] = {3: 5, 4: 7, 5: 9}
"""Cards in the display for 3, 4 and 5 players (TM.SETUP.DISPLAY.SIZE)."""

HAND_SIZE = 6
"""Cards dealt to each player at setup (TM.SETUP.HANDS)."""

VISITS = 12
"""Visits in a game, one per province (TM.TURN.TWELVE_VISITS)."""

INFLUENCE_TILES_PER_KIND = 6
"""Oval influence tiles of each of the four kinds (TM.COMP.INFLUENCE_TILES)."""


class Step(enum.Enum):
    """What the game is waiting for."""

    PLAY = "play"
    """The player to move plays cards or withdraws."""
    PLACE = "place"
    """The withdrawing player places a palace or the crown palace."""
    TAKE = "take"
    """The withdrawing player takes two cards from the display."""
    SHUFFLE = "shuffle"
    """Chance: the discard pile must be shuffled into a new deck (a ``reshuffle`` action)."""
    OVER = "over"
    """The game has ended; scores are final."""


@attrs.frozen(slots=True)
class GameConfig:
    """What stays fixed for a whole game: player count, rule set and components."""

    players: int
    """3, 4 or 5."""
    rules: RuleSet
    """The rule set the game is played under."""
    components: Components
    """The component set (compared by digest)."""


@attrs.frozen(slots=True)
class Palace:
    """A palace on the board."""

    city: CityId
    """The city it stands in."""
    seat: int
    """Its owner."""
    crowned: bool = False
    """True for a crown palace: the palace the visit's Grand Mogul winner placed with the
    crown. It stays True after the visit: the crown goes back to the court, and the palace
    keeps counting as a palace of its owner."""


def palace_sort_key(palace: Palace) -> tuple[CityId, int, bool]:
    """The canonical order of palaces in a state: by city, then owner, then crowned."""
    return (palace.city, palace.seat, palace.crowned)


@attrs.frozen(slots=True)
class PlayerState:
    """One player's holdings."""

    hand: tuple[CardId, ...]
    """Cards in hand, sorted (special cards included)."""
    played: tuple[CardId, ...] = ()
    """Cards played in the current visit, in play order."""
    colour: CardColour | None = None
    """The colour this player must follow for the rest of the visit, once set."""
    withdrawn: bool = False
    """True once the player has withdrawn from the current visit."""
    withdrawn_counts: tuple[int, ...] | None = None
    """Symbol counts (canonical symbol order) when the player withdrew this visit; used only
    when the rule set compares against every player (``MajorityScope.ALL``)."""
    influence: tuple[Symbol, ...] = ()
    """Influence tiles held, in canonical symbol order."""
    province_tiles: tuple[ProvinceTileId, ...] = ()
    """Province tiles won, in the order won."""
    goods_tiles: tuple[BonusTileId, ...] = ()
    """Goods bonus tiles kept, in the order won."""
    score: int = 0
    """Points (the points for cards in hand included once the game is over)."""


@attrs.frozen(slots=True)
class Withdrawal:
    """The rewards still being resolved for the player who is withdrawing."""

    seat: int
    """The withdrawing player."""
    palaces_owed: int
    """Normal palaces still to place (one per influence tile won)."""
    crown_owed: bool
    """True while the crown palace is still to be placed."""
    placed: tuple[CityId, ...] = ()
    """Cities where this player placed a palace in this withdrawal."""
    province_won: ProvinceTileId | None = None
    """The province tile won, scored after the bonus tiles."""
    played_nothing: bool = False
    """True when the player withdrew without having played a card this visit."""
    scored: bool = False
    """True once province tile and palaces are scored and the played cards discarded."""

    def after_placement(self, city: CityId, *, crown: bool) -> Withdrawal:
        """This withdrawal once the crown palace (``crown``) or a normal palace is placed
        in ``city``: one fewer owed, and ``city`` among the cities placed in."""
        return Withdrawal(
            seat=self.seat,
            palaces_owed=self.palaces_owed if crown else self.palaces_owed - 1,
            crown_owed=self.crown_owed and not crown,
            placed=(*self.placed, city),
            province_won=self.province_won,
            played_nothing=self.played_nothing,
            scored=self.scored,
        )

    def after_scoring(self) -> Withdrawal:
        """This withdrawal once it is scored and the played cards are discarded."""
        return Withdrawal(
            seat=self.seat,
            palaces_owed=self.palaces_owed,
            crown_owed=self.crown_owed,
            placed=self.placed,
            province_won=self.province_won,
            played_nothing=self.played_nothing,
            scored=True,
        )


@attrs.frozen(slots=True)
class PendingDraw:
    """Cards still to be drawn from the deck (a reshuffle may be needed first)."""

    destination: int
    """The seat whose hand receives the cards, or :data:`DISPLAY`."""
    count: int
    """How many cards are still to be drawn."""
    reason: str
    """Why: ``display``, ``bonus-card`` or ``extra-card`` (for the account)."""


@attrs.frozen(slots=True, cache_hash=True)
class GameState:
    """A complete game position. Frozen, comparable, hashable."""

    config: GameConfig
    """Player count, rule set, components."""
    visit: int
    """The current visit, 1 to 12."""
    step: Step
    """What the game waits for."""
    to_move: int | None
    """The seat to act, or None at a chance step or when the game is over."""
    start_player: int
    """The seat that starts the current visit."""
    players: tuple[PlayerState, ...]
    """One entry per seat, seats numbered clockwise from 0."""
    deck: tuple[CardId, ...]
    """The deck, top card first (hidden information)."""
    discard: tuple[CardId, ...]
    """The discard pile, sorted (face up; its order is irrelevant, a reshuffle orders it)."""
    display: tuple[CardId, ...]
    """The face-up cards beside the board, sorted."""
    specials_on_table: tuple[CardId, ...]
    """Special cards not yet earned by anyone, sorted."""
    court_influence: tuple[Symbol, ...]
    """Influence tiles in the court, in canonical symbol order (at most one per kind)."""
    crown_in_court: bool
    """True while the crown can still be won in this visit."""
    court_province_tile: ProvinceTileId | None
    """The current province's tile while it can still be won."""
    province_order: tuple[ProvinceId, ...]
    """The province visited in visit ``i + 1`` (fixed by the province tiles at setup)."""
    bonus_on_board: tuple[tuple[CityId, BonusTileId], ...]
    """Bonus tiles still lying on fortresses, sorted by city."""
    palaces: tuple[Palace, ...]
    """Every palace on the board, sorted by city then owner."""
    withdrawal: Withdrawal | None = None
    """The withdrawal being resolved, if any."""
    draw: PendingDraw | None = None
    """Cards waiting to be drawn, if any."""

    @property
    def players_count(self) -> int:
        """Number of players."""
        return self.config.players

    @property
    def is_over(self) -> bool:
        """True when the game has ended."""
        return self.step is Step.OVER

    @property
    def is_chance(self) -> bool:
        """True when the next action is a chance outcome (a ``reshuffle``)."""
        return self.step is Step.SHUFFLE

    @property
    def current_province(self) -> ProvinceId:
        """The province being visited."""
        return self.province_order[self.visit - 1]

    @property
    def scores(self) -> tuple[int, ...]:
        """Every player's score, by seat."""
        return tuple(player.score for player in self.players)

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        """A state is immutable: its deep copy is the state itself."""
        return self

    def __copy__(self) -> GameState:
        """A state is immutable: its copy is the state itself."""
        return self

    def winners(self) -> tuple[int, ...]:
        """The seats with the highest score (several on a tie, RUL.END.TIED_WINNERS).

        Meaningful once the game is over.
        """
        best = max(self.scores)
        return tuple(seat for seat, score in enumerate(self.scores) if score == best)
