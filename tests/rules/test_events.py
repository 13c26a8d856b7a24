"""Structured events, edge tags, deciding clauses, refusals and the account's wording.

Each test builds one situation by hand (``tests/rules/positions.py``), applies one step
and checks the facts the engine records, the tags and clauses derived from them and the
account line rendered from them, all as literal values worked out from the position.
"""

from __future__ import annotations

import json
import random

import attrs
import pytest
from positions import (
    COMPONENTS,
    game,
    legal,
    player,
    run,
    symbols,
    table,
    with_bonus,
    with_deck,
    with_display,
    with_hand,
    with_palaces,
    with_played,
    with_player,
)
from scenes import tied_at_the_end

from tajmahal.engine import apply, apply_with_events, legal_actions, random_reshuffle
from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    WITHDRAW,
    Action,
    BonusKind,
    Event,
    EventKind,
    GameState,
    Permission,
    PointSource,
    RuleSet,
    SpecialKind,
    Step,
    Symbol,
    parse_action,
)
from tajmahal.records import TAGS, edge_tags, event_lines, step_clauses

G, M, P, V = Symbol.GENERAL, Symbol.MONK, Symbol.PRINCESS, Symbol.VIZIER
PLUS_TWO = COMPONENTS.special_of_kind(SpecialKind.PLUS_TWO).id
COLOUR_CHANGE = COMPONENTS.special_of_kind(SpecialKind.COLOUR_CHANGE).id
PRINCESS_CARD = COMPONENTS.special_earned_by(P).id
VIZIER_CARD = COMPONENTS.special_earned_by(V).id
B_FIRST = "BACDEFGHIJK"
"""Visit 1 goes to province B, whose only fortress is B3."""


def step(state: GameState, text: str) -> tuple[GameState, tuple[Event, ...], frozenset[str]]:
    """Apply one action; the state after, its events and its edge tags."""
    action = parse_action(text)
    after, events = apply_with_events(state, action)
    assert after == apply(state, action)
    return after, events, edge_tags(state, action, events, after)


def lines(events: tuple[Event, ...], after: GameState) -> list[str]:
    """The account lines of the events, without indentation."""
    return [line.strip() for line in event_lines(events, None, after)]


def of(events: tuple[Event, ...], kind: EventKind, symbol: Symbol | None = None) -> Event:
    """The one event of ``kind`` (and ``symbol``)."""
    [found] = [e for e in events if e.kind is kind and (symbol is None or e.symbol is symbol)]
    return found


# ---------------------------------------------------------------------------------------
# Majorities: win, tie, tie broken, zero symbols


def tied_table() -> GameState:
    """A and B have each played one general + monk card; C and D nothing."""
    state = table(("red-02",), ("yellow-02",))
    assert symbols(("red-02",)) == symbols(("yellow-02",)) == {G: 1, M: 1}
    return state


@pytest.mark.clause("TM.WITHDRAW.MAJORITY.STRICT")
def test_a_tie_wins_nothing_and_names_the_tied_rival() -> None:
    after, events, tags = step(tied_table(), "withdraw")
    general = of(events, EventKind.NO_MAJORITY, G)
    assert general.seat == 0
    assert general.seats == (1, 2, 3) and general.counts == (1, 1, 0, 0)
    assert general.clauses == (
        "TM.WITHDRAW.COMPARE",
        "TM.WITHDRAW.MAJORITY.STRICT",
        "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL",
    )
    assert of(events, EventKind.WITHDRAW).counts == (0, 1, 1, 0, 0, 0)  # general, monk
    assert "tie" in tags and "tie-broken" not in tags
    assert (
        "P0 wins nothing for the general influence tile: tied with P1 at 1 (a tie is no majority)"
        in lines(events, after)
    )
    assert "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL" in step_clauses(WITHDRAW, events)


