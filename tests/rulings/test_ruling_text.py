"""Rulings on the rulebooks' wording: translations, names and omissions (rulings/TESTS.md,
section test_ruling_text.py)."""

from __future__ import annotations

import attrs
import pytest
from positions import (
    COMPONENTS,
    finish_visit,
    game,
    legal,
    outcome,
    player,
    run,
    table,
    to_move,
    with_display,
    with_hands,
    with_palaces,
    with_played,
    with_player,
)
from scenes import card_showing

from tajmahal.engine import apply, legal_actions, new_game
from tajmahal.errors import ActionSyntaxError, IllegalActionError
from tajmahal.model import (
    DISPLAY_SIZES,
    INFLUENCE_SYMBOLS,
    CardColour,
    City,
    GameState,
    Palace,
    Play,
    SpecialKind,
    Step,
    Symbol,
    parse_action,
)


def _take_first(state: GameState) -> GameState:
    assert state.step is Step.TAKE
    return apply(state, legal_actions(state)[0])


def _place_all(state: GameState) -> GameState:
    while state.step is Step.PLACE:
        state = apply(state, legal_actions(state)[0])
    return state


# ---------------------------------------------------------------------------------------
# RUL.PLAY.WHITE_AND_SPECIAL


@pytest.mark.clause("TM.PLAY.THREE_FORMS", "TM.PLAY.EXTRA_CARD")
def test_white_and_special_never_played_together() -> None:
    """RUL.PLAY.WHITE_AND_SPECIAL: one extra card at most, white or special."""
    state = with_hands(game(4), [("red-02", "special-plus-two", "white-01")])
    assert legal(state) == {
        "play red-02",
        "play red-02 white-01",
        "play red-02 special-plus-two",
        "withdraw",
    }
    for action in legal_actions(state):
        if isinstance(action, Play):
            assert action.extra in (None, "white-01", "special-plus-two")
    # A play names at most two cards; three cannot be written, and the extras alone are
    # not a play.
    assert [field.name for field in attrs.fields(Play)] == ["coloured", "extra"]
    with pytest.raises(ActionSyntaxError):
        parse_action("play red-02 white-01 special-plus-two")
    with pytest.raises(IllegalActionError):
        apply(state, Play("white-01", "special-plus-two"))
    with pytest.raises(IllegalActionError):
        apply(state, Play("special-plus-two", "white-01"))
    # The legal forms are accepted.
    after = run(state, "play red-02 special-plus-two")
    assert player(after, 0).played == ("red-02", "special-plus-two")


# ---------------------------------------------------------------------------------------
# RUL.TEXT.FORTRESS_COLOUR


@pytest.mark.clause("TM.COMP.BOARD.FORTRESSES")
def test_fortress_is_a_flag_without_colour() -> None:
    """RUL.TEXT.FORTRESS_COLOUR: a city is a fortress or not; there is no fortress colour."""
    cities = COMPONENTS.to_json()["board.json"]["cities"]
    assert len(cities) == 49
    for city in cities:
        assert isinstance(city["fortress"], bool)
        assert not any("colour" in key or "color" in key for key in city)
    assert not any("colour" in f.name or "color" in f.name for f in attrs.fields(City))
    assert all(isinstance(c.fortress, bool) for c in COMPONENTS.board.cities.values())
    assert sum(1 for c in COMPONENTS.board.cities.values() if c.fortress) == 16


# ---------------------------------------------------------------------------------------
# RUL.TEXT.ROUND_AND_TURN


def _three_rounds() -> GameState:
    """3 players. A (red) and B (yellow) each play on three turns; C withdraws at once."""
    hands = (
        ("red-07", "red-08", "red-09", "green-01", "green-02", "white-01", "special-elephant"),
        ("yellow-02", "yellow-03", "yellow-04", "yellow-05"),
        ("violet-01", "violet-02"),
    )
    return with_hands(game(3), hands)


@pytest.mark.clause("TM.WITHDRAW.DISCARD", "TM.SPECIAL.RETURN_TO_HAND", "RUL.TEXT.ROUND_AND_TURN")
def test_withdrawal_discards_all_cards_played_in_visit() -> None:
    """RUL.TEXT.ROUND_AND_TURN: a withdrawing player discards every card of the visit."""
    state = run(_three_rounds(), "play red-07 white-01", "play yellow-02", "withdraw")
    state = _take_first(state)
    state = run(state, "play red-08", "play yellow-03", "play red-09 special-elephant")
    state = run(state, "play yellow-04")
    assert player(state, 0).played == ("red-07", "white-01", "red-08", "red-09", "special-elephant")
    assert state.discard == ()
    state = _place_all(run(state, "withdraw"))
    # Scored; B is still in the visit and A is at the display pick.
    assert state.step is Step.TAKE and state.to_move == 0
    assert player(state, 0).played == ()
    assert state.discard == tuple(sorted(("red-07", "white-01", "red-08", "red-09")))
    assert "special-elephant" in player(state, 0).hand
    assert player(state, 1).played == ("yellow-02", "yellow-03", "yellow-04")


