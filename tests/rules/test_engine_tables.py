"""The engine's look-up tables and its working copy, against values worked out from the
component list: 84 coloured cards (21 in each of four colours), 12 white cards and 4
special cards.

The tables are built once per component set and kept, so a game only reads them; these
tests call the builders themselves, so that a fault in a builder shows here even where
every game would read a table built before the fault.
"""

from __future__ import annotations

import attrs
import pytest
from positions import COMPONENTS, fresh_game

from tajmahal.engine._play import build_play_table
from tajmahal.engine._withdraw import build_take_table
from tajmahal.engine._work import PerComponents, Work, colour_change_id
from tajmahal.model import WITHDRAW, CardColour, Components, Play, Take

WHITE = tuple(f"white-{number:02}" for number in range(1, 13))
SPECIAL = ("special-colour-change", "special-elephant", "special-mogul", "special-plus-two")


def test_the_special_cards_named_by_the_tables() -> None:
    table = build_play_table(COMPONENTS)
    assert colour_change_id(COMPONENTS) == "special-colour-change"
    assert table.colour_change == "special-colour-change"
    assert table.plus_two == "special-plus-two"


@pytest.mark.clause("TM.COMP.CARDS.COUNT")
def test_the_coloured_cards_and_their_colours() -> None:
    colour_of = build_play_table(COMPONENTS).colour_of
    assert len(colour_of) == 84
    for colour, name in (
        (CardColour.RED, "red"),
        (CardColour.YELLOW, "yellow"),
        (CardColour.GREEN, "green"),
        (CardColour.VIOLET, "violet"),
    ):
        cards = [f"{name}-{number:02}" for number in range(1, 22)]
        assert [colour_of[card] for card in cards] == [colour] * 21
    assert not set(WHITE + SPECIAL) & set(colour_of)


@pytest.mark.clause("TM.PLAY.THREE_FORMS", "TM.PLAY.EXTRA_CARD", "TM.SPECIAL.PLAY_LIKE_WHITE")
def test_every_play_of_the_table() -> None:
    table = build_play_table(COMPONENTS)
    assert table.withdraw == WITHDRAW  # listed after the plays
    assert len(table.alone) == 84
    assert table.alone["red-05"] == Play("red-05")
    assert table.alone["violet-21"] == Play("violet-21")
    assert set(table.pairs) == set(table.alone)
    # A coloured card goes with any one white or special card, never another coloured one.
    assert set(table.pairs["red-05"]) == set(WHITE + SPECIAL)
    assert table.pairs["red-05"]["white-03"] == Play("red-05", "white-03")
    assert table.pairs["yellow-21"]["special-mogul"] == Play("yellow-21", "special-mogul")
    assert table.pairs["green-01"]["special-colour-change"] == Play(
        "green-01", "special-colour-change"
    )


@pytest.mark.clause("TM.WITHDRAW.PICK_TWO")
def test_every_pick_of_two_cards_in_display_order() -> None:
    table = build_take_table(COMPONENTS)
    # 100 cards (96 regular, 4 special) sorted green, red, special, violet, white, yellow.
    assert len(table) == 100
    assert sum(len(row) for row in table.values()) == 100 * 99 // 2
    assert table["red-01"]["white-04"] == Take(("red-01", "white-04"))
    assert table["green-07"]["red-01"] == Take(("green-07", "red-01"))
    assert "green-07" not in table["red-01"]
    assert len(table["red-01"]) == 20 + 4 + 21 + 12 + 21
    assert table["yellow-21"] == {}


def test_every_take_of_the_table_is_the_take_its_initialiser_builds() -> None:
    # The table sets each take's one field directly (its pairs come sorted): every take
    # equals, hashes and prints as the take built the ordinary way, with every field set.
    assert [field.name for field in attrs.fields(Take)] == ["cards"]
    table = build_take_table(COMPONENTS)
    for first, row in table.items():
        for second, take in row.items():
            ordinary = Take((second, first))  # the initialiser sorts the pair
            assert type(take) is Take
            assert take == ordinary
            assert hash(take) == hash(ordinary)
            assert str(take) == str(ordinary) == f"take {first} {second}"
            assert take.cards == (first, second)


def test_a_table_per_component_set_built_once() -> None:
    built: list[Components] = []

    def build(components: Components) -> int:
        built.append(components)
        return len(built)

    other = attrs.evolve(COMPONENTS, digest="sha256:" + "0" * 64)
    tables = PerComponents(build)
    assert tables(COMPONENTS) == 1
    assert tables(COMPONENTS) == 1
    assert tables(other) == 2
    assert tables(COMPONENTS) == 1
    assert tables(other) == 2
    assert built == [COMPONENTS, other]


def test_the_working_copy_reads_bonus_tiles_before_and_after_copying_them() -> None:
    state = fresh_game(4, seed=3)
    (first, first_tile), (second, second_tile) = state.bonus_on_board[:2]
    work = Work(state, recording=False)
    assert work.bonus_at(first) == first_tile
    assert work.bonus_at("no-such-city") is None
    assert work.bonus_on_board.pop(second) == second_tile  # now read from the copy
    assert work.bonus_at(first) == first_tile
    assert work.bonus_at(second) is None
    frozen = work.freeze()
    assert dict(frozen.bonus_on_board) == dict(state.bonus_on_board[:1] + state.bonus_on_board[2:])