@pytest.mark.clause("TM.WITHDRAW.MAJORITY.REMAINING")
def test_the_tie_is_broken_when_a_tied_player_withdraws() -> None:
    state = run(tied_table(), "withdraw", "take white-06 white-07")
    assert state.to_move == 1
    after, events, tags = step(state, "withdraw")
    general = of(events, EventKind.WIN, G)
    assert general.seat == 1 and general.seats == (2, 3) and general.counts == (1, 0, 0)
    assert general.clauses == (
        "TM.WITHDRAW.COMPARE",
        "TM.WITHDRAW.MAJORITY.REMAINING",
        "RUL.MAJORITY.REMAINING_PLAYERS",
        "TM.WITHDRAW.MAJORITY.STRICT",
        "TM.REWARD.INFLUENCE.TILE",
        "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL",
    )
    assert "tie-broken" in tags and "tie" not in tags
    assert (
        "P1 wins the general influence tile with 1 general against P2 0, P3 0; "
        "the tie ended when a tied player withdrew"
    ) in lines(events, after)


def last_player() -> GameState:
    """B, C and D have withdrawn; A, alone in the visit, has played nothing."""
    state = table()
    for seat in (1, 2, 3):
        state = with_player(state, seat, withdrawn=True)
    return state


@pytest.mark.clause("TM.WITHDRAW.MAJORITY.ZERO")
def test_zero_symbols_never_win_even_alone() -> None:
    after, events, tags = step(last_player(), "withdraw")
    crown = of(events, EventKind.NO_MAJORITY, Symbol.MOGUL)
    assert crown.seats == () and crown.counts == (0,)
    assert crown.clauses == (
        "TM.WITHDRAW.COMPARE",
        "TM.WITHDRAW.MAJORITY.REMAINING",
        "RUL.MAJORITY.REMAINING_PLAYERS",
        "TM.WITHDRAW.MAJORITY.ZERO",
        "RUL.MAJORITY.ZERO_SYMBOLS",
    )
    assert not any(e.kind is EventKind.WIN for e in events)
    assert of(events, EventKind.WITHDRAW).seats == ()
    unwon = of(events, EventKind.UNWON)
    assert unwon.tiles == ("province-01",)
    assert {"zero-symbols", "last-player-alone", "unwon-tile"} <= tags
    text = lines(events, after)
    assert "P0 withdraws without having played (wins nothing), the last player in the visit" in (
        text
    )
    assert "P0 wins nothing for the crown: no Grand Mogul, and zero never wins" in text
    assert "nobody won province tile 1 (rice); it leaves the game" in text


def test_fewer_symbols_names_who_had_more() -> None:
    state = table(("red-02",), ("yellow-02", "white-02"))
    after, events, tags = step(state, "withdraw")
    general = of(events, EventKind.NO_MAJORITY, G)
    assert general.counts == (1, 2, 0, 0)
    assert general.clauses == ("TM.WITHDRAW.COMPARE", "TM.WITHDRAW.MAJORITY.STRICT")
    assert of(events, EventKind.NO_MAJORITY, M).counts == (1, 1, 0, 0)  # monks are tied
    assert "tie" in tags
    assert "P0 wins nothing for the general influence tile: 1 against P1 2" in lines(events, after)


# ---------------------------------------------------------------------------------------
# Playing


def test_plus_two_scores_as_it_is_played() -> None:
    state = with_hand(table(), 0, ("red-02", PLUS_TWO))
    after, events, tags = step(state, f"play red-02 {PLUS_TWO}")
    score = of(events, EventKind.SCORE)
    assert (score.seat, score.points, score.source) == (0, 2, PointSource.PLUS_TWO)
    assert score.cards == (PLUS_TWO,) and score.clauses == ("TM.SPECIAL.PLUS_TWO",)
    assert player(after, 0).score == 2
    assert "plus-two" in tags
    assert f"P0 scores 2 for the +2 card {PLUS_TWO}  [+2]" in lines(events, after)


def test_colour_change_on_a_first_turn() -> None:
    state = with_hand(table(), 0, ("red-07", "red-08", "green-08", COLOUR_CHANGE))
    _, events, tags = step(state, f"play red-07 {COLOUR_CHANGE}")
    played = of(events, EventKind.PLAY)
    assert played.cards == ("red-07", COLOUR_CHANGE)
    assert "TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN" in played.clauses
    assert "RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN" in played.clauses
    assert "colour-change-first-turn" in tags


