"""Build game positions by naming only what matters; the rest is filled consistently.

A position for a test, a puzzle or a conformance case usually needs a few facts (this
hand, these cards played, a palace here, seat 2 to move) and a consistent remainder:
every one of the 96 regular and 4 special cards in exactly one place, every province and
bonus tile accounted for, a step the engine can continue from. :func:`position` does that
in one call::

    from tajmahal.notation._positions import position
    state = position(
        players=3,
        hands={0: ("red-01", "red-02", "white-01")},
        played={1: ("green-07",)},
        palaces=(("C3", 1),),
        to_move=0,
    )

It starts from :func:`start_position` (a readable setup: province ``order[i]`` is
visited in visit ``i + 1``, bonus tiles on the fortresses in sorted order, the sorted
deck dealt from the top) and applies the ``with_*`` functions below, which are public
too. They move cards rather than copy them: a card named somewhere is taken from
wherever it was, and cards displaced from a hand, the played cards or the display go to
the bottom of the deck (special cards back to the table). The result is checked with
:func:`tajmahal.notation.validate_state` (:func:`check_position`): every card, tile
and palace in one place, and only what play could have reached.

Positions built here are ordinary :class:`~tajmahal.model.GameState` values: continue
them with :func:`tajmahal.engine.apply`, write them with
:func:`tajmahal.notation.state_to_json`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import attrs

from tajmahal.engine import SetupOutcome, new_game
from tajmahal.model import (
    DISPLAY_SIZES,
    HAND_SIZE,
    SYMBOL_INDEX,
    BonusTileId,
    CardColour,
    CardId,
    CityId,
    Components,
    GameState,
    Palace,
    RuleSet,
    Step,
    Symbol,
    Withdrawal,
    default_components,
    palace_sort_key,
)
from tajmahal.notation._validation import validate_state

__all__ = [
    "DEFAULT_ORDER",
    "all_cards_once",
    "at_visit",
    "card_places",
    "check_position",
    "first_colour",
    "position",
    "readable_setup",
    "start_position",
    "to_move",
    "with_bonus",
    "with_deck",
    "with_deck_top",
    "with_display",
    "with_hand",
    "with_hands",
    "with_palaces",
    "with_played",
    "with_player",
]

DEFAULT_ORDER: Final = "ABCDEFGHIJK"
"""The provinces visited in visits 1 to 11 (Agra's province L is always visit 12)."""


def _components(components: Components | None) -> Components:
    return components if components is not None else default_components()


# ---------------------------------------------------------------------------------------
# Starting positions


def readable_setup(
    players: int = 4,
    *,
    start: int = 0,
    order: str = DEFAULT_ORDER,
    components: Components | None = None,
) -> SetupOutcome:
    """A setup anyone can write down: province ``order[i]`` is visited in visit ``i + 1``;
    the square bonus tiles lie on the fortresses in sorted order (``bonus-01`` on the first
    fortress by id, and so on; the Taj Mahal tile on Agra); the sorted cards are dealt from
    the top (six to each seat in turn, then the display, the rest is the deck)."""
    parts = _components(components)
    board = parts.board
    others = sorted(p for p in board.provinces if p != board.agra_province)
    if sorted(order) != others:
        raise ValueError(f"order must name each of {''.join(others)} once, not {order!r}")
    if players not in DISPLAY_SIZES:
        raise ValueError(f"players must be 3, 4 or 5, not {players}")
    province_tiles = {
        province: parts.province_tile_number(number).id
        for number, province in enumerate(order, start=1)
    }
    province_tiles[board.agra_province] = parts.province_tile_number(12).id
    taj = parts.taj_mahal_tile.id
    fortresses = sorted(city for city in board.fortresses if city != board.agra)
    squares = sorted(tile for tile in parts.bonus_tiles if tile != taj)
    bonus_tiles = dict(zip(fortresses, squares, strict=True))
    bonus_tiles[board.agra] = taj
    cards = sorted(parts.cards)
    hands = tuple(
        tuple(cards[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]) for seat in range(players)
    )
    dealt = players * HAND_SIZE
    display = tuple(cards[dealt : dealt + DISPLAY_SIZES[players]])
    deck = tuple(cards[dealt + DISPLAY_SIZES[players] :])
    return SetupOutcome(province_tiles, bonus_tiles, hands, display, deck, start)


def start_position(
    players: int = 4,
    *,
    start: int = 0,
    order: str = DEFAULT_ORDER,
    rules: RuleSet | None = None,
    components: Components | None = None,
) -> GameState:
    """The first visit of a game set up by :func:`readable_setup`."""
    parts = _components(components)
    setup = readable_setup(players, start=start, order=order, components=parts)
    return new_game(parts, players, setup, rules)


# ---------------------------------------------------------------------------------------
# Moving cards (every card stays in exactly one place)


def _check_cards(state: GameState, cards: Iterable[CardId]) -> tuple[CardId, ...]:
    parts = state.config.components
    result = tuple(cards)
    for card in result:
        if card not in parts.cards and card not in parts.specials:
            raise ValueError(f"unknown card {card!r}")
    if len(set(result)) != len(result):
        raise ValueError(f"a card is listed twice: {result}")
    return result


def _without(state: GameState, cards: Iterable[CardId]) -> GameState:
    """``state`` with ``cards`` taken out of every place they could be."""
    gone = set(cards)

    def keep(sequence: Sequence[CardId]) -> tuple[CardId, ...]:
        return tuple(card for card in sequence if card not in gone)

    players = tuple(
        attrs.evolve(player, hand=keep(player.hand), played=keep(player.played))
        for player in state.players
    )
    return attrs.evolve(
        state,
        players=players,
        deck=keep(state.deck),
        display=keep(state.display),
        discard=keep(state.discard),
        specials_on_table=keep(state.specials_on_table),
    )


def _stash(state: GameState, cards: Iterable[CardId]) -> GameState:
    """Put loose cards away: regular cards under the deck, special cards on the table."""
    parts = state.config.components
    regular = [card for card in cards if card in parts.cards]
    specials = [card for card in cards if card in parts.specials]
    return attrs.evolve(
        state,
        deck=(*state.deck, *regular),
        specials_on_table=tuple(sorted((*state.specials_on_table, *specials))),
    )


def with_player(state: GameState, seat: int, **changes: Any) -> GameState:
    """``state`` with fields of one player's :class:`~tajmahal.model.PlayerState`
    replaced (no consistency checks: use the card functions for cards)."""
    players = list(state.players)
    players[seat] = attrs.evolve(players[seat], **changes)
    return attrs.evolve(state, players=tuple(players))


def with_hand(state: GameState, seat: int, cards: Iterable[CardId]) -> GameState:
    """Seat ``seat`` holds exactly ``cards`` (taken from wherever they are); the cards it
    held before go under the deck (special cards back to the table)."""
    wanted = _check_cards(state, cards)
    old = [card for card in state.players[seat].hand if card not in wanted]
    state = _without(state, (*wanted, *old))
    state = _stash(state, old)
    return with_player(state, seat, hand=tuple(sorted(wanted)))


def with_hands(state: GameState, hands: Sequence[Iterable[CardId]]) -> GameState:
    """Every seat's hand at once (see :func:`with_hand`)."""
    for seat, hand in enumerate(hands):
        state = with_hand(state, seat, hand)
    return state


def first_colour(
    cards: Iterable[CardId], components: Components | None = None
) -> CardColour | None:
    """The colour of the first coloured card among ``cards`` (the visit's colour)."""
    parts = _components(components)
    for card in cards:
        regular = parts.cards.get(card)
        if regular is not None and regular.colour.is_coloured:
            return regular.colour
    return None


def with_played(
    state: GameState,
    seat: int,
    cards: Iterable[CardId],
    colour: CardColour | None = None,
) -> GameState:
    """Seat ``seat`` has played exactly ``cards`` this visit (taken from wherever they are,
    in play order); its colour is ``colour`` or else that of the first coloured card."""
    wanted = _check_cards(state, cards)
    old = [card for card in state.players[seat].played if card not in wanted]
    state = _without(state, (*wanted, *old))
    state = _stash(state, old)
    chosen = colour if colour is not None else first_colour(wanted, state.config.components)
    return with_player(state, seat, played=wanted, colour=chosen)


def with_display(state: GameState, cards: Iterable[CardId]) -> GameState:
    """The display holds exactly ``cards``; the cards it held before go under the deck."""
    wanted = _check_cards(state, cards)
    old = [card for card in state.display if card not in wanted]
    state = _without(state, (*wanted, *old))
    state = _stash(state, old)
    return attrs.evolve(state, display=tuple(sorted(wanted)))


def with_deck_top(state: GameState, cards: Iterable[CardId]) -> GameState:
    """``cards`` lie on top of the deck, first card on top."""
    wanted = _check_cards(state, cards)
    state = _without(state, wanted)
    return attrs.evolve(state, deck=(*wanted, *state.deck))


def with_deck(state: GameState, cards: Iterable[CardId]) -> GameState:
    """The deck is exactly ``cards`` (top first); the rest of the old deck is discarded."""
    wanted = _check_cards(state, cards)
    rest = [card for card in state.deck if card not in wanted]
    state = _without(state, (*wanted, *rest))
    return attrs.evolve(state, deck=wanted, discard=tuple(sorted((*state.discard, *rest))))


def with_palaces(state: GameState, *palaces: tuple[CityId, int] | Palace) -> GameState:
    """``state`` with more palaces on the board: ``(city, seat)`` pairs or
    :class:`~tajmahal.model.Palace` values."""
    added = [p if isinstance(p, Palace) else Palace(p[0], p[1]) for p in palaces]
    for palace in added:
        if palace.city not in state.config.components.board.cities:
            raise ValueError(f"unknown city {palace.city!r}")
    everything = sorted((*state.palaces, *added), key=palace_sort_key)
    return attrs.evolve(state, palaces=tuple(everything))


def with_bonus(state: GameState, city: CityId, tile: BonusTileId) -> GameState:
    """Bonus tile ``tile`` lies on fortress ``city``; the tile lying there before swaps
    places with it (so each bonus tile still lies on one fortress at most)."""
    board = dict(state.bonus_on_board)
    previous = board.get(city)
    where = next((c for c, t in board.items() if t == tile), None)
    if where is not None and previous is not None:
        board[where] = previous
    elif where is not None:
        del board[where]
    board[city] = tile
    return attrs.evolve(state, bonus_on_board=tuple(sorted(board.items())))


def at_visit(state: GameState, visit: int, *, start: int | None = None) -> GameState:
    """The start of visit ``visit`` in otherwise the same position: its province tile in
    the court, every player still in the visit, ``start`` (or the start player) to move.

    Province tiles of earlier visits that nobody holds count as unwon; the court's
    influence tiles and the crown are left as they are."""
    begin = state.start_player if start is None else start
    return attrs.evolve(
        state,
        visit=visit,
        step=Step.PLAY,
        to_move=begin,
        start_player=begin,
        court_province_tile=state.config.components.province_tile_number(visit).id,
    )


def to_move(state: GameState, seat: int) -> GameState:
    """``state`` with ``seat`` to play."""
    return attrs.evolve(state, step=Step.PLAY, to_move=seat)


# ---------------------------------------------------------------------------------------
# Checks


def card_places(state: GameState) -> Counter[CardId]:
    """How many places hold each card (every card once in a consistent position)."""
    places: Counter[CardId] = Counter()
    for player in state.players:
        places.update(player.hand)
        places.update(player.played)
    places.update(state.deck)
    places.update(state.display)
    places.update(state.discard)
    places.update(state.specials_on_table)
    return places


def all_cards_once(state: GameState) -> bool:
    """True when each of the 100 cards lies in exactly one place."""
    parts = state.config.components
    places = card_places(state)
    expected = set(parts.cards) | set(parts.specials)
    return set(places) == expected and all(count == 1 for count in places.values())


def check_position(state: GameState) -> GameState:
    """``state`` itself once it passes :func:`tajmahal.notation.validate_state` (every
    card, tile and palace in one place, tiles and palaces of visits already reached, step,
    player to move, withdrawal and pending draw agreeing); raises
    :class:`~tajmahal.errors.StateFormatError` naming the first inconsistency."""
    validate_state(state)
    return state


# ---------------------------------------------------------------------------------------
# The one-call builder


def _per_seat(value: Mapping[int, Any] | Sequence[Any] | None) -> dict[int, Any]:
    if value is None:
        return {}
    if isinstance(value, Mapping):
        return dict(value)
    return dict(enumerate(value))


def position(
    players: int = 4,
    *,
    rules: RuleSet | None = None,
    components: Components | None = None,
    start: int = 0,
    order: str = DEFAULT_ORDER,
    visit: int = 1,
    hands: Mapping[int, Iterable[CardId]] | Sequence[Iterable[CardId]] | None = None,
    played: Mapping[int, Iterable[CardId]] | Sequence[Iterable[CardId]] | None = None,
    colours: Mapping[int, CardColour | None] | None = None,
    display: Iterable[CardId] | None = None,
    deck_top: Iterable[CardId] | None = None,
    deck: Iterable[CardId] | None = None,
    palaces: Iterable[tuple[CityId, int] | Palace] = (),
    bonus: Mapping[CityId, BonusTileId] | None = None,
    influence: Mapping[int, Iterable[Symbol]] | None = None,
    court_influence: Iterable[Symbol] | None = None,
    crown_in_court: bool | None = None,
    province_tiles: Mapping[int, Iterable[str]] | None = None,
    goods_tiles: Mapping[int, Iterable[BonusTileId]] | None = None,
    scores: Mapping[int, int] | Sequence[int] | None = None,
    withdrawn: Iterable[int] = (),
    to_move: int | None = None,
    withdrawal: Withdrawal | None = None,
) -> GameState:
    """A checked position where only the named facts are chosen.

    ``players``, ``rules``, ``components``, ``start`` and ``order`` choose the game
    (:func:`start_position`); ``visit`` moves it to the start of that visit
    (:func:`at_visit`, the start player to move). Then, in this order: ``hands`` (by seat:
    a mapping or a sequence), ``played`` and ``colours`` (a seat's visit colour, default
    that of its first coloured played card), ``display`` (when not named, the display is
    topped up from the deck if named cards were taken from it), ``deck`` (the whole deck, top
    first: the rest of the old deck is discarded), ``deck_top``, ``palaces`` (``(city,
    seat)`` pairs or :class:`~tajmahal.model.Palace` values; a bonus tile under a normal
    palace was taken with it: off the board, a goods tile kept by the palace's owner),
    ``bonus`` (city: tile), ``influence`` and ``court_influence`` (tiles held and left in
    the court; the court keeps its tiles unless named), ``crown_in_court``,
    ``province_tiles`` and ``goods_tiles`` (tiles held by a seat; a goods tile leaves the
    board), ``scores``, ``withdrawn`` (seats out of the visit), ``to_move``, and
    ``withdrawal`` (a withdrawal in progress: the withdrawing seat moves and the step is
    ``place`` while a palace or the crown is owed, else ``take``).

    Raises :class:`~tajmahal.errors.StateFormatError` when the result is inconsistent and
    :class:`ValueError` for an unknown card, city or province order.
    """
    state = start_position(players, start=start, order=order, rules=rules, components=components)
    if visit != 1:
        state = at_visit(state, visit)
    for seat, cards in _per_seat(hands).items():
        state = with_hand(state, seat, cards)
    for seat, cards in _per_seat(played).items():
        state = with_played(state, seat, cards)
    for seat, colour in (colours or {}).items():
        state = with_player(state, seat, colour=colour)
    size = DISPLAY_SIZES[players]
    if display is None and len(state.display) < size:
        refill = state.deck[: size - len(state.display)]
        state = with_display(state, (*state.display, *refill))
    if display is not None:
        state = with_display(state, display)
    if deck is not None:
        state = with_deck(state, deck)
    if deck_top is not None:
        state = with_deck_top(state, deck_top)
    if palaces:
        state = with_palaces(state, *palaces)
        state = _bonus_taken(state)
    for city, tile in (bonus or {}).items():
        state = with_bonus(state, city, tile)
    for seat, symbols in (influence or {}).items():
        state = with_player(state, seat, influence=_symbol_order(symbols))
    if court_influence is not None:
        state = attrs.evolve(state, court_influence=_symbol_order(court_influence))
    if crown_in_court is not None:
        state = attrs.evolve(state, crown_in_court=crown_in_court)
    for seat, tiles in (province_tiles or {}).items():
        state = with_player(state, seat, province_tiles=tuple(tiles))
    for seat, goods in (goods_tiles or {}).items():
        kept = tuple(goods)
        remaining = tuple((c, t) for c, t in state.bonus_on_board if t not in kept)
        state = with_player(state, seat, goods_tiles=kept)
        state = attrs.evolve(state, bonus_on_board=remaining)
    for seat, score in _per_seat(scores).items():
        state = with_player(state, seat, score=score)
    for seat in withdrawn:
        state = with_player(state, seat, withdrawn=True)
    if to_move is not None:
        state = attrs.evolve(state, step=Step.PLAY, to_move=to_move)
    if withdrawal is not None:
        owed = withdrawal.palaces_owed > 0 or withdrawal.crown_owed
        state = with_player(state, withdrawal.seat, withdrawn=True)
        state = attrs.evolve(
            state,
            withdrawal=withdrawal,
            step=Step.PLACE if owed else Step.TAKE,
            to_move=withdrawal.seat,
        )
    return check_position(state)


def _bonus_taken(state: GameState) -> GameState:
    """Bonus tiles under a normal palace were taken when it was placed: off the board, and
    a goods tile kept by the palace's owner."""
    owners = {p.city: p.seat for p in state.palaces if not p.crowned}
    parts = state.config.components
    for city, tile in state.bonus_on_board:
        if city not in owners:
            continue
        if parts.bonus_tiles[tile].good is not None:
            seat = owners[city]
            state = with_player(state, seat, goods_tiles=(*state.players[seat].goods_tiles, tile))
    kept = tuple((city, tile) for city, tile in state.bonus_on_board if city not in owners)
    return attrs.evolve(state, bonus_on_board=kept)


def _symbol_order(symbols: Iterable[Symbol]) -> tuple[Symbol, ...]:
    return tuple(sorted(symbols, key=SYMBOL_INDEX.__getitem__))
