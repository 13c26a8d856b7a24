"""Setup: the chance outcomes of preparing a game, and the initial state built from them.

A :class:`SetupOutcome` holds every random result of the setup explicitly (which
province tile lies on which province, which bonus tile on which fortress, the hands,
the display, the order of the deck, the start player). A record stores it, so a
game replays without any random generator; :func:`random_setup` draws one from a seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

import attrs

from tajmahal.errors import RecordError
from tajmahal.model import (
    DISPLAY_SIZES,
    HAND_SIZE,
    INFLUENCE_SYMBOLS,
    BonusTileId,
    CardId,
    CityId,
    Components,
    GameConfig,
    GameState,
    PlayerState,
    ProvinceId,
    ProvinceTileId,
    RuleSet,
    Step,
)


@attrs.frozen
class SetupOutcome:
    """Every chance outcome of the setup."""

    province_tiles: Mapping[ProvinceId, ProvinceTileId]
    """The province tile lying on each province (tile 12 on Agra's)."""
    bonus_tiles: Mapping[CityId, BonusTileId]
    """The bonus tile lying on each fortress (the Taj Mahal tile on Agra)."""
    hands: tuple[tuple[CardId, ...], ...]
    """The six cards dealt to each seat."""
    display: tuple[CardId, ...]
    """The cards of the first display."""
    deck: tuple[CardId, ...]
    """The deck after dealing, top card first."""
    start_player: int
    """The seat chosen to start (RUL.SETUP.START_PLAYER)."""


def random_setup(components: Components, players: int, seed: int) -> SetupOutcome:
    """Draw a setup from ``seed`` with Python's ``random.Random`` (only here and in
    :func:`tajmahal.engine.random_reshuffle`; records never depend on it).

    Implements: TM.SETUP.PROVINCE.AGRA_TWELVE, TM.SETUP.PROVINCE.SHUFFLE, TM.SETUP.BONUS.TAJ,
    TM.SETUP.BONUS.FORTRESSES, TM.SETUP.DECK.SHUFFLE, TM.SETUP.HANDS, TM.SETUP.DISPLAY.SIZE,
    TM.SETUP.START_PLAYER
    """
    if players not in DISPLAY_SIZES:
        raise ValueError(f"Taj Mahal is for 3 to 5 players, not {players}")
    rng = random.Random(seed)
    board = components.board
    agra_province = board.agra_province
    tile_twelve = components.province_tile_number(12).id
    other_tiles = sorted(
        tile.id for tile in components.province_tiles.values() if tile.id != tile_twelve
    )
    rng.shuffle(other_tiles)
    other_provinces = sorted(p for p in board.provinces if p != agra_province)
    province_tiles = dict(zip(other_provinces, other_tiles, strict=True))
    province_tiles[agra_province] = tile_twelve

    taj = components.taj_mahal_tile.id
    squares = sorted(tile for tile in components.bonus_tiles if tile != taj)
    rng.shuffle(squares)
    other_fortresses = sorted(city for city in board.fortresses if city != board.agra)
    bonus_tiles = dict(zip(other_fortresses, squares, strict=True))
    bonus_tiles[board.agra] = taj

    deck = sorted(components.cards)
    rng.shuffle(deck)
    hands = tuple(tuple(deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]) for seat in range(players))
    dealt = players * HAND_SIZE
    display_size = DISPLAY_SIZES[players]
    display = tuple(deck[dealt : dealt + display_size])
    rest = tuple(deck[dealt + display_size :])
    start = rng.randrange(players)
    return SetupOutcome(province_tiles, bonus_tiles, hands, display, rest, start)