def test_withdrawing_without_playing_draws_a_private_card() -> None:
    state = table()
    top = state.deck[0]
    after, events, tags = step(state, "withdraw")
    assert "TM.WITHDRAW.WITHOUT_PLAYING.NOTHING" in of(events, EventKind.WITHDRAW).clauses
    drawn = of(events, EventKind.DRAW)
    assert (drawn.seat, drawn.cards, drawn.private) == (0, (top,), True)
    assert drawn.clauses == ("TM.WITHDRAW.WITHOUT_PLAYING", "RUL.WITHDRAW.WITHOUT_PLAYING")
    assert "withdraw-without-playing" in tags
    text = lines(events, after)
    assert "P0 draws 1 card from the deck for withdrawing without playing" in text
    assert not any(top in line for line in text)  # the drawn card stays hidden


# ---------------------------------------------------------------------------------------
# Palaces and the crown


def test_crown_beside_own_palace_on_a_fortress() -> None:
    state = table(("red-05",), ("yellow-19",), order=B_FIRST)
    state = with_palaces(state, ("B3", 0))
    bonus = dict(state.bonus_on_board)["B3"]
    state = run(state, "withdraw")
    after, events, tags = step(state, "crown B3")
    crown = of(events, EventKind.CROWN)
    assert crown.cities == ("B3",) and crown.seats == (0,) and crown.tiles == (bonus,)
    assert crown.clauses == (
        "TM.REWARD.CROWN.PALACE",
        "TM.REWARD.CROWN.OCCUPIED",
        "TM.REWARD.CROWN.BESIDE_OWN",
        "RUL.CROWN.BESIDE_OWN_PALACE",
        "TM.REWARD.CROWN.NO_BONUS",
        "RUL.REWARD.UNCLAIMED_BONUS",
    )
    assert {"crown-on-fortress", "crown-on-occupied", "crown-beside-palace"} <= tags
    assert (
        f"P0 places the crown palace in B3, in the same city as P0's palace "
        f"(bonus tile {bonus} stays: a crown palace takes no bonus)"
    ) in lines(events, after)


def test_a_crown_without_a_legal_city_is_forfeited() -> None:
    rules = RuleSet(crown_beside_own_palace=Permission.FORBIDDEN)
    state = table(("red-05",), ("yellow-19",), rules=rules)
    state = with_palaces(state, ("A1", 0), ("A2", 0), ("A3", 0), ("A4", 0))
    after, events, tags = step(state, "withdraw")
    forfeit = of(events, EventKind.FORFEIT)
    assert forfeit.seat == 0 and forfeit.symbol is Symbol.MOGUL
    assert forfeit.clauses == ("TM.REWARD.CROWN.PALACE", "RUL.REWARD.NO_LEGAL_CITY")
    assert "unplaceable-crown" in tags and "unplaceable-palace" not in tags
    assert "P0 has no legal city for the crown palace; it is not placed" in lines(events, after)


def test_a_palace_without_a_legal_city_is_forfeited() -> None:
    state = table(("red-01", "red-03", "red-05"), ("yellow-19",))
    state = run(state, "withdraw", "crown A1", "palace A2", "palace A3")
    after, events, tags = step(state, "palace A4")
    forfeit = of(events, EventKind.FORFEIT)
    assert forfeit.counts == (1,) and forfeit.symbol is None
    assert "unplaceable-palace" in tags
    palaces = of(events, EventKind.SCORE)
    assert (palaces.points, palaces.source) == (1, PointSource.PALACES)
    assert palaces.cities == ("A1", "A2", "A3", "A4")
    assert "P0 has no legal city for 1 palace; it is not placed" in lines(events, after)


# ---------------------------------------------------------------------------------------
# Deck, display and reshuffles


def card_tile() -> str:
    """The first square bonus tile that gives a card."""
    return min(t.id for t in COMPONENTS.bonus_tiles.values() if t.kind is BonusKind.CARD)


