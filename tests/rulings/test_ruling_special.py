"""Rulings on the special cards: colour change on a first turn, pairs and exchanges."""

from __future__ import annotations

import pytest
from positions import (
    COMPONENTS,
    all_cards_once,
    finish_visit,
    legal,
    player,
    run,
    run_events,
    symbols,
    table,
    with_hand,
    with_player,
)
from scenes import mogul_held_by

from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    AlreadyHeldSpecial,
    CardColour,
    ColourChangeFirstTurn,
    Event,
    GameState,
    RuleSet,
    SpecialKind,
    Step,
    Symbol,
)

V, P = Symbol.VIZIER, Symbol.PRINCESS

COLOUR_CHANGE = COMPONENTS.special_of_kind(SpecialKind.COLOUR_CHANGE).id
VIZIER_CARD = COMPONENTS.special_earned_by(V).id
"""The special card two vizier tiles earn."""
PRINCESS_CARD = COMPONENTS.special_earned_by(P).id
"""The special card two princess tiles earn."""


def colour(card: str) -> CardColour:
    """A regular card's colour."""
    return COMPONENTS.cards[card].colour


def colour_change_opening(rules: RuleSet | None = None) -> GameState:
    """A holds the colour-change card, red and green cards; A opens with red + colour change
    and B, C and D each play a card. A is to move for the second time."""
    state = table(rules=rules)
    state = with_hand(state, 0, ("red-07", "red-08", "green-08", "green-09", COLOUR_CHANGE))
    assert player(state, 0).played == () and player(state, 0).colour is None
    assert f"play red-07 {COLOUR_CHANGE}" in legal(state)
    state = run(state, f"play red-07 {COLOUR_CHANGE}")
    return state


def others_play(state: GameState, cards: tuple[str, str, str]) -> GameState:
    """B, C and D each play one card; A is to move again."""
    for seat, card in enumerate(cards, start=1):
        assert state.to_move == seat
        state = run(state, f"play {card}")
    assert state.to_move == 0
    return state


def finish_visit_events(state: GameState) -> tuple[GameState, list[Event]]:
    """Like :func:`positions.finish_visit`, also returning the events."""
    events: list[Event] = []
    visit = state.visit
    while state.visit == visit:
        action = "withdraw" if state.step is Step.PLAY else sorted(legal(state))[0]
        state, happened = run_events(state, action)
        events += happened
    return state, events


def tile_count(state: GameState, symbol: Symbol) -> int:
    """Influence tiles of ``symbol`` held by the players."""
    return sum(p.influence.count(symbol) for p in state.players)


@pytest.mark.clause(
    "TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN", "TM.SPECIAL.COLOUR_CHANGE", "TM.PLAY.COLOUR_LOCK"
)
def test_colour_change_first_turn_next_card_sets_colour() -> None:
    """RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN (next-card): the next coloured card sets it."""
    rules = RuleSet(colour_change_first_turn=ColourChangeFirstTurn.NEXT_CARD)
    state = colour_change_opening(rules)
    assert player(state, 0).colour is None
    state = others_play(state, ("yellow-02", "green-02", "violet-02"))
    assert "play green-08" in legal(state)
    state = run(state, "play green-08")
    assert player(state, 0).colour is colour("green-08") is CardColour.GREEN
    state = others_play(state, ("yellow-03", "green-03", "violet-03"))
    assert "play red-08" not in legal(state)
    with pytest.raises(IllegalActionError):
        run(state, "play red-08")
    assert "play green-09" in legal(state)


@pytest.mark.clause(
    "TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN", "TM.SPECIAL.COLOUR_CHANGE", "TM.PLAY.COLOUR_LOCK"
)
def test_colour_change_first_turn_played_card_sets_colour() -> None:
    """RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN (played-card): the card played with it sets it."""
    rules = RuleSet(colour_change_first_turn=ColourChangeFirstTurn.PLAYED_CARD)
    state = colour_change_opening(rules)
    assert player(state, 0).colour is colour("red-07") is CardColour.RED
    state = others_play(state, ("yellow-02", "green-02", "violet-02"))
    assert "play green-08" not in legal(state)
    with pytest.raises(IllegalActionError):
        run(state, "play green-08")
    assert "play red-08" in legal(state)
    state = run(state, "play red-08")
    assert player(state, 0).played == ("red-07", COLOUR_CHANGE, "red-08")


