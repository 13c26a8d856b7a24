"""Positions and games shared by the rule tests, the ruling tests and the position cases.

Each of these was written out in more than one place (a rule or ruling test and the
position case that publishes the same position, or two test folders); kept here once,
the test and the case are sure to start from the same position. They are built with the
helpers of :mod:`positions`; the test modules and ``tests/cases/`` import this file as
``scenes`` (``tests/rules`` is on ``sys.path``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import attrs
from positions import (
    COMPONENTS,
    DEFAULT_ORDER,
    at_visit,
    fresh_game,
    game,
    run,
    symbols,
    table,
    with_bonus,
    with_deck,
    with_deck_top,
    with_display,
    with_hand,
    with_hands,
    with_played,
    with_player,
)

from tajmahal.engine import apply, legal_actions, random_reshuffle
from tajmahal.model import Action, BonusKind, CardColour, CardId, GameState, RuleSet, Step, Symbol

# ---------------------------------------------------------------------------------------
# Cards out of the way


def stow(state: GameState, keeper: int, *, keep_discard: int = 0) -> GameState:
    """Move the discard pile but its first ``keep_discard`` cards into seat ``keeper``'s
    hand (a hand has no limit), so every card stays in exactly one place."""
    kept = state.discard[:keep_discard]
    loose = state.discard[keep_discard:]
    state = attrs.evolve(state, discard=kept)
    hand = tuple(sorted((*state.players[keeper].hand, *loose)))
    return with_player(state, keeper, hand=hand)


def withdrawn(state: GameState, *seats: int) -> GameState:
    """``state`` with ``seats`` already withdrawn from the visit."""
    for seat in seats:
        state = with_player(state, seat, withdrawn=True)
    return state


LAST_FOUR = ("red-21", "violet-21", "yellow-21", "green-21")
"""The deck of :func:`last_four_cards`, top first."""


def last_four_cards() -> GameState:
    """4 players: seats 1 to 3 have withdrawn and seat 0, who has not played, is the last
    in the visit; white-06 is the one display card, :data:`LAST_FOUR` the whole deck, and
    the discard pile is stowed in seat 3's hand."""
    state = withdrawn(with_display(game(4), ("white-06",)), 1, 2, 3)
    return stow(with_deck(state, LAST_FOUR), keeper=3)


def card_tile() -> str:
    """A square bonus tile that gives a card (the first in id order, read from the
    components)."""
    return min(t.id for t in COMPONENTS.bonus_tiles.values() if t.kind is BonusKind.CARD)


def card_tile_on_b3(played: tuple[str, ...], *, keep_discard: int = 0) -> GameState:
    """Visit 1 in province B (its fortress B3 carries :func:`card_tile`): seat 0 has
    played ``played``; the deck is empty and the discard pile, but its first
    ``keep_discard`` cards, is stowed in seat 3's hand."""
    state = with_bonus(table(played, order="BACDEFGHIJK"), "B3", card_tile())
    return stow(with_deck(state, ()), keeper=3, keep_discard=keep_discard)


# ---------------------------------------------------------------------------------------
# Cards by what they show


def card_showing(colour: CardColour, *shown: Symbol) -> CardId:
    """The first card of ``colour`` whose symbols are exactly ``shown`` (read from the
    components, so the tests do not hard-code what is printed on a card)."""
    wanted = sorted(symbol.value for symbol in shown)
    for card in sorted(COMPONENTS.cards.values(), key=lambda c: c.id):
        if card.colour is colour and sorted(s.value for s in card.symbols) == wanted:
            return card.id
    raise LookupError(f"no {colour.value} card with {wanted}")


# ---------------------------------------------------------------------------------------
# Playing cards

PLAY_HANDS = (
    ("red-01", "red-02", "red-13", "yellow-03", "white-01", "special-plus-two"),
    ("green-07", "green-08", "green-09", "violet-10", "white-02", "white-03"),
    ("violet-07", "violet-08", "violet-09", "yellow-10", "white-04", "white-05"),
)
"""Three hands with enough cards of every colour to keep playing."""


def three(rules: RuleSet | None = None) -> GameState:
    """Three players holding :data:`PLAY_HANDS`, seat 0 to open the first visit."""
    return with_hands(game(3, rules=rules), PLAY_HANDS)


