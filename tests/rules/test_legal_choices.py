"""The legal-action generators read their tables from an argument: with the engine's
tables of actions they list exactly ``legal_actions``, and with any table holding one
value per decision (``ChoiceTables.mapped``) those values, in the same order."""

from __future__ import annotations

import pytest
from positions import run, with_display
from scenes import random_game, three

from tajmahal.engine import action_tables, legal_actions, legal_choices
from tajmahal.engine._choices import build_action_tables
from tajmahal.model import GameState, Step, Take, default_components

COMPONENTS = default_components()


def _states(players: int, seed: int) -> list[GameState]:
    """Every state of a random game, the final one included."""
    steps = list(random_game(players, seed))
    return [before for before, _, _ in steps] + [steps[-1][2]]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_action_tables_list_legal_actions(players: int) -> None:
    """At every state of random games (decisions, reshuffles and the end), the generic
    listing over the engine's own tables is ``legal_actions``, as a new list."""
    tables = action_tables(COMPONENTS)
    assert action_tables(COMPONENTS) is tables
    built = build_action_tables(COMPONENTS)  # built afresh, not the kept copy
    kinds: set[Step] = set()
    for seed in range(4):
        for state in _states(players, 100 * players + seed):
            listed = legal_choices(state, tables)
            assert type(listed) is list and listed == list(legal_actions(state))
            assert legal_choices(state, tables) is not listed
            assert legal_choices(state, built) == listed
            kinds.add(state.step)
    # The 3-player games drawn here never run out of cards (no reshuffle).
    shuffles = {Step.SHUFFLE} if players > 3 else set()
    assert kinds == {Step.PLAY, Step.PLACE, Step.TAKE, Step.OVER} | shuffles


@pytest.mark.parametrize("players", [3, 4, 5])
def test_mapped_tables_list_the_mapped_decisions_in_the_same_order(players: int) -> None:
    """Tables holding each action's string list the strings of the legal actions, in
    their order: the rules decide what is legal, the tables only what stands for it."""
    tables = action_tables(COMPONENTS).mapped(str)
    for state in _states(players, 7 * players):
        assert legal_choices(state, tables) == [str(action) for action in legal_actions(state)]


@pytest.mark.clause("TM.WITHDRAW.PICK_TWO", "RUL.DISPLAY.SHORT")
@pytest.mark.parametrize(
    ("display", "expected"),
    [
        (
            ("green-19", "green-20", "green-21"),
            ["take green-19 green-20", "take green-19 green-21", "take green-20 green-21"],
        ),
        (("green-19", "green-21"), ["take green-19 green-21"]),
        (("green-21",), ["take green-21"]),
        ((), []),
    ],
)
def test_short_displays_are_taken_whole(display: tuple[str, ...], expected: list[str]) -> None:
    """A display of one or two cards is taken whole (one decision), an empty one offers
    none; both tables agree."""
    state = with_display(run(three(), "withdraw"), display)
    assert state.step is Step.TAKE
    assert [str(action) for action in legal_actions(state)] == expected
    assert legal_choices(state, action_tables(COMPONENTS)) == list(legal_actions(state))
    assert legal_choices(state, build_action_tables(COMPONENTS)) == list(legal_actions(state))
    assert legal_choices(state, action_tables(COMPONENTS).mapped(str)) == expected


def test_mapped_leaves_out_what_has_no_counterpart() -> None:
    """Entries converted to None are left out (the take table pairs every card, specials
    too); a short display without a counterpart is a ``KeyError``, a missing
    ``withdraw`` a ``ValueError``."""
    tables = action_tables(COMPONENTS)
    regular_only = tables.mapped(
        lambda action: (
            None
            if isinstance(action, Take) and any(c.startswith("special") for c in action.cards)
            else str(action)
        )
    )
    assert "special-mogul" in tables.takes["green-01"]
    assert "special-mogul" not in regular_only.takes["green-01"]
    assert regular_only.takes["green-01"]["green-02"] == "take green-01 green-02"
    assert regular_only.short_take(("green-01",)) == "take green-01"
    no_takes = tables.mapped(lambda action: None if isinstance(action, Take) else action)
    with pytest.raises(KeyError) as missing:
        no_takes.short_take(("green-01", "green-02"))
    assert missing.value.args == (("green-01", "green-02"),)
    with pytest.raises(ValueError, match=r"^withdraw has no counterpart$"):
        tables.mapped(lambda action: None if str(action) == "withdraw" else action)


def test_mapped_tables_keep_the_card_facts() -> None:
    """What is not a decision (the colours, the colour-change and +2 card ids) is
    carried over as it is."""
    plays = action_tables(COMPONENTS).mapped(str).plays
    assert plays.colour_change == "special-colour-change"
    assert plays.plus_two == "special-plus-two"
    assert plays.colour_of == action_tables(COMPONENTS).plays.colour_of
    assert plays.withdraw == "withdraw"