def test_card_bonus_from_an_empty_deck_stops_for_a_reshuffle() -> None:
    tile = card_tile()
    state = with_bonus(table(("red-07",), order=B_FIRST), "B3", tile)
    state = run(with_deck(state, ()), "withdraw")
    assert state.step is Step.PLACE
    after, events, tags = step(state, "palace B3")
    bonus = of(events, EventKind.BONUS)
    assert bonus.tiles == (tile,) and bonus.cities == ("B3",) and bonus.source is None
    assert bonus.clauses == ("TM.REWARD.FORTRESS.BONUS", "TM.SCORE.BONUS.CARD")
    assert after.step is Step.SHUFFLE
    assert {"card-bonus-empty-deck", "deck-exhausted"} <= tags
    assert f"P0 takes bonus tile {tile} in B3 (card): draws the top card" in lines(events, after)
    discarded = len(after.discard)
    action = random_reshuffle(after, random.Random(7))
    resumed, events, tags = step(after, str(action))
    assert of(events, EventKind.RESHUFFLE).counts == (discarded,)
    assert "reshuffle-mid-withdrawal" in tags
    drawn = of(events, EventKind.DRAW)
    assert drawn.seat == 0 and drawn.private and drawn.clauses == ("TM.SCORE.BONUS.CARD",)
    assert resumed.step is Step.TAKE


def test_deck_and_discard_both_empty() -> None:
    state = attrs.evolve(table(), deck=(), discard=())
    after, events, tags = step(state, "withdraw")
    short = of(events, EventKind.DRAW)
    assert (short.seat, short.cards, short.counts) == (0, (), (1,))
    assert short.clauses == (
        "TM.WITHDRAW.WITHOUT_PLAYING",
        "RUL.WITHDRAW.WITHOUT_PLAYING",
        "RUL.DECK.EXHAUSTED",
    )
    assert {"deck-exhausted", "discard-exhausted"} <= tags
    assert (
        "P0 cannot draw 1 card for withdrawing without playing: deck and discard pile are empty"
    ) in lines(events, after)


def test_a_one_card_take_from_a_short_display() -> None:
    state = run(with_display(table(("red-19",)), ("white-06",)), "withdraw")
    assert legal(state) == {"take white-06"}
    after, events, tags = step(state, "take white-06")
    take = of(events, EventKind.TAKE)
    assert take.cards == ("white-06",)
    assert take.clauses == ("TM.WITHDRAW.PICK_TWO", "TM.VISIT.DISPLAY_SHORT", "RUL.DISPLAY.SHORT")
    assert {"one-card-take", "short-display"} <= tags
    assert "P0 takes white-06 (white: elephant) from the display" in lines(events, after)


# ---------------------------------------------------------------------------------------
# The end of a visit and of the game


def test_pairs_exchanged_at_the_same_visit_end() -> None:
    state = with_hand(last_player(), 0, ("red-03", PRINCESS_CARD))
    state = with_player(state, 1, influence=(P, P))
    state = with_player(state, 2, influence=(V, V))
    after, events, tags = step(state, "withdraw")
    assert after.visit == 2
    taken = [e for e in events if e.kind is EventKind.EXCHANGE]
    assert [(e.seat, e.symbol, e.cards, e.seats) for e in taken] == [
        (1, P, (PRINCESS_CARD,), (0,)),
        (2, V, (VIZIER_CARD,), ()),
    ]
    assert "RUL.SPECIAL.CHANGES_HANDS" in taken[0].clauses
    assert {"special-changes-hands", "pairs-collide"} <= tags
    text = lines(events, after)
    assert f"P1 exchanges two princess influence tiles for {PRINCESS_CARD} from P0" in text
    assert f"P2 exchanges two vizier influence tiles for {VIZIER_CARD} from the table" in text


def test_tied_winners_and_the_hand_breakdown() -> None:
    state = tied_at_the_end()
    after, events, tags = step(state, "withdraw")
    hands = [(e.seat, e.points, e.source, e.counts) for e in events if e.kind is EventKind.HAND]
    assert hands == [
        (0, 1, PointSource.HAND, (0, 1, 0)),
        (1, 2, PointSource.HAND, (0, 0, 2)),
        (2, 1, PointSource.HAND, (0, 0, 1)),
    ]
    end = of(events, EventKind.END)
    assert end.seats == (0, 1) and end.counts == (40, 40, 35)
    assert "tied-winners" in tags
    text = lines(events, after)
    assert (
        "P1 scores 2 for the cards in hand: 0 special cards, 0 white cards, "
        "2 cards of the largest colour  [+2]" in text
    )
    assert "game over; winners (tied): P0 and P1 with 40 points" in text
    assert "RUL.END.TIED_WINNERS" in step_clauses(WITHDRAW, events)


