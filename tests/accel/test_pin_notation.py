"""The notation's fast paths give exactly what the core functions give.

The canonical text written part by part (``accel._notation.canonical_json``) and the
digest going on from the head's SHA-256 (``state_digest``) are compared with
:func:`tajmahal.notation.canonical_json` and :func:`tajmahal.notation.state_digest` on
every state of random games of 3, 4 and 5 players under every option, on states of
several games written in turn, and on odd values no game reaches; the legal actions
listed from tables of strings and their remembered digests with
:func:`tajmahal.notation.legal_strings` and :func:`tajmahal.notation.legal_digest`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest
from games import COMPONENTS, GAME_CASES, states, steps
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tajmahal.accel import _notation
from tajmahal.engine import legal_actions
from tajmahal.model import (
    CardColour,
    MajorityScope,
    Palace,
    PendingDraw,
    PlayerState,
    RuleSet,
    Withdrawal,
    parse_action,
)
from tajmahal.notation import state_from_json, state_to_json
from tajmahal.testing.strategies import rule_sets

CANONICAL = _notation.CANONICAL_JSON
DIGEST = _notation.STATE_DIGEST
pins_text = pytest.mark.pins(_notation.CANONICAL_JSON, _notation.STATE_DIGEST)


def outcome(function: Callable[[Any], str], state: Any) -> str | tuple[type, str]:
    """What ``function(state)`` returns, or the type and message of what it raises."""
    try:
        return function(state)
    except Exception as error:  # the same error is part of a drop-in's promise
        return type(error), str(error)


def same_text(state: Any) -> None:
    """The fast text and digest of ``state`` are the core's (or the same error)."""
    assert outcome(CANONICAL.fast, state) == outcome(CANONICAL.core, state)
    assert outcome(DIGEST.fast, state) == outcome(DIGEST.core, state)


@pins_text
@pytest.mark.parametrize(("players", "seed", "rules"), GAME_CASES)
def test_every_state_of_random_games_is_written_as_the_core_writes_it(
    players: int, seed: int, rules: RuleSet
) -> None:
    for state in states(players, seed, rules):
        same_text(state)


@pins_text
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1), rules=rule_sets())
def test_every_state_under_any_rule_set_is_written_as_the_core_writes_it(
    players: int, seed: int, rules: RuleSet
) -> None:
    for state in states(players, seed, rules):
        same_text(state)


@pins_text
def test_states_of_games_written_in_turn_are_written_as_the_core_writes_them() -> None:
    """The texts of parts shared with the state written last are reused: states of two
    games written in alternation share nothing, reloaded states share no object at all,
    and a state digested twice, or after its text was written, digests the same."""
    first = list(states(3, 11))
    second = list(states(5, 12, RuleSet(majority_scope=MajorityScope.ALL)))
    for one, other in zip(first, second, strict=False):
        for state in (one, other, state_from_json(state_to_json(one), COMPONENTS), one):
            same_text(state)
            assert DIGEST.fast(state) == DIGEST.core(state)


ODD_IDS = [
    'say "hi"',
    "back\\slash",
    "tab\there",
    "bell\x07",
    "del\x7f",
    "é-card",
    "\u2028",
    "next-line\x85",  # not printable, yet JSON writes it as itself
]


@pins_text
@pytest.mark.parametrize("odd", ODD_IDS)
def test_ids_that_need_escapes_are_written_as_the_core_writes_them(odd: str) -> None:
    """States are not checked against the components when written, so any string can
    appear in one."""
    state = next(states(4, 3))
    seat = state.players[0]
    odd_seat = attrs.evolve(seat, hand=(*seat.hand, odd), played=(odd,), goods_tiles=(odd,))
    withdrawal = Withdrawal(seat=0, palaces_owed=1, crown_owed=False, placed=(odd,))
    for changed in (
        attrs.evolve(state, players=(odd_seat, *state.players[1:])),
        attrs.evolve(state, deck=(odd, *state.deck), display=(odd,)),
        attrs.evolve(state, withdrawal=withdrawal, court_province_tile=odd),
        attrs.evolve(state, bonus_on_board=((odd, odd),)),
        state,
    ):
        same_text(changed)


@pins_text
@pytest.mark.parametrize("odd", ODD_IDS)
def test_a_seat_changing_one_field_after_another_is_written_as_the_core_writes_it(
    odd: str,
) -> None:
    """A seat's text reuses the texts of the fields it shares with the seat written
    before: an odd id appearing, staying while another field changes, and going."""
    state = next(states(4, 7))
    seat = state.players[1]
    odd_hand = attrs.evolve(seat, hand=(*seat.hand, odd))
    scored = attrs.evolve(odd_hand, score=seat.score + 3)
    played = attrs.evolve(scored, played=(odd,))
    plain_again = attrs.evolve(played, hand=seat.hand, played=seat.played)
    counted = attrs.evolve(plain_again, withdrawn=True, withdrawn_counts=(1, 0, 2, 0, 0, 1))
    coloured = attrs.evolve(counted, colour=CardColour.GREEN)
    same_text(state)
    for changed_seat in (odd_hand, scored, played, plain_again, counted, coloured, seat):
        same_text(attrs.evolve(state, players=(state.players[0], changed_seat, *state.players[2:])))


@pins_text
def test_values_of_other_types_are_written_as_the_core_writes_them() -> None:
    state = next(states(3, 5))
    numbers: Any = (1, 2)
    odd_colour: Any = "red"
    seats = (
        PlayerState(hand=numbers, played=(), colour=CardColour.RED, score=7),
        PlayerState(hand=(), played=(), colour=odd_colour),
        PlayerState(hand=(["unhashable"],), played=()),  # type: ignore[arg-type]
    )
    for seat in seats:
        same_text(attrs.evolve(state, players=(seat, *state.players[1:]), deck=numbers))
    draw = PendingDraw(destination=1, count=2, reason="bonus-card")
    same_text(attrs.evolve(state, draw=draw, to_move=None, court_province_tile=None))


