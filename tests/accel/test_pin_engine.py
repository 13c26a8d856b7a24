"""The engine's fast paths give exactly what the core functions give.

``accel._engine.legal_actions`` (the decisions looked up in tables built once per
component set) is compared with :func:`tajmahal.engine.legal_actions`, and
``accel._engine.apply`` (a play or a display pick built from the frozen state) with
:func:`tajmahal.engine.apply`, and ``accel._engine.apply_with_events`` (the same, with
the events) with :func:`tajmahal.engine.apply_with_events`, at every step of random
games of 3, 4 and 5 players under the default rule set and every option at each of its
other values; refusals of illegal plays and picks must carry the same message and
clause. The tables themselves are checked against the component list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from games import COMPONENTS, GAME_CASES, GAMES, states, steps

from tajmahal import engine
from tajmahal.accel import _engine
from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    WITHDRAW,
    Action,
    CardColour,
    GameState,
    PlaceCrown,
    PlacePalace,
    Play,
    RuleSet,
    Step,
    Take,
)

LEGAL = _engine.LEGAL_ACTIONS
APPLY = _engine.APPLY
APPLY_WITH_EVENTS = _engine.APPLY_WITH_EVENTS
WHITE = tuple(f"white-{number:02}" for number in range(1, 13))
SPECIAL = ("special-colour-change", "special-elephant", "special-mogul", "special-plus-two")


@pytest.mark.pins(LEGAL)
@pytest.mark.parametrize(("players", "seed", "rules"), GAME_CASES)
def test_legal_actions_are_the_core_legal_actions(players: int, seed: int, rules: RuleSet) -> None:
    seen: set[Step] = set()
    for state in states(players, seed, rules):
        assert LEGAL.fast(state) == LEGAL.core(state)
        seen.add(state.step)
    assert {Step.PLAY, Step.PLACE, Step.TAKE, Step.OVER} <= seen


@pytest.mark.pins(APPLY)
@pytest.mark.parametrize(("players", "seed", "rules"), GAME_CASES)
def test_apply_gives_the_core_state(players: int, seed: int, rules: RuleSet) -> None:
    for step in steps(players, seed, rules):
        after = APPLY.fast(step.before, step.action)
        assert after == APPLY.core(step.before, step.action) == step.after


@pytest.mark.pins(APPLY_WITH_EVENTS)
@pytest.mark.parametrize(("players", "seed", "rules"), GAME_CASES)
def test_apply_with_events_gives_the_core_state_and_events(
    players: int, seed: int, rules: RuleSet
) -> None:
    kinds = set()
    for step in steps(players, seed, rules):
        fast = APPLY_WITH_EVENTS.fast(step.before, step.action)
        assert fast == APPLY_WITH_EVENTS.core(step.before, step.action)
        assert fast == (step.after, step.events)
        kinds.add(type(step.action))
    assert {Play, Take} <= kinds


def test_a_play_with_the_plus_two_card_scores_in_an_event_of_its_own() -> None:
    """The events of a play built from frozen values: the play, then the +2 card's
    points (the core's order), checked on the first such play of a game."""
    for players, seed, rules in GAMES:
        for step in steps(players, seed, rules):
            if isinstance(step.action, Play) and step.action.extra == "special-plus-two":
                _, events = APPLY_WITH_EVENTS.fast(step.before, step.action)
                assert [event.kind.value for event in events] == ["play", "score"]
                assert events[1].points == 2
                assert events[1].clauses == ("TM.SPECIAL.PLUS_TWO",)
                return
    pytest.fail("no game plays the +2 card")


def _refusal(
    apply: Callable[[GameState, Action], object], state: GameState, action: Action
) -> tuple[str, object, str | None]:
    """What ``apply`` says of ``action``: ("applied", its result, None), or ("refused",
    the refusal's message, its clause)."""
    try:
        return ("applied", apply(state, action), None)
    except IllegalActionError as error:
        return ("refused", str(error), error.clause)


def _odd_actions(state: GameState) -> Iterator[Action]:
    """Plays and picks that are mostly illegal in ``state``: cards of another hand or of
    the display, two coloured cards, a special card alone, picks of one, three or the
    same card twice, and actions of another step."""
    others = [card for player in state.players for card in player.hand[:3]]
    display = state.display
    yield WITHDRAW
    yield PlaceCrown("no-such-city")
    yield PlacePalace(next(iter(COMPONENTS.board.cities)))
    for card in others[:6]:
        yield Play(card)
        yield Play(card, "special-colour-change")
        yield Play(card, "white-01")
        yield Play("white-01", card)
    if len(others) >= 2:
        yield Play(others[0], others[1])
    yield Play("special-mogul")
    yield Take(display[:1])
    yield Take(display[:3])
    if display:
        yield Take((display[0], display[0]))
        yield Take((display[0], "red-01"))
        yield Take((display[-1], "yellow-21"))
    yield Take(("green-01", "green-02"))
    yield Take(())


@pytest.mark.pins(APPLY, APPLY_WITH_EVENTS)
@pytest.mark.parametrize(("players", "seed", "rules"), GAMES[::4])
def test_apply_refuses_as_the_core_does(players: int, seed: int, rules: RuleSet) -> None:
    refused = 0
    for state in states(players, seed, rules):
        if state.step not in (Step.PLAY, Step.TAKE):
            continue
        for action in _odd_actions(state):
            fast = _refusal(APPLY.fast, state, action)
            assert fast == _refusal(APPLY.core, state, action), (state.step, str(action))
            with_events = _refusal(APPLY_WITH_EVENTS.fast, state, action)
            assert with_events == _refusal(APPLY_WITH_EVENTS.core, state, action)
            assert with_events[0] == fast[0]
            refused += fast[0] == "refused"
    assert refused > 100


# The tables ----------------------------------------------------------------------------


@pytest.mark.clause("TM.COMP.CARDS.COUNT")
def test_the_coloured_cards_and_their_colours() -> None:
    plays = _engine.build_action_tables(COMPONENTS).plays
    assert plays.colour_change == "special-colour-change"
    assert plays.plus_two == "special-plus-two"
    colour_of = plays.colour_of
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
    table = _engine.build_action_tables(COMPONENTS).plays
    assert table.withdraw == WITHDRAW
    assert len(table.alone) == 84
    assert table.alone["red-05"] == Play("red-05")
    assert set(table.pairs) == set(table.alone)
    # A coloured card goes with any one white or special card, never another coloured one.
    assert set(table.pairs["red-05"]) == set(WHITE + SPECIAL)
    assert table.pairs["yellow-21"]["special-mogul"] == Play("yellow-21", "special-mogul")


@pytest.mark.clause("TM.WITHDRAW.PICK_TWO")
def test_every_pick_of_two_cards_in_display_order() -> None:
    takes = _engine.build_action_tables(COMPONENTS).takes
    # 100 cards (96 regular, 4 special) sorted green, red, special, violet, white, yellow.
    assert len(takes) == 100
    assert sum(len(row) for row in takes.values()) == 100 * 99 // 2
    assert takes["green-07"]["red-01"] == Take(("green-07", "red-01"))
    assert "green-07" not in takes["red-01"]
    assert takes["yellow-21"] == {}


def test_the_tables_are_built_once_per_component_set() -> None:
    tables = _engine.action_tables(COMPONENTS)
    assert _engine.action_tables(COMPONENTS) is tables
    assert _engine.build_action_tables(COMPONENTS) == tables


@pytest.mark.parametrize("players", [3, 4, 5])
def test_mapped_tables_list_the_mapped_decisions_in_the_same_order(players: int) -> None:
    """Tables holding each action's string list the strings of the legal actions, in
    their order: the rules decide what is legal, the tables only what stands for it."""
    tables = _engine.action_tables(COMPONENTS).mapped(str)
    for state in states(players, 7 * players):
        listed = _engine.legal_choices(state, tables)
        assert listed == [str(action) for action in engine.legal_actions(state)]


def test_mapped_leaves_out_what_has_no_counterpart() -> None:
    """Entries converted to None are left out (the take table pairs every card, specials
    too); a short display without a counterpart is a ``KeyError``, a missing
    ``withdraw`` a ``ValueError``."""
    tables = _engine.action_tables(COMPONENTS)
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
    plays = tables.mapped(str).plays
    assert plays.colour_of == tables.plays.colour_of
    assert plays.withdraw == "withdraw"
