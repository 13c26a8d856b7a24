"""Invariants: what must hold after every step of every game, whatever the players do.

They are the fuzzer's oracle. Each invariant names the clauses (and rulings) it protects
and returns its violations as data (:class:`Violation`), never by raising, so that a
campaign can record, count and shrink them.

Every check here is written from the rulebooks again, apart from the engine: it looks
at the state before and after a step and at the action taken, never at the engine's
internals or at its events. Three tiers, by cost:

``step``
    Cheap checks of one transition (``before``, the legal actions offered, ``action``,
    ``after``); a campaign runs all of them after every step.
``state``
    Costlier checks of one state (a player's view, the serialization round trip); a
    campaign runs them after every step of the games it checks deeply.
``game``
    Checks of a whole game record (it replays to the same states, it verifies).
"""

from __future__ import annotations

import enum
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import cast

import attrs

from tajmahal.actions import Action, PlaceCrown, PlacePalace, Play, Withdraw
from tajmahal.components import Components
from tajmahal.events import Event
from tajmahal.rules import MajorityScope
from tajmahal.serialize import state_from_json, state_to_json
from tajmahal.setup import SetupOutcome
from tajmahal.state import DISPLAY_SIZES, INFLUENCE_TILES_PER_KIND, VISITS, GameState, Step
from tajmahal.symbols import INFLUENCE_SYMBOLS, CardColour, SpecialKind, Symbol
from tajmahal.view import view

__all__ = [
    "GAME_INVARIANTS",
    "INVARIANTS",
    "STATE_INVARIANTS",
    "STEP_INVARIANTS",
    "GameInvariant",
    "Invariant",
    "StateInvariant",
    "StepInvariant",
    "Tier",
    "Transition",
    "Violation",
    "check_game",
    "check_state",
    "check_step",
]


class Tier(enum.Enum):
    """How often a campaign can afford an invariant."""

    STEP = "step"
    """After every step of every game."""
    STATE = "state"
    """After every step of the games checked deeply."""
    GAME = "game"
    """Once per game checked deeply, on its record."""


@attrs.frozen(slots=True)
class Violation:
    """One broken invariant."""

    invariant: str
    """The invariant's name (``cards-conserved`` ...)."""
    clauses: tuple[str, ...]
    """The clauses and rulings the invariant protects."""
    message: str
    """What is wrong, with the values involved."""

    def to_json(self) -> dict[str, object]:
        """A JSON object with the three fields."""
        return {"invariant": self.invariant, "clauses": list(self.clauses), "message": self.message}


@attrs.frozen(slots=True)
class Transition:
    """One step of a game, as the step invariants see it."""

    before: GameState
    """The state the action was applied to."""
    legal: tuple[Action, ...]
    """The legal actions offered in ``before`` (empty at a chance step)."""
    action: Action | None
    """The action applied; None to check the state ``after`` alone (the initial state,
    given as both ``before`` and ``after``)."""
    after: GameState
    """The resulting state."""

    changed: tuple[int, ...] = ()
    """The seats whose holdings are not the very same objects as in ``before`` (all
    seats when ``action`` is None); see :meth:`of`."""

    @classmethod
    def of(
        cls,
        before: GameState,
        legal: tuple[Action, ...],
        action: Action | None,
        after: GameState,
    ) -> Transition:
        """A transition with :attr:`changed` worked out."""
        if action is None:
            changed = tuple(range(after.config.players))
        else:
            pairs = zip(before.players, after.players, strict=True)
            changed = tuple(seat for seat, (old, new) in enumerate(pairs) if old is not new)
        return cls(before, legal, action, after, changed)

    def unchanged(self, *names: str) -> bool:
        """True when these fields of ``after`` equal those of an already checked
        ``before`` (checked by identity first: the engine keeps untouched parts of a state
        as the very same objects)."""
        if self.action is None:
            return False
        before, after = self.before, self.after
        for name in names:
            old, new = getattr(before, name), getattr(after, name)
            if old is not new and old != new:
                return False
        return True


StepCheck = Callable[[Transition], Iterable[str]]
StateCheck = Callable[[GameState], Iterable[str]]
GameCheck = Callable[
    [
        SetupOutcome,
        Sequence[GameState],
        Sequence[Action],
        Sequence[tuple[Event, ...]] | None,
        Sequence[tuple[Action, ...]] | None,
    ],
    Iterable[str],
]


@attrs.frozen(slots=True)
class StepInvariant:
    """An invariant of one transition."""

    name: str
    """Its name in reports and counterexample files."""
    clauses: tuple[str, ...]
    """What it protects."""
    check: StepCheck
    """Yields one message per problem found."""
    tier: Tier = Tier.STEP


