"""The accelerated layer's ``legal_ids`` (the engine's generators reading tables of ids)
lists exactly what ``ActionSpace.legal_ids`` lists (the sorted ids of ``legal_actions``),
under every rule set, at every kind of step."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from positions import run, with_display, with_hand
from scenes import three

from depth import depth
from tajmahal import apply, default_components, load_components, new_game, random_setup
from tajmahal.ai._action_space import action_space
from tajmahal.ai._fast_paths import LEGAL_IDS
from tajmahal.engine import legal_actions, random_reshuffle
from tajmahal.model import RULE_OPTIONS, CardColour, GameState, RuleSet, Step
from tajmahal.notation import with_player

COMPONENTS = default_components()
SPACE = action_space(COMPONENTS)

EVERY_RULE_SET = [
    RuleSet.from_json(dict(zip(sorted(RULE_OPTIONS), values, strict=True)))
    for values in itertools.product(*(RULE_OPTIONS[name] for name in sorted(RULE_OPTIONS)))
]
"""Every rule set: each configurable ruling at each of its options, in every combination."""


def _pairwise() -> list[int]:
    """Indices of eight rule sets of :data:`EVERY_RULE_SET` in which any two rulings take
    each pair of their values (an orthogonal array: each ruling's value is the parity of
    a different non-empty subset of three bits), or of every rule set if the rulings are
    not up to seven with two values each."""
    names = sorted(RULE_OPTIONS)
    if len(names) > 7 or any(len(RULE_OPTIONS[name]) != 2 for name in names):
        return list(range(len(EVERY_RULE_SET)))
    masks = [1, 2, 4, 3, 5, 6, 7][: len(names)]
    return [
        int("".join(str((row & mask).bit_count() % 2) for mask in masks), 2) for row in range(8)
    ]


RULE_SET_NUMBERS = depth(_pairwise(), list(range(len(EVERY_RULE_SET))))
"""The rule sets played: eight covering every pair of values under ``make check``, all of
them deep."""


def _check(state: GameState) -> list[int]:
    """The drop-in's ids at ``state``, checked against the core function's (and against
    the ids of ``legal_actions``)."""
    found = LEGAL_IDS.fast(SPACE, state)
    assert type(found) is list
    assert found == LEGAL_IDS.core(SPACE, state) == sorted(SPACE.ids_of(legal_actions(state)))
    again = LEGAL_IDS.fast(SPACE, state)
    assert again == found and again is not found  # a new list each call
    return found


@pytest.mark.pins(LEGAL_IDS)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_fast_legal_ids_are_the_core_ones_under_every_rule_set(
    players: int,
) -> None:
    """A random game per rule set, every state checked; the sweep meets plays from an
    empty hand, placements with the crown owed, reshuffles and the end."""
    met = {"empty hand": 0, "crown owed": 0, "reshuffle": 0, "over": 0}
    for number in RULE_SET_NUMBERS:
        rules = EVERY_RULE_SET[number]
        seed = 1000 * players + number
        rng = random.Random(seed)
        state = new_game(COMPONENTS, players, random_setup(COMPONENTS, players, seed), rules)
        while True:
            found = _check(state)
            if state.is_over or state.is_chance:
                assert found == []
                met["over" if state.is_over else "reshuffle"] += 1
                if state.is_over:
                    break
                state = apply(state, random_reshuffle(state, rng))
                continue
            seat = state.to_move
            assert seat is not None
            if state.step is Step.PLAY and not state.players[seat].hand:
                assert found == [0]  # only withdraw
                met["empty hand"] += 1
            withdrawal = state.withdrawal
            if state.step is Step.PLACE and withdrawal is not None and withdrawal.crown_owed:
                met["crown owed"] += 1
            state = apply(state, SPACE.action_from_id(rng.choice(found)))
    if players == 3:  # the 3-player games drawn here never run out of cards
        del met["reshuffle"]
    assert all(met.values()), met
    assert met["over"] == len(RULE_SET_NUMBERS)


@pytest.mark.pins(LEGAL_IDS)
@pytest.mark.clause("TM.WITHDRAW.PICK_TWO", "RUL.DISPLAY.SHORT")
@pytest.mark.parametrize(
    ("display", "expected"),
    [
        # take-two: 1623 + index of the pair; green-19..21 are positions 18, 19, 20 of 96.
        # index of (a, b) = a(2n - a - 1)/2 + (b - a - 1), n = 96: (18, 19) 1557, (18, 20)
        # 1558, (19, 20) 1634.
        (("green-19", "green-20", "green-21"), [1623 + 1557, 1623 + 1558, 1623 + 1634]),
        (("green-01", "green-02"), [1623]),  # a display of two: taken whole
        (("green-21",), [1527 + 20]),  # a display of one: take-one
        ((), []),
    ],
)
def test_short_displays(display: tuple[str, ...], expected: list[int]) -> None:
    state = with_display(run(three(), "withdraw"), display)
    assert state.step is Step.TAKE
    assert _check(state) == expected


@pytest.mark.pins(LEGAL_IDS)
@pytest.mark.clause("TM.PLAY.COLOUR_LOCK", "TM.SPECIAL.COLOUR_CHANGE")
def test_a_locked_colour_with_the_colour_change_card() -> None:
    """Locked to red, holding red-01, green-01 and the colour-change card: ``withdraw``
    (0), ``play red-01`` (1 + 21), ``play green-01 special-colour-change`` (85 + 16 * 0
    + 0) and ``play red-01 special-colour-change`` (85 + 16 * 21 + 0)."""
    state = with_hand(three(), 0, ("red-01", "green-01", "special-colour-change"))
    state = with_player(state, 0, colour=CardColour.RED)
    assert _check(state) == [0, 22, 85, 421]


@pytest.mark.pins(LEGAL_IDS)
def test_a_state_of_another_component_set_is_refused(tmp_path: Path) -> None:
    documents = COMPONENTS.to_json()
    documents["bonus_tiles.json"]["note"] = "a different note, so a different digest"
    (tmp_path / "bonus_tiles.json").write_text(json.dumps(documents["bonus_tiles.json"]))
    custom = load_components(tmp_path)
    state = new_game(custom, 3, random_setup(custom, 3, 1))
    for legal_ids in (LEGAL_IDS.fast, LEGAL_IDS.core):
        with pytest.raises(ValueError, match="component set"):
            legal_ids(SPACE, state)
    own = action_space(custom)
    assert LEGAL_IDS.fast(own, state) == LEGAL_IDS.core(own, state)
