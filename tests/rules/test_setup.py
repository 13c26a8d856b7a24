"""Setup: the chance outcomes of preparing a game and the first state built from them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from tajmahal.engine import SetupOutcome, new_game, random_setup, validate_setup
from tajmahal.errors import RecordError
from tajmahal.model import INFLUENCE_SYMBOLS, Step, default_components

COMPONENTS = default_components()
BOARD = COMPONENTS.board


@pytest.mark.clause("TM.SETUP.PLAYER_COUNT", "TM.SETUP.DISPLAY.SIZE", "TM.SETUP.HANDS")
@pytest.mark.parametrize(("players", "display"), [(3, 5), (4, 7), (5, 9)])
def test_hands_display_and_deck_sizes(players: int, display: int) -> None:
    setup = random_setup(COMPONENTS, players, seed=3)
    state = new_game(COMPONENTS, players, setup)
    assert [len(player.hand) for player in state.players] == [6] * players
    assert len(state.display) == display
    assert len(state.deck) == 96 - 6 * players - display


@pytest.mark.clause("TM.SETUP.PLAYER_COUNT")
@pytest.mark.parametrize("players", [2, 6])
def test_only_three_to_five_players(players: int) -> None:
    with pytest.raises(ValueError, match="3 to 5 players"):
        random_setup(COMPONENTS, players, seed=1)


@pytest.mark.clause("TM.SETUP.DECK.SHUFFLE", "TM.SETUP.DECK.DRAW_PILE", "TM.COMP.CARDS.COUNT")
def test_all_96_regular_cards_are_dealt_displayed_or_in_the_draw_pile() -> None:
    setup = random_setup(COMPONENTS, 4, seed=11)
    state = new_game(COMPONENTS, 4, setup)
    everywhere = [card for player in state.players for card in player.hand]
    everywhere += list(state.display) + list(state.deck)
    assert sorted(everywhere) == sorted(COMPONENTS.cards)
    assert state.discard == ()
    other = random_setup(COMPONENTS, 4, seed=12)
    assert other.deck != setup.deck  # a different seed shuffles differently


@pytest.mark.clause(
    "TM.SETUP.PROVINCE.AGRA_TWELVE",
    "TM.SETUP.PROVINCE.SHUFFLE",
    "TM.SETUP.VISIT_ORDER",
    "TM.SETUP.FIRST_PROVINCE",
)
def test_province_tiles_fix_the_visit_order_with_agra_last() -> None:
    setup = random_setup(COMPONENTS, 3, seed=5)
    assert COMPONENTS.province_tiles[setup.province_tiles[BOARD.agra_province]].number == 12
    assert sorted(setup.province_tiles) == sorted(BOARD.provinces)
    state = new_game(COMPONENTS, 3, setup)
    numbers = {
        province: COMPONENTS.province_tiles[tile].number
        for province, tile in setup.province_tiles.items()
    }
    assert [numbers[province] for province in state.province_order] == list(range(1, 13))
    assert state.province_order[-1] == BOARD.agra_province
    assert state.visit == 1
    assert state.current_province == state.province_order[0]
    assert state.court_province_tile == COMPONENTS.province_tile_number(1).id
    orders = {tuple(random_setup(COMPONENTS, 3, seed=s).province_tiles.items()) for s in range(8)}
    assert len(orders) > 1  # the other eleven tiles are placed at random


@pytest.mark.clause("TM.SETUP.BONUS.TAJ", "TM.SETUP.BONUS.FORTRESSES")
def test_taj_mahal_on_agra_and_one_square_tile_on_every_other_fortress() -> None:
    setup = random_setup(COMPONENTS, 4, seed=9)
    assert setup.bonus_tiles[BOARD.agra] == "bonus-taj-mahal"
    assert set(setup.bonus_tiles) == set(BOARD.fortresses)
    assert sorted(setup.bonus_tiles.values()) == sorted(COMPONENTS.bonus_tiles)
    state = new_game(COMPONENTS, 4, setup)
    assert dict(state.bonus_on_board) == dict(setup.bonus_tiles)


@pytest.mark.clause(
    "TM.SETUP.COURT.INFLUENCE",
    "TM.SETUP.COURT.CROWN",
    "TM.SETUP.SPECIALS.TABLE",
    "TM.SETUP.PLAYER_COLOURS",
    "TM.COMP.CROWN",
    "TM.COMP.INFLUENCE_TILES",
)
def test_court_specials_and_scores_at_the_start() -> None:
    state = new_game(COMPONENTS, 5, random_setup(COMPONENTS, 5, seed=2))
    assert state.court_influence == INFLUENCE_SYMBOLS
    assert state.crown_in_court
    assert sorted(state.specials_on_table) == sorted(COMPONENTS.specials)
    assert state.scores == (0, 0, 0, 0, 0)
    assert all(player.influence == () for player in state.players)
    assert state.palaces == ()


@pytest.mark.clause("TM.SETUP.START_PLAYER", "TM.TURN.START_PLAYER_BEGINS")
def test_start_player_is_a_recorded_outcome_and_moves_first() -> None:
    starts = Counter(random_setup(COMPONENTS, 4, seed=s).start_player for s in range(40))
    assert set(starts) == {0, 1, 2, 3}
    setup = attrs.evolve(random_setup(COMPONENTS, 4, seed=1), start_player=2)
    state = new_game(COMPONENTS, 4, setup)
    assert state.start_player == 2 and state.to_move == 2 and state.step is Step.PLAY


def _valid() -> SetupOutcome:
    return random_setup(COMPONENTS, 4, seed=4)


def _refusal(change: Callable[[SetupOutcome], SetupOutcome]) -> RecordError:
    """The error that validating :func:`_valid` changed by ``change`` raises."""
    with pytest.raises(RecordError) as error:
        validate_setup(COMPONENTS, 4, change(_valid()))
    return error.value


@pytest.mark.clause("TM.SETUP.BONUS.TAJ", "TM.SETUP.HANDS")
@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda s: attrs.evolve(s, start_player=4), "setup.start_player"),
        (lambda s: attrs.evolve(s, hands=s.hands[:3]), "setup.hands"),
        (lambda s: attrs.evolve(s, hands=(s.hands[0][:5], *s.hands[1:])), "setup.hands[0]"),
        (
            lambda s: attrs.evolve(s, hands=(("nope-01", *s.hands[0][1:]), *s.hands[1:])),
            "setup.hands[0][0]",
        ),
        (lambda s: attrs.evolve(s, display=s.display[:-1]), "setup.display"),
        (lambda s: attrs.evolve(s, deck=s.deck[:-1]), "setup.deck"),
        (lambda s: attrs.evolve(s, deck=(s.hands[0][0], *s.deck[1:])), "setup.deck[0]"),
        (
            lambda s: attrs.evolve(
                s, bonus_tiles={**s.bonus_tiles, "Agra": "bonus-01", "B3": "bonus-taj-mahal"}
            ),
            "setup.bonus_tiles",
        ),
    ],
)
def test_invalid_setup_outcomes_name_the_field(
    change: Callable[[SetupOutcome], SetupOutcome], field: str
) -> None:
    assert _refusal(change).field.startswith(field)


@pytest.mark.clause("TM.SETUP.PROVINCE.AGRA_TWELVE")
def test_tile_twelve_must_lie_on_agras_province() -> None:
    setup = _valid()
    agra_province = BOARD.agra_province
    other = next(p for p in setup.province_tiles if p != agra_province)
    swapped = dict(setup.province_tiles)
    swapped[agra_province], swapped[other] = swapped[other], swapped[agra_province]
    with pytest.raises(RecordError, match="province tile 12"):
        validate_setup(COMPONENTS, 4, attrs.evolve(setup, province_tiles=swapped))


def _renamed(setup: SetupOutcome) -> SetupOutcome:
    """Every card id replaced by an unknown one (all different, all dealt once)."""
    return attrs.evolve(
        setup,
        hands=tuple(tuple(f"x-{card}" for card in hand) for hand in setup.hands),
        display=tuple(f"x-{card}" for card in setup.display),
        deck=tuple(f"x-{card}" for card in setup.deck),
    )


@pytest.mark.clause("TM.SETUP.HANDS")
@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        # One card twice: once in a hand, once more at the end of the draw pile (97 cards).
        (lambda s: attrs.evolve(s, deck=(*s.deck, s.hands[0][0])), "setup.deck[", "twice"),
        # The sixth card of the draw pile is a card already dealt.
        (
            lambda s: attrs.evolve(s, deck=(*s.deck[:5], s.hands[1][2], *s.deck[6:])),
            "setup.deck[5]",
            "twice",
        ),
        (_renamed, "setup.hands[0][0]", "unknown card id"),
    ],
)
def test_every_card_is_checked_where_it_lies(
    change: Callable[[SetupOutcome], SetupOutcome], field: str, message: str
) -> None:
    error = _refusal(change)
    assert error.field.startswith(field)
    assert message in str(error)


def test_a_random_setup_depends_on_its_seed_only() -> None:
    assert random_setup(COMPONENTS, 4, 7) == random_setup(COMPONENTS, 4, 7)
    assert random_setup(COMPONENTS, 4, 7) != random_setup(COMPONENTS, 4, 8)


# A setup outcome laid out by hand: province tiles 1 to 11 on provinces A to K and 12 on
# Agra's province L; bonus tiles 1 to 15 on the other fortresses in id order and the Taj
# Mahal tile on Agra; the 96 cards in id order, six to each of four seats, seven to the
# display, the other 65 in the draw pile.
CARDS = tuple(
    f"{colour}-{number:02d}"
    for colour, count in (("green", 21), ("red", 21), ("violet", 21), ("white", 12), ("yellow", 21))
    for number in range(1, count + 1)
)
FORTRESSES = (
    "B3",
    "C1",
    "C3",
    "D2",
    "E2",
    "E4",
    "F4",
    "G1",
    "G3",
    "H2",
    "H4",
    "I3",
    "K2",
    "K4",
    "L4",
)
"""The fortresses but Agra, in id order."""
HAND_MADE = SetupOutcome(
    province_tiles={p: f"province-{n:02d}" for n, p in enumerate("ABCDEFGHIJKL", start=1)},
    bonus_tiles={
        **{city: f"bonus-{n:02d}" for n, city in enumerate(FORTRESSES, start=1)},
        "Agra": "bonus-taj-mahal",
    },
    hands=(CARDS[0:6], CARDS[6:12], CARDS[12:18], CARDS[18:24]),
    display=CARDS[24:31],
    deck=CARDS[31:],
    start_player=0,
)


def test_the_hand_made_setup_is_valid() -> None:
    assert HAND_MADE.hands[3] == ("green-19", "green-20", "green-21", "red-01", "red-02", "red-03")
    assert HAND_MADE.display[0] == "red-04" and HAND_MADE.deck[-1] == "yellow-21"
    validate_setup(COMPONENTS, 4, HAND_MADE, source="game.json")
    state = new_game(COMPONENTS, 4, HAND_MADE)
    assert state.province_order == tuple("ABCDEFGHIJKL")
    assert state.players[0].hand == (
        "green-01",
        "green-02",
        "green-03",
        "green-04",
        "green-05",
        "green-06",
    )


def _provinces(**tiles: str) -> Callable[[SetupOutcome], SetupOutcome]:
    def change(setup: SetupOutcome) -> SetupOutcome:
        return attrs.evolve(setup, province_tiles={**setup.province_tiles, **tiles})

    return change


def _bonus(**tiles: str) -> Callable[[SetupOutcome], SetupOutcome]:
    def change(setup: SetupOutcome) -> SetupOutcome:
        return attrs.evolve(setup, bonus_tiles={**setup.bonus_tiles, **tiles})

    return change


def _without(field: str, key: str) -> Callable[[SetupOutcome], SetupOutcome]:
    def change(setup: SetupOutcome) -> SetupOutcome:
        mapping = dict(getattr(setup, field))
        del mapping[key]
        changes: dict[str, Any] = {field: mapping}
        return attrs.evolve(setup, **changes)

    return change


def _cards(where: str, index: int, card: str) -> Callable[[SetupOutcome], SetupOutcome]:
    """Replace one card of the display, the deck or hand 0 (``where``)."""

    def change(setup: SetupOutcome) -> SetupOutcome:
        if where == "hand":
            hand = list(setup.hands[0])
            hand[index] = card
            return attrs.evolve(setup, hands=(tuple(hand), *setup.hands[1:]))
        cards = list(getattr(setup, where))
        cards[index] = card
        changes: dict[str, Any] = {where: tuple(cards)}
        return attrs.evolve(setup, **changes)

    return change


@pytest.mark.clause(
    "TM.SETUP.PLAYER_COUNT",
    "TM.SETUP.PROVINCE.AGRA_TWELVE",
    "TM.SETUP.BONUS.TAJ",
    "TM.SETUP.BONUS.FORTRESSES",
    "TM.SETUP.HANDS",
    "TM.SETUP.DISPLAY.SIZE",
)
@pytest.mark.parametrize(
    ("players", "change", "field", "message"),
    [
        pytest.param(
            2, lambda s: s, "players", "Taj Mahal is for 3 to 5 players, not 2", id="players"
        ),
        pytest.param(
            4,
            _without("province_tiles", "C"),
            "setup.province_tiles",
            "every province needs one tile (missing ['C'], unknown [])",
            id="province-without-tile",
        ),
        pytest.param(
            4,
            lambda s: _provinces(Z="province-03")(_without("province_tiles", "C")(s)),
            "setup.province_tiles",
            "every province needs one tile (missing ['C'], unknown ['Z'])",
            id="tile-on-unknown-province",
        ),
        pytest.param(
            4,
            _provinces(C="province-99"),
            "setup.province_tiles.C",
            "unknown province tile id 'province-99'",
            id="unknown-province-tile",
        ),
        pytest.param(
            4,
            _provinces(C="province-02"),
            "setup.province_tiles",
            "each province tile must lie on exactly one province",
            id="province-tile-twice",
        ),
        pytest.param(
            4,
            _provinces(A="province-12", L="province-01"),
            "setup.province_tiles.L",
            "province tile 12 lies on Agra's province L, found tile 1",
            id="tile-twelve-elsewhere",
        ),
        pytest.param(
            4,
            lambda s: _bonus(A1="bonus-01")(_without("bonus_tiles", "B3")(s)),
            "setup.bonus_tiles",
            "every fortress needs one bonus tile (missing ['B3'], not fortresses ['A1'])",
            id="bonus-tile-off-the-fortresses",
        ),
        pytest.param(
            4,
            _bonus(C1="bonus-99"),
            "setup.bonus_tiles.C1",
            "unknown bonus tile id 'bonus-99'",
            id="unknown-bonus-tile",
        ),
        pytest.param(
            4,
            _bonus(C1="bonus-01"),
            "setup.bonus_tiles",
            "each bonus tile must lie on exactly one fortress",
            id="bonus-tile-twice",
        ),
        pytest.param(
            4,
            _bonus(Agra="bonus-01", B3="bonus-taj-mahal"),
            "setup.bonus_tiles.Agra",
            "the Taj Mahal tile lies on Agra",
            id="taj-mahal-elsewhere",
        ),
        pytest.param(
            4,
            lambda s: attrs.evolve(s, hands=s.hands[:3]),
            "setup.hands",
            "expected 4 hands, found 3",
            id="three-hands",
        ),
        pytest.param(
            4,
            lambda s: attrs.evolve(s, hands=(s.hands[0], s.hands[1][:5], *s.hands[2:])),
            "setup.hands[1]",
            "each hand has 6 cards, found 5",
            id="short-hand",
        ),
        pytest.param(
            4,
            _cards("hand", 2, "blue-01"),
            "setup.hands[0][2]",
            "unknown card id 'blue-01'",
            id="unknown-card-in-hand",
        ),
        pytest.param(
            4,
            _cards("hand", 4, "green-02"),
            "setup.hands[0][4]",
            "card 'green-02' appears twice (also at setup.hands[0][1])",
            id="card-twice-in-hand",
        ),
        pytest.param(
            4,
            lambda s: attrs.evolve(s, display=s.display[:6], deck=(*s.deck, s.display[6])),
            "setup.display",
            "the display has 7 cards for 4 players, found 6",
            id="short-display",
        ),
        pytest.param(
            4,
            _cards("display", 3, "blue-01"),
            "setup.display[3]",
            "unknown card id 'blue-01'",
            id="unknown-card-on-display",
        ),
        pytest.param(
            4,
            _cards("deck", 5, "green-09"),
            "setup.deck[5]",
            "card 'green-09' appears twice (also at setup.hands[1][2])",
            id="dealt-card-in-deck",
        ),
        pytest.param(
            4,
            lambda s: attrs.evolve(s, deck=s.deck[:-1]),
            "setup.deck",
            "the 96 cards must all be dealt, displayed or in the deck; missing ['yellow-21']",
            id="one-card-missing",
        ),
        pytest.param(
            4,
            lambda s: attrs.evolve(s, deck=s.deck[:-5]),
            "setup.deck",
            "the 96 cards must all be dealt, displayed or in the deck; missing "
            "['yellow-17', 'yellow-18', 'yellow-19', 'yellow-20', 'yellow-21']",
            id="five-cards-missing",
        ),
        pytest.param(
            4,
            lambda s: attrs.evolve(s, deck=s.deck[:-6]),
            "setup.deck",
            "the 96 cards must all be dealt, displayed or in the deck; missing "
            "['yellow-16', 'yellow-17', 'yellow-18', 'yellow-19', 'yellow-20']...",
            id="six-cards-missing",
        ),
        pytest.param(
            4,
            lambda s: attrs.evolve(s, start_player=4),
            "setup.start_player",
            "start player must be a seat from 0 to 3",
            id="start-player-beyond-the-seats",
        ),
        pytest.param(
            4,
            lambda s: attrs.evolve(s, start_player=-1),
            "setup.start_player",
            "start player must be a seat from 0 to 3",
            id="start-player-negative",
        ),
    ],
)
def test_each_defect_of_a_setup_is_refused_naming_file_field_and_fault(
    players: int, change: Callable[[SetupOutcome], SetupOutcome], field: str, message: str
) -> None:
    broken = change(HAND_MADE)
    with pytest.raises(RecordError) as error:
        validate_setup(COMPONENTS, players, broken, source="game.json")
    assert (error.value.source, error.value.field, error.value.detail) == (
        "game.json",
        field,
        message,
    )
    assert str(error.value) == f"game.json: {field}: {message}"


def test_a_setup_error_without_a_source_names_only_the_field() -> None:
    with pytest.raises(RecordError) as error:
        validate_setup(COMPONENTS, 4, attrs.evolve(HAND_MADE, start_player=4))
    assert error.value.source == ""
    assert str(error.value) == "setup.start_player: start player must be a seat from 0 to 3"