@attrs.frozen(slots=True)
class StateInvariant:
    """An invariant of one state (costlier; see :class:`Tier`)."""

    name: str
    """Its name in reports and counterexample files."""
    clauses: tuple[str, ...]
    """What it protects."""
    check: StateCheck
    """Yields one message per problem found."""
    tier: Tier = Tier.STATE


@attrs.frozen(slots=True)
class GameInvariant:
    """An invariant of a whole game: its setup, states (initial first) and actions."""

    name: str
    """Its name in reports and counterexample files."""
    clauses: tuple[str, ...]
    """What it protects."""
    check: GameCheck
    """Yields one message per problem found."""
    tier: Tier = Tier.GAME


Invariant = StepInvariant | StateInvariant | GameInvariant


# ---------------------------------------------------------------------------------------
# Step invariants


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
            yield f"a palace of player {palace.seat} in {palace.city} (unvisited {province})"
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
        yield f"{added} crown palace(s) appeared on a {step.action} step"
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
            yield f"player {seat}'s score went down from {old} to {new}"
        if new < 0:
            yield f"player {seat}'s score is negative ({new})"


def _counts(components: Components, cards: Iterable[str]) -> dict[Symbol, int]:
    counts = [0] * len(_SYMBOLS)
    positions = components.symbol_positions
    for card in cards:
        for index in positions[card]:
            counts[index] += 1
    return dict(zip(_SYMBOLS, counts, strict=True))


