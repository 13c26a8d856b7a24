"""The numbered action space: pinned ids, round trips, masks."""

from __future__ import annotations

import copy

import pytest
from scenes import random_game

from tajmahal import (
    PlaceCrown,
    PlacePalace,
    Play,
    Reshuffle,
    Take,
    default_components,
    legal_actions,
)
from tajmahal.ai._action_space import ACTION_SPACE_VERSION, action_from_id, action_id, action_space
from tajmahal.model import WITHDRAW

# Pinned literally: a release that renumbers any of these must bump ACTION_SPACE_VERSION
# and this table together (docs/ai.md lists the same ranges).
PINNED = [
    (0, "withdraw"),
    (1, "play green-01"),
    (84, "play yellow-21"),
    (85, "play green-01 special-colour-change"),
    (86, "play green-01 special-elephant"),
    (89, "play green-01 white-01"),
    (1428, "play yellow-21 white-12"),
    (1429, "palace A1"),
    (1433, "palace Agra"),
    (1477, "palace L5"),
    (1478, "crown A1"),
    (1526, "crown L5"),
    (1527, "take green-01"),
    (1622, "take yellow-21"),
    (1623, "take green-01 green-02"),
    (1624, "take green-01 green-03"),
    (6182, "take yellow-20 yellow-21"),
]


def test_version_and_size_are_pinned() -> None:
    assert ACTION_SPACE_VERSION == 1
    assert action_space().size == 6183


@pytest.mark.parametrize(("number", "text"), PINNED)
def test_pinned_ids(number: int, text: str) -> None:
    assert str(action_from_id(number)) == text
    assert action_id(action_from_id(number)) == number


def test_blocks_are_contiguous_and_cover_every_id() -> None:
    space = action_space()
    names = [block.name for block in space.blocks]
    assert names == ["withdraw", "play", "play-extra", "palace", "crown", "take-one", "take-two"]
    assert [block.size for block in space.blocks] == [1, 84, 84 * 16, 49, 49, 96, 96 * 95 // 2]
    position = 0
    for block in space.blocks:
        assert block.start == position
        position += block.size
    assert position == space.size
    assert space.block_of(1623).name == "take-two"


def test_every_id_round_trips() -> None:
    space = action_space()
    for number in range(space.size):
        assert space.action_id(space.action_from_id(number)) == number
    assert len(set(space.actions)) == space.size


def test_out_of_range_and_chance_have_no_id() -> None:
    with pytest.raises(IndexError):
        action_from_id(6183)
    with pytest.raises(IndexError):
        action_from_id(-1)
    with pytest.raises(KeyError):
        action_id(Reshuffle(("red-01",)))


def test_the_same_space_for_equal_components() -> None:
    assert action_space(default_components()).actions == action_space().actions


def test_kinds() -> None:
    assert action_id(WITHDRAW) == 0
    # red-07 is coloured card 27 (21 greens first), white-03 extra 6 (4 specials first).
    assert action_id(Play("red-07", "white-03")) == 85 + 27 * 16 + 6
    assert action_id(PlacePalace("A2")) == 1430
    assert action_id(PlaceCrown("A2")) == 1479
    assert action_id(Take(("green-02",))) == 1528


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_legal_action_of_random_games_has_an_id(players: int) -> None:
    space = action_space()
    for before, _action, _after in random_game(players, seed=players):
        legal = legal_actions(before)
        ids = space.ids_of(legal)
        assert ids == [space.action_id(action) for action in legal]
        assert len(set(ids)) == len(legal)
        # Equal actions that are other objects: looked up by value.
        copies = tuple(copy.copy(action) for action in legal)
        assert space.ids_of(copies) == ids
        assert space.ids_of(iter(legal)) == ids
        mask = space.mask(legal)
        assert sum(mask) == len(legal)
        assert all(mask[i] for i in ids)


def test_the_documented_formulas_give_every_id() -> None:
    """docs/ai.md states each block's id by a formula over sorted positions; check it
    against the numbering for every action of the embedded components."""
    components = default_components()
    space = action_space(components)
    regular = sorted(components.cards)
    coloured = [c for c in regular if not c.startswith("white")]
    extras = sorted([c for c in regular if c.startswith("white")] + list(components.specials))
    cities = sorted(components.board.cities)
    n = len(regular)
    assert action_id(Play(coloured[0])) == 1  # the module's function numbers as the space
    action_id_of = space.action_id  # one space for every id (the function builds one a call)
    for c, card in enumerate(coloured):
        assert action_id_of(Play(card)) == 1 + c
        for x, extra in enumerate(extras):
            assert action_id_of(Play(card, extra)) == 85 + 16 * c + x
    for y, city in enumerate(cities):
        assert action_id_of(PlacePalace(city)) == 1429 + y
        assert action_id_of(PlaceCrown(city)) == 1478 + y
    for a, first in enumerate(regular):
        assert action_id_of(Take((first,))) == 1527 + a
        for b in range(a + 1, n):
            pair = a * (2 * n - a - 1) // 2 + (b - a - 1)
            assert action_id_of(Take((first, regular[b]))) == 1623 + pair
