"""Step invariants of turns: majorities, colours, plays, the table, the legal actions."""

from __future__ import annotations

from collections.abc import Iterable

from tajmahal.model import (
    ALL_SYMBOLS,
    DISPLAY_SIZES,
    INFLUENCE_SYMBOLS,
    VISITS,
    CardColour,
    Components,
    GameState,
    MajorityScope,
    PlaceCrown,
    PlacePalace,
    Play,
    SpecialKind,
    Step,
    Symbol,
    Withdraw,
)
from tajmahal.notation import count_of
from tajmahal.testing.invariants._model import Transition


def _counts(components: Components, cards: Iterable[str]) -> dict[Symbol, int]:
    counts = dict.fromkeys(ALL_SYMBOLS, 0)
    for card in cards:
        for symbol in components.card_symbols(card):
            counts[symbol] += 1
    return counts


def _expected_wins(before: GameState, seat: int) -> set[Symbol]:
    """The forces the player withdrawing in ``before`` must win, worked out from the rules
    alone: strictly more symbols than every compared player, at least one."""
    components = before.config.components
    scope = before.config.rules.majority_scope
    own = _counts(components, before.players[seat].played)
    rivals: list[dict[Symbol, int]] = []
    for other, player in enumerate(before.players):
        if other == seat:
            continue
        if not player.withdrawn:
            rivals.append(_counts(components, player.played))
        elif scope is MajorityScope.ALL and player.withdrawn_counts is not None:
            rivals.append(dict(zip(ALL_SYMBOLS, player.withdrawn_counts, strict=True)))
    available = set(before.court_influence)
    if before.crown_in_court:
        available.add(Symbol.MOGUL)
    if before.court_province_tile is not None:
        available.add(Symbol.ELEPHANT)
    return {
        symbol
        for symbol in available
        if own[symbol] >= 1 and all(own[symbol] > rival[symbol] for rival in rivals)
    }


def _forces_won(before: GameState, after: GameState, seat: int) -> set[Symbol] | None:
    """The forces the withdrawal took from the court, or None when the visit ended in the
    same step (then only the holdings tell, see :func:`majority_awards`)."""
    if after.visit != before.visit or after.is_over:
        return None
    won = set(before.court_influence) - set(after.court_influence)
    if before.crown_in_court and not after.crown_in_court:
        won.add(Symbol.MOGUL)
    if before.court_province_tile is not None and after.court_province_tile is None:
        won.add(Symbol.ELEPHANT)
    return won


def majority_awards(step: Transition) -> Iterable[str]:
    """A withdrawing player wins exactly the forces still in the court for which they show
    strictly more symbols than every player compared (those still in the visit, or every
    player of the visit under ``majority_scope=all``), and at least one; nobody else
    wins anything, and no force is won twice in a visit."""
    before, after = step.before, step.after
    if step.action is None:
        return
    withdrawing = before.step is Step.PLAY and isinstance(step.action, Withdraw)
    if not withdrawing:
        if after.visit == before.visit and not after.is_over:
            if step.unchanged("court_influence", "court_province_tile", "crown_in_court"):
                return
            gained = set(before.court_influence) - set(after.court_influence)
            if gained:
                yield f"influence tiles left the court without a withdrawal: {_names(gained)}"
            if before.court_province_tile is not None and after.court_province_tile is None:
                yield "the province tile left the court without a withdrawal"
            if before.crown_in_court and not after.crown_in_court:
                yield "the crown left the court without a withdrawal"
        return
    seat = before.to_move
    assert seat is not None
    expected = _expected_wins(before, seat)
    won = _forces_won(before, after, seat)
    if won is not None:
        if won != expected:
            yield (
                f"P{seat} withdrew and won {_names(won)}; the majorities give {_names(expected)}"
            )
        return
    # The visit ended with this withdrawal: compare holdings (an exchange of two
    # identical tiles for a special card may have returned two of a kind).
    old, new = before.players[seat], after.players[seat]
    for symbol in INFLUENCE_SYMBOLS:
        gain = new.influence.count(symbol) - old.influence.count(symbol)
        want = 1 if symbol in expected else 0
        if gain != want and not (gain == want - 2 and old.influence.count(symbol) + want >= 2):
            yield (
                f"P{seat} withdrew and holds {gain:+d} {symbol.value} "
                f"{'influence tile' if abs(gain) == 1 else 'influence tiles'}; the "
                f"majorities give {want}"
            )
    tiles = len(new.province_tiles) - len(old.province_tiles)
    if tiles != (Symbol.ELEPHANT in expected):
        yield (
            f"P{seat} withdrew and won {count_of(tiles, 'province tile')}; the majorities give "
            + ("one" if Symbol.ELEPHANT in expected else "none")
        )


