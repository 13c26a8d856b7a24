"""Property tests (hypothesis): purity, determinism, legality and the scoring functions.

Games come from the public strategies of :mod:`tajmahal.testing.strategies` (a drawn seed, player
count, rule set and a sequence of choice indices, each picking one of the legal actions
modulo their number), so a failing example shrinks to a short game.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from depth import depth
from tajmahal import (
    Action,
    ActionSyntaxError,
    GameState,
    IllegalActionError,
    PlaceCrown,
    PlacePalace,
    Play,
    Reshuffle,
    Step,
    Take,
    Withdraw,
    apply,
    apply_with_events,
    default_components,
    legal_actions,
    new_game,
    parse_action,
    random_setup,
)
from tajmahal.engine import palace_points
from tajmahal.engine._scoring import goods_points, hand_points
from tajmahal.model import CardColour, Good
from tajmahal.notation import canonical_json, state_to_json
from tajmahal.testing.strategies import Game, drive, games

COMPONENTS = default_components()
BOARD = COMPONENTS.board
ALL_CARDS: tuple[str, ...] = tuple(sorted(COMPONENTS.cards)) + tuple(sorted(COMPONENTS.specials))
ALL_CITIES: tuple[str, ...] = tuple(sorted(BOARD.cities))
PROVINCES: tuple[str, ...] = tuple(sorted(BOARD.provinces))
BOGUS_CARDS = ("red-99", "special-none", "x")
BOGUS_CITIES = ("Z9", "nowhere")


GAME_SETTINGS = settings(
    max_examples=depth(25, 50), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
"""Whole random games: 25 under ``make check``, 50 deep."""
PURE_SETTINGS = settings(max_examples=depth(100, 200), deadline=None)
"""Functions of a few values: 100 examples under ``make check``, 200 deep."""


def _pick_states(data: st.DataObject, game: Game, count: int) -> list[GameState]:
    indices = data.draw(
        st.lists(st.integers(0, len(game.states) - 1), min_size=1, max_size=count),
        label="state indices",
    )
    return [game.states[index] for index in indices]


# ---------------------------------------------------------------------------------------
# Purity and determinism


@pytest.mark.clause("TM.PLAY.NO_TAKE_BACK")
@GAME_SETTINGS
@given(game=games())
def test_apply_never_mutates_its_input(game: Game) -> None:
    for before, action in zip(game.states, game.actions, strict=False):
        document = state_to_json(before)
        text = canonical_json(before)
        fingerprint = hash(before)
        after = apply(before, action)
        assert state_to_json(before) == document
        assert canonical_json(before) == text
        assert hash(before) == fingerprint
        assert after is not before
        # Applying again from the untouched state gives the same result.
        assert apply(before, action) == after


@GAME_SETTINGS
@given(game=games())
def test_replaying_the_same_actions_is_deterministic(game: Game) -> None:
    again = drive(game.players, game.seed, game.rules, game.choices, game.extra)
    assert again.actions == game.actions
    assert again.states == game.states
    state = new_game(
        COMPONENTS, game.players, random_setup(COMPONENTS, game.players, game.seed), game.rules
    )
    assert state == game.states[0]
    for action, expected in zip(game.actions, game.states[1:], strict=True):
        after, events = apply_with_events(state, action)
        assert after == expected
        assert apply_with_events(state, action) == (after, events)
        state = after
    assert canonical_json(state) == canonical_json(game.states[-1])


# ---------------------------------------------------------------------------------------
# Illegal actions


def _illegal_candidates(state: GameState, data: st.DataObject) -> list[Action]:
    """Actions that break a rule in ``state``, drawn for its step."""
    candidates: list[Action] = []
    if state.is_over:
        return [Withdraw(), Play(ALL_CARDS[0]), Reshuffle(("red-01",))]
    if state.is_chance:
        discard = list(state.discard)
        candidates.append(Withdraw())
        candidates.append(Reshuffle(tuple(discard[1:])))  # one card short
        missing = sorted(set(ALL_CARDS) - set(discard))
        if missing:
            candidates.append(Reshuffle((*discard, missing[0])))
        candidates.append(Reshuffle((*discard, discard[0])))  # a card twice
        return candidates
    seat = state.to_move
    assert seat is not None
    hand = state.players[seat].hand
    candidates.append(Reshuffle(tuple(state.discard) or ("red-01",)))
    if state.step is Step.PLAY:
        outside = [card for card in ALL_CARDS if card not in hand] + list(BOGUS_CARDS)
        card = data.draw(st.sampled_from(outside), label="card not in hand")
        candidates.append(Play(card))
        if hand:
            candidates.append(Play(card, data.draw(st.sampled_from(hand), label="extra")))
            candidates.append(Play(data.draw(st.sampled_from(hand), label="own"), card))
        candidates.append(PlacePalace(ALL_CITIES[0]))
        candidates.append(Take((state.display[0],)) if state.display else Take(("red-01",)))
    elif state.step is Step.PLACE:
        elsewhere = [
            city for city in ALL_CITIES if BOARD.cities[city].province != state.current_province
        ] + list(BOGUS_CITIES)
        city = data.draw(st.sampled_from(elsewhere), label="city of another province")
        candidates.extend([PlacePalace(city), PlaceCrown(city), Withdraw()])
    elif state.step is Step.TAKE:
        outside = [card for card in ALL_CARDS if card not in state.display] + list(BOGUS_CARDS)
        card = data.draw(st.sampled_from(outside), label="card not in display")
        candidates.append(Take((card,)))
        candidates.append(Take(tuple(sorted((state.display[0], card)))))
        candidates.append(Withdraw())
    return candidates


@pytest.mark.clause(
    "TM.PLAY.NO_TAKE_BACK",
    "TM.PLAY.ONE_COLOURED",
    "TM.REWARD.INFLUENCE.PALACE",
    "TM.WITHDRAW.PICK_TWO",
)
@GAME_SETTINGS
@given(game=games(), data=st.data())
def test_illegal_actions_raise_illegal_action_error(game: Game, data: st.DataObject) -> None:
    for state in _pick_states(data, game, 5):
        legal = set(legal_actions(state))
        before = canonical_json(state)
        for action in _illegal_candidates(state, data):
            assert action not in legal
            with pytest.raises(IllegalActionError):
                apply(state, action)
        assert canonical_json(state) == before


def _universe(state: GameState) -> list[Action]:
    """Many actions, legal and not, of every kind, for ``state``."""
    actions: list[Action] = [Withdraw()]
    if state.to_move is not None:
        hand = state.players[state.to_move].hand
        cards = [*hand, "red-01", "white-01", "special-colour-change", BOGUS_CARDS[0]]
        actions.extend(Play(card) for card in cards)
        actions.extend(Play(first, second) for first in cards for second in cards)
    cities = [*BOARD.provinces[state.current_province].cities, ALL_CITIES[0], "Agra"]
    actions.extend(PlacePalace(city) for city in cities)
    actions.extend(PlaceCrown(city) for city in cities)
    display = [*state.display, "red-01", "special-mogul"]
    actions.extend(Take((card,)) for card in display)
    actions.extend(Take(pair) for pair in combinations(display, 2))
    actions.append(Take((display[0], display[0])))
    actions.append(Reshuffle(state.discard or ("red-01",)))
    return actions


@GAME_SETTINGS
@given(game=games(), data=st.data())
def test_apply_accepts_exactly_the_legal_actions(game: Game, data: st.DataObject) -> None:
    """``apply`` succeeds on every action ``legal_actions`` lists and raises
    IllegalActionError (never anything else) on every other one."""
    for state in _pick_states(data, game, 3):
        legal = set(legal_actions(state))
        for action in _universe(state):
            if action in legal:
                apply(state, action)
            elif isinstance(action, Reshuffle) and state.is_chance:
                apply(state, action)  # every order of the discard pile is a chance outcome
            else:
                with pytest.raises(IllegalActionError):
                    apply(state, action)


@pytest.mark.clause(
    "TM.TURN.CHOICE",
    "TM.PLAY.ONE_COLOURED",
    "TM.PLAY.COLOUR_LOCK",
    "TM.PLAY.EXTRA_CARD",
    "TM.PLAY.NEVER_ALONE",
    "TM.SPECIAL.COLOUR_CHANGE",
    "TM.WITHDRAW.PICK_TWO",
)
@GAME_SETTINGS
@given(game=games(), data=st.data())
def test_legal_actions_are_exactly_what_the_play_rules_allow(
    game: Game, data: st.DataObject
) -> None:
    """The legal plays and takes, restated from the rules and compared with the engine:
    one coloured card (of the visit's colour once chosen, any colour with the
    colour-change card), optionally with one white or special card from the hand, or
    withdraw; after withdrawing, any two different display cards (one if one is left)."""
    colour_change = "special-colour-change"
    for state in _pick_states(data, game, 4):
        seat = state.to_move
        if seat is None:
            continue
        legal = {str(action) for action in legal_actions(state)}
        if state.step is Step.PLAY:
            player = state.players[seat]
            coloured = [
                card
                for card in player.hand
                if card in COMPONENTS.cards
                and COMPONENTS.cards[card].colour is not CardColour.WHITE
            ]
            extras = [card for card in player.hand if card not in coloured]
            expected = {"withdraw"}
            for card in coloured:
                if player.colour in (None, COMPONENTS.cards[card].colour):
                    expected.add(f"play {card}")
                    expected.update(f"play {card} {extra}" for extra in extras)
                elif colour_change in player.hand:
                    expected.add(f"play {card} {colour_change}")
            assert legal == expected
        elif state.step is Step.TAKE:
            display = sorted(state.display)
            if len(display) <= 2:
                assert legal == {"take " + " ".join(display)}
            else:
                assert legal == {f"take {a} {b}" for a, b in combinations(display, 2)}


# ---------------------------------------------------------------------------------------
# Action syntax

VERBS = ("play", "withdraw", "palace", "crown", "take", "reshuffle", "Play", "", "pass")
words = st.text(alphabet=st.sampled_from("ab-01 \t\nZé"), max_size=8)
action_texts = st.one_of(
    st.text(max_size=40),
    st.builds(
        lambda verb, arguments: " ".join([verb, *arguments]),
        st.sampled_from(VERBS),
        st.lists(words, max_size=4),
    ),
    st.builds(
        lambda verb, arguments: " ".join([verb, *sorted(arguments)]),
        st.sampled_from(VERBS),
        st.lists(st.sampled_from(ALL_CARDS + ALL_CITIES), max_size=3),
    ),
)


@PURE_SETTINGS
@given(text=action_texts)
def test_parse_action_round_trips_or_raises_syntax_error(text: str) -> None:
    try:
        action = parse_action(text)
    except ActionSyntaxError as error:
        assert str(error)
        return
    assert parse_action(str(action)) == action
    assert str(action) == text, "a parsed action string is already canonical"


# ---------------------------------------------------------------------------------------
# Scoring functions

goods_lists = st.lists(st.sampled_from(list(Good)), max_size=10)


@pytest.mark.clause("TM.SCORE.BONUS.GOOD", "TM.SCORE.PROVINCE")
@PURE_SETTINGS
@given(
    new=st.lists(st.sampled_from(list(Good)), min_size=1, max_size=2, unique=True),
    owned=goods_lists,
)
def test_goods_points_count_goods_and_matches(new: list[Good], owned: list[Good]) -> None:
    matches = sum(1 for good in new for mine in owned if mine == good)
    points = goods_points(tuple(new), owned)
    assert points == len(new) + matches
    assert goods_points(tuple(new), ()) == len(new)


@pytest.mark.clause(
    "TM.END.HAND.SPECIAL",
    "TM.END.HAND.WHITE",
    "TM.END.HAND.LARGEST_COLOUR",
    "TM.END.LEFTOVER_NO_VALUE",
)
@PURE_SETTINGS
@given(hand=st.lists(st.sampled_from(ALL_CARDS), unique=True, max_size=24))
def test_hand_points_bounds(hand: list[str]) -> None:
    points = hand_points(COMPONENTS, hand)
    specials = sum(1 for card in hand if COMPONENTS.is_special(card))
    colours = Counter(
        COMPONENTS.cards[card].colour for card in hand if not COMPONENTS.is_special(card)
    )
    whites = colours.pop(CardColour.WHITE, 0)
    assert specials + whites <= points <= len(hand)
    if colours:
        assert points == specials + whites + max(colours.values())
    else:
        assert points == specials + whites
    assert hand_points(COMPONENTS, sorted(hand, reverse=True)) == points


cities_subsets = st.lists(st.sampled_from(ALL_CITIES), unique=True, max_size=30)


@pytest.mark.clause(
    "TM.SCORE.PALACE.CURRENT",
    "TM.SCORE.PALACE.CHAIN",
    "TM.SCORE.PALACE.PROVINCES",
    "TM.SCORE.PALACE.BREAK",
)
@PURE_SETTINGS
@given(own=cities_subsets, province=st.sampled_from(PROVINCES), more=st.sampled_from(ALL_CITIES))
def test_palace_points_bounds(own: list[str], province: str, more: str) -> None:
    points = palace_points(BOARD, own, province)
    here = [city for city in own if BOARD.cities[city].province == province]
    if not here:
        assert points == 0
    else:
        assert 1 <= points <= 12
        assert points <= len({BOARD.cities[city].province for city in own})
        # A palace in another province joined by a road to one here is in the chain.
        joined = {
            BOARD.cities[other].province
            for city in here
            for other in BOARD.neighbours[city] & set(own)
            if BOARD.cities[other].province != province
        }
        assert points >= 1 + len(joined)
        # A further palace never breaks a chain: points never go down.
        assert palace_points(BOARD, [*own, more], province) >= points
    # Cities in other provinces with no road to one's own palaces add nothing.
    isolated = [
        city
        for city in ALL_CITIES
        if city not in own
        and BOARD.cities[city].province != province
        and not (BOARD.neighbours[city] & set(own))
    ]
    if isolated:
        assert palace_points(BOARD, [*own, isolated[0]], province) == points