def validate_setup(
    components: Components, players: int, setup: SetupOutcome, source: str = ""
) -> None:
    """Check a setup outcome against the components and the setup rules.

    Raises :class:`RecordError` naming the field (``setup.hands[2]`` ...).
    """
    board = components.board
    if players not in DISPLAY_SIZES:
        raise RecordError(
            f"Taj Mahal is for 3 to 5 players, not {players}", source=source, field="players"
        )
    _check_one_each(
        setup.province_tiles,
        board.provinces,
        components.province_tiles,
        "setup.province_tiles",
        source,
        need="province needs one tile",
        strangers="unknown",
        tile="province tile",
        place="province",
    )
    agra_tile = components.province_tiles[setup.province_tiles[board.agra_province]]
    if agra_tile.number != 12:
        raise RecordError(
            f"province tile 12 lies on Agra's province {board.agra_province}, "
            f"found tile {agra_tile.number}",
            source=source,
            field=f"setup.province_tiles.{board.agra_province}",
        )
    _check_one_each(
        setup.bonus_tiles,
        board.fortresses,
        components.bonus_tiles,
        "setup.bonus_tiles",
        source,
        need="fortress needs one bonus tile",
        strangers="not fortresses",
        tile="bonus tile",
        place="fortress",
    )
    if setup.bonus_tiles[board.agra] != components.taj_mahal_tile.id:
        raise RecordError(
            "the Taj Mahal tile lies on Agra",
            source=source,
            field=f"setup.bonus_tiles.{board.agra}",
        )
    if len(setup.hands) != players:
        raise RecordError(
            f"expected {players} hands, found {len(setup.hands)}",
            source=source,
            field="setup.hands",
        )
    seen: dict[CardId, str] = {}
    dealt = [card for hand in setup.hands for card in hand]
    dealt += setup.display
    dealt += setup.deck
    # Every card known and dealt once: the per-card checks below cannot fail, so they are
    # skipped (they name the first bad card otherwise).
    clean = len(dealt) == len(components.cards) == len(set(dealt)) and all(
        card in components.cards for card in dealt
    )

    def claim(card: CardId, where: str) -> None:
        if card not in components.cards:
            raise RecordError(f"unknown card id {card!r}", source=source, field=where)
        if card in seen:
            raise RecordError(
                f"card {card!r} appears twice (also at {seen[card]})", source=source, field=where
            )
        seen[card] = where

    for seat, hand in enumerate(setup.hands):
        if len(hand) != HAND_SIZE:
            raise RecordError(
                f"each hand has {HAND_SIZE} cards, found {len(hand)}",
                source=source,
                field=f"setup.hands[{seat}]",
            )
        if not clean:
            for index, card in enumerate(hand):
                claim(card, f"setup.hands[{seat}][{index}]")
    if len(setup.display) != DISPLAY_SIZES[players]:
        raise RecordError(
            f"the display has {DISPLAY_SIZES[players]} cards for {players} "
            f"players, found {len(setup.display)}",
            source=source,
            field="setup.display",
        )
    if not clean:
        for index, card in enumerate(setup.display):
            claim(card, f"setup.display[{index}]")
        for index, card in enumerate(setup.deck):
            claim(card, f"setup.deck[{index}]")
    if not clean and len(seen) != len(components.cards):
        missing = sorted(set(components.cards) - set(seen))
        raise RecordError(
            f"the 96 cards must all be dealt, displayed or in the deck; missing "
            f"{missing[:5]}{'...' if len(missing) > 5 else ''}",
            source=source,
            field="setup.deck",
        )
    if not 0 <= setup.start_player < players:
        raise RecordError(
            f"start player must be a seat from 0 to {players - 1}",
            source=source,
            field="setup.start_player",
        )


def _check_one_each(
    layout: Mapping[str, str],
    places: Iterable[str],
    tiles: Mapping[str, object],
    field: str,
    source: str,
    *,
    need: str,
    strangers: str,
    tile: str,
    place: str,
) -> None:
    """Check that ``layout`` lays one of ``tiles`` on each of ``places`` and each tile on
    exactly one place (province tiles on provinces, bonus tiles on fortresses).

    Raises :class:`RecordError` naming ``field`` (or its entry): "every {need}" when
    places are missing or ``strangers`` (not among ``places``) are named, an unknown
    ``tile`` id, or a tile not on exactly one ``place``.
    """
    wanted = set(places)
    if set(layout) != wanted:
        missing = sorted(wanted - set(layout))
        extra = sorted(set(layout) - wanted)
        raise RecordError(
            f"every {need} (missing {missing}, {strangers} {extra})", source=source, field=field
        )
    for where, laid in sorted(layout.items()):
        if laid not in tiles:
            raise RecordError(
                f"unknown {tile} id {laid!r}", source=source, field=f"{field}.{where}"
            )
    if sorted(layout.values()) != sorted(tiles):
        raise RecordError(
            f"each {tile} must lie on exactly one {place}", source=source, field=field
        )


def new_game(
    components: Components, players: int, setup: SetupOutcome, rules: RuleSet | None = None
) -> GameState:
    """The state at the start of the first visit, built from an explicit setup outcome.

    Implements: TM.SETUP.COURT.INFLUENCE, TM.SETUP.COURT.CROWN, TM.SETUP.SPECIALS.TABLE,
    TM.SETUP.DECK.DRAW_PILE, TM.SETUP.PLAYER_COLOURS, TM.SETUP.FIRST_PROVINCE, TM.SETUP.VISIT_ORDER,
    TM.SETUP.PLAYER_COUNT, TM.TURN.START_PLAYER_BEGINS
    """
    validate_setup(components, players, setup)
    by_number = {
        components.province_tiles[tile].number: province
        for province, tile in setup.province_tiles.items()
    }
    order = tuple(by_number[number] for number in range(1, 13))
    first_tile = setup.province_tiles[order[0]]
    return GameState(
        config=GameConfig(players, rules if rules is not None else RuleSet(), components),
        visit=1,
        step=Step.PLAY,
        to_move=setup.start_player,
        start_player=setup.start_player,
        players=tuple(PlayerState(hand=tuple(sorted(hand))) for hand in setup.hands),
        deck=tuple(setup.deck),
        discard=(),
        display=tuple(sorted(setup.display)),
        specials_on_table=tuple(sorted(components.specials)),
        court_influence=INFLUENCE_SYMBOLS,
        crown_in_court=True,
        court_province_tile=first_tile,
        province_order=order,
        bonus_on_board=tuple(sorted(setup.bonus_tiles.items())),
        palaces=(),
    )