def seat_two_starts() -> GameState:
    """4 players, seat 2 the start player; each seat holds two cards of its own colour."""
    return with_hands(
        game(4, start=2),
        (
            ("red-01", "red-02"),
            ("yellow-01", "yellow-02"),
            ("green-01", "green-02"),
            ("violet-01", "violet-02"),
        ),
    )


# ---------------------------------------------------------------------------------------
# Withdrawing


THREE_WITHDRAWALS = (
    "withdraw",
    "take white-06 white-07",
    "withdraw",
    "take white-08 white-09",
    "withdraw",
    "take white-10 white-11",
)
"""On a :func:`positions.table` display: the next three players to move withdraw one
after the other, each taking the next two white cards of the display (each must win
nothing, which would have them place a palace before taking)."""


def last_seat_alone() -> GameState:
    """:func:`positions.table`: seats 0, 1 and 2 withdraw at once without playing, taking
    white-06 to white-11 from the display; seat 3, alone, is to move with white-12 the
    last card of the display."""
    state = run(table(), *THREE_WITHDRAWALS)
    assert state.display == ("white-12",)
    assert state.to_move == 3
    return state


# ---------------------------------------------------------------------------------------
# Majorities

TIED_A = ("red-10", "red-11")
"""Seat 0's played cards in :func:`tied_generals`: elephant + general twice."""
TIED_B = ("yellow-10", "yellow-11")
"""Seat 1's played cards in :func:`tied_generals`: elephant + general twice."""


def tied_generals(rules: RuleSet | None = None) -> GameState:
    """3 players: A and B have each played 2 generals, C nothing; A to move. B still holds
    yellow-19 (two elephants) and C green-03 (monk + princess), neither showing a general."""
    state = table(TIED_A, TIED_B, (), players=3, rules=rules)
    state = with_hand(state, 1, ("yellow-19", "yellow-02"))
    state = with_hand(state, 2, ("green-03", "green-14"))
    assert symbols(state.players[0].played)[Symbol.GENERAL] == 2
    assert symbols(state.players[1].played)[Symbol.GENERAL] == 2
    assert state.players[2].played == ()
    assert state.to_move == 0 and Symbol.GENERAL in state.court_influence
    return state


# ---------------------------------------------------------------------------------------
# The crown

VIZIER_AND_CROWN = ("red-05", "white-01")
"""Elephant + Grand Mogul and a white vizier: one vizier, one Grand Mogul, one elephant."""
TWO_ELEPHANTS = ("yellow-19",)
"""Seat 1's play: two elephants, so seat 0 never wins the province tile."""


def vizier_and_crown(order: str = DEFAULT_ORDER, rules: RuleSet | None = None) -> GameState:
    """Seat 0 has withdrawn winning the vizier and the crown (nothing else); it now places."""
    state = table(VIZIER_AND_CROWN, TWO_ELEPHANTS, order=order, rules=rules)
    shown = symbols(VIZIER_AND_CROWN)
    assert shown[Symbol.VIZIER] == 1 and shown[Symbol.MOGUL] == 1
    assert shown[Symbol.GENERAL] == shown[Symbol.MONK] == shown[Symbol.PRINCESS] == 0
    state = run(state, "withdraw")
    withdrawal = state.withdrawal
    assert withdrawal is not None
    assert withdrawal.palaces_owed == 1 and withdrawal.crown_owed
    assert withdrawal.province_won is None
    assert state.step is Step.PLACE and state.to_move == 0
    return state


def rival_beside_crown_on_b3(rival: tuple[str, ...]) -> GameState:
    """Visit 1 in province B: seat 0 has played red-05 (elephant and Grand Mogul) and
    withdrawn winning the crown only, put its crown palace on the fortress B3 (whose +2 tile
    stays) and taken white-06 and white-07; seat 1, who has played ``rival``, has then
    withdrawn and is to place."""
    return run(
        table(("red-05",), rival, order="BACDEFGHIJK"),
        "withdraw",
        "crown B3",
        "take white-06 white-07",
        "withdraw",
    )


# ---------------------------------------------------------------------------------------
# Special cards