_SYMBOLS: tuple[Symbol, ...] = tuple(Symbol)
"""The symbols in canonical order (that of ``Components.symbol_positions``)."""


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
            rivals.append(dict(zip(Symbol, player.withdrawn_counts, strict=True)))
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
                f"player {seat} withdrew and won {_names(won)}; the majorities give "
                f"{_names(expected)}"
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
                f"player {seat} withdrew and holds {gain:+d} {symbol.value} tile(s); the "
                f"majorities give {want}"
            )
    tiles = len(new.province_tiles) - len(old.province_tiles)
    if tiles != (Symbol.ELEPHANT in expected):
        yield f"player {seat} withdrew and won {tiles} province tile(s); the majorities give " + (
            "one" if Symbol.ELEPHANT in expected else "none"
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
            yield f"player {seat} played {len(colours)} colours in one visit: {player.played}"


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
            yield f"player {seat}'s played cards changed from {old.played} to {new.played}"
        added = new.played[len(old.played) :]
        if seat == before.to_move and isinstance(step.action, Play) and before.step is Step.PLAY:
            coloured = [
                card
                for card in added
                if card in components.cards
                and components.cards[card].colour is not CardColour.WHITE
            ]
            if len(coloured) != 1 or not 1 <= len(added) <= 2:
                yield f"player {seat}'s play put {list(added)} on the table"
        elif added:
            yield f"player {seat} has new cards on the table without playing: {list(added)}"


def table_and_display(step: Transition) -> Iterable[str]:
    """A player who has finished withdrawing has no cards on the table; the display never
    holds more cards than its size for the player count; the game ends after the twelfth
    visit and only then."""
    state = step.after
    resolving = state.withdrawal.seat if state.withdrawal is not None else None
    for seat, player in enumerate(state.players):
        if player.withdrawn and seat != resolving and player.played:
            yield f"player {seat} withdrew but still has {list(player.played)} on the table"
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
            yield f"{len(legal)} legal action(s) offered at a chance step"
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


STEP_INVARIANTS: tuple[StepInvariant, ...] = (
    StepInvariant(
        "cards-conserved",
        ("TM.COMP.CARDS.COUNT", "TM.COMP.SPECIALS", "TM.SETUP.SPECIALS.TABLE"),
        cards_conserved,
    ),
    StepInvariant(
        "influence-tiles", ("TM.COMP.INFLUENCE_TILES", "TM.SETUP.COURT.INFLUENCE"), influence_tiles
    ),
    StepInvariant(
        "province-tiles",
        ("TM.COMP.PROVINCE_TILES", "TM.REWARD.ELEPHANT.PROVINCE", "TM.VISIT.UNWON_PROVINCE"),
        province_tiles,
    ),
    StepInvariant(
        "bonus-tiles",
        ("TM.SETUP.BONUS.FORTRESSES", "TM.REWARD.FORTRESS.BONUS", "TM.REWARD.CROWN.NO_BONUS"),
        bonus_tiles,
    ),
    StepInvariant(
        "palaces-placed",
        (
            "TM.REWARD.INFLUENCE.PALACE",
            "TM.REWARD.CROWN.PALACE",
            "TM.REWARD.CROWN.OCCUPIED",
            "TM.REWARD.CROWN.LATER_NORMAL",
        ),
        palaces_placed,
    ),
    StepInvariant(
        "crown-once-per-visit",
        ("TM.REWARD.CROWN.TAKE", "TM.VISIT.NEXT.CROWN", "TM.COMP.CROWN"),
        crown_once_per_visit,
    ),
    StepInvariant(
        "majority-awards",
        (
            "TM.WITHDRAW.COMPARE",
            "TM.WITHDRAW.MAJORITY.STRICT",
            "TM.WITHDRAW.MAJORITY.REMAINING",
            "TM.WITHDRAW.MAJORITY.ZERO",
            "TM.WITHDRAW.ONCE_PER_VISIT",
            "RUL.MAJORITY.REMAINING_PLAYERS",
            "RUL.MAJORITY.ZERO_SYMBOLS",
        ),
        majority_awards,
    ),
    StepInvariant("scores-never-decrease", ("TM.SCORE.TRACK",), scores_never_decrease),
    StepInvariant(
        "colour-lock",
        ("TM.PLAY.COLOUR_LOCK", "TM.PLAY.ONE_COLOURED", "TM.SPECIAL.COLOUR_CHANGE"),
        colour_lock,
    ),
    StepInvariant(
        "plays-are-final",
        ("TM.PLAY.NO_TAKE_BACK", "TM.PLAY.ONE_COLOURED", "TM.PLAY.EXTRA_CARD"),
        plays_are_final,
    ),
    StepInvariant(
        "table-and-display",
        ("TM.WITHDRAW.DISCARD", "TM.SETUP.DISPLAY.SIZE", "TM.END.AFTER_TWELVE"),
        table_and_display,
    ),
    StepInvariant(
        "legal-actions-well-formed",
        ("TM.TURN.CHOICE", "TM.TURN.NO_LEGAL_PLAY", "TM.REWARD.PLACEMENT_ORDER"),
        legal_actions_well_formed,
    ),
)
"""Checked after every step of every game."""


# ---------------------------------------------------------------------------------------
# State invariants


_NO_STRINGS: frozenset[str] = frozenset()

_FIELDS: dict[type, Callable[[object], tuple[object, ...]] | None] = {}
"""Per class, a getter of all its attrs fields at once (None: not an attrs class)."""

_STRINGS_MEMO: dict[int, tuple[object, frozenset[str]]] = {}
"""The strings inside a tuple, by the tuple's ``id``. The tuple itself is kept beside
them, so the id cannot be reused while the entry lives; only tuples that can never
change (strings, numbers, enums, tuples and frozen attrs values all the way down) are
kept, so an entry stays true. Parts a view shares with its state (the discard pile, the
cards played, the palaces...) are walked once, not once per seat and step."""

_LEAVES: set[type] = {int, bool, type(None)}
"""Types holding no string: numbers, None, and (added when first met) any other type
that is neither a string, a tuple or list, nor an attrs class (enums)."""

_WALKED = 5
"""A tuple of at most this many attrs values, not yet remembered, is checked value by
value rather than remembered (the players of a view are made anew for every view)."""

_MEMO_SIZE = 50_000
"""Entries kept before the memo starts afresh."""


def _field_getter(kind: type) -> Callable[[object], tuple[object, ...]] | None:
    getter = _FIELDS.get(kind, _field_getter)
    if getter is not _field_getter:
        return getter  # type: ignore[return-value]
    found: Callable[[object], tuple[object, ...]] | None = None
    if attrs.has(kind):
        names = tuple(attrs.fields_dict(kind))
        if len(names) == 1:
            single = operator.attrgetter(names[0])
            found = lambda value: (single(value),)  # noqa: E731
        elif names:
            found = operator.attrgetter(*names)
    _FIELDS[kind] = found
    return found


def _strings_in(value: object) -> frozenset[str]:
    """Every string inside ``value``: a string, a tuple or list, an attrs value (its
    fields), nested to any depth; other values (numbers, enums, None) hold none. Tuples
    are looked up in the memo first (a view shares most of its parts with its state,
    and a state with the state before it)."""
    return _walk(value)[0]


def _walk(value: object) -> tuple[frozenset[str], bool]:
    """The strings inside ``value`` (see :func:`_strings_in`), and whether they can never
    change: no list and no attrs value that is not frozen anywhere inside. Only such
    tuples are remembered."""
    kind = type(value)
    if kind is tuple:
        hit = _STRINGS_MEMO.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1], True
        items: Iterable[object] = value  # type: ignore[assignment]
        fixed = True
    elif isinstance(value, str):
        return frozenset((value,)), True
    elif isinstance(value, tuple | list):
        items = value
        fixed = isinstance(value, tuple)
    else:
        getter = _field_getter(kind)
        if getter is None:
            _LEAVES.add(kind)
            return _NO_STRINGS, True
        items = getter(value)
        fixed = kind.__setattr__ is _FROZEN_SETATTR
    found: set[str] = set()
    memo = _STRINGS_MEMO
    for item in items:
        inner = type(item)
        if inner is str:
            found.add(item)  # type: ignore[arg-type]
        elif inner in _LEAVES:
            continue
        else:
            if inner is tuple:
                hit = memo.get(id(item))
                if hit is not None and hit[0] is item:
                    found.update(hit[1])
                    continue
            strings, unchanging = _walk(item)
            found.update(strings)
            fixed = fixed and unchanging
    result = frozenset(found)
    if kind is tuple and fixed:
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        memo[id(value)] = (value, result)
    return result, fixed


