"""Checking that a state could arise in play (:func:`validate_state`): its frame and
where each card, tile and influence tile is.

Validation is kept apart from reading: positions built in code
(:mod:`tajmahal.notation`) are checked by it too. The checks of the visit in progress
(palaces, the withdrawal being resolved, the step) are in
:mod:`tajmahal.notation`.
"""

from __future__ import annotations

from tajmahal.errors import StateFormatError
from tajmahal.model import (
    DISPLAY_SIZES,
    INFLUENCE_SYMBOLS,
    INFLUENCE_TILES_PER_KIND,
    VISITS,
    CardColour,
    GameState,
    PlayerState,
    SpecialKind,
    Step,
    Symbol,
)
from tajmahal.notation._validation_visit import check_palaces, check_step, check_withdrawal


def validate_state(state: GameState) -> None:
    """Check that a state's contents make sense for its components and could arise in
    play; raises :class:`StateFormatError` naming the first field that does not.

    Loading a position written by hand or by another program must fail here, with a clear
    message, rather than later inside the engine: every position this accepts can be
    played on (each legal action applies, and the game goes on to its end) without any
    exception. The checks are the invariants play keeps: each card, tile and palace is in
    one place; tiles and palaces belong to visits already reached; the step, the player
    to move, the withdrawal being resolved and the pending draw agree with each other.
    """
    _check_frame(state)
    _check_cards(state)
    _check_players(state)
    _check_province_tiles(state)
    _check_bonus_tiles(state)
    _check_influence(state)
    check_palaces(state)
    check_withdrawal(state)
    check_step(state)


def _check_frame(state: GameState) -> None:
    board = state.config.components.board
    count = state.config.players
    if count not in (3, 4, 5):
        raise StateFormatError(f"players: expected 3, 4 or 5, found {count}")
    if len(state.players) != count:
        raise StateFormatError(f"seats: expected {count} seats, found {len(state.players)}")
    if not 1 <= state.visit <= VISITS:
        raise StateFormatError(f"visit: expected 1 to {VISITS}, found {state.visit}")
    for name, seat in (("to_move", state.to_move), ("start_player", state.start_player)):
        if seat is not None and not 0 <= seat < count:
            raise StateFormatError(f"{name}: no seat {seat} in a {count}-player game")
    if (state.to_move is None) != (state.step in (Step.SHUFFLE, Step.OVER)):
        raise StateFormatError("to_move: null exactly when the step is shuffle or over")
    if sorted(state.province_order) != sorted(board.provinces):
        raise StateFormatError("province_order: must name each province once")
    if state.province_order[-1] != board.agra_province:
        raise StateFormatError(
            f"province_order: Agra's province {board.agra_province} is visited last "
            "(TM.SETUP.PROVINCE_TILES)"
        )


def _check_cards(state: GameState) -> None:
    """Each of the 100 cards in exactly one place; special cards only in a hand, among
    the cards played this visit, or on the table; the display no larger than at setup."""
    if not _cards_in_place(state):
        _find_misplaced_card(state)
    size = DISPLAY_SIZES[state.config.players]
    if len(state.display) > size:
        raise StateFormatError(
            f"display: {len(state.display)} cards; a {state.config.players}-player display "
            f"holds at most {size} (TM.SETUP.DISPLAY.SIZE)"
        )


def _cards_in_place(state: GameState) -> bool:
    """True when :func:`_find_misplaced_card` finds nothing, worked out at once: every
    card of the set exactly once, the special cards only in hands, among the cards
    played, or on the table."""
    components = state.config.components
    known = _CARD_IDS.get(components.digest)
    if known is None:
        known = _CARD_IDS[components.digest] = (
            frozenset(components.cards) | frozenset(components.specials),
            frozenset(components.specials),
        )
    every, specials = known
    groups = [state.deck, state.discard, state.display]
    for player in state.players:
        groups.append(player.hand)
        groups.append(player.played)
    table = state.specials_on_table
    held = set().union(*groups)
    count = sum(map(len, groups))
    return (
        count + len(table) == len(every)
        and len(held) == count
        and held.isdisjoint(table)
        and specials.issuperset(table)
        and every.issuperset(held)
        and len(held.union(table)) == len(every)
        and specials.isdisjoint(state.deck)
        and specials.isdisjoint(state.discard)
        and specials.isdisjoint(state.display)
    )


_CARD_IDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
"""Per component set (by digest): every card id, and the special cards' ids."""


