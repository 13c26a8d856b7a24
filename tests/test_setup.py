"""Setup: the chance outcomes of preparing a game and the first state built from them."""

from __future__ import annotations

from collections import Counter

import attrs
import pytest

from tajmahal.components import default_components
from tajmahal.errors import RecordError
from tajmahal.setup import SetupOutcome, new_game, random_setup, validate_setup
from tajmahal.state import Step
from tajmahal.symbols import INFLUENCE_SYMBOLS

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


@pytest.mark.clause("TM.SETUP.PROVINCE.AGRA_TWELVE", "TM.SETUP.BONUS.TAJ", "TM.SETUP.HANDS")
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
def test_invalid_setup_outcomes_name_the_field(change: object, field: str) -> None:
    assert callable(change)
    broken = change(_valid())
    assert isinstance(broken, SetupOutcome)
    with pytest.raises(RecordError) as error:
        validate_setup(COMPONENTS, 4, broken)
    assert error.value.field.startswith(field)


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
def test_every_card_is_checked_where_it_lies(change: object, field: str, message: str) -> None:
    assert callable(change)
    broken = change(_valid())
    assert isinstance(broken, SetupOutcome)
    with pytest.raises(RecordError, match=message) as error:
        validate_setup(COMPONENTS, 4, broken)
    assert error.value.field.startswith(field)


def test_a_random_setup_depends_on_its_seed_only() -> None:
    assert random_setup(COMPONENTS, 4, 7) == random_setup(COMPONENTS, 4, 7)
    assert random_setup(COMPONENTS, 4, 7) != random_setup(COMPONENTS, 4, 8)