@pins_text
def test_lists_of_ids_found_plain_before_are_written_as_the_core_writes_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A list whose strings were all found plain before is joined without reading its
    characters; lists mixing such strings with odd ones, other values or unhashable ones,
    and lists met after the remembered strings were forgotten, are written as before."""
    monkeypatch.setattr(_notation, "_PLAIN_KEPT", 8)
    monkeypatch.setattr(_notation, "_PLAIN_IDS", set())
    state = next(states(4, 9))
    same_text(state)
    hand = state.players[0].hand
    lists: list[Any] = [
        hand,
        (*hand, 'say "hi"'),
        ("back\\slash", *hand),
        (*hand, 7),
        (*hand, ["unhashable"]),
        (*hand, None),
        tuple(reversed(hand)),
        *(tuple(f"id-{n}-{m}" for m in range(5)) for n in range(6)),
        hand,
    ]
    for ids in lists:
        seat = attrs.evolve(state.players[0], hand=ids, played=ids[:2])
        same_text(attrs.evolve(state, players=(seat, *state.players[1:]), display=ids, deck=ids))
        assert len(_notation._PLAIN_IDS) <= 8 + len(ids)


@pins_text
def test_withdrawals_of_every_shape_are_written_as_the_core_writes_them() -> None:
    state = next(states(3, 13))
    odd: Any = ['"q"']
    for withdrawal in (
        Withdrawal(seat=0, palaces_owed=0, crown_owed=False),
        Withdrawal(seat=2, palaces_owed=2, crown_owed=True, placed=("A1", "B2")),
        Withdrawal(seat=1, palaces_owed=1, crown_owed=False, province_won="tile-3"),
        Withdrawal(seat=1, palaces_owed=0, crown_owed=True, played_nothing=True, scored=True),
        Withdrawal(seat=1, palaces_owed=1, crown_owed=1, played_nothing=0, scored=None),  # type: ignore[arg-type]
        Withdrawal(seat=True, palaces_owed=False, crown_owed=False, placed=odd),
    ):
        same_text(attrs.evolve(state, withdrawal=withdrawal))


@pins_text
def test_palaces_after_each_kind_of_change_are_written_as_the_core_writes_them() -> None:
    """The palaces' text is taken from the last one written when one palace is placed
    among the same palace objects (at the end, the front or between); any other change
    (an equal palace that is another object, an odd value, the same object twice,
    palaces taken away) is written afresh."""
    state = next(states(4, 19))
    a, b, c, x, d = (
        Palace("B1", 0),
        Palace("C2", 1),
        Palace("A3", 2),
        Palace("B9", 3),
        Palace("D4", 0),
    )
    again = Palace("B1", 0)
    odd: Any = Palace("B1", True)
    crowned = Palace("E5", 2, crowned=True)
    for palaces in (
        (),
        (a,),
        (a, b),
        (c, a, b),
        (c, a, x, b),
        (c, a, x, b, crowned),
        (c, again, x, b, crowned, d),
        (c, odd, x, b, crowned, d, d),
        (c, odd, x, b, crowned, d),
        (c, a, x),
        (c, a, x, b),
    ):
        same_text(attrs.evolve(state, palaces=palaces))


# ---------------------------------------------------------------------------------------
# The legal actions


@pytest.mark.pins(_notation.LEGAL_STRINGS, _notation.LEGAL_DIGEST)
@pytest.mark.parametrize(("players", "seed", "rules"), GAME_CASES)
def test_the_legal_actions_of_every_position_are_listed_and_digested_as_the_core_does(
    players: int, seed: int, rules: RuleSet
) -> None:
    """At every state of random games, the strings listed from the tables are the
    core's; their digest is the core's, computed, then remembered."""
    for state in states(players, seed, rules):
        strings = _notation.LEGAL_STRINGS.fast(state)
        assert strings == _notation.LEGAL_STRINGS.core(state)
        for _ in range(2):
            assert _notation.LEGAL_DIGEST.fast(strings) == _notation.LEGAL_DIGEST.core(strings)


@pytest.mark.pins(_notation.LEGAL_DIGEST)
def test_legal_digests_of_actions_strings_in_any_order_and_mixed_lists() -> None:
    """Actions, strings in any order, actions among strings, a generator and the empty
    list all digest as the core digests them."""
    state = next(states(3, 22))
    actions = list(legal_actions(state))
    assert len(actions) > 2
    fresh = [parse_action(str(action)) for action in actions]
    listed: list[Any] = [
        actions,
        fresh,
        [str(actions[0]), *actions[1:]],
        [*map(str, actions[1:]), actions[0]],
        [str(action) for action in reversed(actions)],
        tuple(actions),
        [],
    ]
    for items in listed:
        assert _notation.LEGAL_DIGEST.fast(items) == _notation.LEGAL_DIGEST.core(items)
    assert _notation.LEGAL_DIGEST.fast(iter(fresh)) == _notation.LEGAL_DIGEST.core(fresh)


@pytest.mark.pins(_notation.LEGAL_STRINGS)
def test_positions_without_a_decision_list_no_legal_action() -> None:
    for step in steps(3, 31):
        for state in (step.before, step.after):
            if state.is_chance or state.is_over:
                assert _notation.LEGAL_STRINGS.fast(state) == []
                assert _notation.LEGAL_STRINGS.core(state) == []