def _names(symbols: Iterable[Symbol]) -> str:
    return "{" + ", ".join(sorted(symbol.value for symbol in symbols)) + "}"


def colour_lock(step: Transition) -> Iterable[str]:
    """Within a visit a player plays one colour only, unless the colour-change card was
    played with a card of another colour (then at most two colours)."""
    state = step.after
    components = state.config.components
    colour_change = components.special_of_kind(SpecialKind.COLOUR_CHANGE).id
    for seat in step.changed:
        player = state.players[seat]
        colours = {
            components.cards[card].colour
            for card in player.played
            if card in components.cards and components.cards[card].colour is not CardColour.WHITE
        }
        allowed = 2 if colour_change in player.played else 1
        if len(colours) > allowed:
            yield f"P{seat} played {len(colours)} colours in one visit: {player.played}"


def plays_are_final(step: Transition) -> Iterable[str]:
    """Cards played stay on the table until their player withdraws (no taking back): a
    play adds one coloured card and at most one white or special card to the mover's
    cards, and leaves everyone else's untouched."""
    before, after = step.before, step.after
    if step.action is None or after.visit != before.visit or after.is_over:
        return
    components = before.config.components
    mover = before.to_move if isinstance(step.action, Play) else None
    seats = step.changed if mover is None or mover in step.changed else (*step.changed, mover)
    for seat in seats:
        old, new = before.players[seat], after.players[seat]
        if new.withdrawn or old.withdrawn:
            continue
        if new.played[: len(old.played)] != old.played:
            yield f"P{seat}'s played cards changed from {old.played} to {new.played}"
        added = new.played[len(old.played) :]
        if seat == before.to_move and isinstance(step.action, Play) and before.step is Step.PLAY:
            coloured = [
                card
                for card in added
                if card in components.cards
                and components.cards[card].colour is not CardColour.WHITE
            ]
            if len(coloured) != 1 or not 1 <= len(added) <= 2:
                yield f"P{seat}'s play put {list(added)} on the table"
        elif added:
            yield f"P{seat} has new cards on the table without playing: {list(added)}"


def table_and_display(step: Transition) -> Iterable[str]:
    """A player who has finished withdrawing has no cards on the table; the display never
    holds more cards than its size for the player count; the game ends after the twelfth
    visit and only then."""
    state = step.after
    resolving = state.withdrawal.seat if state.withdrawal is not None else None
    for seat, player in enumerate(state.players):
        if player.withdrawn and seat != resolving and player.played:
            yield f"P{seat} withdrew but still has {list(player.played)} on the table"
    size = DISPLAY_SIZES[state.config.players]
    if len(state.display) > size:
        yield f"the display holds {len(state.display)} cards (at most {size})"
    if not 1 <= state.visit <= VISITS:
        yield f"visit {state.visit} does not exist"
    if state.is_over and state.visit != VISITS:
        yield f"the game ended in visit {state.visit}"


def legal_actions_well_formed(step: Transition) -> Iterable[str]:
    """At a decision the legal actions are sorted by canonical string, unique and never
    empty; the action applied was one of them. At a chance step there are none."""
    before, legal = step.before, step.legal
    if step.action is None:
        return
    if before.is_chance:
        if legal:
            yield f"{count_of(len(legal), 'legal action')} offered at a chance step"
        return
    strings = list(map(str, legal))
    if not strings:
        yield f"no legal action at a {before.step.value} step"
    if strings != sorted(strings) or len(set(strings)) != len(strings):
        yield "the legal actions are not sorted and unique"
    # The very same object first (a player picks from the tuple), then equality.
    if id(step.action) not in map(id, legal) and step.action not in legal:
        yield f"{step.action} was applied but is not among the legal actions"
    if before.step is Step.PLACE and any(
        not isinstance(action, PlacePalace | PlaceCrown) for action in legal
    ):
        yield "a placement step offers something other than a palace or the crown"
