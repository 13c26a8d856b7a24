"""Hostile positions: the loader refuses every impossible position, naming the field,
and every position it accepts can be played to the end without an exception.

The pool of valid positions comes from random legal play under random rule sets. The
property test mutates them (cards moved between places, tiles and palaces duplicated or
moved, the step, the withdrawal and the pending draw rewritten), loads the result, and
from every accepted position plays random legal actions (and random reshuffles) to the
end of the game, checking that each position reached is accepted too.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostile.support import DEEP, HOSTILE
from tajmahal.engine import apply, legal_actions, new_game, random_reshuffle, random_setup
from tajmahal.errors import StateFormatError
from tajmahal.model import RULE_OPTIONS, GameState, RuleSet, default_components
from tajmahal.notation import read_position, state_from_json, state_to_json, validate_state

COMPONENTS = default_components()
BOARD = COMPONENTS.board
CARDS = sorted(COMPONENTS.cards) + sorted(COMPONENTS.specials)
SPECIALS = sorted(COMPONENTS.specials)
CITIES = sorted(BOARD.cities)
PROVINCE_TILES = sorted(COMPONENTS.province_tiles)
BONUS_TILES = sorted(COMPONENTS.bonus_tiles)
SYMBOLS = ["vizier", "general", "monk", "princess", "elephant", "mogul"]
CARD_PLACES = ("hand", "played", "deck", "discard", "display", "specials_on_table")


def _rules(rng: random.Random) -> RuleSet:
    return RuleSet.from_json({name: rng.choice(values) for name, values in RULE_OPTIONS.items()})


def _play_out(state: GameState, rng: random.Random, limit: int = 2000) -> list[GameState]:
    """Random legal play to the end; every state reached must load again unchanged."""
    reached = [state]
    for _ in range(limit):
        if state.is_over:
            return reached
        if state.is_chance:
            state = apply(state, random_reshuffle(state, rng))
        else:
            legal = legal_actions(state)
            assert legal, "a position to move in has a legal action"
            state = apply(state, rng.choice(legal))
        reached.append(state)
    raise AssertionError("the game did not end")


def _pool() -> list[dict[str, Any]]:
    rng = random.Random(12)
    documents = []
    for game in range(4 if not DEEP else 12):
        players = 3 + game % 3
        rules = _rules(rng)
        state = new_game(COMPONENTS, players, random_setup(COMPONENTS, players, game), rules)
        for position, reached in enumerate(_play_out(state, rng)):
            if position % 5 == 0 or reached.step.value in ("place", "take", "shuffle"):
                documents.append(state_to_json(reached))
    return documents


POOL = _pool()
"""Valid positions (JSON documents) from random legal play."""


def test_every_position_reached_in_play_loads_unchanged() -> None:
    rng = random.Random(5)
    for game in range(6):
        players = 3 + game % 3
        rules = _rules(rng)
        state = new_game(COMPONENTS, players, random_setup(COMPONENTS, players, 100 + game), rules)
        for reached in _play_out(state, rng):
            assert state_from_json(json.loads(json.dumps(state_to_json(reached))), COMPONENTS) == (
                reached
            )


# ---------------------------------------------------------------------------------------
# Mutations of a position document


def _seat(data: st.DataObject, document: dict[str, Any]) -> int:
    return data.draw(st.integers(0, len(document["seats"]) - 1))


def _card_lists(document: dict[str, Any]) -> list[list[str]]:
    lists: list[list[str]] = [document[name] for name in CARD_PLACES[2:]]
    for seat in document["seats"]:
        lists.extend([seat["hand"], seat["played"]])
    return lists


def move_card(data: st.DataObject, document: dict[str, Any]) -> None:
    lists = [items for items in _card_lists(document) if items]
    source = data.draw(st.sampled_from(lists))
    card = source.pop(data.draw(st.integers(0, len(source) - 1)))
    target = data.draw(st.sampled_from(_card_lists(document)))
    target.insert(data.draw(st.integers(0, len(target))), card)


def copy_card(data: st.DataObject, document: dict[str, Any]) -> None:
    target = data.draw(st.sampled_from(_card_lists(document)))
    target.append(data.draw(st.sampled_from(CARDS)))


def drop_card(data: st.DataObject, document: dict[str, Any]) -> None:
    lists = [items for items in _card_lists(document) if items]
    source = data.draw(st.sampled_from(lists))
    source.pop(data.draw(st.integers(0, len(source) - 1)))


def province_tiles(data: st.DataObject, document: dict[str, Any]) -> None:
    choice = data.draw(st.integers(0, 3))
    tile = data.draw(st.sampled_from(PROVINCE_TILES))
    if choice == 0:
        document["seats"][_seat(data, document)]["province_tiles"].append(tile)
    elif choice == 1:
        document["court_province_tile"] = data.draw(st.sampled_from([tile, None]))
    elif choice == 2:
        held = [t for seat in document["seats"] for t in seat["province_tiles"]]
        if held:
            document["seats"][_seat(data, document)]["province_tiles"].append(
                data.draw(st.sampled_from(held))
            )
    else:
        order = document["province_order"]
        i, j = data.draw(st.integers(0, 11)), data.draw(st.integers(0, 11))
        order[i], order[j] = order[j], order[i]


def bonus_tiles(data: st.DataObject, document: dict[str, Any]) -> None:
    choice = data.draw(st.integers(0, 3))
    board = document["bonus_on_board"]
    if choice == 0 and board:
        city = data.draw(st.sampled_from(sorted(board)))
        board[data.draw(st.sampled_from(sorted(BOARD.fortresses)))] = board[city]
    elif choice == 1:
        board[data.draw(st.sampled_from(sorted(BOARD.fortresses)))] = data.draw(
            st.sampled_from(BONUS_TILES)
        )
    elif choice == 2 and board:
        del board[data.draw(st.sampled_from(sorted(board)))]
    else:
        document["seats"][_seat(data, document)]["goods_tiles"].append(
            data.draw(st.sampled_from(BONUS_TILES))
        )


def influence(data: st.DataObject, document: dict[str, Any]) -> None:
    symbol = data.draw(st.sampled_from(SYMBOLS))
    if data.draw(st.booleans()):
        document["court_influence"].append(symbol)
    else:
        document["seats"][_seat(data, document)]["influence"].extend([symbol] * 2)


def palaces(data: st.DataObject, document: dict[str, Any]) -> None:
    entries = document["palaces"]
    if data.draw(st.booleans()) and entries:
        entries.append(list(data.draw(st.sampled_from(entries))))
    else:
        entries.append(
            [
                data.draw(st.sampled_from(CITIES)),
                data.draw(st.integers(-1, 5)),
                data.draw(st.booleans()),
            ]
        )


def seat_fields(data: st.DataObject, document: dict[str, Any]) -> None:
    seat = document["seats"][_seat(data, document)]
    key = data.draw(st.sampled_from(["colour", "withdrawn", "withdrawn_counts", "score"]))
    seat[key] = data.draw(
        {
            "colour": st.sampled_from([None, "red", "blue", "green", "yellow", "white"]),
            "withdrawn": st.booleans(),
            "withdrawn_counts": st.none() | st.lists(st.integers(-1, 5), max_size=7),
            "score": st.integers(-3, 200),
        }[key]
    )


def frame(data: st.DataObject, document: dict[str, Any]) -> None:
    key = data.draw(st.sampled_from(["step", "to_move", "start_player", "visit", "crown"]))
    if key == "step":
        document["step"] = data.draw(st.sampled_from(["play", "place", "take", "shuffle", "over"]))
    elif key == "visit":
        document["visit"] = data.draw(st.integers(0, 13))
    elif key == "crown":
        document["crown_in_court"] = not document["crown_in_court"]
    else:
        document[key] = data.draw(st.none() | st.integers(-1, 5))


def withdrawal(data: st.DataObject, document: dict[str, Any]) -> None:
    if data.draw(st.booleans()) and document["withdrawal"] is not None:
        key = data.draw(
            st.sampled_from(
                ["seat", "palaces_owed", "crown_owed", "placed", "province_won", "scored"]
            )
        )
        document["withdrawal"][key] = data.draw(
            {
                "seat": st.integers(-1, 5),
                "palaces_owed": st.integers(-1, 6),
                "crown_owed": st.booleans(),
                "placed": st.lists(st.sampled_from(CITIES), max_size=2),
                "province_won": st.none() | st.sampled_from([*PROVINCE_TILES, "province-99"]),
                "scored": st.booleans(),
            }[key]
        )
    else:
        document["withdrawal"] = data.draw(
            st.none()
            | st.fixed_dictionaries(
                {
                    "seat": st.integers(0, len(document["seats"]) - 1),
                    "palaces_owed": st.integers(0, 4),
                    "crown_owed": st.booleans(),
                    "placed": st.lists(st.sampled_from(CITIES), max_size=2),
                    "province_won": st.none() | st.sampled_from(PROVINCE_TILES),
                    "played_nothing": st.booleans(),
                    "scored": st.booleans(),
                }
            )
        )


def draw(data: st.DataObject, document: dict[str, Any]) -> None:
    document["draw"] = data.draw(
        st.none()
        | st.fixed_dictionaries(
            {
                "destination": st.integers(-2, 5),
                "count": st.integers(-1, 10),
                "reason": st.sampled_from(["display", "bonus-card", "extra-card", "other"]),
            }
        )
    )


MUTATIONS = (
    move_card,
    copy_card,
    drop_card,
    province_tiles,
    bonus_tiles,
    influence,
    palaces,
    seat_fields,
    frame,
    withdrawal,
    draw,
)


@HOSTILE
@given(
    position=st.integers(0, len(POOL) - 1),
    mutations=st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=3),
    data=st.data(),
    seed=st.integers(0, 2**32),
)
def test_mutated_positions_are_refused_or_playable_to_the_end(
    position: int, mutations: list[Any], data: st.DataObject, seed: int
) -> None:
    document = copy.deepcopy(POOL[position])
    for mutation in mutations:
        mutation(data, document)
    try:
        state = state_from_json(document, COMPONENTS)
    except StateFormatError as error:
        field = str(error).split(":")[0]
        assert field, error
        return
    for reached in _play_out(state, random.Random(seed)):
        validate_state(reached)


# ---------------------------------------------------------------------------------------
# The impossible positions named in the issue, each refused with its field


def _find(predicate: Any) -> dict[str, Any]:
    for document in POOL:
        if predicate(document):
            return copy.deepcopy(document)
    pytest.skip("no such position in the pool")


def _refused(document: dict[str, Any], field: str) -> None:
    with pytest.raises(StateFormatError) as caught:
        state_from_json(document, COMPONENTS)
    assert str(caught.value).startswith(field), str(caught.value)


def test_unknown_province_won_is_refused() -> None:
    document = _find(lambda d: d["withdrawal"] is not None)
    document["withdrawal"]["province_won"] = "province-99"
    _refused(document, "withdrawal.province_won")


def test_special_card_in_the_discard_pile_is_refused() -> None:
    document = _find(lambda d: d["specials_on_table"])
    special = document["specials_on_table"].pop()
    document["discard"].append(special)
    _refused(document, "discard")


def test_bonus_tile_on_two_cities_or_also_held_is_refused() -> None:
    def goods_on_board(document: dict[str, Any]) -> list[str]:
        tiles = document["bonus_on_board"].values()
        return [t for t in tiles if COMPONENTS.bonus_tiles[t].good is not None]

    document = _find(lambda d: len(d["bonus_on_board"]) >= 3 and goods_on_board(d))
    cities = sorted(c for c in document["bonus_on_board"] if c != BOARD.agra)
    twice = copy.deepcopy(document)
    twice["bonus_on_board"][cities[0]] = twice["bonus_on_board"][cities[1]]
    _refused(twice, "bonus_on_board")
    held = copy.deepcopy(document)
    held["seats"][0]["goods_tiles"].append(goods_on_board(document)[0])
    _refused(held, "seats[0].goods_tiles")


def test_court_tile_must_match_the_visit() -> None:
    document = _find(lambda d: d["court_province_tile"] is not None)
    other = next(t for t in PROVINCE_TILES if t != document["court_province_tile"])
    document["court_province_tile"] = other
    _refused(document, "court_province_tile")


def test_a_province_tile_held_twice_is_refused() -> None:
    document = _find(lambda d: any(s["province_tiles"] for s in d["seats"]))
    holder = next(s for s in document["seats"] if s["province_tiles"])
    other = next(s for s in document["seats"] if s is not holder)
    other["province_tiles"].append(holder["province_tiles"][0])
    _refused(document, "seats[")


def test_played_colour_must_follow_the_locked_colour() -> None:
    document = _find(lambda d: any(s["played"] and s["colour"] for s in d["seats"]))
    seat = next(s for s in document["seats"] if s["played"] and s["colour"])
    seat["colour"] = next(c for c in ("red", "blue", "green", "yellow") if c != seat["colour"])
    _refused(document, "seats[")


def test_influence_tiles_are_limited() -> None:
    document = copy.deepcopy(POOL[0])
    document["seats"][0]["influence"] = ["monk"] * 7
    _refused(document, "court_influence")
    document = _find(lambda d: d["court_influence"])
    document["court_influence"].append(document["court_influence"][0])
    _refused(document, "court_influence")


def test_palaces_per_city_and_crowns_per_visit_are_limited() -> None:
    document = _find(lambda d: d["visit"] >= 3)
    province = document["province_order"][0]
    cities = BOARD.provinces[province].cities
    three = copy.deepcopy(document)
    three["palaces"] = [[cities[0], 0, False], [cities[0], 1, False], [cities[0], 2, True]]
    _refused(three, "palaces[1]")
    crowns = copy.deepcopy(document)
    crowns["palaces"] = [[cities[0], 0, True], [cities[1], 1, True]]
    _refused(crowns, "palaces[")


def test_a_withdrawn_player_has_no_cards_on_the_table() -> None:
    document = _find(
        lambda d: (
            d["withdrawal"] is None
            and d["step"] == "play"
            and any(
                s["played"] and not s["withdrawn"] and i != d["to_move"]
                for i, s in enumerate(d["seats"])
            )
        )
    )
    seats = document["seats"]
    index = next(i for i, s in enumerate(seats) if s["played"] and i != document["to_move"])
    seats[index]["withdrawn"] = True
    _refused(document, f"seats[{index}].played")


def test_province_order_ends_with_agra() -> None:
    document = copy.deepcopy(POOL[0])
    order = document["province_order"]
    order[-1], order[-2] = order[-2], order[-1]
    _refused(document, "province_order")


# ---------------------------------------------------------------------------------------
# Position files


def test_position_files_are_read_bounded_and_named(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(POOL[3]), encoding="utf-8")
    assert state_to_json(read_position(good, COMPONENTS)) == POOL[3]
    attacks = {
        "deep.json": b"[" * 100_000,
        "bad.json": b'{"format": "\xff"}',
        "nan.json": b'{"visit": NaN}',
        "huge.json": b'{"visit": ' + b"9" * 5000 + b"}",
        "surrogate.json": b'{"format": "\\udc00"}',
    }
    for name, data in attacks.items():
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(StateFormatError, match=rf"^{re.escape(str(path))}: "):
            read_position(path, COMPONENTS)
    document = copy.deepcopy(POOL[3])
    document["visit"] = 13
    path = tmp_path / "visit.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(StateFormatError, match=rf"^{re.escape(str(path))}: visit: "):
        read_position(path, COMPONENTS)