@attrs.frozen
class _Frozen:
    """Any frozen attrs class: its ``__setattr__`` is the one every frozen class has."""


_FROZEN_SETATTR = _Frozen.__setattr__
"""How :func:`_walk` tells a frozen attrs value from one that may change."""


def _shows(value: object, hidden: frozenset[str]) -> bool:
    """True when a string of ``hidden`` is anywhere inside ``value`` (as
    :func:`_strings_in` finds them), checked part by part without gathering them all."""
    getter = _field_getter(type(value))
    if getter is None:
        return not hidden.isdisjoint(_strings_in(value))
    memo = _STRINGS_MEMO
    for item in getter(value):
        kind = type(item)
        if kind is str:
            if item in hidden:
                return True
        elif kind is tuple:
            row = cast(tuple[object, ...], item)
            hit = memo.get(id(row))
            if hit is not None and hit[0] is row:
                if not hidden.isdisjoint(hit[1]):
                    return True
            elif len(row) <= _WALKED and row and _field_getter(type(row[0])) is not None:
                # A few values made for the view itself (its players): checked one by
                # one, not remembered.
                if any(_shows(inner, hidden) for inner in row):
                    return True
            elif not hidden.isdisjoint(_strings_in(row)):
                return True
        elif kind not in _LEAVES and not hidden.isdisjoint(_strings_in(item)):
            return True
    return False


def views_hide_secrets(state: GameState) -> Iterable[str]:
    """A player's view shows no card of the deck (hence no deck order) and, of another
    player's hand, only the special cards (public: they change hands openly); it shows
    the viewer's own hand.

    Every string anywhere inside each seat's view is compared with the cards hidden
    from that seat."""
    specials = state.config.components.specials
    secret = [
        frozenset(card for card in player.hand if card not in specials) for player in state.players
    ]
    deck = frozenset(state.deck)
    for seat in range(state.config.players):
        hidden = deck.union(*(cards for other, cards in enumerate(secret) if other != seat))
        seen = view(state, seat)
        if _shows(seen, hidden):
            leaked = sorted(hidden & _strings_in(seen))
            yield f"player {seat}'s view shows hidden cards {leaked[:5]}"
        if seen.players[seat].hand != state.players[seat].hand:
            yield f"player {seat}'s view does not show their own hand"


def serialization_round_trip(state: GameState) -> Iterable[str]:
    """Writing a state as JSON and loading it back gives the same state (the position
    format of ``docs/trace-format.md``; no rulebook clause)."""
    document = state_to_json(state)
    try:
        loaded = state_from_json(document, state.config.components)
    except Exception as error:  # any failure to reload is the finding
        yield f"the state does not load back: {type(error).__name__}: {error}"
        return
    if loaded != state:
        yield "the state loaded back differs from the state written"


STATE_INVARIANTS: tuple[StateInvariant, ...] = (
    StateInvariant(
        "views-hide-secrets",
        ("TM.PLAY.HANDS_SECRET", "RUL.PLAY.PUBLIC_INFORMATION"),
        views_hide_secrets,
    ),
    StateInvariant("serialization-round-trip", (), serialization_round_trip),
)
"""Checked after every step of the games checked deeply."""


# ---------------------------------------------------------------------------------------
# Game invariants