@pytest.mark.clause("TM.PLAY.COLOUR_LOCK", "RUL.TEXT.ROUND_AND_TURN")
def test_colour_lock_lasts_whole_visit() -> None:
    """RUL.TEXT.ROUND_AND_TURN: the colour of the first card holds for the whole visit."""
    state = run(_three_rounds(), "play red-07", "play yellow-02", "withdraw")
    state = _take_first(state)
    state = run(state, "play red-08", "play yellow-03")
    # A's third turn.
    assert state.to_move == 0 and player(state, 0).colour is CardColour.RED
    assert "play green-01" not in legal(state)
    assert "play red-09" in legal(state)
    with pytest.raises(IllegalActionError):
        run(state, "play green-01")
    with pytest.raises(IllegalActionError):
        run(state, "play green-01 white-01")


@pytest.mark.clause("TM.SETUP.DISPLAY.SIZE", "TM.VISIT.NEXT.DISPLAY", "RUL.TEXT.ROUND_AND_TURN")
def test_one_display_per_visit() -> None:
    """RUL.TEXT.ROUND_AND_TURN: one display per visit, drawn when the visit begins."""
    hands = (
        ("red-02", "red-03", "red-14"),
        ("yellow-02", "yellow-03", "yellow-14"),
        ("violet-01", "violet-02"),
    )
    state = with_hands(game(3), hands)
    state = with_display(state, ("green-20", "violet-20", "white-06", "white-07", "white-08"))
    first_display = state.display
    assert len(first_display) == DISPLAY_SIZES[3] == 5
    actions = [
        "play red-02",
        "play yellow-02",
        "withdraw",  # C, without playing
        "take",
        "play red-03",
        "play yellow-03",
        "play red-14",
        "play yellow-14",
        "withdraw",  # A ties B on every force and wins nothing
        "take",
    ]
    sizes = [len(state.display)]
    for text in actions:
        state = _take_first(state) if text == "take" else run(state, text)
        assert set(state.display) <= set(first_display)  # never refilled
        sizes.append(len(state.display))
    assert sizes == [5, 5, 5, 5, 3, 3, 3, 3, 3, 3, 1]
    # B, last, withdraws with played cards: no extra card, and province A has no fortress,
    # so the next display is the top 5 cards of the deck, drawn when visit 2 begins.
    assert state.to_move == 1
    deck = state.deck
    state = _place_all(run(state, "withdraw"))
    assert state.visit == 2
    assert state.display == tuple(sorted(deck[:5]))
    assert state.deck == deck[5:]


# ---------------------------------------------------------------------------------------
# RUL.TEXT.WITHDRAW_WIN_NOTHING


@pytest.mark.clause("TM.WITHDRAW.EMPTY_HANDED", "TM.WITHDRAW.ANY_COMBINATION")
def test_player_may_withdraw_winning_nothing() -> None:
    """RUL.TEXT.WITHDRAW_WIN_NOTHING: withdrawing with no majority is allowed."""
    # A: general + monk. B: general + monk and monk + princess. A ties on the general and
    # is behind on the monk.
    state = table(("red-02",), ("yellow-02", "yellow-03"))
    assert "withdraw" in legal(state)
    hand = player(state, 0).hand
    score = player(state, 0).score
    state = run(state, "withdraw")
    assert state.step is Step.TAKE and state.to_move == 0
    assert player(state, 0).influence == ()
    assert state.court_influence == INFLUENCE_SYMBOLS
    assert state.crown_in_court and state.court_province_tile is not None
    assert state.palaces == ()
    assert player(state, 0).played == () and "red-02" in state.discard
    assert player(state, 0).score == score
    state = _take_first(state)
    assert len(player(state, 0).hand) == len(hand) + 2


# ---------------------------------------------------------------------------------------
# RUL.TEXT.SPECIAL_CARD_NAME


