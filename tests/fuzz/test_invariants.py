"""The invariants: each one catches a hand-made breach of its rule, and none fires on
legal play (the property at the end drives random games under every rule set)."""

from __future__ import annotations

from collections.abc import Iterable

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from positions import COMPONENTS, at_visit, game, table, with_hand, with_palaces, with_played

import tajmahal.notation._reading
from tajmahal.engine import apply, legal_actions, random_setup
from tajmahal.model import Action, GameState, Palace, PlaceCrown, Play, Symbol, View, Withdraw, view
from tajmahal.testing.invariants import (
    INVARIANTS,
    STEP_INVARIANTS,
    Transition,
    check_game,
    check_state,
    check_step,
)
from tajmahal.testing.invariants import _secrets as invariants_secrets
from tajmahal.testing.strategies import Game, games


def broken(before: GameState, action: Action | None, after: GameState) -> set[str]:
    """The names of the step invariants the transition breaks."""
    legal = legal_actions(before) if action is not None else ()
    return {v.invariant for v in check_step(Transition.of(before, legal, action, after))}


def alone(state: GameState) -> set[str]:
    return broken(state, None, state)


def test_every_invariant_has_a_unique_name_clauses_and_a_docstring() -> None:
    names = [invariant.name for invariant in INVARIANTS]
    assert len(names) == len(set(names))
    for invariant in INVARIANTS:
        assert invariant.check.__doc__
        for clause in invariant.clauses:
            assert clause.startswith(("TM.", "RUL."))


def test_a_fresh_game_breaks_nothing() -> None:
    assert alone(game(3)) == set()
    assert alone(game(5)) == set()


@pytest.mark.clause("TM.COMP.CARDS.COUNT")
def test_a_card_in_two_places_or_nowhere_is_caught() -> None:
    state = game(4)
    hand = state.players[0].hand
    doubled = attrs.evolve(
        state,
        players=(attrs.evolve(state.players[0], hand=(*hand, state.deck[0])), *state.players[1:]),
    )
    assert alone(doubled) == {"cards-conserved"}
    lost = attrs.evolve(state, deck=state.deck[1:])
    assert alone(lost) == {"cards-conserved"}


@pytest.mark.clause("TM.COMP.INFLUENCE_TILES")
def test_a_seventh_influence_tile_is_caught() -> None:
    state = game(3)
    seats = tuple(
        attrs.evolve(player, influence=(Symbol.VIZIER, Symbol.VIZIER)) for player in state.players
    )
    assert alone(attrs.evolve(state, players=seats)) == {"influence-tiles"}  # 6 held + 1 court
    assert alone(attrs.evolve(state, players=seats, court_influence=())) == set()


@pytest.mark.clause("TM.COMP.PROVINCE_TILES")
def test_a_province_tile_won_before_its_visit_is_caught() -> None:
    state = game(3)
    later = COMPONENTS.province_tile_number(5).id
    seat = attrs.evolve(state.players[1], province_tiles=(later,))
    assert alone(attrs.evolve(state, players=(state.players[0], seat, state.players[2]))) == {
        "province-tiles"
    }


def test_a_state_too_broken_to_read_is_a_violation_not_an_error() -> None:
    state = game(3)
    seat = attrs.evolve(state.players[0], province_tiles=("no-such-tile",))
    violations = check_step(
        Transition.of(state, (), None, attrs.evolve(state, players=(seat, *state.players[1:])))
    )
    assert [v.invariant for v in violations] == ["province-tiles"]
    assert "could not read the state (KeyError" in violations[0].message


@pytest.mark.clause("TM.REWARD.FORTRESS.BONUS", "TM.REWARD.CROWN.NO_BONUS")
def test_a_palace_beside_its_bonus_tile_is_caught_but_not_a_crown() -> None:
    state = at_visit(game(3), 2)  # provinces A and B visited; B3 is a fortress
    assert alone(with_palaces(state, Palace("B3", 0, crowned=True))) == set()
    assert alone(with_palaces(state, ("B3", 0))) == {"bonus-tiles"}


@pytest.mark.clause("TM.REWARD.INFLUENCE.PALACE", "TM.REWARD.CROWN.PALACE")
def test_palaces_in_unvisited_provinces_or_crowded_cities_are_caught() -> None:
    state = game(3)  # visit 1: province A only
    assert alone(with_palaces(state, ("A1", 0), Palace("A1", 1, crowned=True))) == set()
    assert alone(with_palaces(state, ("C2", 0))) == {"palaces-placed"}
    assert alone(with_palaces(state, ("A1", 0), ("A1", 1))) == {"palaces-placed"}
    crowns = with_palaces(state, Palace("A1", 0, crowned=True), Palace("A2", 1, crowned=True))
    assert alone(crowns) == {"palaces-placed"}


@pytest.mark.clause("TM.REWARD.CROWN.TAKE")
def test_a_crown_returning_mid_visit_or_placed_without_crown_action_is_caught() -> None:
    before = attrs.evolve(game(3), crown_in_court=False)
    again = attrs.evolve(before, crown_in_court=True)
    assert "crown-once-per-visit" in broken(before, Withdraw(), again)
    crowned = with_palaces(before, Palace("A1", 0, crowned=True))
    assert "crown-once-per-visit" in broken(before, Withdraw(), crowned)
    assert "crown-once-per-visit" not in broken(before, PlaceCrown("A1"), crowned)


