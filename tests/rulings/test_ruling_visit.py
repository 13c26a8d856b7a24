"""Rulings on the visit: what nobody wins, turns without a legal play, the start player and
the display of the last visit (rulings/TESTS.md, section test_ruling_visit.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import attrs
import pytest
from positions import (
    COMPONENTS,
    all_cards_once,
    at_visit,
    finish_visit,
    game,
    legal,
    outcome,
    player,
    run,
    with_hand,
    with_played,
)
from scenes import card_showing

from tajmahal.agents import RandomPlayer, play_match
from tajmahal.engine import apply, apply_with_events, legal_actions, new_game, random_setup
from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    INFLUENCE_SYMBOLS,
    WITHDRAW,
    Action,
    CardColour,
    Event,
    GameState,
    Play,
    Reshuffle,
    Step,
    Symbol,
)
from tajmahal.records import dumps_record, initial_state, record_from_json, replay, replay_steps


def _tile(number: int) -> str:
    return COMPONENTS.province_tile_number(number).id


def _withdraw_and_take(state: GameState) -> tuple[GameState, list[Event]]:
    """The player to move withdraws without having played, then takes the first pair."""
    seat = state.to_move
    assert seat is not None and player(state, seat).played == ()
    state, events = apply_with_events(state, WITHDRAW)
    collected = list(events)
    assert state.step is not Step.PLACE
    if state.step is Step.TAKE:
        state, events = apply_with_events(state, legal_actions(state)[0])
        collected.extend(events)
    return state, collected


def _everyone_withdraws_without_playing(state: GameState) -> tuple[GameState, list[Event]]:
    visit = state.visit
    events: list[Event] = []
    while state.visit == visit:
        assert state.step is Step.PLAY
        state, new = _withdraw_and_take(state)
        events.extend(new)
    return state, events


def _play_out(state: GameState) -> Iterator[GameState]:
    """Every later state of the game, each decision being the first legal action and each
    reshuffle keeping the discard pile's order."""
    while not state.is_over:
        shuffle = state.step is Step.SHUFFLE
        action: Action = Reshuffle(state.discard) if shuffle else legal_actions(state)[0]
        state = apply(state, action)
        yield state


# ---------------------------------------------------------------------------------------
# RUL.VISIT.UNWON_PROVINCE_TILE


@pytest.mark.clause("TM.VISIT.UNWON_PROVINCE", "TM.VISIT.NEXT.PROVINCE_TILE")
def test_unwon_province_tile_leaves_game() -> None:
    """RUL.VISIT.UNWON_PROVINCE_TILE: a province tile nobody wins leaves the game."""
    state = game(4)
    first, second = _tile(1), _tile(2)
    assert state.court_province_tile == first
    state, events = _everyone_withdraws_without_playing(state)
    assert state.visit == 2 and state.step is Step.PLAY
    # The court holds tile 2 only; tile 1 belongs to nobody.
    assert state.court_province_tile == second
    assert all(p.province_tiles == () for p in state.players)
    assert any(e.kind == "unwon" and e.tiles == (first,) for e in events)
    # No later state brings it back.
    final = state
    for later in _play_out(state):
        assert later.court_province_tile != first
        assert all(first not in p.province_tiles for p in later.players)
        final = later
    assert final.is_over


# ---------------------------------------------------------------------------------------
# RUL.VISIT.UNWON_COURT


@pytest.mark.clause("TM.VISIT.UNWON_COURT", "TM.VISIT.NEXT.INFLUENCE_REFILL", "TM.VISIT.NEXT.CROWN")
def test_unwon_influence_tile_stays_single_in_court() -> None:
    """RUL.VISIT.UNWON_COURT: only taken tiles are replaced; one tile of a kind at most."""
    elephant_vizier = card_showing(CardColour.RED, Symbol.ELEPHANT, Symbol.VIZIER)
    state = with_hand(game(4), 0, (elephant_vizier, "red-02", "red-03"))
    state = run(state, f"play {elephant_vizier}")
    # B, C and D withdraw on their first turn without playing and win nothing.
    for seat in (1, 2, 3):
        assert state.to_move == seat
        state, _ = _withdraw_and_take(state)
        assert player(state, seat).influence == ()
    # A, alone, withdraws and wins the vizier (and the province tile).
    state = run(state, "withdraw")
    assert player(state, 0).influence == (Symbol.VIZIER,)
    assert Symbol.VIZIER not in state.court_influence
    assert Symbol.MONK in state.court_influence
    state = apply(state, legal_actions(state)[0])  # the vizier palace
    assert state.visit == 2 and state.step is Step.PLAY
    # Exactly one tile of each kind in the court: the vizier replaced, the others unwon.
    assert state.court_influence == INFLUENCE_SYMBOLS
    for symbol in INFLUENCE_SYMBOLS:
        assert state.court_influence.count(symbol) == 1
    assert all(Symbol.MONK not in p.influence for p in state.players)
    assert player(state, 0).influence == (Symbol.VIZIER,)
    assert all(player(state, seat).influence == () for seat in (1, 2, 3))


