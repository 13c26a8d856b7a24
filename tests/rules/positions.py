"""Hand-built positions for the rule tests, and short ways to drive the engine.

Positions start from :func:`tajmahal.setup.new_game` with an explicit, readable setup
(:func:`outcome`) and are then adjusted with ``attrs.evolve``: a hand, the cards a
player has played, the display, the deck, palaces on the board. The card helpers move
cards rather than copy them, so every one of the 96 regular cards and the 4 special
cards stays in exactly one place (:func:`card_places` checks it). After that, tests
drive the game only through :func:`tajmahal.engine.legal_actions` and
:func:`tajmahal.engine.apply`.

The test modules import this file as ``positions`` (pytest puts ``tests/rules`` on
``sys.path`` because the folder has no ``__init__.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Final

import attrs

from tajmahal.actions import Withdraw, parse_action
from tajmahal.board import CityId
from tajmahal.components import CardId, Components, default_components
from tajmahal.engine import apply, apply_with_events, legal_actions
from tajmahal.events import Event
from tajmahal.rules import (
    AlreadyHeldSpecial,
    ColourChangeFirstTurn,
    MajorityScope,
    Permission,
    RuleSet,
    WithdrawWithoutPlaying,
)
from tajmahal.setup import SetupOutcome, new_game, random_setup
from tajmahal.state import DISPLAY_SIZES, HAND_SIZE, GameState, Palace, PlayerState, Step
from tajmahal.symbols import CardColour, Symbol

COMPONENTS: Final[Components] = default_components()
"""The embedded component set every test position uses."""

NON_DEFAULT_RULES: Final = RuleSet(
    majority_scope=MajorityScope.ALL,
    colour_change_first_turn=ColourChangeFirstTurn.PLAYED_CARD,
    withdraw_without_playing=WithdrawWithoutPlaying.NONE,
    crown_beside_own_palace=Permission.FORBIDDEN,
    own_palace_beside_own_crown=Permission.ALLOWED,
    already_held_special=AlreadyHeldSpecial.KEEP_TILES,
)
"""Every configurable ruling at an option other than its default."""

DEFAULT_ORDER: Final = "ABCDEFGHIJK"
"""The provinces visited in visits 1 to 11 (Agra's province L is always visit 12)."""


# ---------------------------------------------------------------------------------------
# Starting positions


def outcome(players: int = 4, *, start: int = 0, order: str = DEFAULT_ORDER) -> SetupOutcome:
    """A readable setup: province ``order[i]`` is visited in visit ``i + 1``; the square
    bonus tiles lie on the fortresses in sorted order (``bonus-01`` on ``B3`` and so on);
    the sorted deck is dealt from the top."""
    board = COMPONENTS.board
    others = sorted(p for p in board.provinces if p != board.agra_province)
    if sorted(order) != others:
        raise ValueError(f"order must name each of {''.join(others)} once, not {order!r}")
    province_tiles = {
        province: COMPONENTS.province_tile_number(number).id
        for number, province in enumerate(order, start=1)
    }
    province_tiles[board.agra_province] = COMPONENTS.province_tile_number(12).id
    taj = COMPONENTS.taj_mahal_tile.id
    fortresses = sorted(city for city in board.fortresses if city != board.agra)
    squares = sorted(tile for tile in COMPONENTS.bonus_tiles if tile != taj)
    bonus_tiles = dict(zip(fortresses, squares, strict=True))
    bonus_tiles[board.agra] = taj
    cards = sorted(COMPONENTS.cards)
    hands = tuple(
        tuple(cards[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]) for seat in range(players)
    )
    dealt = players * HAND_SIZE
    display = tuple(cards[dealt : dealt + DISPLAY_SIZES[players]])
    deck = tuple(cards[dealt + DISPLAY_SIZES[players] :])
    return SetupOutcome(province_tiles, bonus_tiles, hands, display, deck, start)


def game(
    players: int = 4,
    *,
    start: int = 0,
    order: str = DEFAULT_ORDER,
    rules: RuleSet | None = None,
) -> GameState:
    """The first visit of a game built from :func:`outcome`."""
    return new_game(COMPONENTS, players, outcome(players, start=start, order=order), rules)


def fresh_game(players: int = 4, seed: int = 0, rules: RuleSet | None = None) -> GameState:
    """The first visit of a game with a random setup drawn from ``seed``."""
    return new_game(COMPONENTS, players, random_setup(COMPONENTS, players, seed), rules)


# ---------------------------------------------------------------------------------------
# Moving cards (every card stays in exactly one place)


def _check_cards(cards: Iterable[CardId]) -> tuple[CardId, ...]:
    result = tuple(cards)
    for card in result:
        if card not in COMPONENTS.cards and card not in COMPONENTS.specials:
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
    regular = [card for card in cards if card in COMPONENTS.cards]
    specials = [card for card in cards if card in COMPONENTS.specials]
    return attrs.evolve(
        state,
        deck=(*state.deck, *regular),
        specials_on_table=tuple(sorted((*state.specials_on_table, *specials))),
    )


def with_player(state: GameState, seat: int, **changes: Any) -> GameState:
    """``state`` with fields of one player's :class:`PlayerState` replaced."""
    players = list(state.players)
    players[seat] = attrs.evolve(players[seat], **changes)
    return attrs.evolve(state, players=tuple(players))


def with_hand(state: GameState, seat: int, cards: Iterable[CardId]) -> GameState:
    """Seat ``seat`` holds exactly ``cards`` (taken from wherever they are); the cards it
    held before go under the deck (special cards back to the table)."""
    wanted = _check_cards(cards)
    old = [card for card in state.players[seat].hand if card not in wanted]
    state = _without(state, (*wanted, *old))
    state = _stash(state, old)
    return with_player(state, seat, hand=tuple(sorted(wanted)))


def with_hands(state: GameState, hands: Sequence[Iterable[CardId]]) -> GameState:
    """Every seat's hand at once (see :func:`with_hand`)."""
    for seat, hand in enumerate(hands):
        state = with_hand(state, seat, hand)
    return state


def first_colour(cards: Iterable[CardId]) -> CardColour | None:
    """The colour of the first coloured card among ``cards`` (the visit's colour)."""
    for card in cards:
        regular = COMPONENTS.cards.get(card)
        if regular is not None and regular.colour.is_coloured:
            return regular.colour
    return None


def with_played(
    state: GameState,
    seat: int,
    cards: Iterable[CardId],
    colour: CardColour | None = None,
) -> GameState:
    """Seat ``seat`` has played exactly ``cards`` this visit (taken from wherever they are);
    its colour is ``colour`` or else that of the first coloured card."""
    wanted = _check_cards(cards)
    old = [card for card in state.players[seat].played if card not in wanted]
    state = _without(state, (*wanted, *old))
    state = _stash(state, old)
    return with_player(
        state, seat, played=wanted, colour=colour if colour is not None else first_colour(wanted)
    )


def with_display(state: GameState, cards: Iterable[CardId]) -> GameState:
    """The display holds exactly ``cards``; the cards it held before go under the deck."""
    wanted = _check_cards(cards)
    old = [card for card in state.display if card not in wanted]
    state = _without(state, (*wanted, *old))
    state = _stash(state, old)
    return attrs.evolve(state, display=tuple(sorted(wanted)))


def with_deck_top(state: GameState, cards: Iterable[CardId]) -> GameState:
    """``cards`` lie on top of the deck, first card on top."""
    wanted = _check_cards(cards)
    state = _without(state, wanted)
    return attrs.evolve(state, deck=(*wanted, *state.deck))


def with_deck(state: GameState, cards: Iterable[CardId]) -> GameState:
    """The deck is exactly ``cards`` (top first); the rest of the old deck is discarded."""
    wanted = _check_cards(cards)
    rest = [card for card in state.deck if card not in wanted]
    state = _without(state, (*wanted, *rest))
    return attrs.evolve(state, deck=wanted, discard=tuple(sorted((*state.discard, *rest))))


def with_palaces(state: GameState, *palaces: tuple[CityId, int] | Palace) -> GameState:
    """``state`` with more palaces on the board: ``(city, seat)`` pairs or :class:`Palace`."""
    added = [p if isinstance(p, Palace) else Palace(p[0], p[1]) for p in palaces]
    for palace in added:
        if palace.city not in COMPONENTS.board.cities:
            raise ValueError(f"unknown city {palace.city!r}")
    everything = sorted((*state.palaces, *added), key=lambda p: (p.city, p.seat, p.crowned))
    return attrs.evolve(state, palaces=tuple(everything))


def with_bonus(state: GameState, city: CityId, tile: str) -> GameState:
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
    the court, every player still in the visit, ``start`` (or the start player) to move."""
    begin = state.start_player if start is None else start
    return attrs.evolve(
        state,
        visit=visit,
        step=Step.PLAY,
        to_move=begin,
        start_player=begin,
        court_province_tile=COMPONENTS.province_tile_number(visit).id,
    )


def to_move(state: GameState, seat: int) -> GameState:
    """``state`` with ``seat`` to play."""
    return attrs.evolve(state, step=Step.PLAY, to_move=seat)


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
    places = card_places(state)
    expected = set(COMPONENTS.cards) | set(COMPONENTS.specials)
    return set(places) == expected and all(count == 1 for count in places.values())


SMALL_HANDS: Final = (
    ("red-02", "red-03", "red-14"),
    ("yellow-02", "yellow-03", "yellow-14"),
    ("green-02", "green-03", "green-14"),
    ("violet-02", "violet-03", "violet-14"),
    ("red-15", "yellow-15", "green-15"),
)
"""Three cards per seat (general+monk, monk+princess, elephant+monk), used by :func:`table`."""

PLAIN_DISPLAY: Final = (
    "white-06",
    "white-07",
    "white-08",
    "white-09",
    "white-10",
    "white-11",
    "white-12",
    "green-20",
    "violet-20",
)
"""Display cards (white elephants first) used by :func:`table`."""


def table(
    *played: Sequence[CardId],
    players: int = 4,
    order: str = DEFAULT_ORDER,
    rules: RuleSet | None = None,
) -> GameState:
    """The first visit with :data:`SMALL_HANDS`, a display from :data:`PLAIN_DISPLAY`, seat
    0 to move, and seat ``i`` having played ``played[i]``."""
    state = with_hands(game(players, order=order, rules=rules), SMALL_HANDS[:players])
    state = with_display(state, PLAIN_DISPLAY[: DISPLAY_SIZES[players]])
    for seat, cards in enumerate(played):
        state = with_played(state, seat, cards)
    return state


# ---------------------------------------------------------------------------------------
# Driving the engine


def play(state: GameState, text: str) -> GameState:
    """Apply one action given as its canonical string (``play red-01 white-02``)."""
    return apply(state, parse_action(text))


def run(state: GameState, *texts: str) -> GameState:
    """Apply several actions in turn."""
    for text in texts:
        state = play(state, text)
    return state


def run_events(state: GameState, *texts: str) -> tuple[GameState, list[Event]]:
    """Apply several actions in turn, collecting every event."""
    events: list[Event] = []
    for text in texts:
        state, new = apply_with_events(state, parse_action(text))
        events.extend(new)
    return state, events


def legal(state: GameState) -> set[str]:
    """The legal actions as canonical strings."""
    return {str(action) for action in legal_actions(state)}


def player(state: GameState, seat: int) -> PlayerState:
    """Seat ``seat``'s holdings."""
    return state.players[seat]


def points(events: Iterable[Event], kind: str, seat: int | None = None) -> list[int]:
    """The points of the events of ``kind`` (for ``seat``), in order."""
    return [e.points for e in events if e.kind == kind and (seat is None or e.seat == seat)]


def symbols(cards: Iterable[CardId]) -> Counter[Symbol]:
    """The symbols shown by ``cards``."""
    counted: Counter[Symbol] = Counter()
    for card in cards:
        counted.update(COMPONENTS.card_symbols(card))
    return counted


def finish_visit(state: GameState) -> GameState:
    """Everyone still in the visit withdraws; palaces go to the first legal city and the
    first legal pair is taken from the display, until the next visit starts (or the game
    ends). Stops at a reshuffle."""
    visit = state.visit
    while state.visit == visit and state.step not in (Step.OVER, Step.SHUFFLE):
        if state.step is Step.PLAY:
            state = apply(state, Withdraw())
        else:
            state = apply(state, legal_actions(state)[0])
    return state
