"""The readable, visit-by-visit account of a game (what ``tajmahal play`` prints).

Every line is rendered from the fields of an :class:`~tajmahal.model.Event`: the
engine records facts, this module words them. Players are named ``P<seat>`` (with the
player's name when known) everywhere, including the rivals of a majority.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tajmahal.model import Components, Event, EventKind, GameState, PointSource, Symbol
from tajmahal.notation import (
    bonus_label,
    card_label,
    count_of,
    province_tile_label,
    symbol_name,
)
from tajmahal.records._replay import ReplayedStep


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
        f"{city}={tile} ({bonus_label(components, tile)})" for city, tile in state.bonus_on_board
    )
    lines.append(f"Bonus tiles: {bonus}")
    lines.append(_visit_header(state))
    return lines


def _visit_header(state: GameState) -> str:
    tile = state.court_province_tile
    components = state.config.components
    won = f"{province_tile_label(components, tile)}" if tile is not None else "no province tile"
    return (
        f"\n== Visit {state.visit}: province {state.current_province}, {won}; start player "
        f"P{state.start_player}; display: {', '.join(state.display) or 'empty'}"
    )


def _totals(state: GameState, names: Sequence[str] | None) -> str:
    """Every seat's score after the visit before ``state``'s (the running totals)."""
    scores = ", ".join(
        f"{player_label(seat, names)} {player.score}" for seat, player in enumerate(state.players)
    )
    return f"  Scores after visit {state.visit - 1}: {scores}"


def event_lines(
    events: Iterable[Event], names: Sequence[str] | None, after: GameState
) -> list[str]:
    """One line per event, rendered from its fields; a visit header when a visit begins.

    Display draws are shown in the visit header; cards drawn into a hand stay hidden;
    a force the player had no symbol of is left out unless nobody was left to compare
    with (then the zero-symbols ruling decided it).
    """
    components = after.config.components
    lines = []
    for event in events:
        if event.kind is EventKind.VISIT:
            lines.append(_totals(after, names))
            lines.append(_visit_header(after))
            continue
        text = _event_text(event, components, names)
        if text is None:
            continue
        who = player_label(event.seat, names) + " " if event.seat is not None else ""
        points = f"  [+{event.points}]" if event.points else ""
        lines.append(f"  {who}{text}{points}")
    return lines


STEP_COLUMN = 6
"""Width of the column that holds a step's number before its first account line."""


def numbered_lines(
    number: int, lines: Sequence[str], scores: Sequence[int] | None = None
) -> list[str]:
    """The account ``lines`` of step ``number`` (from :func:`event_lines`) with the
    number in a column before the step's first line (step N is the N-th step of the
    record: ``docs/trace-format.md``, "Step numbers", as ``tajmahal show --step N``
    counts), the other lines indented to match; a visit header stays as it is. With
    ``scores``, a last line gives every seat's total after the step (the running
    totals, for a step that scored)."""
    numbered: list[str] = []
    last = 0  # after the step's last line that is not a visit header
    for line in lines:
        if line.lstrip("\n").startswith("=="):
            numbered.append(line)
            continue
        label = "" if last else f"{number:>{STEP_COLUMN - 2}}"
        numbered.append(f"{label:<{STEP_COLUMN}}{line.strip()}")
        last = len(numbered)
    if not last:  # only a visit header to show: the number still shows, first
        numbered.insert(0, f"{number:>{STEP_COLUMN - 2}}")
        last = 1
    if scores is not None:
        totals = f"{'':<{STEP_COLUMN}}scores now {', '.join(map(str, scores))}"
        numbered.insert(last, totals)
    return numbered