def _find_misplaced_card(state: GameState) -> None:
    """Raise for the first card out of place, naming its field."""
    components = state.config.components
    places: dict[str, str] = {}

    def place(card: str, where: str) -> None:
        if card not in components.cards and card not in components.specials:
            raise StateFormatError(f"{where}: unknown card id {card!r}")
        if card in places:
            raise StateFormatError(f"{where}: card {card!r} is also at {places[card]}")
        places[card] = where

    for index, player in enumerate(state.players):
        for field_name in ("hand", "played"):
            for position, card in enumerate(getattr(player, field_name)):
                place(card, f"seats[{index}].{field_name}[{position}]")
    for field_name in ("deck", "discard", "display", "specials_on_table"):
        for position, card in enumerate(getattr(state, field_name)):
            place(card, f"{field_name}[{position}]")
            special = card in components.specials
            if special != (field_name == "specials_on_table"):
                raise StateFormatError(
                    f"{field_name}[{position}]: {card!r} "
                    + (
                        "is a special card; special cards are only held, played or on the "
                        "table (TM.SPECIAL.RETURN_TO_HAND)"
                        if special
                        else "is not a special card"
                    )
                )
    missing = (set(components.cards) | set(components.specials)) - set(places)
    if missing:
        raise StateFormatError(
            f"cards: every card must be somewhere; missing {sorted(missing)[:5]}"
        )


def _check_played(state: GameState, index: int, player: PlayerState) -> None:
    """The cards played this visit read as plays (a coloured card, then at most one white
    or special card), each in the player's colour unless it came with the colour-change
    card; a player with a colour has played, and a withdrawn player's cards have left
    the table once their withdrawal is scored."""
    components = state.config.components
    where = f"seats[{index}]"
    colour_change = next(
        (s.id for s in components.specials.values() if s.kind is SpecialKind.COLOUR_CHANGE), None
    )
    played = player.played
    position = 0
    while position < len(played):
        card = components.cards.get(played[position])
        if card is None or card.colour is CardColour.WHITE:
            raise StateFormatError(
                f"{where}.played[{position}]: a play starts with one coloured card "
                "(TM.PLAY.ONE_COLOURED, TM.PLAY.NEVER_ALONE)"
            )
        extra = played[position + 1] if position + 1 < len(played) else None
        if extra is not None:
            extra_card = components.cards.get(extra)
            if extra_card is not None and extra_card.colour is not CardColour.WHITE:
                extra = None
        if extra != colour_change and card.colour is not player.colour:
            raise StateFormatError(
                f"{where}.played[{position}]: {card.id} is {card.colour.value} but the "
                f"player's colour is "
                f"{player.colour.value if player.colour is not None else 'not set'} "
                "(TM.PLAY.COLOUR_LOCK)"
            )
        position += 1 if extra is None else 2
    withdrawal = state.withdrawal
    resolving = withdrawal is not None and withdrawal.seat == index and not withdrawal.scored
    if player.withdrawn and played and not resolving:
        raise StateFormatError(
            f"{where}.played: a withdrawn player's cards leave the table when the "
            "withdrawal is scored (TM.WITHDRAW.DISCARD)"
        )
    if not player.withdrawn and player.colour is not None and not played:
        raise StateFormatError(
            f"{where}.colour: a player still in the visit has a colour only after playing"
        )


def _check_players(state: GameState) -> None:
    for index, player in enumerate(state.players):
        where = f"seats[{index}]"
        if player.score < 0:
            raise StateFormatError(f"{where}.score: scores are never negative")
        counts = player.withdrawn_counts
        if counts is not None and (
            not player.withdrawn
            or len(counts) != len(Symbol)
            or any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts)
        ):
            raise StateFormatError(
                f"{where}.withdrawn_counts: a withdrawn player's {len(Symbol)} symbol "
                "counts (non-negative), or null"
            )
        _check_played(state, index, player)


