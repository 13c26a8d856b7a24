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
from tajmahal.engine._work import Work
from tajmahal.model import BonusKind, CityId, Event, EventKind, PendingDraw, PointSource


def score_bonus_tile(work: Work, seat: int, city: CityId) -> None:
    """Take and score the bonus tile in ``city``, if one lies there, for ``seat``.

    The Taj Mahal tile and the points tiles score their points; a card tile owes a card
    from the deck (drawn by the automatic sequence); a good tile is kept and scores like a
    good.

    Implements: TM.SCORE.BONUS.TAJ, TM.SCORE.BONUS.POINTS, TM.SCORE.BONUS.CARD,
    TM.SCORE.BONUS.GOOD, TM.SCORE.BONUS.SEQUENTIAL, RUL.SCORE.BONUS_ORDER
    """
    if work.bonus_at(city) is None:
        return
    tile_id = work.bonus_on_board.pop(city)
    tile = work.components.bonus_tiles[tile_id]
    player = work.player(seat)
    source: PointSource | None
    if tile.kind in (BonusKind.TAJ_MAHAL, BonusKind.POINTS):
        points = tile.points
        source = PointSource.BONUS_POINTS
        clause = (
            "TM.SCORE.BONUS.TAJ" if tile.kind is BonusKind.TAJ_MAHAL else "TM.SCORE.BONUS.POINTS"
        )
    elif tile.kind is BonusKind.CARD:
        points = 0
        source = None
        clause = "TM.SCORE.BONUS.CARD"
        work.draw = PendingDraw(seat, 1, "bonus-card")
    else:
        assert tile.good is not None
        points = goods_points(
            (tile.good,), owned_goods(work.components, player.province_tiles, player.goods_tiles)
        )
        source = PointSource.BONUS_GOOD
        clause = "TM.SCORE.BONUS.GOOD"
        player.goods_tiles += (tile_id,)
    if points:
        player.score += points
    if work.recording:
        work.record(
            Event(
                EventKind.BONUS,
                seat,
                points,
                source,
                tiles=(tile_id,),
                cities=(city,),
                clauses=("TM.REWARD.FORTRESS.BONUS", clause),
            )
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
    player = work.player(seat)
    components = work.components
    if withdrawal.province_won is not None:
        tile = components.province_tiles[withdrawal.province_won]
        points = goods_points(
            tile.goods, owned_goods(components, player.province_tiles, player.goods_tiles)
        )
        player.province_tiles += (tile.id,)
        player.score += points
        if work.recording:
            work.record(
                Event(
                    EventKind.SCORE,
                    seat,
                    points,
                    PointSource.PROVINCE_TILE,
                    tiles=(tile.id,),
                    clauses=("TM.SCORE.PROVINCE", "RUL.SCORE.GOODS_COUNT"),
                )
            )
    if withdrawal.placed:
        own = {palace.city for palace in work.read("palaces") if palace.seat == seat}
        points = palace_points(components.board, own, work.province)
        player.score += points
        if work.recording:
            work.record(
                Event(
                    EventKind.SCORE,
                    seat,
                    points,
                    PointSource.PALACES,
                    cities=tuple(sorted(own)),
                    clauses=("TM.SCORE.PALACE.CURRENT", "TM.SCORE.PALACE.CHAIN")
                    if points > 1
                    else ("TM.SCORE.PALACE.CURRENT",),
                )
            )