def step_account(replayed: ReplayedStep, names: Sequence[str] | None) -> list[str]:
    """The account of one replayed step as ``tajmahal replay`` prints it: its
    :func:`event_lines`, numbered (:func:`numbered_lines`), with the running totals when
    the step scored (a step that ends a visit gives them by seat in its "Scores after
    visit" line instead, so they are not repeated)."""
    after = replayed.after
    ends_visit = any(event.kind is EventKind.VISIT for event in replayed.events)
    scored = after.scores if after.scores != replayed.before.scores and not ends_visit else None
    return numbered_lines(replayed.number, event_lines(replayed.events, names, after), scored)


def _cards(components: Components, cards: Iterable[str]) -> str:
    return ", ".join(card_label(components, card) for card in cards)


def _seats(seats: Iterable[int], names: Sequence[str] | None) -> str:
    return " and ".join(player_label(seat, names) for seat in seats)


def _force(symbol: Symbol | None, tiles: tuple[str, ...], components: Components) -> str:
    if symbol is Symbol.MOGUL:
        return "the crown"
    if symbol is Symbol.ELEPHANT:
        if tiles and tiles[0] in components.province_tiles:
            return province_tile_label(components, tiles[0]).split(" (")[0]
        return "the province tile"
    return f"the {symbol.value if symbol else '?'} influence tile"


def _symbols(count: int, symbol: Symbol | None) -> str:
    """``1 monk``, ``2 princesses``, ``3 Grand Moguls``."""
    if symbol is None:
        return count_of(count, "symbol")
    return f"1 {symbol_name(symbol)}" if count == 1 else symbol_name(symbol, count)


def _majority_text(event: Event, names: Sequence[str] | None, components: Components) -> str | None:
    """Why a force was won or not: the compared counts, the tie and its seats."""
    own, others = event.counts[0], event.counts[1:]
    rivals = list(zip(event.seats, others, strict=True))
    force = _force(event.symbol, event.tiles, components)
    against = ", ".join(f"{player_label(seat, names)} {count}" for seat, count in rivals)
    if event.kind is EventKind.WIN:
        versus = f"against {against}" if rivals else "with nobody left to compare with"
        broke = (
            "; the tie ended when a tied player withdrew"
            if "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL" in event.clauses
            else ""
        )
        return f"wins {force} with {_symbols(own, event.symbol)} {versus}{broke}"
    best = max(others, default=0)
    if own == 0:
        if "RUL.MAJORITY.ZERO_SYMBOLS" not in event.clauses:
            return None
        name = symbol_name(event.symbol) if event.symbol is not None else "symbol"
        return f"wins nothing for {force}: no {name}, and zero never wins"
    if best == own:
        tied = [seat for seat, count in rivals if count == own]
        return (
            f"wins nothing for {force}: tied with {_seats(tied, names)} at {own} "
            "(a tie is no majority)"
        )
    ahead = [f"{player_label(seat, names)} {count}" for seat, count in rivals if count > own]
    return f"wins nothing for {force}: {own} against {', '.join(ahead)}"


_DRAW_REASONS = {
    "TM.SCORE.BONUS.CARD": "a card bonus tile",
    "TM.WITHDRAW.WITHOUT_PLAYING": "withdrawing without playing",
    "TM.VISIT.NEXT.DISPLAY": "the display",
}


def _draw_reason(event: Event) -> str:
    return next((_DRAW_REASONS[c] for c in event.clauses if c in _DRAW_REASONS), "draw")


