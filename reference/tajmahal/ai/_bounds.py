"""Proven upper bounds: decisions per game, score, legal actions, chance outcomes.

Frameworks size buffers and tensors from these (OpenSpiel's ``max_game_length``,
``max_utility``, ``max_chance_outcomes``). Each bound is computed from the component
set and the player count by the argument written next to it (``docs/ai.md`` states
them for the embedded components); a property test plays random games and checks that
no game exceeds them. They are safe, not tight.

The counting argument shared by several bounds: regular cards enter a hand only by the
deal (6 each, TM.SETUP.HANDS), by taking from the display (at most ``D`` per visit,
the display size, TM.VISIT.NEXT.DISPLAY: the display starts each visit with at most
``D`` cards and the last player takes what is left, TM.WITHDRAW.LAST_TAKES_ONE), by the
extra card of a player who withdrew without playing (at most one per withdrawal,
RUL.WITHDRAW.WITHOUT_PLAYING), and by a card bonus tile (each tile once per game,
TM.SCORE.BONUS.CARD). They leave a hand only by being played, and each ``play`` moves
exactly one coloured card out of a hand (TM.PLAY.ONE_COLOURED).
"""

from __future__ import annotations

import attrs

from tajmahal.model import (
    DISPLAY_SIZES,
    HAND_SIZE,
    VISITS,
    BonusKind,
    CardColour,
    Components,
    SpecialKind,
)
from tajmahal.model import INFLUENCE_SYMBOLS as _INFLUENCE


@attrs.frozen(slots=True)
class Bounds:
    """Upper bounds for one component set and player count."""

    players: int
    """The player count they hold for."""
    cards_into_hands: int
    """Regular cards that can enter hands in a whole game (see the module docstring)."""
    decisions: int
    """Decisions (play, withdraw, palace, crown, take) in one game."""
    plays: int
    """``play`` decisions in one game: at most ``cards_into_hands``."""
    reshuffled_cards: int
    """Cards reshuffled over a whole game: each was discarded after being played, so at
    most ``cards_into_hands``."""
    setup_draws: int
    """Chance draws of a staged setup (:class:`tajmahal.ai._chance.Dealing`)."""
    score: int
    """A player's final score."""
    hand_size: int
    """Cards in one hand at any time."""
    legal_actions: int
    """Legal actions at any decision."""
    chance_outcomes: int
    """Outcomes of one staged chance draw (:mod:`tajmahal.ai`)."""


def bounds(components: Components, players: int) -> Bounds:
    """The bounds for ``players`` players with ``components`` (reasoning inline)."""
    if players not in DISPLAY_SIZES:
        raise ValueError(f"Taj Mahal is for 3 to 5 players, not {players}")
    display = DISPLAY_SIZES[players]
    card_tiles = sum(1 for t in components.bonus_tiles.values() if t.kind is BonusKind.CARD)
    withdrawals = VISITS * players  # each player withdraws once per visit (TM.TURN.VISIT_ENDS)
    into_hands = players * HAND_SIZE + VISITS * display + withdrawals + card_tiles
    plays = into_hands
    takes = withdrawals  # at most one take decision per withdrawal
    # Each visit's court holds at most one influence tile of each kind and the crown
    # (TM.VISIT.NEXT.INFLUENCE_REFILL, TM.VISIT.NEXT.CROWN); each placement decision places
    # one palace owed for one of them (TM.REWARD.INFLUENCE.PALACE).
    placements = VISITS * (len(_INFLUENCE) + 1)
    decisions = plays + withdrawals + takes + placements
    board = components.board
    setup_draws = (
        (len(board.provinces) - 1) + (len(board.fortresses) - 1) + len(components.cards) + 1
    )
    # Hand size: the deal, at most two display cards per visit (the others take two each
    # before the last player takes the rest: D - 2 (n - 1) <= 2 for the printed sizes,
    # counted generously below), one extra card per visit, every card tile, every special.
    per_visit_take = max(2, display - 2 * (players - 1))
    hand = HAND_SIZE + VISITS * (per_visit_take + 1) + card_tiles + len(components.specials)
    coloured = sum(1 for c in components.cards.values() if c.colour is not CardColour.WHITE)
    extras_total = len(components.cards) - coloured + len(components.specials)
    best_play = 0
    for extras in range(0, min(extras_total, hand) + 1):
        plain = min(coloured, hand - extras)
        best_play = max(best_play, plain * (1 + extras) + 1)  # + withdraw
    largest_province = max(len(p.cities) for p in board.provinces.values())
    # A placement step offers crown and palace cities of the current province only.
    place = 2 * largest_province
    take = max(display * (display - 1) // 2, 1)
    legal = max(best_play, place, take)
    score = _score_bound(components)
    chance = max(
        len(components.cards),
        len(components.province_tiles) - 1,
        len(components.bonus_tiles) - 1,
        players,
    )
    return Bounds(
        players=players,
        cards_into_hands=into_hands,
        decisions=decisions,
        plays=plays,
        reshuffled_cards=into_hands,
        setup_draws=setup_draws,
        score=score,
        hand_size=hand,
        legal_actions=legal,
        chance_outcomes=chance,
    )


def _score_bound(components: Components) -> int:
    """Every source of points, each counted at its largest (TM.SCORE.PROVINCE,
    TM.SCORE.BONUS.GOOD, TM.SCORE.PALACE.PROVINCES, TM.SPECIAL.PLUS_TWO, TM.END.HAND.SPECIAL,
    TM.END.HAND.WHITE, TM.END.HAND.LARGEST_COLOUR)."""
    goods_everywhere: dict[object, int] = {}
    for tile in components.province_tiles.values():
        for good in tile.goods:
            goods_everywhere[good] = goods_everywhere.get(good, 0) + 1
    for bonus in components.bonus_tiles.values():
        if bonus.good is not None:
            goods_everywhere[bonus.good] = goods_everywhere.get(bonus.good, 0) + 1
    # A won province tile or kept goods tile scores one per good on it plus one per
    # matching good already owned: at most every good of that kind in the game.
    tiles = sum(
        len(tile.goods) + sum(goods_everywhere[g] for g in tile.goods)
        for tile in components.province_tiles.values()
    ) + sum(
        1 + goods_everywhere[b.good] for b in components.bonus_tiles.values() if b.good is not None
    )
    fixed = sum(b.points for b in components.bonus_tiles.values())
    # Palaces: one scoring per visit (one withdrawal), at most one point per province.
    palaces = VISITS * len(components.board.provinces)
    # The +2 card: played at most once per visit (it stays on the table until withdrawal).
    plus_two = (
        2 * VISITS
        if any(s.kind is SpecialKind.PLUS_TWO for s in components.specials.values())
        else 0
    )
    colours: dict[CardColour, int] = {}
    for card in components.cards.values():
        colours[card.colour] = colours.get(card.colour, 0) + 1
    whites = colours.pop(CardColour.WHITE, 0)
    hand = len(components.specials) + whites + max(colours.values(), default=0)
    return tiles + fixed + palaces + plus_two + hand
