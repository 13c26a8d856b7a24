"""The pictures of a position (``position_svg``, ``position_text``) show every public fact.

Positions come from seeded games of 3, 4 and 5 players between the built-in players;
what each picture must show is read from the state's own fields (the display, each
seat's played cards, tiles and hand size, the court), never from the renderer. The SVG's
pieces carry classes (``card display``, ``card played``, ``influence-tile``, ...) so that
they can be counted. Nothing may reach past the edge of the drawing: every text is
measured generously (the widths of DejaVu Sans, one of the widest sans-serif faces), and
every shape's box must lie inside the canvas.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest

from tajmahal.agents import GreedyPlayer, Player, RandomPlayer, play_match
from tajmahal.model import GameState, default_components
from tajmahal.notation import position_svg, position_text
from tajmahal.notation._render import text_width
from tajmahal.records import replay_steps

SVG = "{http://www.w3.org/2000/svg}"


def _states(players: int, seed: int) -> list[GameState]:
    """Every state of a seeded game, the state after setup first."""
    agents: list[Player] = [
        GreedyPlayer(seed) if seat % 2 else RandomPlayer(seed + seat) for seat in range(players)
    ]
    match = play_match(default_components(), agents, seed)
    replayed = replay_steps(match.record, default_components(), "the game")
    return [match.initial, *(step.after for step in replayed)]


GAMES = {(players, seed): _states(players, seed) for players, seed in ((3, 5), (4, 6), (5, 7))}


def _picked(every: int = 23) -> Iterator[tuple[str, GameState]]:
    for (players, seed), states in GAMES.items():
        for index in [*range(0, len(states), every), len(states) - 1]:
            yield f"{players}p-seed{seed}-after-{index}", states[index]


POSITIONS = dict(_picked())


def _classes(node: ET.Element) -> set[str]:
    return set(node.get("class", "").split())


def _with_class(root: ET.Element, *names: str) -> list[ET.Element]:
    return [node for node in root.iter() if set(names) <= _classes(node)]


def _only(root: ET.Element, *names: str) -> ET.Element:
    found = _with_class(root, *names)
    assert len(found) == 1, (names, len(found))
    return found[0]


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_the_svg_shows_every_public_fact(name: str) -> None:
    state = POSITIONS[name]
    components = state.config.components
    root = ET.fromstring(position_svg(state, None, name))
    # The board: every province by name, every bonus tile still on it, every palace.
    provinces = sorted(node.text or "" for node in _with_class(root, "province"))
    assert provinces == sorted(components.board.provinces)
    assert len(_with_class(root, "bonus", "on-board")) == len(state.bonus_on_board)
    drawn = sorted(
        (int(seat.removeprefix("seat-")), node.findtext(f"{SVG}title", "").split(":")[0])
        for node in _with_class(root, "palace")
        for seat in _classes(node)
        if seat.startswith("seat-")
    )
    assert drawn == sorted((palace.seat, palace.city) for palace in state.palaces)
    assert len(_with_class(root, "crown-mark")) == sum(p.crowned for p in state.palaces)
    # The court, the display and the special cards nobody holds.
    table = _only(root, "table")
    assert len(_with_class(table, "influence-tile")) == len(state.court_influence)
    assert len(_with_class(table, "crown")) == (1 if state.crown_in_court else 0)
    court_tiles = _with_class(table, "province-tile")
    assert len(court_tiles) == (0 if state.court_province_tile is None else 1)
    assert len(_with_class(table, "card", "display")) == len(state.display)
    assert len(_with_class(table, "card", "nobody")) == len(state.specials_on_table)
    # Each seat: score, hand size, played cards, special cards held, tiles won.
    for seat, player in enumerate(state.players):
        group = _only(root, "seat", f"seat-{seat}")
        words = " ".join(node.text or "" for node in group.iter(f"{SVG}text"))
        assert re.search(rf"\b{player.score} points?\b", words)
        assert re.search(rf"\bhand {len(player.hand)} cards?\b", words)
        assert ("withdrawn" in words) == player.withdrawn
        played = [node.find(f"{SVG}title") for node in _with_class(group, "card", "played")]
        assert [(node.text or "").split()[0] for node in played if node is not None] == list(
            player.played
        )
        held = [card for card in player.hand if card in components.specials]
        assert len(_with_class(group, "card", "held")) == len(held)
        assert len(_with_class(group, "influence-tile")) == len(player.influence)
        assert len(_with_class(group, "province-tile")) == len(player.province_tiles)
        assert len(_with_class(group, "bonus")) == len(player.goods_tiles)
    legend = " ".join(node.text or "" for node in _only(root, "legend").iter(f"{SVG}text"))
    for words in ("fortress", "crown palace", "bonus tile", "influence tile", "E elephant"):
        assert words in legend


def _size(root: ET.Element) -> tuple[float, float]:
    _, _, width, height = (float(n) for n in root.get("viewBox", "").split())
    return width, height


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_nothing_reaches_past_the_edge(name: str) -> None:
    root = ET.fromstring(position_svg(POSITIONS[name], ["a-long-player-name"] * 5, name))
    width, height = _size(root)
    for node in root.iter(f"{SVG}text"):
        size = float(node.get("font-size", "0"))
        x, y = float(node.get("x", "0")), float(node.get("y", "0"))
        long = text_width(node.text or "", size, bold=node.get("font-weight") == "bold")
        left = {"start": x, "middle": x - long / 2, "end": x - long}[
            node.get("text-anchor", "start")
        ]
        assert left >= 0 and left + long <= width, (node.text, left, long, width)
        assert size <= y <= height, (node.text, y, height)
    for node in root.iter(f"{SVG}rect"):
        x, y = float(node.get("x", "0")), float(node.get("y", "0"))
        assert x >= 0 and x + float(node.get("width", "0")) <= width + 0.05
        assert y >= 0 and y + float(node.get("height", "0")) <= height + 0.05
    for node in root.iter(f"{SVG}circle"):
        cx, cy, r = (float(node.get(key, "0")) for key in ("cx", "cy", "r"))
        assert r <= cx <= width - r and r <= cy <= height - r


def test_the_svg_scales_to_a_narrow_window() -> None:
    root = ET.fromstring(position_svg(GAMES[(4, 6)][0]))
    assert "max-width:100%" in root.get("style", "")
    width, _ = _size(root)
    assert float(root.get("width", "0")) == pytest.approx(width, abs=1)


def _busy(players: int, seed: int) -> GameState:
    """The first state of a game with cards played, a display, tiles in the court and
    a seat holding influence tiles: a position with something in every part."""
    return next(
        state
        for state in GAMES[(players, seed)]
        if any(p.played for p in state.players)
        and state.display
        and state.court_influence
        and any(p.influence for p in state.players)
    )


def _hidden(state: GameState, viewer: int | None) -> set[str]:
    """The cards in hands that ``viewer`` may not see (special cards are public)."""
    specials = state.config.components.specials
    return {
        card
        for seat, player in enumerate(state.players)
        if seat != viewer
        for card in player.hand
        if card not in specials
    }


@pytest.mark.parametrize(("players", "seed"), sorted(GAMES))
def test_the_text_shows_the_same_facts(players: int, seed: int) -> None:
    state = _busy(players, seed)
    text = position_text(state)
    display = text.split("Display: ", 1)[1].split("\n", 1)[0]
    assert re.findall(r"[\w-]+(?= \()", display) == list(state.display)
    court = text.split("Court: ", 1)[1].split("\n", 1)[0]
    for symbol in state.court_influence:
        assert f"{symbol.value} tile" in court
    assert ("the crown" in court) == state.crown_in_court
    for seat, player in enumerate(state.players):
        block = text.split(f"\nP{seat}: ", 1)[1].split("\nP", 1)[0]
        assert f"hand: {len(player.hand)} card" in block
        played = block.split("played: ", 1)[1].split("\n", 1)[0]
        assert re.findall(r"[\w-]+(?= \()", played) == list(player.played)
        tiles = block.split("influence tiles: ", 1)[1].split(";", 1)[0]
        assert tiles.split(", ") == [s.value for s in player.influence] or (
            tiles == "-" and not player.influence
        )
    for card in _hidden(state, None):
        assert not re.search(rf"\b{card}\b", text)


def test_a_viewer_sees_its_own_hand_and_no_other() -> None:
    state = _busy(4, 6)
    seat = 2
    text = position_text(state, viewer=seat)
    assert text.count("your hand: ") == 1
    own = text.split("your hand: ", 1)[1].split("\n", 1)[0]
    assert re.findall(r"[\w-]+(?= \()", own) == list(state.players[seat].hand)
    assert text.split(f"\nP{seat}: ", 1)[1].split("\nP", 1)[0].count("your hand: ") == 1
    for card in _hidden(state, seat):
        assert not re.search(rf"\b{card}\b", text)


@pytest.mark.parametrize(("players", "seed"), sorted(GAMES))
def test_the_svg_hides_the_hands(players: int, seed: int) -> None:
    state = _busy(players, seed)
    picture = position_svg(state)
    for card in _hidden(state, None):
        assert not re.search(rf"\b{card}\b", picture)
