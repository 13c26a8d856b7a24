"""Rulings on the crown palace, the order of placements and palaces without a legal city."""

from __future__ import annotations

from collections.abc import Iterable

import attrs
import pytest
from positions import (
    COMPONENTS,
    legal,
    outcome,
    player,
    points,
    run,
    run_events,
    symbols,
    table,
    to_move,
    with_palaces,
    with_played,
)
from scenes import TWO_ELEPHANTS, VIZIER_AND_CROWN, vizier_and_crown

from tajmahal.engine import (
    SetupOutcome,
    apply,
    apply_with_events,
    chance_cards,
    crown_cities,
    legal_actions,
    new_game,
    palace_cities,
)
from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    WITHDRAW,
    Action,
    BonusKind,
    Event,
    GameState,
    Palace,
    Permission,
    Reshuffle,
    RuleSet,
    Step,
    Symbol,
    parse_action,
)
from tajmahal.records import Recorder, replay

V, G, M, P = Symbol.VIZIER, Symbol.GENERAL, Symbol.MONK, Symbol.PRINCESS

B_FIRST = "BACDEFGHIJK"
"""Visit 1 goes to province B, whose only fortress is B3."""


def fortress_with_points_tile(state: GameState) -> tuple[str, str]:
    """The only fortress of the current province and the +2 tile lying on it."""
    board = COMPONENTS.board
    forts = [c for c in board.provinces[state.current_province].cities if board.cities[c].fortress]
    assert len(forts) == 1
    tile = dict(state.bonus_on_board)[forts[0]]
    assert COMPONENTS.bonus_tiles[tile].kind is BonusKind.POINTS
    assert COMPONENTS.bonus_tiles[tile].points == 2
    return forts[0], tile


def own_palaces(state: GameState, seat: int, city: str) -> list[Palace]:
    """The palaces of ``seat`` in ``city``."""
    return [p for p in state.palaces if p.city == city and p.seat == seat]


def automatic(state: GameState) -> Action:
    """A plain continuation: withdraw at once, the first legal placement or take, and a
    reshuffle that keeps the discard pile's order."""
    if state.is_chance:
        return Reshuffle(chance_cards(state))
    if state.step is Step.PLAY:
        return WITHDRAW
    return legal_actions(state)[0]


def play_out(state: GameState, events: list[Event] | None = None) -> list[GameState]:
    """Finish the game with :func:`automatic` actions; the state at the start of each later
    visit, then the final state."""
    starts: list[GameState] = []
    visit = state.visit
    while not state.is_over:
        state, happened = apply_with_events(state, automatic(state))
        if events is not None:
            events.extend(happened)
        if state.visit != visit or state.is_over:
            visit = state.visit
            starts.append(state)
    return starts


def play_out_visit(state: GameState) -> GameState:
    """Finish the current visit with :func:`automatic` actions; the next visit's start."""
    visit = state.visit
    while state.visit == visit:
        state = apply(state, automatic(state))
    return state


def recorded(state: GameState, recorder: Recorder, text: str) -> GameState:
    """Apply one action and add it to ``recorder``."""
    after = run(state, text)
    recorder.add(state, parse_action(text), after)
    return after


def outcome_with_hand(seat: int, cards: Iterable[str], players: int = 4) -> SetupOutcome:
    """:func:`positions.outcome` with ``cards`` dealt to ``seat`` (swapped with its cards)."""
    base = outcome(players)
    wanted = list(cards)
    hands = [list(hand) for hand in base.hands]
    display = list(base.display)
    deck = list(base.deck)
    spare = [card for card in hands[seat] if card not in wanted]
    for card in wanted:
        if card in hands[seat]:
            continue
        given = spare.pop()
        for place in (*hands, display, deck):
            if card in place:
                place[place.index(card)] = given
                break
        hands[seat][hands[seat].index(given)] = card
    return attrs.evolve(
        base, hands=tuple(tuple(h) for h in hands), display=tuple(display), deck=tuple(deck)
    )


@pytest.mark.clause(
    "TM.REWARD.CROWN.BESIDE_OWN", "TM.REWARD.CROWN.OCCUPIED", "TM.REWARD.CROWN.PALACE"
)
def test_crown_beside_own_palace_allowed() -> None:
    """RUL.CROWN.BESIDE_OWN_PALACE (allowed): the crown palace may join A's own palace."""
    state = vizier_and_crown(rules=RuleSet(crown_beside_own_palace=Permission.ALLOWED))
    assert not any(p.city == "A1" for p in state.palaces)
    state = run(state, "palace A1")
    assert "A1" in crown_cities(state, 0)
    assert "crown A1" in legal(state)
    state = run(state, "crown A1")
    assert own_palaces(state, 0, "A1") == [Palace("A1", 0, False), Palace("A1", 0, True)]


