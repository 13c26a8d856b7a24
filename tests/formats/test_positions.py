"""The public position builder tajmahal.notation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import table, with_played

from tajmahal.engine import legal_actions
from tajmahal.errors import StateFormatError
from tajmahal.model import Palace, Permission, RuleSet, Step, Symbol, Withdrawal, default_components
from tajmahal.notation import all_cards_once, position, state_from_json, state_to_json


def test_named_facts_and_a_consistent_rest() -> None:
    state = position(
        3,
        order="CBDAEFGHIJK",
        visit=4,
        hands={0: ("red-01", "red-02", "white-01")},
        played={1: ("green-07",)},
        palaces=(("C3", 1), ("C1", 2)),
        scores=(4, 0, 7),
        to_move=0,
    )
    assert state.players[0].hand == ("red-01", "red-02", "white-01")
    assert state.players[1].played == ("green-07",) and state.players[1].colour is not None
    assert state.palaces == (Palace("C1", 2), Palace("C3", 1))
    # Palaces on the fortresses C1 and C3 took their tiles (+2 tiles: none kept).
    assert not {"C1", "C3"} & set(dict(state.bonus_on_board))
    assert state.scores == (4, 0, 7)
    assert all_cards_once(state)
    assert len(state.display) == 5
    assert {str(a) for a in legal_actions(state)} == {
        "play red-01",
        "play red-02",
        "play red-01 white-01",
        "play red-02 white-01",
        "withdraw",
    }
    assert state_from_json(state_to_json(state), state.config.components) == state


def test_the_builder_matches_the_test_helpers() -> None:
    built = position(
        4,
        hands=(
            ("red-02", "red-03", "red-14"),
            ("yellow-02", "yellow-03", "yellow-14"),
            ("green-02", "green-03", "green-14"),
            ("violet-02", "violet-03", "violet-14"),
        ),
        display=(
            "white-06",
            "white-07",
            "white-08",
            "white-09",
            "white-10",
            "white-11",
            "white-12",
        ),
        played={0: ("red-07",)},
    )
    assert built == with_played(table(), 0, ("red-07",))


def test_rules_visit_tiles_and_a_withdrawal_in_progress() -> None:
    rules = RuleSet(crown_beside_own_palace=Permission.FORBIDDEN)
    state = position(
        4,
        rules=rules,
        visit=5,
        influence={0: (Symbol.VIZIER,)},
        court_influence=(Symbol.GENERAL, Symbol.MONK, Symbol.PRINCESS),
        province_tiles={1: ("province-02",)},
        goods_tiles={2: ("bonus-08",)},
        palaces=(("E1", 0),),
        withdrawal=Withdrawal(seat=0, palaces_owed=0, crown_owed=True, placed=("E1",)),
        crown_in_court=False,
    )
    assert state.config.rules == rules and state.visit == 5
    assert state.step is Step.PLACE and state.to_move == 0 and state.players[0].withdrawn
    assert "bonus-08" not in dict(state.bonus_on_board).values()
    assert {str(a) for a in legal_actions(state)} == {"crown E2", "crown E3", "crown E4"}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        # 7 held, 1 in the court.
        ({"influence": {0: (Symbol.VIZIER,) * 7}}, "8 vizier tiles in play; there are 6"),
        ({"province_tiles": {0: ("province-03",)}}, "province-03 is won in visit 3, not"),
        ({"goods_tiles": {0: ("bonus-08", "bonus-08")}}, "bonus-08 is also at"),
        ({"withdrawn": (0,)}, "a play step needs a player still in the visit"),
    ],
)
def test_inconsistent_positions_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(StateFormatError, match=message):
        position(4, **changes)  # type: ignore[arg-type]


def test_unknown_cards_and_cities_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown card 'red-99'"):
        position(4, hands={0: ("red-99",)})
    with pytest.raises(ValueError, match="unknown city 'Z9'"):
        position(4, palaces=(("Z9", 0),))


CARDS = sorted(default_components().cards) + sorted(default_components().specials)


@settings(max_examples=40, deadline=None)
@given(
    players=st.sampled_from([3, 4, 5]),
    picked=st.lists(st.sampled_from(CARDS), unique=True, max_size=30),
    cut=st.lists(st.integers(min_value=0, max_value=30), min_size=3, max_size=3),
    deck_size=st.integers(min_value=0, max_value=40),
)
def test_any_named_cards_give_a_consistent_position(
    players: int, picked: list[str], cut: list[int], deck_size: int
) -> None:
    # Split the picked cards into a hand for seat 0, a hand for seat 1 and the display.
    a, b = sorted(cut[:2])
    hands = {0: picked[:a], 1: picked[a:b]}
    display = [card for card in picked[b:] if not card.startswith("special-")]
    display = display[: {3: 5, 4: 7, 5: 9}[players]]
    state = position(players, hands=hands, display=display, deck=None)
    assert all_cards_once(state)
    assert state.players[0].hand == tuple(sorted(picked[:a]))
    assert state.display == tuple(sorted(display))
    assert state_from_json(state_to_json(state), state.config.components) == state
    if deck_size <= len(state.deck):
        smaller = position(players, hands=hands, display=display, deck=state.deck[:deck_size])
        assert len(smaller.deck) == deck_size and all_cards_once(smaller)