def _event_text(event: Event, components: Components, names: Sequence[str] | None) -> str | None:
    kind = event.kind
    if kind is EventKind.PLAY:
        return "plays " + " and ".join(card_label(components, card) for card in event.cards)
    if kind is EventKind.WITHDRAW:
        text = (
            "withdraws"
            if "TM.WITHDRAW.ONCE_PER_VISIT" in event.clauses
            else ("withdraws without having played (wins nothing)")
        )
        return text + ("" if event.seats else ", the last player in the visit")
    if kind in (EventKind.WIN, EventKind.NO_MAJORITY):
        return _majority_text(event, names, components)
    if kind is EventKind.PALACE:
        shared = (
            f", in the same city as {_seats(event.seats, names)}'s crown palace"
            if event.seats
            else ""
        )
        return f"places a palace in {event.cities[0]}{shared}"
    if kind is EventKind.CROWN:
        text = f"places the crown palace in {event.cities[0]}"
        if event.seats:
            text += f", in the same city as {_seats(event.seats, names)}'s palace"
        if event.tiles:
            text += f" (bonus tile {event.tiles[0]} stays: a crown palace takes no bonus)"
        return text
    if kind is EventKind.BONUS:
        tile = event.tiles[0]
        where = f"bonus tile {tile} in {event.cities[0]}"
        if event.source is None:
            return f"takes {where} ({bonus_label(components, tile)}): draws the top card"
        return f"takes {where} ({bonus_label(components, tile)}) and scores {event.points}"
    if kind is EventKind.SCORE:
        if event.source is PointSource.PLUS_TWO:
            return f"scores 2 for the +2 card {event.cards[0]}"
        if event.source is PointSource.PROVINCE_TILE:
            return f"scores {event.points} for {province_tile_label(components, event.tiles[0])}"
        chained = event.points - 1
        if not chained:
            return f"scores {event.points} for palaces (the current province)"
        return (
            f"scores {event.points} for palaces (the current province and "
            f"{count_of(chained, 'province')} joined to it by a chain)"
        )
    if kind is EventKind.DISCARD:
        return f"discards {_cards(components, event.cards)}"
    if kind is EventKind.TAKE:
        if "TM.SPECIAL.RETURN_TO_HAND" in event.clauses:
            return f"takes {', '.join(event.cards)} back into hand (special cards are kept)"
        last = (
            " (the last player takes what remains)"
            if ("TM.WITHDRAW.LAST_TAKES_ONE" in event.clauses)
            else ""
        )
        return f"takes {_cards(components, event.cards)} from the display{last}"
    if kind is EventKind.DRAW:
        if event.counts:
            return (
                f"cannot draw {count_of(event.counts[0], 'card')} for {_draw_reason(event)}: "
                "deck and discard pile are empty"
            )
        if event.seat is None:
            return None  # the display is shown in the visit header
        return f"draws {count_of(len(event.cards), 'card')} from the deck for {_draw_reason(event)}"
    if kind is EventKind.RESHUFFLE:
        return f"the discard pile ({count_of(event.counts[0], 'card')}) is shuffled into a new deck"
    if kind is EventKind.EXCHANGE:
        pair = f"two {event.symbol.value if event.symbol else '?'} influence tiles"
        if "TM.SPECIAL.ALREADY_HELD" in event.clauses:
            return f"returns {pair} and keeps {event.cards[0]} (already held)"
        source = f"from {_seats(event.seats, names)}" if event.seats else "from the table"
        return f"exchanges {pair} for {event.cards[0]} {source}"
    if kind is EventKind.FORFEIT:
        if event.symbol is Symbol.MOGUL:
            return "has no legal city for the crown palace; it is not placed"
        owed = count_of(event.counts[0], "palace")
        placed = "it is" if event.counts[0] == 1 else "they are"
        return f"has no legal city for {owed}; {placed} not placed"
    if kind is EventKind.UNWON:
        tile = event.tiles[0]
        named = province_tile_label(components, tile) if tile in components.province_tiles else tile
        return f"nobody won {named}; it leaves the game"
    if kind is EventKind.HAND:
        specials, whites, largest = event.counts
        return (
            f"scores {event.points} for the cards in hand: {count_of(specials, 'special card')}, "
            f"{count_of(whites, 'white card')}, {count_of(largest, 'card')} of the largest colour"
        )
    if kind is EventKind.END:
        won = "winner" if len(event.seats) == 1 else "winners (tied)"
        return f"game over; {won}: {_seats(event.seats, names)} with {max(event.counts)} points"
    return None


def closing_lines(state: GameState, names: Sequence[str] | None) -> list[str]:
    """The final scores and the winner, or the winners of a tie."""
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
