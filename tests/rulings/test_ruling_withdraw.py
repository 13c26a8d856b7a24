"""Rulings on withdrawing: display picks, the extra card, scoring order, goods, hand size."""

from __future__ import annotations

import copy
import json
from itertools import combinations
from pathlib import Path

import attrs
import pytest
from positions import (
    COMPONENTS,
    at_visit,
    legal,
    player,
    run,
    run_events,
    symbols,
    table,
    with_bonus,
    with_deck_top,
    with_display,
    with_hand,
    with_hands,
    with_palaces,
    with_played,
    with_player,
)
from scenes import last_seat_alone

from tajmahal.engine import apply, legal_actions
from tajmahal.engine._scoring import goods_points, owned_goods
from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    BonusKind,
    Event,
    GameState,
    Good,
    RuleSet,
    Step,
    Symbol,
    Take,
    WithdrawWithoutPlaying,
    load_components,
)
from tajmahal.notation import start_position

V, G = Symbol.VIZIER, Symbol.GENERAL

MIXED_DISPLAY = (
    "green-20",
    "red-20",
    "violet-20",
    "white-06",
    "white-07",
    "white-08",
    "yellow-20",
)
"""Seven display cards of several colours."""

C_NINTH = "ABDEFGHICJK"
"""Visit 9 goes to province C, which has two fortresses (C1 and C3)."""
C_FIRST = "CABDEFGHIJK"
"""Visit 1 goes to province C."""


def fortresses(state: GameState) -> list[str]:
    """The fortresses of the current province."""
    board = COMPONENTS.board
    return [c for c in board.provinces[state.current_province].cities if board.cities[c].fortress]


def off_board(state: GameState, tile: str) -> GameState:
    """``state`` with bonus tile ``tile`` no longer lying on a fortress (a player won it)."""
    board = tuple((city, t) for city, t in state.bonus_on_board if t != tile)
    return attrs.evolve(state, bonus_on_board=board)


def good_of(tile: str) -> Good | None:
    """The good shown by a bonus tile."""
    return COMPONENTS.bonus_tiles[tile].good


def seat_events(events: list[Event], seat: int, *kinds: str) -> list[Event]:
    """The events of ``seat`` of the given kinds, in order."""
    return [e for e in events if e.seat == seat and e.kind in kinds]


@pytest.mark.clause("TM.WITHDRAW.PICK_TWO", "TM.WITHDRAW.LAST_TAKES_ONE", "TM.VISIT.END")
def test_withdrawing_player_picks_two_display_cards() -> None:
    """RUL.WITHDRAW.DISPLAY_PICKS: one take action naming two of the seven display cards."""
    state = with_display(table(("red-07",)), MIXED_DISPLAY)
    assert len(state.display) == 7
    state = run(state, "withdraw", "palace A1")
    # Scoring is done (played cards discarded, palace scored); the take step follows.
    assert player(state, 0).played == () and player(state, 0).score > 0
    assert state.step is Step.TAKE and state.to_move == 0
    pairs = {"take " + " ".join(pair) for pair in combinations(sorted(MIXED_DISPLAY), 2)}
    assert len(pairs) == 21
    assert legal(state) == pairs
    assert len(legal_actions(state)) == 21
    hand = player(state, 0).hand
    state = run(state, "take red-20 white-07")
    assert player(state, 0).hand == tuple(sorted((*hand, "red-20", "white-07")))
    assert len(state.display) == 5
    assert "red-20" not in state.display and "white-07" not in state.display


@pytest.mark.clause("TM.WITHDRAW.PICK_TWO", "TM.WITHDRAW.LAST_TAKES_ONE", "TM.VISIT.END")
def test_pick_must_name_two_distinct_display_cards() -> None:
    """RUL.WITHDRAW.DISPLAY_PICKS: one card, the same card twice or an absent card is refused."""
    state = with_display(table(("red-07",)), MIXED_DISPLAY)
    state = run(state, "withdraw", "palace A1")
    assert state.step is Step.TAKE
    assert "red-01" not in state.display
    for cards in (("white-06",), ("white-06", "white-06"), ("red-01", "white-06")):
        with pytest.raises(IllegalActionError):
            apply(state, Take(cards))


