"""The readable, visit-by-visit account of a game (what ``tajmahal play`` prints)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tajmahal.components import Components
from tajmahal.events import Event
from tajmahal.state import GameState


def player_label(seat: int, names: Sequence[str] | None) -> str:
    """``P2`` or ``P2 (greedy)``."""
    if names is not None and seat < len(names):
        return f"P{seat} ({names[seat]})"
    return f"P{seat}"


def opening_lines(state: GameState, names: Sequence[str] | None) -> list[str]:
    """The table after setup and the header of visit 1."""
    components: Components = state.config.components
    lines = [
        f"Taj Mahal: {state.players_count} players, components "
        f"{components.name}, rules: "
        + ", ".join(f"{k}={v}" for k, v in state.config.rules.to_json().items())
    ]
    order = ", ".join(
        f"{number}:{province}" for number, province in enumerate(state.province_order, start=1)
    )
    lines.append(f"Visit order (tile: province): {order}")
    bonus = ", ".join(
        f"{city}={tile} ({_bonus_label(components, tile)})" for city, tile in state.bonus_on_board
    )
    lines.append(f"Bonus tiles: {bonus}")
    lines.append(_visit_header(state))
    return lines


def _bonus_label(components: Components, tile_id: str) -> str:
    tile = components.bonus_tiles[tile_id]
    if tile.good is not None:
        return tile.good.value
    return {"taj-mahal": "4 points", "points": "2 points", "card": "a card"}[tile.kind.value]


def _visit_header(state: GameState) -> str:
    tile = state.court_province_tile
    goods = ""
    if tile is not None:
        goods = (
            " ("
            + ", ".join(g.value for g in state.config.components.province_tiles[tile].goods)
            + ")"
        )
    return (
        f"\n== Visit {state.visit}: province {state.current_province}, tile {tile}{goods}; "
        f"P{state.start_player} starts; display: {', '.join(state.display)}"
    )


def event_lines(
    events: Iterable[Event], names: Sequence[str] | None, after: GameState
) -> list[str]:
    """One line per event; a visit header when a new visit begins."""
    lines = []
    for event in events:
        if event.kind == "visit":
            lines.append(_visit_header(after))
            continue
        if event.kind == "draw" and event.seat is None:
            continue  # the display is shown in the visit header
        who = player_label(event.seat, names) + " " if event.seat is not None else ""
        points = f"  [+{event.points}]" if event.points else ""
        lines.append(f"  {who}{event.text}{points}")
    return lines


def closing_lines(state: GameState, names: Sequence[str] | None) -> list[str]:
    """The final scores and the winner(s)."""
    lines = ["\n== Final scores"]
    for seat, player in enumerate(state.players):
        lines.append(f"  {player_label(seat, names)}: {player.score}")
    winners = state.winners()
    label = " and ".join(player_label(seat, names) for seat in winners)
    lines.append(
        f"Winner{'s (tied)' if len(winners) > 1 else ''}: {label} with "
        f"{state.players[winners[0]].score} points"
    )
    return lines