def vizier_pair_with_card(rules: RuleSet | None = None) -> GameState:
    """A holds the vizier-earned card and one vizier tile, and has played 2 viziers against
    B's 0; A is to move."""
    assert VIZIER_CARD == "special-mogul"
    state = mogul_held_by(0, rules)
    assert symbols(player(state, 0).played)[V] == 2
    assert tile_count(state, V) == 1
    return state


@pytest.mark.clause("TM.SPECIAL.ALREADY_HELD", "TM.SPECIAL.EXCHANGE_AT_VISIT_END")
def test_already_held_special_returns_tiles() -> None:
    """RUL.SPECIAL.ALREADY_HELD (return-tiles): the pair goes back, the card stays."""
    rules = RuleSet(already_held_special=AlreadyHeldSpecial.RETURN_TILES)
    state = run(vizier_pair_with_card(rules), "withdraw", "palace A1")
    assert player(state, 0).influence == (V, V)
    state = finish_visit(state)
    assert state.visit == 2
    assert player(state, 0).influence.count(V) == 0
    assert tile_count(state, V) == 0
    # Both tiles are back in the supply: the court is refilled with a vizier from it.
    assert V in state.court_influence
    assert player(state, 0).hand.count(VIZIER_CARD) == 1
    assert VIZIER_CARD not in state.specials_on_table
    assert all_cards_once(state)


@pytest.mark.clause("TM.SPECIAL.ALREADY_HELD", "TM.SPECIAL.EXCHANGE_AT_VISIT_END")
def test_already_held_special_keeps_tiles() -> None:
    """RUL.SPECIAL.ALREADY_HELD (keep-tiles): the pair stays with A, the card too."""
    rules = RuleSet(already_held_special=AlreadyHeldSpecial.KEEP_TILES)
    state = run(vizier_pair_with_card(rules), "withdraw", "palace A1")
    state = finish_visit(state)
    assert state.visit == 2
    assert player(state, 0).influence.count(V) == 2
    assert tile_count(state, V) == 2
    assert player(state, 0).hand.count(VIZIER_CARD) == 1
    assert all_cards_once(state)


@pytest.mark.clause(
    "TM.SPECIAL.EXCHANGE_AT_VISIT_END", "TM.SPECIAL.TAKE_FROM_HOLDER", "TM.SPECIAL.RETURN_TO_HAND"
)
def test_special_card_taken_from_table() -> None:
    """RUL.SPECIAL.CHANGES_HANDS: B's pair takes the card from the table at visit end."""
    played = ("yellow-16",)
    assert symbols(played)[P] == 1
    state = table((), played)
    state = with_player(state, 1, influence=(P,))
    assert PRINCESS_CARD in state.specials_on_table
    assert all(PRINCESS_CARD not in p.hand for p in state.players)
    state = run(state, "withdraw", "take white-06 white-07")
    state = run(state, "withdraw")
    assert player(state, 1).influence == (P, P)
    state = finish_visit(state)
    assert state.visit == 2
    assert PRINCESS_CARD in player(state, 1).hand
    assert PRINCESS_CARD not in state.specials_on_table
    assert P not in player(state, 1).influence
    assert all_cards_once(state)


def princess_card_with_a() -> GameState:
    """A holds red-07, red-08 and the princess card; B holds one princess tile and has
    played yellow-16 (a princess): B's withdrawal wins the second tile; A to move."""
    state = table((), ("yellow-16",))
    state = with_hand(state, 0, ("red-07", "red-08", PRINCESS_CARD))
    return with_player(state, 1, influence=(P,))