@pytest.mark.clause(
    "TM.REWARD.CROWN.BESIDE_OWN", "TM.REWARD.CROWN.OCCUPIED", "TM.REWARD.CROWN.PALACE"
)
def test_crown_beside_own_palace_forbidden() -> None:
    """RUL.CROWN.BESIDE_OWN_PALACE (forbidden): not beside A's own palace, but beside B's."""
    rules = RuleSet(crown_beside_own_palace=Permission.FORBIDDEN)
    state = table(VIZIER_AND_CROWN, TWO_ELEPHANTS, rules=rules)
    state = with_palaces(state, ("A2", 1))
    state = run(state, "withdraw", "palace A1")
    assert "A1" not in crown_cities(state, 0)
    assert "crown A1" not in legal(state)
    with pytest.raises(IllegalActionError):
        run(state, "crown A1")
    assert "A2" in crown_cities(state, 0)
    state = run(state, "crown A2")
    assert Palace("A2", 0, True) in state.palaces
    assert Palace("A2", 1, False) in state.palaces
    assert own_palaces(state, 0, "A1") == [Palace("A1", 0, False)]


@pytest.mark.clause(
    "TM.REWARD.CROWN.OWN_NORMAL_LATER", "TM.REWARD.CROWN.LATER_NORMAL", "TM.REWARD.CROWN.NO_BONUS"
)
def test_own_palace_beside_own_crown_forbidden() -> None:
    """RUL.CROWN.OWN_PALACE_BESIDE_CROWN (forbidden): A's palace may not join A's crown."""
    state = vizier_and_crown(B_FIRST)
    fort, tile = fortress_with_points_tile(state)
    assert not any(p.city == fort for p in state.palaces)
    score = player(state, 0).score
    state = run(state, f"crown {fort}")
    assert fort not in palace_cities(state, 0)
    assert f"palace {fort}" not in legal(state)
    with pytest.raises(IllegalActionError):
        run(state, f"palace {fort}")
    assert dict(state.bonus_on_board)[fort] == tile
    assert player(state, 0).score == score


@pytest.mark.clause(
    "TM.REWARD.CROWN.OWN_NORMAL_LATER", "TM.REWARD.CROWN.LATER_NORMAL", "TM.REWARD.CROWN.NO_BONUS"
)
def test_own_palace_beside_own_crown_allowed() -> None:
    """RUL.CROWN.OWN_PALACE_BESIDE_CROWN (allowed): A's palace joins A's crown, takes the +2."""
    rules = RuleSet(own_palace_beside_own_crown=Permission.ALLOWED)
    state = vizier_and_crown(B_FIRST, rules)
    fort, tile = fortress_with_points_tile(state)
    state = run(state, f"crown {fort}")
    assert fort in palace_cities(state, 0)
    state, events = run_events(state, f"palace {fort}")
    assert own_palaces(state, 0, fort) == [Palace(fort, 0, False), Palace(fort, 0, True)]
    assert fort not in dict(state.bonus_on_board)
    assert tile not in dict(state.bonus_on_board).values()
    assert points(events, "bonus", 0) == [2]


@pytest.mark.clause(
    "TM.REWARD.CROWN.OWN_NORMAL_LATER", "TM.REWARD.CROWN.LATER_NORMAL", "TM.REWARD.CROWN.NO_BONUS"
)
def test_other_player_palace_joins_crown_and_takes_bonus() -> None:
    """RUL.CROWN.OWN_PALACE_BESIDE_CROWN: another player's palace may join the crown palace."""
    # A: elephant + Grand Mogul (the crown only); B: elephant + monk (the elephants tie).
    state = table(("red-05",), ("yellow-13",), order=B_FIRST)
    fort, tile = fortress_with_points_tile(state)
    state = run(state, "withdraw")
    assert state.withdrawal is not None and state.withdrawal.crown_owed
    assert state.withdrawal.palaces_owed == 0
    state = run(state, f"crown {fort}", "take white-06 white-07")
    assert player(state, 0).withdrawn
    assert dict(state.bonus_on_board)[fort] == tile
    assert state.to_move == 1
    score = player(state, 1).score
    state = run(state, "withdraw")
    assert M in player(state, 1).influence
    assert fort in palace_cities(state, 1)
    assert f"palace {fort}" in legal(state)
    state, events = run_events(state, f"palace {fort}")
    assert Palace(fort, 1, False) in state.palaces and Palace(fort, 0, True) in state.palaces
    assert fort not in dict(state.bonus_on_board)
    assert points(events, "bonus", 1) == [2]
    assert points(events, "bonus", 0) == []
    assert player(state, 1).score >= score + 2