def replay_reproduces(
    setup: SetupOutcome,
    states: Sequence[GameState],
    actions: Sequence[Action],
    events: Sequence[tuple[Event, ...]] | None = None,
    legal: Sequence[tuple[Action, ...]] | None = None,
) -> Iterable[str]:
    """The game's record, written by the shipped recorder, survives its JSON round trip;
    the record read back replays, with the shipped replay code, to the very same states
    as the game played (the same record gives the same game), matching every recorded
    expectation of every step (actor, legal actions, scores, state digest, clauses,
    tags); and the record of a finished game verifies (its result holds).

    The played game and the replay are two runs of the same actions, compared state by
    state; ``events`` and ``legal`` (per step, as play found them) spare the recorder
    running the engine a third time.
    """
    # Imported here: the trace module imports the engine, which tests may patch.
    from tajmahal.trace import (
        Recorder,
        check_result,
        record_from_json,
        record_to_json,
        replay_steps,
    )

    first = states[0]
    components = first.config.components
    recorder = Recorder(components, first.config.players, setup, first.config.rules)
    for index, (before, action, after) in enumerate(zip(states, actions, states[1:], strict=False)):
        recorder.add(
            before,
            action,
            after,
            events[index] if events is not None else None,
            legal[index] or None if legal is not None else None,
        )
    record = recorder.record(states[-1])
    loaded = record_from_json(record_to_json(record))
    if loaded != record:
        yield "the record changes over a JSON round trip"
        return
    replayed = 0
    final = first
    try:
        for step in replay_steps(loaded, components):
            if step.after != states[step.index + 1]:
                yield f"the replay differs from the game at step {step.index}"
                return
            final = step.after
            replayed += 1
    except Exception as error:  # the finding is that the record does not replay
        yield f"the replay fails: {type(error).__name__}: {error}"
        return
    if replayed != len(states) - 1:
        yield f"the replay has {replayed} steps, the game {len(states) - 1}"
        return
    if final.is_over:
        try:
            check_result(loaded, final)
        except Exception as error:
            yield f"the record does not verify: {type(error).__name__}: {error}"


GAME_INVARIANTS: tuple[GameInvariant, ...] = (
    GameInvariant(
        "replay-reproduces",
        ("TM.PLAY.NO_TAKE_BACK", "TM.VISIT.NEXT.RESHUFFLE"),
        replay_reproduces,
    ),
)
"""Checked once per game checked deeply."""

INVARIANTS: tuple[Invariant, ...] = (*STEP_INVARIANTS, *STATE_INVARIANTS, *GAME_INVARIANTS)
"""Every invariant, cheapest first."""


# ---------------------------------------------------------------------------------------
# Running them


def check_step(
    step: Transition, invariants: Sequence[StepInvariant] = STEP_INVARIANTS
) -> tuple[Violation, ...]:
    """Every violation of the step invariants by one transition."""
    found: list[Violation] = []
    for invariant in invariants:
        try:
            for message in invariant.check(step):
                found.append(Violation(invariant.name, invariant.clauses, message))
        except Exception as error:  # a state too broken to examine is a violation too
            found.append(Violation(invariant.name, invariant.clauses, _unreadable(error)))
    return tuple(found)


def check_state(
    state: GameState, invariants: Sequence[StateInvariant] = STATE_INVARIANTS
) -> tuple[Violation, ...]:
    """Every violation of the state invariants by one state."""
    found: list[Violation] = []
    for invariant in invariants:
        try:
            for message in invariant.check(state):
                found.append(Violation(invariant.name, invariant.clauses, message))
        except Exception as error:  # a state too broken to examine is a violation too
            found.append(Violation(invariant.name, invariant.clauses, _unreadable(error)))
    return tuple(found)


def check_game(
    setup: SetupOutcome,
    states: Sequence[GameState],
    actions: Sequence[Action],
    invariants: Sequence[GameInvariant] = GAME_INVARIANTS,
    *,
    events: Sequence[tuple[Event, ...]] | None = None,
    legal: Sequence[tuple[Action, ...]] | None = None,
) -> tuple[Violation, ...]:
    """Every violation of the game invariants by a game played from ``setup``
    (``states`` has one more entry than ``actions``: the initial state first; ``events``
    and ``legal``, when given, hold each step's events and the legal actions offered
    before it, empty at a chance step)."""
    found: list[Violation] = []
    for invariant in invariants:
        try:
            for message in invariant.check(setup, states, actions, events, legal):
                found.append(Violation(invariant.name, invariant.clauses, message))
        except Exception as error:  # a game too broken to examine is a violation too
            found.append(Violation(invariant.name, invariant.clauses, _unreadable(error)))
    return tuple(found)


def _unreadable(error: Exception) -> str:
    return f"the check could not read the state ({type(error).__name__}: {error})"
