"""Step invariants of what is held where: cards, tiles, palaces, the crown, scores.

Each is written from the rulebooks again, apart from the engine (see
:mod:`tajmahal.testing.invariants`); a part of ``after`` that is the very same object as (or
equal to) the part of an already checked ``before`` is not examined again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from tajmahal.model import (
    INFLUENCE_SYMBOLS,
    INFLUENCE_TILES_PER_KIND,
    Components,
    PlaceCrown,
    Symbol,
)
from tajmahal.notation import count_of
from tajmahal.testing.invariants._model import Transition


def _all_cards(components: Components) -> tuple[frozenset[str], int]:
    cards = frozenset(components.cards) | frozenset(components.specials)
    return cards, len(cards)


_CARDS_CACHE: dict[str, tuple[frozenset[str], int]] = {}
_FORTRESSES: dict[str, frozenset[str]] = {}


def _fortresses(components: Components) -> frozenset[str]:
    found = _FORTRESSES.get(components.digest)
    if found is None:
        found = _FORTRESSES[components.digest] = frozenset(components.board.fortresses)
    return found


def cards_conserved(step: Transition) -> Iterable[str]:
    """Every card of the component set lies in exactly one place: a hand, the cards played
    this visit, the deck, the discard pile, the display, or (special cards) the table."""
    state = step.after
    if step.action is not None and _cards_moved_within(step):
        return
    components = state.config.components
    known = _CARDS_CACHE.get(components.digest)
    if known is None:
        known = _CARDS_CACHE[components.digest] = _all_cards(components)
    cards, total = known
    groups: list[tuple[str, ...]] = [state.deck, state.discard, state.display]
    groups.append(state.specials_on_table)
    for player in state.players:
        groups.append(player.hand)
        groups.append(player.played)
    found = set().union(*groups)
    if len(found) == total == sum(map(len, groups)) and found <= cards:
        return
    places = [card for group in groups for card in group]
    counts = Counter(places)
    twice = sorted(card for card, count in counts.items() if count > 1)
    missing = sorted(cards - counts.keys())
    unknown = sorted(counts.keys() - cards)
    if twice:
        yield f"cards in two places: {twice[:5]}"
    if missing:
        yield f"cards nowhere: {missing[:5]}"
    if unknown:
        yield f"unknown cards: {unknown[:5]}"


def _cards_moved_within(step: Transition) -> bool:
    """True when the cards of the places that changed in the step (by identity: the
    engine keeps untouched places as the very same tuples) are, as a multiset, the
    cards those places held before: cards only moved, so an already checked ``before``
    leaves every card in exactly one place ``after``."""
    before, after = step.before, step.after
    old: list[str] = []
    new: list[str] = []
    for name in ("deck", "discard", "display", "specials_on_table"):
        was, now = getattr(before, name), getattr(after, name)
        if was is not now:
            old.extend(was)
            new.extend(now)
    for seat in step.changed:
        was_player, now_player = before.players[seat], after.players[seat]
        old.extend(was_player.hand)
        old.extend(was_player.played)
        new.extend(now_player.hand)
        new.extend(now_player.played)
    return len(old) == len(new) and sorted(old) == sorted(new)


def influence_tiles(step: Transition) -> Iterable[str]:
    """Six influence tiles of each kind: those held plus those in the court never exceed
    six, and the court holds at most one of each kind."""
    state = step.after
    if step.action is not None and step.before.court_influence == state.court_influence:
        old = step.before.players
        if all(old[seat].influence == state.players[seat].influence for seat in step.changed):
            return
    court = Counter(state.court_influence)
    holdings: Counter[Symbol] = Counter()
    for player in state.players:
        holdings.update(player.influence)
    for symbol in INFLUENCE_SYMBOLS:
        held = holdings[symbol]
        if court[symbol] > 1:
            yield f"the court holds {court[symbol]} {symbol.value} tiles"
        if held + court[symbol] > INFLUENCE_TILES_PER_KIND:
            yield f"{held} {symbol.value} tiles held and {court[symbol]} in the court (of six)"
    for symbol in court:
        if symbol not in INFLUENCE_SYMBOLS:
            yield f"the court holds a {symbol.value} influence tile, which does not exist"


def province_tiles(step: Transition) -> Iterable[str]:
    """Each province tile is won at most once, by one player, in its own visit; the court
    shows only the tile of the current visit."""
    state = step.after
    if step.unchanged("court_province_tile", "visit"):
        old = step.before.players
        if all(
            old[seat].province_tiles == state.players[seat].province_tiles for seat in step.changed
        ):
            return
    components = state.config.components
    won = [tile for player in state.players for tile in player.province_tiles]
    twice = sorted(tile for tile, count in Counter(won).items() if count > 1)
    if twice:
        yield f"province tiles won twice: {twice}"
    for tile in won:
        if components.province_tiles[tile].number > state.visit:
            yield f"province tile {tile} won before its visit (now visit {state.visit})"
    court = state.court_province_tile
    if court is not None:
        if court in won:
            yield f"province tile {court} is both in the court and won"
        if components.province_tiles[court].number != state.visit:
            yield f"the court shows province tile {court} in visit {state.visit}"


def bonus_tiles(step: Transition) -> Iterable[str]:
    """Every fortress keeps its bonus tile until a normal palace is built there, which takes
    it; a crown palace takes none; goods tiles kept are each held once."""
    state = step.after
    if step.unchanged("bonus_on_board", "palaces"):
        old = step.before.players
        if all(old[seat].goods_tiles == state.players[seat].goods_tiles for seat in step.changed):
            return
    fortresses = _fortresses(state.config.components)
    on_board = dict(state.bonus_on_board)
    normal = {palace.city for palace in state.palaces if not palace.crowned}
    tiles = list(on_board.values())
    goods = [tile for player in state.players for tile in player.goods_tiles]
    for tile, count in Counter(tiles + goods).items():
        if count > 1:
            yield f"bonus tile {tile} is in {count} places"
    for city in on_board:
        if city not in fortresses:
            yield f"a bonus tile lies on {city}, which is not a fortress"
        elif city in normal:
            yield f"a palace stands in {city} but its bonus tile is still on the board"
    for city in fortresses:
        if city not in on_board and city not in normal:
            yield f"the bonus tile of {city} is gone but no palace was built there"


def palaces_placed(step: Transition) -> Iterable[str]:
    """Palaces stand only in provinces visited so far, at most two per city and never two
    normal palaces in one city; one crown palace at most per province (the crown is won
    at most once per visit, and each province is visited once)."""
    state = step.after
    if step.unchanged("palaces", "visit"):
        return
    board = state.config.components.board
    visited = set(state.province_order[: state.visit])
    per_city: dict[str, list[bool]] = {}
    crowns: Counter[str] = Counter()
    for palace in state.palaces:
        province = board.cities[palace.city].province
        if province not in visited:
            yield f"a palace of P{palace.seat} in {palace.city} (unvisited {province})"
        per_city.setdefault(palace.city, []).append(palace.crowned)
        if palace.crowned:
            crowns[province] += 1
    for city, crowned in per_city.items():
        if len(crowned) > 2:
            yield f"{len(crowned)} palaces in {city}"
        if crowned.count(False) > 1:
            yield f"two normal palaces in {city}"
    for province, count in crowns.items():
        if count > 1:
            yield f"{count} crown palaces in province {province}"


def crown_once_per_visit(step: Transition) -> Iterable[str]:
    """The crown palace is placed only by a ``crown`` action, one per step; the crown comes
    back to the court only when a new visit begins."""
    before, after = step.before, step.after
    if step.action is None:
        return
    if after.crown_in_court and not before.crown_in_court and after.visit == before.visit:
        yield "the crown returned to the court in the middle of a visit"
    if step.unchanged("palaces"):
        return
    added = sum(p.crowned for p in after.palaces) - sum(p.crowned for p in before.palaces)
    if added and not isinstance(step.action, PlaceCrown):
        yield f"{count_of(added, 'crown palace')} appeared on a {step.action} step"
    if added > 1:
        yield f"{added} crown palaces placed in one step"


def scores_never_decrease(step: Transition) -> Iterable[str]:
    """Points are only ever gained: no score goes down, none is negative."""
    if step.action is None:
        return
    before, after = step.before.players, step.after.players
    for seat in step.changed:
        old, new = before[seat].score, after[seat].score
        if new < old:
            yield f"P{seat}'s score went down from {old} to {new}"
        if new < 0:
            yield f"P{seat}'s score is negative ({new})"