def _check_province_tiles(state: GameState) -> None:
    """Province tile ``n`` is won in visit ``n`` by one player at most; the court shows
    the current visit's tile until it is won."""
    components = state.config.components
    current = components.province_tile_number(state.visit).id
    holders: dict[str, str] = {}
    for index, player in enumerate(state.players):
        for position, tile in enumerate(player.province_tiles):
            where = f"seats[{index}].province_tiles[{position}]"
            if tile not in components.province_tiles:
                raise StateFormatError(f"{where}: unknown tile {tile!r}")
            if tile in holders:
                raise StateFormatError(f"{where}: {tile} is also held at {holders[tile]}")
            holders[tile] = where
            if components.province_tiles[tile].number > state.visit:
                raise StateFormatError(
                    f"{where}: {tile} is won in visit {components.province_tiles[tile].number}, "
                    f"not reached yet (visit {state.visit})"
                )
    court_tile = state.court_province_tile
    if court_tile is not None:
        if court_tile != current:
            raise StateFormatError(
                f"court_province_tile: visit {state.visit} shows its own tile {current}, "
                f"not {court_tile!r} (TM.VISIT.NEXT.PROVINCE_TILE)"
            )
        if court_tile in holders:
            raise StateFormatError(f"court_province_tile: {court_tile} is also held")
    won = state.withdrawal.province_won if state.withdrawal is not None else None
    if won is not None:
        if won != current:
            raise StateFormatError(
                f"withdrawal.province_won: only this visit's tile {current} can be won, not {won!r}"
            )
        assert state.withdrawal is not None
        seat = state.withdrawal.seat
        expected = f"seats[{seat}].province_tiles" if state.withdrawal.scored else None
        found = holders.get(won, "").rpartition("[")[0] or None
        if court_tile is not None or found != expected:
            raise StateFormatError(
                f"withdrawal.province_won: {won} leaves the court when won and is held by "
                "the withdrawing player once scored (TM.SCORE.PROVINCE)"
            )


def _check_bonus_tiles(state: GameState) -> None:
    """A bonus tile lies on one fortress (the Taj Mahal tile on Agra) until a normal
    palace takes it; a goods tile taken is held by one player."""
    components = state.config.components
    board = components.board
    fortresses = board.fortresses
    taj_mahal = components.taj_mahal_tile.id
    places: dict[str, str] = {}
    normal_palaces = {palace.city for palace in state.palaces if not palace.crowned}
    for city, tile in state.bonus_on_board:
        where = f"bonus_on_board.{city}"
        if city not in fortresses:
            raise StateFormatError(f"{where}: not a fortress city")
        if tile not in components.bonus_tiles:
            raise StateFormatError(f"{where}: unknown bonus tile {tile!r}")
        if tile in places:
            raise StateFormatError(f"{where}: {tile} also lies at {places[tile]}")
        places[tile] = where
        if (tile == taj_mahal) != (city == board.agra):
            raise StateFormatError(
                f"{where}: the Taj Mahal tile lies on Agra and only there (TM.SETUP.BONUS_TILES)"
            )
        if city in normal_palaces:
            raise StateFormatError(
                f"{where}: a normal palace stands here and would have taken the tile "
                "(TM.REWARD.FORTRESS.BONUS)"
            )
    for index, player in enumerate(state.players):
        for position, tile in enumerate(player.goods_tiles):
            where = f"seats[{index}].goods_tiles[{position}]"
            if tile not in components.bonus_tiles or components.bonus_tiles[tile].good is None:
                raise StateFormatError(f"{where}: {tile!r} is not a goods bonus tile")
            if tile in places:
                raise StateFormatError(f"{where}: {tile} is also at {places[tile]}")
            places[tile] = where


def _check_influence(state: GameState) -> None:
    """Influence tiles: the four kinds only, at most one of a kind in the court and six of
    a kind in all (TM.COMP.INFLUENCE_TILES)."""
    court = state.court_influence
    for symbol in set(court):
        if symbol not in INFLUENCE_SYMBOLS:
            raise StateFormatError(f"court_influence: {symbol.value} is not an influence tile")
        if court.count(symbol) > 1:
            raise StateFormatError(f"court_influence: two {symbol.value} tiles in the court")
    for index, player in enumerate(state.players):
        for symbol in set(player.influence):
            if symbol not in INFLUENCE_SYMBOLS:
                raise StateFormatError(
                    f"seats[{index}].influence: {symbol.value} is not an influence tile"
                )
    for symbol in INFLUENCE_SYMBOLS:
        total = court.count(symbol) + sum(p.influence.count(symbol) for p in state.players)
        if total > INFLUENCE_TILES_PER_KIND:
            raise StateFormatError(
                f"court_influence: {total} {symbol.value} tiles in play; there are "
                f"{INFLUENCE_TILES_PER_KIND} (TM.COMP.INFLUENCE_TILES)"
            )


# The functions are documented under tajmahal.notation, which users import them from.
__all__: list[str] = []
