"""Scoring during a withdrawal: bonus tiles, the province tile, palaces (the rulebooks'
"I punti influenza", "Terminare una ritirata", "Finalización de un retiro", "Calcul des
Points d'influence").

The point values are computed by :mod:`tajmahal.engine` (pure functions); this module
says when they are scored and adds them to the score track: each bonus tile as its
palace is placed, then the province tile, then the palaces of the current province and
the provinces connected to it.

Notes on this implementation:

- Bonus tiles score at each placement, before the province tile and the palaces
  (RUL.SCORE.BONUS_ORDER); a card bonus draws from the deck like any draw, and from an
  empty deck and discard pile draws nothing (RUL.DECK.EXHAUSTED).
- Goods score one point per good on the new tile plus one per matching good already
  owned (RUL.SCORE.GOODS_COUNT).
- A bonus tile under a crown palace stays on the board (RUL.REWARD.UNCLAIMED_BONUS).
"""

from __future__ import annotations

from tajmahal.engine._scoring import goods_points, owned_goods, palace_points
from tajmahal.engine._work import Player, Work
from tajmahal.model import (
    BonusKind,
    BonusTile,
    CityId,
    Event,
    EventKind,
    Good,
    PendingDraw,
    PointSource,
    ProvinceTile,
)


def score_bonus_tile(work: Work, seat: int, city: CityId) -> None:
    """Take and score the bonus tile in ``city``, if one lies there, for ``seat``.

    The Taj Mahal tile and the points tiles score their points; a card tile owes a card
    from the deck (drawn by the automatic sequence); a good tile is kept and scores like a
    good.

    Implements: TM.SCORE.BONUS.TAJ, TM.SCORE.BONUS.POINTS, TM.SCORE.BONUS.CARD,
    TM.SCORE.BONUS.GOOD, TM.SCORE.BONUS.SEQUENTIAL, RUL.SCORE.BONUS_ORDER
    """
    lying = dict(work.bonus_on_board)
    if city not in lying:
        return
    tile = work.components.bonus_tiles[lying.pop(city)]
    work.bonus_on_board = tuple(lying.items())
    player = work.edit(seat)
    if tile.kind is BonusKind.CARD:
        points = 0
        work.draw = PendingDraw(seat, 1, "bonus-card")
    elif tile.kind is BonusKind.GOOD:
        assert tile.good is not None
        points = goods_points((tile.good,), _goods_of(work, player))
        player.goods_tiles += (tile.id,)
    else:
        points = tile.points
    player.score += points
    work.record(bonus_event, seat, city, tile, points)


def bonus_event(seat: int, city: CityId, tile: BonusTile, points: int) -> Event:
    """The ``bonus`` event: the tile taken in ``city`` and its ``points``."""
    if tile.kind is BonusKind.CARD:
        source, clause = None, "TM.SCORE.BONUS.CARD"
    elif tile.kind is BonusKind.GOOD:
        source, clause = PointSource.BONUS_GOOD, "TM.SCORE.BONUS.GOOD"
    else:
        source = PointSource.BONUS_POINTS
        taj = tile.kind is BonusKind.TAJ_MAHAL
        clause = "TM.SCORE.BONUS.TAJ" if taj else "TM.SCORE.BONUS.POINTS"
    return Event(
        EventKind.BONUS,
        seat,
        points,
        source,
        tiles=(tile.id,),
        cities=(city,),
        clauses=("TM.REWARD.FORTRESS.BONUS", clause),
    )


def score_withdrawal(work: Work) -> None:
    """Score the province tile won, then the palaces (bonus tiles scored at placement).

    Palaces score only if the player placed one in this withdrawal: 1 for the current
    province and 1 per province connected to it by the player's palaces.

    Implements: TM.SCORE.ORDER, TM.SCORE.PROVINCE, TM.SCORE.PALACE.CURRENT, TM.SCORE.TRACK,
    RUL.SCORE.GOODS_COUNT
    """
    withdrawal = work.withdrawal
    assert withdrawal is not None
    seat = withdrawal.seat
    if withdrawal.province_won is not None:
        tile = work.components.province_tiles[withdrawal.province_won]
        player = work.edit(seat)
        points = goods_points(tile.goods, _goods_of(work, player))
        player.province_tiles += (tile.id,)
        player.score += points
        work.record(province_event, seat, tile, points)
    if withdrawal.placed:
        own = {palace.city for palace in work.palaces if palace.seat == seat}
        points = palace_points(work.components.board, own, work.current_province)
        work.edit(seat).score += points
        work.record(palaces_event, seat, own, points)


def _goods_of(work: Work, player: Player) -> list[Good]:
    """Every good ``player`` already owns."""
    return owned_goods(work.components, player.province_tiles, player.goods_tiles)


def province_event(seat: int, tile: ProvinceTile, points: int) -> Event:
    """The ``score`` event of a province tile won: its goods' points."""
    return Event(
        EventKind.SCORE,
        seat,
        points,
        PointSource.PROVINCE_TILE,
        tiles=(tile.id,),
        clauses=("TM.SCORE.PROVINCE", "RUL.SCORE.GOODS_COUNT"),
    )


def palaces_event(seat: int, own: set[CityId], points: int) -> Event:
    """The ``score`` event of the palaces: the cities of the player's palaces, and the
    chain's clause when it reaches another province."""
    return Event(
        EventKind.SCORE,
        seat,
        points,
        PointSource.PALACES,
        cities=tuple(sorted(own)),
        clauses=("TM.SCORE.PALACE.CURRENT", "TM.SCORE.PALACE.CHAIN")
        if points > 1
        else ("TM.SCORE.PALACE.CURRENT",),
    )