@pytest.mark.clause(
    "TM.SPECIAL.EXCHANGE_AT_VISIT_END", "TM.SPECIAL.TAKE_FROM_HOLDER", "TM.SPECIAL.RETURN_TO_HAND"
)
def test_special_card_taken_from_holders_hand_at_visit_end() -> None:
    """RUL.SPECIAL.CHANGES_HANDS: the card A played returns to A's hand, then goes to B."""
    state = princess_card_with_a()
    state = run(state, f"play red-07 {PRINCESS_CARD}")
    assert PRINCESS_CARD in player(state, 0).played
    # B wins the second princess tile.
    state = run(state, "withdraw")
    assert player(state, 1).influence == (P, P)
    state = run(state, sorted(legal(state))[0], "take white-06 white-07")
    # C and D play on; A withdraws while they are still in: the card goes back to A's hand.
    state = run(state, "play green-02", "play violet-02")
    assert state.to_move == 0
    state = run(state, "withdraw")
    while state.step is Step.PLACE:
        state = run(state, sorted(legal(state))[0])
    assert PRINCESS_CARD in player(state, 0).hand
    assert player(state, 0).played == ()
    assert PRINCESS_CARD not in player(state, 1).hand
    state = run(state, "take white-08 white-09")
    # C and D withdraw: the visit ends and the exchange takes the card from A's hand.
    state, events = finish_visit_events(state)
    assert state.visit == 2
    assert PRINCESS_CARD in player(state, 1).hand
    assert PRINCESS_CARD not in player(state, 0).hand
    assert PRINCESS_CARD not in state.specials_on_table
    assert player(state, 1).influence.count(P) == 0
    assert tile_count(state, P) == 0
    assert P in state.court_influence
    assert [e.seat for e in events if e.kind == "exchange"] == [1]
    assert all_cards_once(state)


@pytest.mark.clause(
    "TM.SPECIAL.EXCHANGE_AT_VISIT_END", "TM.SPECIAL.TAKE_FROM_HOLDER", "TM.SPECIAL.RETURN_TO_HAND"
)
def test_no_exchange_before_visit_end() -> None:
    """RUL.SPECIAL.CHANGES_HANDS: nothing changes hands while the visit goes on."""
    state = princess_card_with_a()
    state = run(state, "play red-07")
    assert state.to_move == 1
    state = run(state, "withdraw")
    state = run(state, sorted(legal(state))[0], "take white-06 white-07")
    assert player(state, 1).withdrawn and not player(state, 0).withdrawn
    assert state.visit == 1
    assert PRINCESS_CARD in player(state, 0).hand
    assert PRINCESS_CARD not in player(state, 1).hand
    assert player(state, 1).influence == (P, P)
    state = run(state, "play green-02", "play violet-02")
    assert state.to_move == 0
    assert f"play red-08 {PRINCESS_CARD}" in legal(state)
    state = run(state, f"play red-08 {PRINCESS_CARD}")
    assert PRINCESS_CARD in player(state, 0).played


# ---------------------------------------------------------------------------------------
# RUL.SPECIAL.PAIR_TILES_TO_SUPPLY


@pytest.mark.clause("TM.SPECIAL.ALREADY_HELD", "TM.VISIT.NEXT.INFLUENCE_REFILL")
def test_returned_pair_refills_the_court() -> None:
    """RUL.SPECIAL.PAIR_TILES_TO_SUPPLY: 5 players; B to E hold one vizier tile each and A,
    holding the vizier-earned card, wins a second vizier. A's pair goes back to the supply,
    so with B to E still holding four of the six tiles the court gets a vizier again (had
    the pair left the game, no vizier would be left to put there)."""
    played = ("red-07", "white-01")
    state = table(played, players=5)
    state = with_hand(state, 0, (*player(state, 0).hand, VIZIER_CARD))
    state = with_player(state, 0, influence=(V,))
    for seat in range(1, 5):
        state = with_player(state, seat, influence=(V,))
    assert tile_count(state, V) == 5
    state = run(state, "withdraw", "palace A1")
    assert tile_count(state, V) == 6 and V not in state.court_influence
    state = finish_visit(state)
    assert state.visit == 2
    assert player(state, 0).influence.count(V) == 0
    assert tile_count(state, V) == 4
    assert V in state.court_influence
    assert player(state, 0).hand.count(VIZIER_CARD) == 1