@pytest.mark.clause("TM.SPECIAL.EXCHANGE_AT_VISIT_END", "TM.COMP.SPECIALS", "TM.SCORE.BONUS.CARD")
def test_pair_exchange_yields_the_special_card() -> None:
    """RUL.TEXT.SPECIAL_CARD_NAME: the card received for a pair is the special card."""
    assert len(COMPONENTS.cards) == 96 and len(COMPONENTS.specials) == 4
    assert {s.kind for s in COMPONENTS.specials.values()} == set(SpecialKind)
    documents = COMPONENTS.to_json()
    assert len(documents["cards.json"]["cards"]) == 96
    linked = {s["earned_by"]: s["id"] for s in documents["specials.json"]["specials"]}
    for symbol in INFLUENCE_SYMBOLS:
        special = linked[symbol.value]
        card = card_showing(CardColour.RED, Symbol.ELEPHANT, symbol)
        state = with_player(table((card,)), 0, influence=(symbol,))
        state = _place_all(run(state, "withdraw"))
        assert player(state, 0).influence == (symbol, symbol)
        state = _take_first(state)
        hand = player(state, 0).hand
        state = finish_visit(state)
        assert state.visit == 2
        assert player(state, 0).hand == tuple(sorted((*hand, special)))
        assert player(state, 0).influence == ()
        assert special not in state.specials_on_table


# ---------------------------------------------------------------------------------------
# RUL.TEXT.OMISSIONS


@pytest.mark.clause("TM.SCORE.PALACE.SHARED_CITY", "TM.REWARD.CROWN.LATER_NORMAL")
def test_shared_city_links_chain_although_003_omits_it() -> None:
    """RUL.TEXT.OMISSIONS: a city shared by a crown palace and a normal palace links the
    chains of both owners (003 does not say so; the other texts do)."""
    # City C3 holds B's crown palace and A's normal palace from earlier visits. C3 is
    # joined by road to D4 (province D) and to H1 (province H).
    shared = (Palace("C3", 1, crowned=True), Palace("C3", 0))
    board = COMPONENTS.board
    assert {"D4", "H1"} <= board.neighbours["C3"]
    # Visit 1 in province D: A wins the vizier alone and places a palace in D4.
    state = new_game(COMPONENTS, 4, outcome(4, order="DABCEFGHIJK"))
    state = with_played(state, 0, ("red-07",))  # elephant + vizier
    state = with_played(state, 1, ("yellow-19",))  # two elephants: A wins no province tile
    state = with_palaces(state, *shared)
    state = run(state, "withdraw")
    score = player(state, 0).score
    state = run(state, "palace D4")
    assert player(state, 0).score - score == 2  # province D, and province C through C3
    # Visit 1 in province H: B wins the vizier alone and places a palace in H1.
    state = new_game(COMPONENTS, 4, outcome(4, order="HABCDEFGIJK"))
    state = with_played(state, 0, ("red-19",))
    state = with_played(state, 1, ("yellow-07",))
    state = to_move(with_palaces(state, *shared), 1)
    state = run(state, "withdraw")
    score = player(state, 1).score
    state = run(state, "palace H1")
    assert player(state, 1).score - score == 2  # province H, and province C through C3


@pytest.mark.clause("TM.TURN.LAST_PLAYER_CONTINUES")
def test_last_player_plays_on_alone_although_000_omits_it() -> None:
    """RUL.TEXT.OMISSIONS: the last player in a visit goes on playing alone (000 does not
    say so; the other texts do)."""
    state = with_hands(game(4), [("red-02", "red-03", "red-14", "green-01")])
    state = run(state, "play red-02")
    for seat in (1, 2, 3):
        assert state.to_move == seat
        state = _take_first(run(state, "withdraw"))
    # A alone: plays are still offered, and A keeps the turn.
    assert state.to_move == 0 and state.visit == 1
    assert {"play red-03", "play red-14", "withdraw"} <= legal(state)
    state = run(state, "play red-03")
    assert state.to_move == 0 and state.step is Step.PLAY
    assert "play red-14" in legal(state)
    state = run(state, "play red-14")
    assert state.to_move == 0
    assert player(state, 0).played == ("red-02", "red-03", "red-14")
    state = _place_all(run(state, "withdraw"))
    assert state.visit == 2 and state.step is Step.PLAY


@pytest.mark.clause("TM.WITHDRAW.DISCARD")
def test_each_withdrawal_discards_as_000_implies() -> None:
    """RUL.TEXT.OMISSIONS: every withdrawing player discards the cards played, not only
    the last one (001, 002 and 003 say so; 000 implies it through the special cards that
    go back to the hand instead of being discarded)."""
    state = table(("red-02", "white-06"), ("yellow-02", "yellow-03"))
    state = run(state, "withdraw")
    # A is the first to withdraw, and B, C and D are still in the visit.
    assert not any(player(state, seat).withdrawn for seat in (1, 2, 3))
    assert player(state, 0).played == ()
    assert state.discard == ("red-02", "white-06")
    assert player(state, 1).played == ("yellow-02", "yellow-03")
    state = _take_first(state)
    assert state.step is Step.PLAY and state.to_move == 1
    assert state.discard == ("red-02", "white-06")
    assert "withdraw" in legal(state)