@pytest.mark.clause(
    "TM.REWARD.PLACEMENT_ORDER",
    "TM.REWARD.FORTRESS.BONUS",
    "TM.REWARD.CROWN.NO_BONUS",
    "TM.SCORE.BONUS.SEQUENTIAL",
)
def test_player_chooses_placement_order() -> None:
    """RUL.CROWN.PLACEMENT_ORDER: any order, each placement its own recorded action."""
    played = ("red-01", "white-05")
    shown = symbols(played)
    assert shown[V] == shown[G] == shown[Symbol.MOGUL] == 1
    setup = outcome_with_hand(0, played)
    start = new_game(COMPONENTS, 4, setup)
    orders = {
        "crown first": ["crown A1", "palace A2", "palace A3"],
        "palaces first": ["palace A2", "palace A3", "crown A1"],
    }
    finals = []
    for placements in orders.values():
        recorder = Recorder(COMPONENTS, 4, setup, RuleSet())
        state = start
        # A plays vizier + general + Grand Mogul; B, C and D withdraw without playing.
        state = recorded(state, recorder, "play red-01 white-05")
        for _ in range(3):
            state = recorded(state, recorder, "withdraw")
            assert state.step is Step.TAKE
            state = recorded(state, recorder, str(legal_actions(state)[0]))
        state = recorded(state, recorder, "withdraw")
        opening = len(recorder.steps)
        assert state.step is Step.PLACE and state.to_move == 0
        actions = legal(state)
        assert any(a.startswith("crown ") for a in actions)
        assert any(a.startswith("palace ") for a in actions)
        for text in placements:
            state = recorded(state, recorder, text)
        record = recorder.record(state)
        steps = [(step.actor, step.action) for step in record.steps[opening:]]
        assert steps == [(0, text) for text in placements]
        assert replay(record, COMPONENTS) == state
        finals.append(state)
    for state in finals:
        assert sorted((p.city, p.seat, p.crowned) for p in state.palaces) == [
            ("A1", 0, True),
            ("A2", 0, False),
            ("A3", 0, False),
        ]
        assert player(state, 0).influence == (V, G)


@pytest.mark.clause(
    "TM.REWARD.PLACEMENT_ORDER",
    "TM.REWARD.FORTRESS.BONUS",
    "TM.REWARD.CROWN.NO_BONUS",
    "TM.SCORE.BONUS.SEQUENTIAL",
)
def test_fortress_bonus_scored_at_placement() -> None:
    """RUL.CROWN.PLACEMENT_ORDER: a fortress bonus scores before the next placement."""
    played = ("red-01",)
    assert symbols(played)[V] == symbols(played)[G] == 1
    state = table(played, TWO_ELEPHANTS, order=B_FIRST)
    fort, _ = fortress_with_points_tile(state)
    state, events = run_events(state, "withdraw")
    assert state.withdrawal is not None and state.withdrawal.palaces_owed == 2
    score = player(state, 0).score
    state, placed = run_events(state, f"palace {fort}")
    events += placed
    assert state.step is Step.PLACE
    assert player(state, 0).score == score + 2
    state, placed = run_events(state, "palace B1")
    events += placed
    kinds = [(e.kind, e.cities) for e in events if e.kind in ("palace", "bonus")]
    assert kinds == [("palace", (fort,)), ("bonus", (fort,)), ("palace", ("B1",))]


