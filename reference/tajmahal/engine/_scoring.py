"""Scoring rules as pure functions: majorities, goods, palace chains, hand points.

Kept apart from the turn machinery so that each rule can be tested on hand-built
positions (the rulebooks' worked examples among them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tajmahal.model import (
    SYMBOL_INDEX,
    Board,
    CardColour,
    CardId,
    CityId,
    Components,
    Good,
    ProvinceId,
)


def symbol_counts(components: Components, cards: Iterable[CardId]) -> tuple[int, ...]:
    """How many of each symbol (canonical order) the played cards show.

    Special cards count the symbol they stand for; +2 and colour change count nothing.

    Implements: TM.WITHDRAW.COMPARE, TM.SPECIAL.ELEPHANT, TM.SPECIAL.MOGUL,
    TM.SPECIAL.NO_SYMBOL
    """
    counts = [0] * len(SYMBOL_INDEX)
    for card in cards:
        for symbol in components.card_symbols(card):
            counts[SYMBOL_INDEX[symbol]] += 1
    return tuple(counts)


def wins_majority(own: int, others: Iterable[int]) -> bool:
    """True when ``own`` symbols beat every compared player strictly, with at least one.

    A tie wins nothing (TM.WITHDRAW.MAJORITY.STRICT); zero symbols never win, even
    against nobody (RUL.MAJORITY.ZERO_SYMBOLS).

    Implements: TM.WITHDRAW.MAJORITY.STRICT, TM.WITHDRAW.MAJORITY.ZERO
    """
    return own >= 1 and own > max(others, default=0)


def goods_points(new_goods: Sequence[Good], owned_goods: Iterable[Good]) -> int:
    """Points for a newly won tile showing ``new_goods``.

    One point per good on the tile, plus one per good on the tiles the player already
    owns that matches a good on the new tile, each owned good counted once: a tile showing
    one good twice does not count the owned goods twice (RUL.SCORE.GOODS_COUNT).

    Implements: TM.SCORE.BONUS.GOOD, TM.SCORE.PROVINCE, RUL.SCORE.GOODS_COUNT
    """
    kinds = set(new_goods)
    return len(new_goods) + sum(good in kinds for good in owned_goods)


def palace_points(board: Board, own_cities: Iterable[CityId], province: ProvinceId) -> int:
    """Palace points for a player who has just placed palaces in ``province``.

    ``own_cities`` are all cities holding a palace of the player (a city shared with
    another player's palace counts: TM.SCORE.PALACE.SHARED_CITY). The player scores 1 if
    any of them lies in the current province, plus 1 for every other province reached
    from there through a chain of their own palaces along roads. Cities without one of
    their palaces break the chain.

    Implements: TM.SCORE.PALACE.CURRENT, TM.SCORE.PALACE.CHAIN, TM.SCORE.PALACE.PROVINCES,
    TM.SCORE.PALACE.BREAK, TM.SCORE.PALACE.SHARED_CITY
    """
    owned = set(own_cities)
    cities = board.cities
    frontier = [city for city in owned if cities[city].province == province]
    if not frontier:
        return 0
    reached = set(frontier)
    neighbours = board.neighbours
    while frontier:
        city = frontier.pop()
        for neighbour in neighbours[city]:
            if neighbour in owned and neighbour not in reached:
                reached.add(neighbour)
                frontier.append(neighbour)
    provinces = {cities[city].province for city in reached}
    return len(provinces)


def hand_points(components: Components, hand: Iterable[CardId]) -> int:
    """End-of-game points for a hand: 1 per special card, 1 per white card, and 1 per card
    of the colour held most (one colour only on a tie; 0 without coloured cards).

    Implements: TM.END.HAND.SPECIAL, TM.END.HAND.WHITE, TM.END.HAND.LARGEST_COLOUR,
    TM.END.LEFTOVER_NO_VALUE, RUL.END.WHITE_NOT_A_COLOUR
    """
    return sum(hand_breakdown(components, hand))


def hand_breakdown(components: Components, hand: Iterable[CardId]) -> tuple[int, int, int]:
    """The three parts of :func:`hand_points`: (special cards, white cards, the largest
    colour's card count), for the account and the end-of-game events.

    Implements: TM.END.HAND.SPECIAL, TM.END.HAND.WHITE, TM.END.HAND.LARGEST_COLOUR,
    RUL.END.LARGEST_COLOUR
    """
    specials = whites = 0
    per_colour: dict[CardColour, int] = {}
    for card_id in hand:
        if components.is_special(card_id):
            specials += 1
            continue
        colour = components.cards[card_id].colour
        if colour is CardColour.WHITE:
            whites += 1
        else:
            per_colour[colour] = per_colour.get(colour, 0) + 1
    return specials, whites, max(per_colour.values(), default=0)


def owned_goods(
    components: Components, province_tiles: Iterable[str], goods_tiles: Iterable[str]
) -> list[Good]:
    """Every good on a player's province tiles and kept goods bonus tiles."""
    goods: list[Good] = []
    for tile in province_tiles:
        goods.extend(components.province_tiles[tile].goods)
    for tile in goods_tiles:
        good = components.bonus_tiles[tile].good
        if good is not None:
            goods.append(good)
    return goods