@pytest.mark.clause("TM.VISIT.UNWON_COURT", "TM.VISIT.NEXT.INFLUENCE_REFILL", "TM.VISIT.NEXT.CROWN")
def test_unwon_crown_stays_in_court() -> None:
    """RUL.VISIT.UNWON_COURT: a crown nobody wins is simply still in the court."""
    state = game(4)
    assert state.crown_in_court
    state, _ = _everyone_withdraws_without_playing(state)
    assert state.visit == 2
    assert state.crown_in_court
    assert state.palaces == ()
    assert state.court_influence == INFLUENCE_SYMBOLS


# ---------------------------------------------------------------------------------------
# RUL.TURN.NO_LEGAL_PLAY


@pytest.mark.clause(
    "TM.TURN.NO_LEGAL_PLAY", "TM.TURN.CHOICE", "TM.PLAY.NEVER_ALONE", "TM.PLAY.COLOUR_LOCK"
)
def test_no_card_of_visit_colour_forces_withdraw() -> None:
    """RUL.TURN.NO_LEGAL_PLAY: no card of the visit colour and no colour change."""
    state = with_played(game(4), 0, ("red-02",))
    assert player(state, 0).colour is CardColour.RED
    state = with_hand(state, 0, ("green-01", "green-07", "white-01", "white-06"))
    assert legal(state) == {"withdraw"}
    with pytest.raises(IllegalActionError):
        run(state, "play green-01")
    with pytest.raises(IllegalActionError):
        run(state, "play green-01 white-01")
    state = run(state, "withdraw")
    assert player(state, 0).withdrawn


@pytest.mark.clause(
    "TM.TURN.NO_LEGAL_PLAY", "TM.TURN.CHOICE", "TM.PLAY.NEVER_ALONE", "TM.PLAY.COLOUR_LOCK"
)
def test_only_white_and_special_cards_force_withdraw() -> None:
    """RUL.TURN.NO_LEGAL_PLAY: white and special cards are never played alone."""
    state = with_hand(game(4), 0, ("white-01", "white-06", "special-colour-change"))
    assert player(state, 0).played == () and player(state, 0).colour is None
    assert legal(state) == {"withdraw"}
    for extra in ("white-01", "special-colour-change"):
        with pytest.raises(IllegalActionError):
            apply(state, Play(extra))
    with pytest.raises(IllegalActionError):
        apply(state, Play("white-01", "special-colour-change"))


@pytest.mark.clause(
    "TM.TURN.NO_LEGAL_PLAY", "TM.TURN.CHOICE", "TM.PLAY.NEVER_ALONE", "TM.PLAY.COLOUR_LOCK"
)
def test_empty_hand_forces_withdraw() -> None:
    """RUL.TURN.NO_LEGAL_PLAY: with an empty hand the only action is to withdraw."""
    state = with_played(game(4), 0, ("red-02", "red-03"))
    state = with_hand(state, 0, ())
    assert player(state, 0).hand == ()
    assert legal(state) == {"withdraw"}
    state = run(state, "withdraw")
    assert player(state, 0).withdrawn