# ---------------------------------------------------------------------------------------
# Refusals name their rule


def refused(state: GameState, text: str) -> str | None:
    """The clause of the refusal of ``text`` in ``state``."""
    with pytest.raises(IllegalActionError) as caught:
        apply(state, parse_action(text))
    return caught.value.clause


def test_refusals_name_the_clause_that_forbids_them() -> None:
    opening = with_hand(table(), 0, ("red-07", "green-08", "yellow-08", "white-01"))
    assert refused(opening, "play white-01") == "TM.PLAY.NEVER_ALONE"
    assert refused(opening, "play red-07 green-08") == "TM.PLAY.ONE_COLOURED"
    assert refused(opening, "take white-06 white-07") == "TM.TURN.CHOICE"
    locked = to_colour(opening)
    assert refused(locked, "play green-08") == "TM.PLAY.COLOUR_LOCK"
    assert refused(opening, f"reshuffle {opening.deck[0]}") == "RUL.DECK.RESHUFFLE_TIMING"
    taking = run(table(("red-19",)), "withdraw")
    assert refused(taking, "take white-06") == "TM.WITHDRAW.PICK_TWO"
    rules = RuleSet(crown_beside_own_palace=Permission.FORBIDDEN)
    crowning = run(
        with_palaces(table(("red-05",), ("yellow-19",), rules=rules), ("A1", 0)), "withdraw"
    )
    assert refused(crowning, "crown A1") == "RUL.CROWN.BESIDE_OWN_PALACE"
    assert refused(crowning, "crown B1") == "TM.REWARD.CROWN.PALACE"
    assert refused(crowning, "palace A2") == "TM.REWARD.INFLUENCE.PALACE"
    placing = run(table(("red-05", "white-01"), ("yellow-19",)), "withdraw", "crown A1")
    assert refused(placing, "palace A1") == "RUL.CROWN.OWN_PALACE_BESIDE_CROWN"
    over = attrs.evolve(table(), step=Step.OVER, to_move=None)
    assert refused(over, "withdraw") == "TM.END.AFTER_TWELVE"


def to_colour(state: GameState) -> GameState:
    """A has played red this visit and is to move again."""
    state = with_played(state, 0, ("red-08",))
    return attrs.evolve(state, to_move=0)


# ---------------------------------------------------------------------------------------
# The event record itself


def test_event_to_json_spells_every_field() -> None:
    event = Event(
        EventKind.NO_MAJORITY,
        2,
        symbol=Symbol.MONK,
        seats=(0, 1),
        counts=(1, 1, 0),
        clauses=("TM.WITHDRAW.MAJORITY.STRICT",),
    )
    assert event.to_json() == {
        "kind": "no-majority",
        "seat": 2,
        "points": 0,
        "source": None,
        "cards": [],
        "tiles": [],
        "cities": [],
        "symbol": "monk",
        "seats": [0, 1],
        "counts": [1, 1, 0],
        "private": False,
        "clauses": ["TM.WITHDRAW.MAJORITY.STRICT"],
    }


def test_random_games_events_are_consistent() -> None:
    """Over whole random games: apply and apply_with_events agree, event points add up to
    the score change, every event serialises, every tag is in the vocabulary, and step
    clauses are sorted, unique and well formed."""
    for seed in range(3):
        state = game(4)
        rng = random.Random(seed)
        while not state.is_over:
            action: Action
            if state.is_chance:
                action = random_reshuffle(state, rng)
            else:
                action = rng.choice(legal_actions(state))
            after, events = apply_with_events(state, action)
            assert after == apply(state, action)
            gained = [b - a for a, b in zip(state.scores, after.scores, strict=True)]
            for seat in range(4):
                assert sum(e.points for e in events if e.seat == seat) == gained[seat]
            json.dumps([event.to_json() for event in events])
            assert edge_tags(state, action, events, after) <= set(TAGS)
            clauses = step_clauses(action, events)
            assert list(clauses) == sorted(set(clauses))
            assert all(c.startswith(("TM.", "RUL.")) for c in clauses)
            state = after