# ---------------------------------------------------------------------------------------
# RUL.SPECIAL.ONE_PER_TURN


@pytest.mark.clause("TM.SPECIAL.ONE_PER_TURN", "TM.SPECIAL.PLUS_TWO", "TM.PLAY.EXTRA_CARD")
def test_two_specials_on_two_turns_of_one_visit() -> None:
    """RUL.SPECIAL.ONE_PER_TURN (per turn): A plays the +2 card on one turn and the
    elephant card on the next turn of the same visit."""
    state = table()
    hand = ("red-07", "red-08", "special-plus-two", "special-elephant")
    state = with_hand(state, 0, hand)
    state = run(state, "play red-07 special-plus-two")
    assert player(state, 0).score == 2
    state = others_play(state, ("yellow-02", "green-02", "violet-02"))
    assert "play red-08 special-elephant" in legal(state)
    state = run(state, "play red-08 special-elephant")
    assert player(state, 0).played == (
        "red-07",
        "special-plus-two",
        "red-08",
        "special-elephant",
    )
    assert symbols(player(state, 0).played)[Symbol.ELEPHANT] == 3


@pytest.mark.clause("TM.SPECIAL.ONE_PER_TURN", "TM.PLAY.EXTRA_CARD")
def test_two_specials_in_one_play_refused() -> None:
    """RUL.SPECIAL.ONE_PER_TURN: no play holds two special cards."""
    state = with_hand(table(), 0, ("red-07", "special-plus-two", "special-elephant"))
    assert legal(state) == {
        "play red-07",
        "play red-07 special-plus-two",
        "play red-07 special-elephant",
        "withdraw",
    }
    with pytest.raises(IllegalActionError):
        run(state, "play special-plus-two special-elephant")


def three_viziers(card_holder: int, rules: RuleSet) -> GameState:
    """Seat 0 holds three vizier tiles (possible only under keep-tiles) and the vizier card
    lies in ``card_holder``'s hand; seat 3 has played violet-07 (elephant, vizier) and
    everyone else nothing, so the visit ends with seat 3 winning one vizier tile."""
    state = table((), (), (), ("violet-07",), rules=rules)
    state = with_hand(state, card_holder, (*state.players[card_holder].hand, VIZIER_CARD))
    state = with_player(state, 0, influence=(V, V, V))
    assert tile_count(state, V) == 3
    return state


@pytest.mark.clause("TM.SPECIAL.EXCHANGE_AT_VISIT_END", "TM.SPECIAL.TAKE_FROM_HOLDER")
def test_three_tiles_return_two_for_the_card() -> None:
    """RUL.SPECIAL.THREE_TILES: three tiles of a kind are a pair; exactly two go back for
    the card, taken from the seat holding it, and the third stays."""
    rules = RuleSet(already_held_special=AlreadyHeldSpecial.KEEP_TILES)
    state = finish_visit(three_viziers(1, rules))
    assert state.visit == 2
    assert player(state, 0).influence == (V,)
    assert VIZIER_CARD in player(state, 0).hand
    assert VIZIER_CARD not in player(state, 1).hand
    assert player(state, 3).influence == (V,)
    assert all_cards_once(state)


@pytest.mark.clause("TM.SPECIAL.ALREADY_HELD", "TM.SPECIAL.EXCHANGE_AT_VISIT_END")
def test_three_tiles_kept_while_the_card_is_held() -> None:
    """RUL.SPECIAL.THREE_TILES with RUL.SPECIAL.ALREADY_HELD: holding the card, a player
    keeps all three tiles under keep-tiles; under return-tiles two go back and one stays."""
    keep = finish_visit(
        three_viziers(0, RuleSet(already_held_special=AlreadyHeldSpecial.KEEP_TILES))
    )
    assert keep.visit == 2
    assert player(keep, 0).influence == (V, V, V)
    assert VIZIER_CARD in player(keep, 0).hand
    back = finish_visit(
        three_viziers(0, RuleSet(already_held_special=AlreadyHeldSpecial.RETURN_TILES))
    )
    assert back.visit == 2
    assert player(back, 0).influence == (V,)
    assert VIZIER_CARD in player(back, 0).hand