@pytest.mark.clause(
    "TM.REWARD.PLACEMENT_ORDER",
    "TM.REWARD.FORTRESS.BONUS",
    "TM.REWARD.CROWN.NO_BONUS",
    "TM.SCORE.BONUS.SEQUENTIAL",
)
def test_crown_first_cannot_grab_bonus_beside_it() -> None:
    """RUL.CROWN.PLACEMENT_ORDER: crown first blocks A's palace; palace first takes the bonus."""
    state = vizier_and_crown(B_FIRST)
    fort, tile = fortress_with_points_tile(state)
    crown_first = run(state, f"crown {fort}")
    with pytest.raises(IllegalActionError):
        run(crown_first, f"palace {fort}")
    assert dict(crown_first.bonus_on_board)[fort] == tile

    palace_first, events = run_events(state, f"palace {fort}")
    assert points(events, "bonus", 0) == [2]
    assert fort not in dict(palace_first.bonus_on_board)
    assert f"crown {fort}" in legal(palace_first)
    palace_first = run(palace_first, f"crown {fort}")
    assert own_palaces(palace_first, 0, fort) == [Palace(fort, 0, False), Palace(fort, 0, True)]


@pytest.mark.clause(
    "TM.REWARD.CROWN.PALACE",
    "TM.SCORE.PALACE.CURRENT",
    "TM.SCORE.PALACE.CHAIN",
    "TM.VISIT.NEXT.CROWN",
)
def test_crown_palace_alone_scores_current_province_point() -> None:
    """RUL.CROWN.COUNTS_AS_PALACE: a crown palace alone earns the current province's point."""
    played = ("red-05",)
    assert symbols(played)[Symbol.MOGUL] == 1
    state = run(table(played, TWO_ELEPHANTS), "withdraw")
    withdrawal = state.withdrawal
    assert withdrawal is not None
    assert withdrawal.crown_owed and withdrawal.palaces_owed == 0
    assert withdrawal.province_won is None
    assert not any(p.seat == 0 for p in state.palaces)
    assert not COMPONENTS.board.cities["A1"].fortress
    state, events = run_events(state, "crown A1")
    assert points(events, "score", 0) == [1]
    assert player(state, 0).score == 1


@pytest.mark.clause(
    "TM.REWARD.CROWN.PALACE",
    "TM.SCORE.PALACE.CURRENT",
    "TM.SCORE.PALACE.CHAIN",
    "TM.VISIT.NEXT.CROWN",
)
def test_crown_palace_stays_when_crown_returns() -> None:
    """RUL.CROWN.COUNTS_AS_PALACE: the crown goes back to the court, the palace stays."""
    state = run(table(("red-05",), TWO_ELEPHANTS), "withdraw", "crown A1")
    assert not state.crown_in_court
    mine = [p for p in state.palaces if p.seat == 0]
    assert [p.city for p in mine] == ["A1"]

    # Visit 2 (province B): the crown is in the court again and B wins it.
    starts = play_out_visit(state)
    assert starts.visit == 2 and starts.crown_in_court
    assert [(p.city, p.seat) for p in starts.palaces] == [("A1", 0)]
    state = with_played(starts, 1, ("yellow-05",))
    state = with_played(state, 0, ("red-19",))
    state = to_move(state, 1)
    state = run(state, "withdraw")
    assert state.withdrawal is not None and state.withdrawal.crown_owed
    assert not state.crown_in_court
    state = run(state, "crown B1")
    assert Palace("B1", 1, True) in state.palaces
    assert any(p.city == "A1" and p.seat == 0 for p in state.palaces)

    later = play_out(state)
    final = later[-1]
    assert final.is_over
    for visit_start in later:
        assert any(p.city == "A1" and p.seat == 0 for p in visit_start.palaces)


@pytest.mark.clause(
    "TM.REWARD.CROWN.PALACE",
    "TM.SCORE.PALACE.CURRENT",
    "TM.SCORE.PALACE.CHAIN",
    "TM.VISIT.NEXT.CROWN",
)
def test_crown_palace_links_chain_in_later_visit() -> None:
    """RUL.CROWN.COUNTS_AS_PALACE: a crown palace from an earlier visit links a chain."""
    board = COMPONENTS.board
    assert frozenset(("A2", "B1")) in board.roads
    # Visit 1 (province A): A wins only the crown and places it in A2.
    state = run(table(("red-05",), TWO_ELEPHANTS), "withdraw", "crown A2")
    state = play_out_visit(state)
    assert state.visit == 2 and state.current_province == "B"
    assert [(p.city, p.seat, p.crowned) for p in state.palaces] == [("A2", 0, True)]
    # Visit 2 (province B): A wins the vizier only and places a palace in B1.
    state = with_played(state, 0, ("red-07",))
    state = with_played(state, 1, ("yellow-19",))
    state = to_move(state, 0)
    state = run(state, "withdraw")
    assert state.withdrawal is not None and state.withdrawal.palaces_owed == 1
    assert state.withdrawal.province_won is None
    state, events = run_events(state, "palace B1")
    assert points(events, "score", 0) == [2]  # 1 for B and 1 for A through the crown palace