SPECIALS = ("special-colour-change", "special-elephant", "special-mogul", "special-plus-two")
"""The four special cards."""


def holding(*specials: str) -> GameState:
    """Seat 0 to move holding red-01 and red-02 plus ``specials``."""
    return with_hand(table(), 0, ("red-01", "red-02", *specials))


def vizier_pair(rules: RuleSet | None = None) -> GameState:
    """Seat 0 holds one vizier tile and is about to win a second one: it has played two
    viziers (red-07, white-01) against seat 1's two elephants (yellow-19); seat 0 to move."""
    state = table(("red-07", "white-01"), ("yellow-19",), rules=rules)
    return with_player(state, 0, influence=(Symbol.VIZIER,))


def mogul_held_by(seat: int, rules: RuleSet | None = None) -> GameState:
    """:func:`vizier_pair` with the Grand Mogul card (the card a vizier pair earns) in
    ``seat``'s hand."""
    state = vizier_pair(rules)
    return with_hand(state, seat, (*state.players[seat].hand, "special-mogul"))


# ---------------------------------------------------------------------------------------
# The end of the game

LAST_VISIT_HANDS = (
    ("special-plus-two", "white-01", "red-01", "red-02"),
    ("yellow-01", "yellow-02", "yellow-03"),
    ("green-01",),
)
"""The hands of :func:`last_visit`."""


def last_visit(scores: tuple[int, int, int]) -> GameState:
    """Three players at the start of visit 12 with known hands, display and deck."""
    state = at_visit(game(3), 12, start=0)
    state = with_hands(state, LAST_VISIT_HANDS)
    state = with_display(state, ("white-02", "white-03", "white-04", "red-03", "green-02"))
    state = with_deck_top(state, ("violet-01", "violet-02", "violet-03"))
    for seat, score in enumerate(scores):
        state = with_player(state, seat, score=score)
    return with_player(state, 1, influence=(Symbol.VIZIER, Symbol.MONK))


def last_withdrawal(
    hands: Sequence[Sequence[CardId]], scores: Sequence[int] = (0, 0, 0)
) -> GameState:
    """3 players in visit 12: seat 1 won the province tile earlier in the visit, seats 1
    and 2 have withdrawn; seat 0 has played a double elephant (which can win nothing now)
    and, the last player, is to withdraw with an empty display, which ends the game."""
    state = at_visit(game(3), 12)
    state = with_hands(state, hands)
    state = with_played(state, 0, ("red-19",))
    state = with_display(state, ())
    tile = state.court_province_tile
    assert tile is not None
    state = attrs.evolve(state, court_province_tile=None)
    state = with_player(state, 1, province_tiles=(tile,))
    state = withdrawn(state, 1, 2)
    for seat, score in enumerate(scores):
        state = with_player(state, seat, score=score)
    return state


def tied_at_the_end() -> GameState:
    """Visit 12, 3 players on 39, 38 and 34 points, the court's province tile gone; seats
    1 and 2 have withdrawn and seat 0, who has played a double elephant, is to withdraw
    last with an empty display. Hands: seat 0 a white card (+1), seat 1 two reds and a
    green (+2), seat 2 one yellow (+1): 40, 40 and 35 at the end."""
    state = at_visit(game(3), 12)
    state = with_hands(state, (("white-01",), ("red-01", "red-02", "green-01"), ("yellow-01",)))
    state = with_played(state, 0, ("red-19",))
    state = attrs.evolve(with_display(state, ()), court_province_tile=None)
    for seat, score in enumerate((39, 38, 34)):
        state = with_player(state, seat, score=score, withdrawn=seat != 0)
    return state


# ---------------------------------------------------------------------------------------
# Random games


def random_game(players: int, seed: int) -> Iterator[tuple[GameState, Action, GameState]]:
    """Every step ``(before, action, after)`` of one game under the default rules whose
    setup, moves and reshuffles are all drawn from ``seed``."""
    state = fresh_game(players, seed)
    rng = random.Random(seed)
    while not state.is_over:
        action: Action
        if state.is_chance:
            action = random_reshuffle(state, rng)
        else:
            legal = legal_actions(state)
            action = legal[rng.randrange(len(legal))]
        after = apply(state, action)
        yield state, action, after
        state = after