@pytest.mark.clause("TM.WITHDRAW.MAJORITY.STRICT", "TM.WITHDRAW.COMPARE")
def test_a_tie_that_wins_a_tile_is_caught() -> None:
    # Seats 0 and 1 both show a general and a monk: a tie wins nothing.
    before = table(["red-02"], ["yellow-02"], players=3)
    after = apply(before, Withdraw())
    assert broken(before, Withdraw(), after) == set()
    assert after.court_influence == before.court_influence
    seat = attrs.evolve(after.players[0], influence=(Symbol.GENERAL,))
    cheated = attrs.evolve(
        after,
        court_influence=tuple(s for s in after.court_influence if s is not Symbol.GENERAL),
        players=(seat, *after.players[1:]),
    )
    assert "majority-awards" in broken(before, Withdraw(), cheated)


@pytest.mark.clause("TM.WITHDRAW.MAJORITY.STRICT")
def test_a_strict_majority_not_awarded_is_caught() -> None:
    before = table(["red-02"], players=3)  # seat 0 alone shows a general and a monk
    after = apply(before, Withdraw())
    assert broken(before, Withdraw(), after) == set()
    assert Symbol.GENERAL not in after.court_influence
    withheld = attrs.evolve(after, court_influence=before.court_influence)
    assert "majority-awards" in broken(before, Withdraw(), withheld)


@pytest.mark.clause("TM.SCORE.TRACK")
def test_a_score_going_down_is_caught() -> None:
    before = game(3)
    seat = attrs.evolve(before.players[0], score=3)
    higher = attrs.evolve(before, players=(seat, *before.players[1:]))
    assert "scores-never-decrease" in broken(higher, Withdraw(), before)


@pytest.mark.clause("TM.PLAY.COLOUR_LOCK")
def test_two_colours_in_one_visit_are_caught_unless_the_colour_change_card_was_played() -> None:
    state = game(3)
    assert alone(with_played(state, 0, ["red-02", "yellow-02"])) == {"colour-lock"}
    changed = with_played(state, 0, ["red-02", "yellow-02", "special-colour-change"])
    assert alone(changed) == set()


@pytest.mark.clause("TM.PLAY.NO_TAKE_BACK", "TM.PLAY.ONE_COLOURED")
def test_taking_back_a_card_or_playing_two_coloured_cards_is_caught() -> None:
    state = with_played(game(3), 0, ["red-02"])
    taken_back = with_played(state, 0, [])
    assert "plays-are-final" in broken(state, Withdraw(), taken_back)
    fresh = game(3)
    two = with_played(fresh, fresh.to_move or 0, ["red-02", "red-03"])
    assert "plays-are-final" in broken(fresh, Play("red-02"), two)


@pytest.mark.clause("TM.SETUP.DISPLAY.SIZE", "TM.END.AFTER_TWELVE")
def test_an_oversized_display_is_caught() -> None:
    state = game(3)  # five cards in the display
    bigger = attrs.evolve(state, display=(*state.display, state.deck[0]), deck=state.deck[1:])
    assert alone(bigger) == {"table-and-display"}


@pytest.mark.clause("TM.TURN.CHOICE")
def test_unsorted_legal_actions_or_an_action_outside_them_are_caught() -> None:
    before = game(3)
    legal = legal_actions(before)
    action = legal[0]
    after = apply(before, action)
    shuffled = Transition.of(before, tuple(reversed(legal)), action, after)
    assert {v.invariant for v in check_step(shuffled)} == {"legal-actions-well-formed"}
    outside = Transition.of(before, legal[1:], action, after)
    assert {v.invariant for v in check_step(outside)} == {"legal-actions-well-formed"}


@pytest.mark.clause("TM.PLAY.HANDS_SECRET")
def test_a_view_showing_another_hand_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = game(3)
    assert check_state(state) == ()

    def leaky(state: GameState, player: int) -> View:
        seen = view(state, player)
        shown = [attrs.evolve(p, hand=state.players[i].hand) for i, p in enumerate(seen.players)]
        return attrs.evolve(seen, players=tuple(shown))

    monkeypatch.setattr(invariants_secrets, "view", leaky)
    assert {v.invariant for v in check_state(state)} == {"views-hide-secrets"}


@pytest.mark.clause("TM.PLAY.PUBLIC_INFORMATION")
def test_special_cards_in_another_hand_are_public() -> None:
    state = with_hand(game(3), 1, ["red-02", "special-mogul"])
    assert "special-mogul" in view(state, 0).players[1].specials
    assert check_state(state) == ()


def test_a_state_that_does_not_load_back_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = game(3)
    # The reader (both the whole and the part-by-part one build the state here) reads
    # another state.
    monkeypatch.setattr(
        tajmahal.notation._reading, "_read_state", lambda document, components, known: game(4)
    )
    assert {v.invariant for v in check_state(state)} == {"serialization-round-trip"}


def test_a_game_whose_record_replays_differently_is_caught() -> None:
    state = game(3)
    setup = random_setup(COMPONENTS, 3, 0)  # not the setup the states came from
    action = legal_actions(state)[0]
    violations = check_game(setup, [state, apply(state, action)], [action])
    assert {v.invariant for v in violations} == {"replay-reproduces"}


def _transitions(game_: Game) -> Iterable[Transition]:
    for before, action, after in zip(game_.states, game_.actions, game_.states[1:], strict=False):
        legal = () if before.is_chance else legal_actions(before)
        yield Transition.of(before, legal, action, after)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_=games())
def test_legal_play_breaks_no_invariant(game_: Game) -> None:
    first = game_.states[0]
    assert check_step(Transition.of(first, (), None, first), STEP_INVARIANTS) == ()
    for step in _transitions(game_):
        assert check_step(step) == (), step.action
    assert check_state(game_.states[-1]) == ()