@pytest.mark.clause(
    "TM.REWARD.INFLUENCE.PALACE", "TM.REWARD.INFLUENCE.TILE", "TM.REWARD.CROWN.PALACE"
)
def test_influence_tile_won_without_palace_when_no_city() -> None:
    """RUL.REWARD.NO_LEGAL_CITY: the fourth palace has no city; its tile is still won."""
    played = ("red-01", "red-03", "red-05")
    shown = symbols(played)
    assert all(shown[s] >= 1 for s in (V, G, M, P, Symbol.MOGUL))
    state = table(played, TWO_ELEPHANTS)
    assert len(COMPONENTS.board.provinces["A"].cities) == 4
    assert state.palaces == ()
    state = run(state, "withdraw")
    assert state.withdrawal is not None
    assert state.withdrawal.palaces_owed == 4 and state.withdrawal.crown_owed
    state = run(state, "crown A1", "palace A2", "palace A3")
    assert legal(state) == {"palace A4"}
    state, events = run_events(state, "palace A4")
    assert state.step is Step.TAKE
    assert not any(a.startswith(("palace ", "crown ")) for a in legal(state))
    assert [e.kind for e in events if e.kind == "forfeit"] == ["forfeit"]
    assert player(state, 0).influence == (V, G, M, P)
    assert points(events, "score", 0) == [1]
    assert len([p for p in state.palaces if p.seat == 0]) == 4


@pytest.mark.clause("TM.REWARD.CROWN.NO_BONUS", "TM.REWARD.FORTRESS.BONUS")
def test_bonus_under_crown_only_stays_unscored() -> None:
    """RUL.REWARD.UNCLAIMED_BONUS: a bonus tile under a lone crown palace is never scored."""
    state = table(("red-05",), TWO_ELEPHANTS, order=B_FIRST)
    fort, tile = fortress_with_points_tile(state)
    events: list[Event] = []
    state, happened = run_events(state, "withdraw", f"crown {fort}")
    events += happened
    assert dict(state.bonus_on_board)[fort] == tile
    starts = play_out(state, events)
    assert [s.visit for s in starts[:-1]] == list(range(2, 13))
    assert starts[-1].is_over
    for later in starts:
        assert dict(later.bonus_on_board).get(fort) == tile
    assert not any(e.kind == "bonus" and tile in e.tiles for e in events)
    assert [p.city for p in starts[-1].palaces if p.city == fort] == [fort]


@pytest.mark.clause("TM.REWARD.CROWN.PALACE", "TM.REWARD.CROWN.BESIDE_OWN")
def test_crown_with_no_legal_city_is_not_placed() -> None:
    """RUL.REWARD.NO_LEGAL_CITY under crown_beside_own_palace = forbidden: seat 0's own
    palaces fill all four cities of province A, so the crown it wins has no legal city.
    It is not placed, the crown stays won (out of the court) and nothing is scored."""
    rules = RuleSet(crown_beside_own_palace=Permission.FORBIDDEN)
    state = table(("red-05",), TWO_ELEPHANTS, rules=rules)
    state = with_palaces(state, ("A1", 0), ("A2", 0), ("A3", 0), ("A4", 0))
    assert crown_cities(state, 0) == ()
    state = run(state, "withdraw")
    assert not state.crown_in_court
    assert state.step is Step.TAKE and state.to_move == 0
    assert not any(a.startswith(("crown ", "palace ")) for a in legal(state))
    assert not any(p.crowned for p in state.palaces)
    assert player(state, 0).score == 0


@pytest.mark.clause("TM.REWARD.CROWN.PALACE", "TM.REWARD.CROWN.BESIDE_OWN")
def test_crown_loses_its_last_city_to_the_players_own_palace() -> None:
    """RUL.REWARD.NO_LEGAL_CITY and RUL.CROWN.PLACEMENT_ORDER under forbidden: seat 0 owns
    A1 to A3 and wins the vizier and the crown. Placing the palace in A4 first leaves the
    crown no city: it is forfeited, and the palaces still score 1 (province A only)."""
    rules = RuleSet(crown_beside_own_palace=Permission.FORBIDDEN)
    state = table(VIZIER_AND_CROWN, TWO_ELEPHANTS, rules=rules)
    state = with_palaces(state, ("A1", 0), ("A2", 0), ("A3", 0))
    state = run(state, "withdraw")
    assert legal(state) == {"crown A4", "palace A4"}
    state = run(state, "palace A4")
    assert state.step is Step.TAKE
    assert not any(p.crowned for p in state.palaces)
    assert player(state, 0).score == 1