@pytest.mark.clause(
    "TM.WITHDRAW.PICK_TWO",
    "TM.WITHDRAW.LAST_TAKES_ONE",
    "TM.VISIT.END",
    "TM.WITHDRAW.WITHOUT_PLAYING",
)
def test_last_player_takes_remaining_card_automatically() -> None:
    """RUL.WITHDRAW.DISPLAY_PICKS: the last player gets the last card without an action;
    RUL.WITHDRAW.WITHOUT_PLAYING: a last player who has not played draws the extra card
    and still takes only the one card left."""
    state = last_seat_alone()
    hand = player(state, 3).hand
    deck = state.deck
    state, events = run_events(state, "withdraw")
    # No take step: the visit is over and the next one has begun.
    assert state.visit == 2 and state.step is Step.PLAY
    assert "white-12" in player(state, 3).hand
    # D drew the extra card (withdrew without playing) and got the last display card.
    assert player(state, 3).hand == tuple(sorted((*hand, deck[0], "white-12")))
    kinds = [e.kind.value for e in events]
    take = kinds.index("take")
    assert events[take].seat == 3
    assert take < kinds.index("visit")
    # The old display was emptied: the new one holds only cards from the deck.
    assert "white-12" not in state.display
    assert state.display == tuple(sorted(deck[1:8]))


@pytest.mark.clause("TM.WITHDRAW.WITHOUT_PLAYING", "TM.WITHDRAW.WITHOUT_PLAYING.NOTHING")
def test_without_playing_extra_card() -> None:
    """RUL.WITHDRAW.WITHOUT_PLAYING (extra-card): the top card, then two display cards."""
    rules = RuleSet(withdraw_without_playing=WithdrawWithoutPlaying.EXTRA_CARD)
    state = with_deck_top(table(rules=rules), ["yellow-21", "yellow-20"])
    hand = player(state, 0).hand
    score = player(state, 0).score
    assert player(state, 0).played == ()
    state = run(state, "withdraw")
    assert state.step is Step.TAKE
    assert player(state, 0).hand == tuple(sorted((*hand, "yellow-21")))
    assert state.deck[0] == "yellow-20"
    state = run(state, "take white-06 white-07")
    assert player(state, 0).hand == tuple(sorted((*hand, "yellow-21", "white-06", "white-07")))
    assert state.palaces == ()
    assert player(state, 0).score == score


@pytest.mark.clause("TM.WITHDRAW.WITHOUT_PLAYING", "TM.WITHDRAW.WITHOUT_PLAYING.NOTHING")
def test_without_playing_no_extra_card() -> None:
    """RUL.WITHDRAW.WITHOUT_PLAYING (none): only the two display cards."""
    rules = RuleSet(withdraw_without_playing=WithdrawWithoutPlaying.NONE)
    state = with_deck_top(table(rules=rules), ["yellow-21", "yellow-20"])
    hand = player(state, 0).hand
    deck = state.deck
    state = run(state, "withdraw")
    assert state.step is Step.TAKE
    assert state.deck == deck
    assert player(state, 0).hand == hand
    state = run(state, "take white-06 white-07")
    assert state.deck == deck
    assert player(state, 0).hand == tuple(sorted((*hand, "white-06", "white-07")))
    assert state.palaces == ()
    assert player(state, 0).score == 0


@pytest.mark.clause("TM.WITHDRAW.WITHOUT_PLAYING", "TM.WITHDRAW.WITHOUT_PLAYING.NOTHING")
def test_without_playing_is_first_turn_withdrawal() -> None:
    """RUL.WITHDRAW.FIRST_ROUND: only a withdrawal with no card played draws the extra card."""
    state = with_deck_top(table(), ["yellow-21", "yellow-20"])
    state = run(state, "play red-02")  # A's first turn
    # B's first turn: B withdraws without playing and draws the top card.
    assert state.to_move == 1 and player(state, 1).played == ()
    hand_b = player(state, 1).hand
    state = run(state, "withdraw")
    assert state.step is Step.TAKE
    assert player(state, 1).hand == tuple(sorted((*hand_b, "yellow-21")))
    assert state.deck[0] == "yellow-20"
    state = run(state, "take white-06 white-07", "play green-02", "play violet-02")
    # A's second turn: A has played, withdraws (tied everywhere) and draws nothing.
    assert state.to_move == 0 and player(state, 0).played == ("red-02",)
    hand_a = player(state, 0).hand
    deck = state.deck
    state = run(state, "withdraw")
    assert state.step is Step.TAKE and state.to_move == 0
    assert state.deck == deck
    assert player(state, 0).hand == hand_a
    state = run(state, "take white-08 white-09")
    assert player(state, 0).hand == tuple(sorted((*hand_a, "white-08", "white-09")))