@pytest.mark.clause(
    "TM.TURN.NO_LEGAL_PLAY", "TM.TURN.CHOICE", "TM.PLAY.NEVER_ALONE", "TM.PLAY.COLOUR_LOCK"
)
def test_colour_change_card_keeps_play_legal() -> None:
    """RUL.TURN.NO_LEGAL_PLAY: the colour-change card lets a card of another colour play."""
    state = with_played(game(4), 0, ("red-02",))
    state = with_hand(state, 0, ("green-01", "green-07", "special-colour-change"))
    actions = legal(state)
    assert "play green-01 special-colour-change" in actions
    assert "play green-07 special-colour-change" in actions
    assert "play green-01" not in actions
    assert "withdraw" in actions
    with pytest.raises(IllegalActionError):
        run(state, "play green-01")
    after = run(state, "play green-01 special-colour-change")
    assert player(after, 0).played == ("red-02", "green-01", "special-colour-change")


# ---------------------------------------------------------------------------------------
# RUL.SETUP.START_PLAYER


@pytest.mark.clause("TM.SETUP.START_PLAYER", "TM.TURN.START_PLAYER_BEGINS")
def test_start_player_is_recorded_chance_outcome() -> None:
    """RUL.SETUP.START_PLAYER: the start player is a recorded chance outcome of the setup."""
    seed = 3
    players = [RandomPlayer(seat) for seat in range(4)]
    result = play_match(COMPONENTS, players, seed)
    start = result.record.setup.start_player
    assert start == result.initial.start_player == result.initial.to_move
    assert start == random_setup(COMPONENTS, 4, seed).start_player
    # The written record carries it, and replaying the record reproduces it and the game.
    document = json.loads(dumps_record(result.record))
    assert document["setup"]["start_player"] == start
    record = record_from_json(document)
    assert initial_state(record, COMPONENTS).start_player == start
    first = next(replay_steps(record, COMPONENTS))
    assert first.before.to_move == start and first.index == 0
    assert record.steps[0].actor == start
    assert replay(record, COMPONENTS) == result.final
    # The start player is drawn, not fixed.
    starts = {random_setup(COMPONENTS, 4, s).start_player for s in range(10)}
    assert len(starts) >= 2
    assert starts <= {0, 1, 2, 3}


@pytest.mark.clause("TM.SETUP.START_PLAYER", "TM.TURN.START_PLAYER_BEGINS")
def test_start_player_can_be_imposed() -> None:
    """RUL.SETUP.START_PLAYER: a caller may impose the start player."""
    state = new_game(COMPONENTS, 4, outcome(4, start=2))
    assert state.visit == 1 and state.step is Step.PLAY
    assert state.start_player == 2 and state.to_move == 2
    # The legal actions are seat 2's: a play of each coloured card in seat 2's hand.
    coloured = [c for c in player(state, 2).hand if COMPONENTS.cards[c].colour.is_coloured]
    assert coloured
    assert {f"play {card}" for card in coloured} <= legal(state)
    # Imposed on a drawn setup as well.
    drawn = random_setup(COMPONENTS, 4, 0)
    imposed = attrs.evolve(drawn, start_player=2)
    state = new_game(COMPONENTS, 4, imposed)
    assert state.to_move == 2 and state.start_player == 2
    state = run(state, "withdraw")
    assert player(state, 2).withdrawn and not player(state, 3).withdrawn


# ---------------------------------------------------------------------------------------
# RUL.VISIT.LAST_VISIT_DISPLAY


@pytest.mark.clause("TM.VISIT.NEXT.DISPLAY", "TM.END.HAND.INCLUDES_LAST_PICKS")
def test_display_drawn_for_twelfth_visit() -> None:
    """RUL.VISIT.LAST_VISIT_DISPLAY: the 12th visit gets a display like every other."""
    state = at_visit(game(4), 11)
    deck = state.deck
    state = finish_visit(state)
    assert state.visit == 12 and state.step is Step.PLAY
    # Each of the four players drew the extra card for withdrawing without playing; the
    # display of the last visit is the next 7 cards of the deck.
    assert len(state.display) == 7
    assert state.display == tuple(sorted(deck[4:11]))
    assert state.deck == deck[11:]
    assert all_cards_once(state)
    # In whole games too: the display of visit 12 is full unless the cards ran out.
    for seed in range(3):
        result = play_match(COMPONENTS, [RandomPlayer(10 * seed + s) for s in range(4)], seed)
        twelfth = next(
            step.after
            for step in replay_steps(result.record, COMPONENTS)
            if step.after.visit == 12 and step.after.step is not Step.SHUFFLE
        )
        assert len(twelfth.display) == 7 or twelfth.deck == twelfth.discard == ()