# ---------------------------------------------------------------------------------------
# RUL.REWARD.TWO_PALACES_PER_CITY and RUL.TEXT.NEXT_PLAYER_BONUS


def crown_on_fortress_then_later_players() -> tuple[GameState, str, str]:
    """Province B first. A (elephant + Grand Mogul) wins only the crown and places it on
    B's fortress; B (two elephants) then wins only the province tile, C (elephant + monk)
    is still in. Returns the state with C to move, the fortress and its +2 tile."""
    state = table(("red-05",), ("yellow-19",), ("green-13",), order=B_FIRST)
    fort, tile = fortress_with_points_tile(state)
    state = run(state, "withdraw", f"crown {fort}", "take white-06 white-07")
    assert Palace(fort, 0, True) in state.palaces
    assert dict(state.bonus_on_board)[fort] == tile
    state = run(state, "withdraw")
    # B, the player after A, wins the province tile and has no palace to place.
    assert player(state, 1).province_tiles == ("province-01",)
    assert state.step is Step.TAKE and state.to_move == 1
    state = run(state, "take white-08 white-09")
    assert state.to_move == 2
    return state, fort, tile


@pytest.mark.clause("TM.REWARD.CROWN.NO_BONUS", "TM.REWARD.FORTRESS.BONUS")
def test_bonus_under_crown_goes_to_any_later_player() -> None:
    """RUL.TEXT.NEXT_PLAYER_BONUS: not the next player in turn order (B) but C, the next to
    place a normal palace in the city, takes the +2 tile."""
    state, fort, tile = crown_on_fortress_then_later_players()
    assert player(state, 2).score == 0
    state = run(state, "withdraw")
    assert M in player(state, 2).influence
    assert f"palace {fort}" in legal(state)
    state = run(state, f"palace {fort}")
    assert Palace(fort, 2, False) in state.palaces
    assert tile not in dict(state.bonus_on_board).values()
    # +2 for the bonus tile and 1 for a palace in the current province (no chain).
    assert player(state, 2).score == 3
    assert player(state, 1).score == 1  # B: the province tile's one good only


@pytest.mark.clause(
    "TM.REWARD.TWO_PALACES_PER_CITY",
    "TM.REWARD.CROWN.LATER_NORMAL",
    "TM.REWARD.INFLUENCE.PALACE",
)
def test_normal_palace_joins_a_crown_palace_alone() -> None:
    """RUL.REWARD.TWO_PALACES_PER_CITY: a city holding only the crown palace takes one
    normal palace, and then no further palace of any player."""
    state, fort, _ = crown_on_fortress_then_later_players()
    assert fort in palace_cities(state, 2) and fort in palace_cities(state, 3)
    state = run(state, "withdraw", f"palace {fort}")
    assert sorted((p.seat, p.crowned) for p in state.palaces if p.city == fort) == [
        (0, True),
        (2, False),
    ]
    for seat in range(4):
        assert fort not in palace_cities(state, seat)


@pytest.mark.clause(
    "TM.REWARD.TWO_PALACES_PER_CITY", "TM.REWARD.CROWN.OCCUPIED", "TM.REWARD.INFLUENCE.PALACE"
)
def test_city_with_two_palaces_takes_no_third() -> None:
    """RUL.REWARD.TWO_PALACES_PER_CITY: the crown palace joins B's palace in city X; X then
    holds two palaces and is offered to nobody, while A still owes a normal palace."""
    state = vizier_and_crown()
    city = COMPONENTS.board.provinces[state.current_province].cities[0]
    state = with_palaces(state, (city, 1))
    assert city in crown_cities(state, 0)
    assert city not in palace_cities(state, 0)
    state = run(state, f"crown {city}")
    assert sorted((p.seat, p.crowned) for p in state.palaces if p.city == city) == [
        (0, True),
        (1, False),
    ]
    assert state.step is Step.PLACE and state.to_move == 0
    assert f"palace {city}" not in legal(state)
    for seat in range(4):
        assert city not in palace_cities(state, seat)