@pytest.mark.clause("TM.SCORE.ORDER", "TM.SCORE.BONUS.SEQUENTIAL", "TM.REWARD.FORTRESS.BONUS")
def test_bonus_scored_at_each_placement_in_order() -> None:
    """RUL.SCORE.BONUS_ORDER: bonus, bonus, province tile, palaces, in that order."""
    played = ("red-01", "red-19")
    shown = symbols(played)
    assert shown[V] == shown[G] == 1 and shown[Symbol.ELEPHANT] == 2
    state = at_visit(table(played, order=C_NINTH), 9)
    assert state.current_province == "C"
    assert state.court_province_tile == "province-09"
    first, second = fortresses(state)
    bonus = dict(state.bonus_on_board)
    for fort in (first, second):
        assert COMPONENTS.bonus_tiles[bonus[fort]].kind is BonusKind.POINTS
    state, events = run_events(state, "withdraw")
    assert state.withdrawal is not None and state.withdrawal.province_won == "province-09"
    state, placed = run_events(state, f"palace {first}")
    events += placed
    assert player(state, 0).score == 2  # the first bonus, before the second palace
    state, placed = run_events(state, f"palace {second}")
    events += placed
    account = seat_events(events, 0, "palace", "bonus", "score")
    assert [e.kind for e in account] == ["palace", "bonus", "palace", "bonus", "score", "score"]
    assert account[0].cities == (first,) and account[2].cities == (second,)
    assert account[4].tiles == ("province-09",)
    assert [e.points for e in account] == [0, 2, 0, 2, 2, 1]
    running = 0
    for event in account:
        running += event.points
    assert player(state, 0).score == running == 7


@pytest.mark.clause("TM.SCORE.ORDER", "TM.SCORE.BONUS.SEQUENTIAL", "TM.REWARD.FORTRESS.BONUS")
def test_worked_example_seven_plus_eight() -> None:
    """RUL.SCORE.BONUS_ORDER: Anna's example, 3 + 4 for the tea tiles, then 8 for tile 9."""
    played = ("red-01", "red-19")
    state = at_visit(table(played, order=C_NINTH), 9)
    state = off_board(state, "bonus-12")
    assert good_of("bonus-12") is Good.SPICES
    state = with_player(
        state, 0, province_tiles=("province-02", "province-05"), goods_tiles=("bonus-12",)
    )
    assert COMPONENTS.province_tiles["province-02"].goods == (Good.JEWELS, Good.TEA)
    assert COMPONENTS.province_tiles["province-05"].goods == (Good.SPICES, Good.TEA)
    assert COMPONENTS.province_tiles["province-09"].goods == (Good.SPICES, Good.TEA)
    first, second = fortresses(state)
    state = with_bonus(state, first, "bonus-10")
    state = with_bonus(state, second, "bonus-11")
    assert good_of("bonus-10") is good_of("bonus-11") is Good.TEA
    state, events = run_events(state, "withdraw", f"palace {first}", f"palace {second}")
    account = seat_events(events, 0, "bonus", "score")
    assert [e.points for e in account[:2]] == [3, 4]
    assert account[2].tiles == ("province-09",) and account[2].points == 8
    assert sum(e.points for e in account[:3]) == 15


@pytest.mark.clause("TM.SCORE.BONUS.GOOD", "TM.SCORE.PROVINCE")
def test_goods_bonus_counts_matching_goods_on_owned_tiles() -> None:
    """RUL.SCORE.GOODS_COUNT: a rice tile scores 1 + 3 with three rice already owned."""
    state = at_visit(table(("red-07",), ("yellow-19",)), 12)
    assert state.current_province == "L"
    state = off_board(state, "bonus-09")
    state = with_player(
        state, 0, province_tiles=("province-04", "province-11"), goods_tiles=("bonus-09",)
    )
    assert COMPONENTS.province_tiles["province-04"].goods == (Good.RICE, Good.TEA)
    assert COMPONENTS.province_tiles["province-11"].goods == (Good.RICE, Good.TEA)
    assert good_of("bonus-09") is good_of("bonus-08") is Good.RICE
    fort = next(f for f in fortresses(state) if f != COMPONENTS.board.agra)
    state = with_bonus(state, fort, "bonus-08")
    state, events = run_events(state, "withdraw", f"palace {fort}")
    assert [e.points for e in seat_events(events, 0, "bonus")] == [1 + 3]
    assert player(state, 0).goods_tiles == ("bonus-09", "bonus-08")


@pytest.mark.clause("TM.SCORE.BONUS.GOOD", "TM.SCORE.PROVINCE")
def test_province_tile_counts_own_goods_once() -> None:
    """RUL.SCORE.GOODS_COUNT: a tile's own goods count once each, not again as owned."""
    # Tile 1 (rice) to A, who owns nothing.
    assert COMPONENTS.province_tiles["province-01"].goods == (Good.RICE,)
    state = table(("red-19",))
    assert player(state, 0).province_tiles == () and player(state, 0).goods_tiles == ()
    state, events = run_events(state, "withdraw")
    assert player(state, 0).province_tiles == ("province-01",)
    assert [e.points for e in seat_events(events, 0, "score")] == [1]
    assert player(state, 0).score == 1

    # Tile 4 (rice, tea) to B, who owns nothing.
    assert COMPONENTS.province_tiles["province-04"].goods == (Good.RICE, Good.TEA)
    state = at_visit(table((), ("yellow-19",)), 4)
    state = run(state, "withdraw", "take white-06 white-07")
    assert player(state, 1).province_tiles == () and player(state, 1).goods_tiles == ()
    state, events = run_events(state, "withdraw")
    assert player(state, 1).province_tiles == ("province-04",)
    assert [e.points for e in seat_events(events, 1, "score")] == [2]
    assert player(state, 1).score == 2


