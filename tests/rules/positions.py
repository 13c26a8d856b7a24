"""Hand-built positions for the rule tests, and short ways to drive the engine.

Positions are built with the public builder :mod:`tajmahal.notation` (re-exported
here): a readable setup (:func:`outcome`), then a hand, the cards a player has played,
the display, the deck, palaces on the board. The card helpers move cards rather than
copy them, so every one of the 96 regular cards and the 4 special cards stays in
exactly one place (:func:`card_places` checks it). After that, tests drive the game
only through :func:`tajmahal.engine.legal_actions` and :func:`tajmahal.engine.apply`.

The test modules import this file as ``positions`` (pytest puts ``tests/rules`` on
``sys.path`` because the folder has no ``__init__.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from tajmahal.engine import (
    SetupOutcome,
    apply,
    apply_with_events,
    legal_actions,
    new_game,
    random_setup,
)
from tajmahal.model import (
    DISPLAY_SIZES,
    AlreadyHeldSpecial,
    CardId,
    ColourChangeFirstTurn,
    Components,
    Event,
    GameState,
    MajorityScope,
    Permission,
    PlayerState,
    RuleSet,
    Step,
    Symbol,
    Withdraw,
    WithdrawWithoutPlaying,
    default_components,
    parse_action,
)
from tajmahal.notation import (
    DEFAULT_ORDER,
    all_cards_once,
    at_visit,
    card_places,
    first_colour,
    readable_setup,
    start_position,
    to_move,
    with_bonus,
    with_deck,
    with_deck_top,
    with_display,
    with_hand,
    with_hands,
    with_palaces,
    with_played,
    with_player,
)

__all__ = [
    "COMPONENTS",
    "DEFAULT_ORDER",
    "NON_DEFAULT_RULES",
    "PLAIN_DISPLAY",
    "SMALL_HANDS",
    "all_cards_once",
    "at_visit",
    "card_places",
    "finish_visit",
    "first_colour",
    "fresh_game",
    "game",
    "legal",
    "outcome",
    "play",
    "player",
    "points",
    "run",
    "run_events",
    "symbols",
    "table",
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

# ---------------------------------------------------------------------------------------
# Starting positions (the general builders live in tajmahal.notation)


def outcome(players: int = 4, *, start: int = 0, order: str = DEFAULT_ORDER) -> SetupOutcome:
    """A readable setup (:func:`tajmahal.notation.readable_setup`)."""
    return readable_setup(players, start=start, order=order, components=COMPONENTS)


def game(
    players: int = 4,
    *,
    start: int = 0,
    order: str = DEFAULT_ORDER,
    rules: RuleSet | None = None,
) -> GameState:
    """The first visit of a game built from :func:`outcome`."""
    return start_position(players, start=start, order=order, rules=rules, components=COMPONENTS)


def fresh_game(players: int = 4, seed: int = 0, rules: RuleSet | None = None) -> GameState:
    """The first visit of a game with a random setup drawn from ``seed``."""
    return new_game(COMPONENTS, players, random_setup(COMPONENTS, players, seed), rules)


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