@pytest.mark.clause("TM.SCORE.BONUS.GOOD", "TM.SCORE.PROVINCE")
def test_second_goods_tile_counts_first_from_same_withdrawal() -> None:
    """RUL.SCORE.GOODS_COUNT: the second spices tile counts the first, won moments before."""
    state = table(("red-01",), order=C_FIRST)
    first, second = fortresses(state)
    state = with_bonus(state, first, "bonus-12")
    state = with_bonus(state, second, "bonus-13")
    assert good_of("bonus-12") is good_of("bonus-13") is Good.SPICES
    assert player(state, 0).province_tiles == () and player(state, 0).goods_tiles == ()
    state, events = run_events(state, "withdraw", f"palace {first}", f"palace {second}")
    assert [e.points for e in seat_events(events, 0, "bonus")] == [1, 2]
    assert player(state, 0).goods_tiles == ("bonus-12", "bonus-13")


@pytest.mark.clause("TM.SETUP.HANDS", "TM.WITHDRAW.PICK_TWO")
def test_hand_has_no_limit() -> None:
    """RUL.HAND.NO_LIMIT: 20 cards plus two picks make 22, and nothing is discarded."""
    reds = [card for card in sorted(COMPONENTS.cards) if card.startswith("red-")]
    hand = [card for card in reds if card != "red-07"]
    state = with_hand(table(("red-07",)), 0, hand)
    assert len(player(state, 0).hand) == 20
    state = run(state, "withdraw", "palace A1")
    assert state.step is Step.TAKE
    assert len(player(state, 0).hand) == 20
    state = run(state, "take white-06 white-07")
    assert len(player(state, 0).hand) == 22
    # Play passes on to B: no step asks A to give up cards.
    assert state.step is Step.PLAY and state.to_move == 1
    assert all(action == "withdraw" or action.startswith("play ") for action in legal(state))


@pytest.mark.clause("TM.SCORE.PROVINCE", "TM.SCORE.BONUS.GOOD")
def test_a_tile_showing_one_good_twice_counts_owned_goods_once(tmp_path: Path) -> None:
    """RUL.SCORE.GOODS_COUNT: a won tile showing rice twice scores 2 for its goods and 1 for
    each rice the player owns, counted once (not once per rice on the new tile); owned,
    it counts as two rice."""
    tiles = copy.deepcopy(COMPONENTS.to_json()["province_tiles.json"])
    next(tile for tile in tiles["tiles"] if tile["number"] == 2)["goods"] = ["rice", "rice"]
    (tmp_path / "province_tiles.json").write_text(json.dumps(tiles), encoding="utf-8")
    components = load_components(tmp_path)
    rice_twice = components.province_tile_number(2).goods
    assert rice_twice == (Good.RICE, Good.RICE)
    # Seat 0 owns tile 1 (one rice) and wins tile 2 with one elephant in visit 2.
    state = at_visit(start_position(3, components=components), 2, start=0)
    state = with_hands(state, (("red-02",), ("yellow-02",), ("green-02",)))
    state = with_played(state, 0, ("red-19",))
    state = with_player(state, 0, province_tiles=("province-01",))
    state = run(state, "withdraw")
    assert player(state, 0).province_tiles == ("province-01", "province-02")
    assert player(state, 0).score == 2 + 1
    # Owned, the tile counts twice: a rice bonus tile scores 1 + 1 (tile 1) + 2 (tile 2).
    assert (
        goods_points((Good.RICE,), owned_goods(components, ("province-01", "province-02"), ())) == 4
    )


@pytest.mark.clause("TM.SCORE.ORDER", "TM.SCORE.PALACE.CHAIN", "TM.SCORE.PALACE.CURRENT")
def test_the_palaces_of_one_withdrawal_are_chained_together_and_scored_once() -> None:
    """RUL.SCORE.BONUS_ORDER: the palaces score once, after the last placement, with every
    palace of the withdrawal standing: A1 alone reaches nothing, A1 and A2 together reach
    seat 0's palace in B1 (roads A1-A2, A2-B1)."""
    state = at_visit(table(("red-01",), ("yellow-19",), order="BACDEFGHIJK"), 2)
    state = with_palaces(state, ("B1", 0))
    state = run(state, "withdraw", "palace A1")
    assert state.step is Step.PLACE and player(state, 0).score == 0
    state = run(state, "palace A2")
    assert player(state, 0).score == 2
