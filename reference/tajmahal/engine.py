"""The rules engine: ``legal_actions(state)`` and ``apply(state, action)``.

Both are pure functions over frozen :class:`~tajmahal.state.GameState` values. ``apply``
copies the state into a private working copy, carries out the action and every
automatic consequence (scoring, discarding, drawing, ending a visit) until the game
next waits for a decision or a chance outcome, and freezes the result.

Chance is explicit: when a card must be drawn from an empty deck, the game stops at a
``SHUFFLE`` step and waits for a :class:`~tajmahal.actions.Reshuffle` action naming the
new deck order. :func:`random_reshuffle` makes one from a random generator; a record
stores it, so replays need no generator.
"""

from __future__ import annotations

import random
from bisect import insort
from itertools import combinations
from typing import Any

from tajmahal.actions import (
    WITHDRAW,
    Action,
    PlaceCrown,
    PlacePalace,
    Play,
    Reshuffle,
    Take,
    Withdraw,
)
from tajmahal.board import CityId
from tajmahal.clauses import implements
from tajmahal.components import CardId, Components
from tajmahal.errors import IllegalActionError
from tajmahal.events import Event
from tajmahal.rules import (
    AlreadyHeldSpecial,
    ColourChangeFirstTurn,
    MajorityScope,
    Permission,
    WithdrawWithoutPlaying,
)
from tajmahal.scoring import (
    goods_points,
    hand_points,
    owned_goods,
    palace_points,
    symbol_counts,
    wins_majority,
)
from tajmahal.state import (
    DISPLAY,
    DISPLAY_SIZES,
    INFLUENCE_TILES_PER_KIND,
    VISITS,
    GameState,
    Palace,
    PendingDraw,
    PlayerState,
    Step,
    Withdrawal,
    palace_sort_key,
)
from tajmahal.symbols import (
    INFLUENCE_SYMBOLS,
    SYMBOL_INDEX,
    BonusKind,
    CardColour,
    SpecialKind,
    Symbol,
)

# ---------------------------------------------------------------------------------------
# The working copy


class _Player:
    """Mutable mirror of :class:`PlayerState` used inside one ``apply``."""

    __slots__ = (
        "colour",
        "goods_tiles",
        "hand",
        "influence",
        "played",
        "province_tiles",
        "score",
        "withdrawn",
        "withdrawn_counts",
    )

    def __init__(self, player: PlayerState) -> None:
        self.hand = list(player.hand)
        self.played = list(player.played)
        self.colour = player.colour
        self.withdrawn = player.withdrawn
        self.withdrawn_counts = player.withdrawn_counts
        self.influence = list(player.influence)
        self.province_tiles = list(player.province_tiles)
        self.goods_tiles = list(player.goods_tiles)
        self.score = player.score

    def freeze(self) -> PlayerState:
        return PlayerState(
            hand=tuple(self.hand),
            played=tuple(self.played),
            colour=self.colour,
            withdrawn=self.withdrawn,
            withdrawn_counts=self.withdrawn_counts,
            influence=tuple(self.influence),  # kept in canonical order by insort
            province_tiles=tuple(self.province_tiles),
            goods_tiles=tuple(self.goods_tiles),
            score=self.score,
        )


class _Work:
    """Mutable, copy-on-write mirror of :class:`GameState` plus the events of one ``apply``.

    Collections are copied from the frozen state only when first changed, and only
    changed parts are rebuilt (and re-sorted) on :meth:`freeze`: most actions touch one
    player and a counter or two.
    """

    def __init__(self, state: GameState, recording: bool = True) -> None:
        self.state = state
        self.recording = recording
        """False when the caller discards events: texts are then not built."""
        self.components: Components = state.config.components
        self.rules = state.config.rules
        self.count = state.config.players
        self.visit = state.visit
        self.step = state.step
        self.to_move = state.to_move
        self.start_player = state.start_player
        self._players: dict[int, _Player] = {}
        self.crown_in_court = state.crown_in_court
        self.court_province_tile = state.court_province_tile
        self.withdrawal = state.withdrawal
        self.draw = state.draw
        self.events: list[Event] = []
        self._lists: dict[str, list[Any]] = {}
        self._bonus: dict[CityId, str] | None = None

    # Copy-on-write access ---------------------------------------------------------------

    def player(self, seat: int) -> _Player:
        """The mutable copy of a seat's holdings (made on first use)."""
        player = self._players.get(seat)
        if player is None:
            player = self._players[seat] = _Player(self.state.players[seat])
        return player

    @property
    def players(self) -> list[_Player]:
        """Mutable copies of every seat (use :meth:`player` or :meth:`is_active` when one
        seat is enough)."""
        return [self.player(seat) for seat in range(self.count)]

    def peek(self, seat: int) -> _Player | PlayerState:
        """A seat's holdings for reading only (no copy is made)."""
        player = self._players.get(seat)
        return player if player is not None else self.state.players[seat]

    def is_active(self, seat: int) -> bool:
        """True if the seat has not withdrawn from the current visit."""
        player = self._players.get(seat)
        return not (player.withdrawn if player is not None else self.state.players[seat].withdrawn)

    def read(self, name: str) -> list[Any] | tuple[Any, ...]:
        """A collection for reading only: the working copy if one was made, else the
        frozen original (so that reading does not mark it as changed)."""
        items = self._lists.get(name)
        return items if items is not None else getattr(self.state, name)

    def _list(self, name: str) -> list[Any]:
        items = self._lists.get(name)
        if items is None:
            items = self._lists[name] = list(getattr(self.state, name))
        return items

    @property
    def deck(self) -> list[CardId]:
        return self._list("deck")

    @property
    def discard(self) -> list[CardId]:
        return self._list("discard")

    @property
    def display(self) -> list[CardId]:
        return self._list("display")

    @property
    def specials_on_table(self) -> list[CardId]:
        return self._list("specials_on_table")

    @property
    def court_influence(self) -> list[Symbol]:
        return self._list("court_influence")

    @property
    def palaces(self) -> list[Palace]:
        return self._list("palaces")

    @property
    def bonus_on_board(self) -> dict[CityId, str]:
        if self._bonus is None:
            self._bonus = dict(self.state.bonus_on_board)
        return self._bonus

    def freeze(self) -> GameState:
        state = self.state
        lists = self._lists
        players = state.players
        if self._players:
            players = tuple(
                self._players[seat].freeze() if seat in self._players else old
                for seat, old in enumerate(players)
            )
        return GameState(
            config=state.config,
            visit=self.visit,
            step=self.step,
            to_move=self.to_move,
            start_player=self.start_player,
            players=players,
            deck=tuple(lists["deck"]) if "deck" in lists else state.deck,
            discard=tuple(sorted(lists["discard"])) if "discard" in lists else state.discard,
            display=tuple(sorted(lists["display"])) if "display" in lists else state.display,
            specials_on_table=(
                tuple(sorted(lists["specials_on_table"]))
                if "specials_on_table" in lists
                else state.specials_on_table
            ),
            court_influence=(
                tuple(sorted(lists["court_influence"], key=SYMBOL_INDEX.__getitem__))
                if "court_influence" in lists
                else state.court_influence
            ),
            crown_in_court=self.crown_in_court,
            court_province_tile=self.court_province_tile,
            province_order=state.province_order,
            bonus_on_board=(
                tuple(sorted(self._bonus.items()))
                if self._bonus is not None
                else state.bonus_on_board
            ),
            palaces=(
                tuple(lists["palaces"])  # kept sorted by insort
                if "palaces" in lists
                else state.palaces
            ),
            withdrawal=self.withdrawal,
            draw=self.draw,
        )

    def note(self, kind: str, seat: int | None, text: str, points: int = 0) -> None:
        if points:
            assert seat is not None
            self.player(seat).score += points
        if self.recording:
            self.events.append(Event(kind, seat, text, points))

    @property
    def province(self) -> str:
        return self.state.province_order[self.visit - 1]


# ---------------------------------------------------------------------------------------
# Shared rule helpers


def _colour_change_id(components: Components) -> CardId:
    return components.special_of_kind(SpecialKind.COLOUR_CHANGE).id


def _next_active(work: _Work, seat: int) -> int | None:
    """The next seat clockwise after ``seat`` still in the visit (``seat`` itself last)."""
    count = work.count
    for offset in range(1, count + 1):
        candidate = (seat + offset) % count
        if work.is_active(candidate):
            return candidate
    return None


@implements(
    "TM.REWARD.INFLUENCE.PALACE", "TM.REWARD.CROWN.LATER_NORMAL", "TM.REWARD.CROWN.OWN_NORMAL_LATER"
)
def palace_cities(state: GameState, seat: int) -> tuple[CityId, ...]:
    """Cities of the current province where ``seat`` may place a normal palace now.

    A normal palace needs an empty city; a city holding only a crown palace counts as
    open to another player (TM.REWARD.CROWN.LATER_NORMAL) and to its own owner only if
    the rule set allows it (RUL.CROWN.OWN_PALACE_BESIDE_CROWN).
    """
    return _palace_cities(
        state.config.components,
        state.config.rules.own_palace_beside_own_crown,
        state.current_province,
        state.palaces,
        seat,
    )


def _palace_cities(
    components: Components,
    own_beside_crown: Permission,
    province: str,
    palaces: list[Palace] | tuple[Palace, ...],
    seat: int,
) -> tuple[CityId, ...]:
    result = []
    cities = components.board.provinces[province].cities
    local = [palace for palace in palaces if palace.city in cities]
    for city in cities:
        here = [palace for palace in local if palace.city == city]
        if not here or (
            len(here) == 1
            and here[0].crowned
            and (here[0].seat != seat or own_beside_crown is Permission.ALLOWED)
        ):
            result.append(city)
    return tuple(result)


@implements("TM.REWARD.CROWN.PALACE", "TM.REWARD.CROWN.OCCUPIED", "TM.REWARD.CROWN.BESIDE_OWN")
def crown_cities(state: GameState, seat: int) -> tuple[CityId, ...]:
    """Cities of the current province where ``seat`` may place the crown palace now: any
    city, occupied or not, except beside their own palace when the rule set forbids it."""
    return _crown_cities(
        state.config.components,
        state.config.rules.crown_beside_own_palace,
        state.current_province,
        state.palaces,
        seat,
    )


def _crown_cities(
    components: Components,
    beside_own: Permission,
    province: str,
    palaces: list[Palace] | tuple[Palace, ...],
    seat: int,
) -> tuple[CityId, ...]:
    result = []
    cities = components.board.provinces[province].cities
    local = [palace for palace in palaces if palace.city in cities]
    for city in cities:
        here = [palace for palace in local if palace.city == city]
        if len(here) >= 2:
            continue
        if beside_own is Permission.FORBIDDEN and any(p.seat == seat for p in here):
            continue
        result.append(city)
    return tuple(result)


# ---------------------------------------------------------------------------------------
# legal_actions


@implements(
    "TM.TURN.CHOICE",
    "TM.PLAY.ONE_COLOURED",
    "TM.PLAY.FIRST_ANY_COLOUR",
    "TM.PLAY.COLOUR_LOCK",
    "TM.PLAY.EXTRA_CARD",
    "TM.PLAY.NEVER_ALONE",
    "TM.PLAY.THREE_FORMS",
    "TM.SPECIAL.PLAY_LIKE_WHITE",
    "TM.SPECIAL.ONE_PER_TURN",
    "TM.SPECIAL.COLOUR_CHANGE",
    "TM.TURN.NO_LEGAL_PLAY",
    "TM.WITHDRAW.EMPTY_HANDED",
)
def _play_actions(state: GameState, seat: int) -> list[Action]:
    components = state.config.components
    player = state.players[seat]
    cards = components.cards
    colour_change = _colour_change_id(components)
    coloured: list[CardId] = []
    extras: list[CardId] = []
    has_colour_change = False
    for card_id in player.hand:
        card = cards.get(card_id)
        if card is None:
            extras.append(card_id)
            if card_id == colour_change:
                has_colour_change = True
        elif card.colour is CardColour.WHITE:
            extras.append(card_id)
        else:
            coloured.append(card_id)
    actions: list[Action] = []
    lock = player.colour
    for card_id in coloured:
        if lock is None or cards[card_id].colour is lock:
            actions.append(Play(card_id))
            actions.extend(Play(card_id, extra) for extra in extras)
        elif has_colour_change:
            actions.append(Play(card_id, colour_change))
    actions.append(WITHDRAW)
    return actions


def _take_actions(state: GameState) -> list[Action]:
    display = state.display
    if len(display) <= 2:
        return [Take(display)] if display else []
    return [Take(pair) for pair in combinations(display, 2)]


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every action the player to move may take, sorted by canonical string, no duplicates.

    Empty when the game is over and at a chance step (where the next action is a
    :class:`~tajmahal.actions.Reshuffle`; see :func:`chance_cards`).
    """
    step = state.step
    seat = state.to_move
    if seat is None or step is Step.OVER or step is Step.SHUFFLE:
        return ()
    actions: list[Action]
    if step is Step.PLAY:
        actions = _play_actions(state, seat)
    elif step is Step.PLACE:
        withdrawal = state.withdrawal
        assert withdrawal is not None
        actions = []
        if withdrawal.crown_owed:
            actions.extend(PlaceCrown(city) for city in crown_cities(state, seat))
        if withdrawal.palaces_owed:
            actions.extend(PlacePalace(city) for city in palace_cities(state, seat))
    else:
        actions = _take_actions(state)
    # Generated in canonical order already: hands, displays and province cities are sorted,
    # ids never contain a space, and "crown" < "palace", "play" < "withdraw".
    return tuple(actions)


def chance_cards(state: GameState) -> tuple[CardId, ...]:
    """At a chance step, the cards a ``reshuffle`` must order (the discard pile); else ()."""
    return state.discard if state.step is Step.SHUFFLE else ()


def random_reshuffle(state: GameState, rng: random.Random) -> Reshuffle:
    """A uniformly random reshuffle outcome for a chance step."""
    order = list(chance_cards(state))
    rng.shuffle(order)
    return Reshuffle(tuple(order))


# ---------------------------------------------------------------------------------------
# apply


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``; raises :class:`IllegalActionError` saying why it is illegal."""
    return _apply(state, action, recording=False).freeze()


def apply_with_events(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """Like :func:`apply`, also returning what happened (for the readable account)."""
    work = _apply(state, action, recording=True)
    return work.freeze(), tuple(work.events)


def _apply(state: GameState, action: Action, *, recording: bool) -> _Work:
    if state.step is Step.OVER:
        raise IllegalActionError(f"the game is over; no action is possible ({action})")
    work = _Work(state, recording)
    if state.step is Step.SHUFFLE:
        if not isinstance(action, Reshuffle):
            raise IllegalActionError(
                f"the game waits for a chance outcome (reshuffle of the {len(state.discard)} "
                f"discarded cards), not {action}"
            )
        _apply_reshuffle(work, action)
    elif isinstance(action, Reshuffle):
        raise IllegalActionError("no reshuffle is due: the deck is not being drawn from empty")
    elif state.step is Step.PLAY:
        if isinstance(action, Play):
            _apply_play(work, action)
        elif isinstance(action, Withdraw):
            _apply_withdraw(work)
        else:
            raise IllegalActionError(
                f"player {state.to_move} must play cards or withdraw now, not {action}"
            )
    elif state.step is Step.PLACE:
        if isinstance(action, PlacePalace):
            _apply_palace(work, action.city)
        elif isinstance(action, PlaceCrown):
            _apply_crown(work, action.city)
        else:
            raise IllegalActionError(
                f"player {state.to_move} must place a palace or the crown palace now, not {action}"
            )
    else:
        if not isinstance(action, Take):
            raise IllegalActionError(
                f"player {state.to_move} must take cards from the display now, not {action}"
            )
        _apply_take(work, action)
    _continue(work)
    return work


def _describe(components: Components, card_id: CardId) -> str:
    card = components.cards.get(card_id)
    if card is None:
        special = components.specials.get(card_id)
        return f"{card_id} (special)" if special is not None else card_id
    return f"{card_id} ({card.colour.value}: {'+'.join(s.value for s in card.symbols)})"


@implements(
    "TM.PLAY.ONE_COLOURED",
    "TM.PLAY.COLOUR_LOCK",
    "TM.PLAY.FIRST_ANY_COLOUR",
    "TM.PLAY.COLOUR_RESET",
    "TM.PLAY.NO_TAKE_BACK",
    "TM.SPECIAL.PLUS_TWO",
    "TM.SPECIAL.COLOUR_CHANGE",
    "TM.SPECIAL.COLOUR_CHANGE.ONE_TURN",
    "TM.SPECIAL.COLOUR_CHANGE.FIRST_TURN",
    "TM.TURN.CLOCKWISE",
    "TM.TURN.LAST_PLAYER_CONTINUES",
    "TM.SPECIAL.NO_EFFECT_IN_HAND",
)
def _apply_play(work: _Work, action: Play) -> None:
    seat = work.to_move
    assert seat is not None
    components = work.components
    player = work.player(seat)
    coloured = components.cards.get(action.coloured)
    if action.coloured not in player.hand:
        raise IllegalActionError(f"{action.coloured} is not in player {seat}'s hand")
    if coloured is None or coloured.colour is CardColour.WHITE:
        raise IllegalActionError(
            f"a play starts with exactly one coloured card; {action.coloured} is not coloured"
        )
    colour_change = _colour_change_id(components)
    plus_two = components.special_of_kind(SpecialKind.PLUS_TWO).id
    extra = action.extra
    if extra is not None:
        if extra not in player.hand:
            raise IllegalActionError(f"{extra} is not in player {seat}'s hand")
        extra_card = components.cards.get(extra)
        if extra_card is not None and extra_card.colour is not CardColour.WHITE:
            raise IllegalActionError(
                f"only one coloured card per play; the second card must be white or special, "
                f"{extra} is {extra_card.colour.value}"
            )
    breaks_colour = extra == colour_change
    if player.colour is not None and coloured.colour is not player.colour and not breaks_colour:
        raise IllegalActionError(
            f"player {seat} must play {player.colour.value} this visit; {action.coloured} is "
            f"{coloured.colour.value} (only the colour-change card breaks the colour)"
        )
    player.hand.remove(action.coloured)
    player.played.append(action.coloured)
    if extra is not None:
        player.hand.remove(extra)
        player.played.append(extra)
    if player.colour is None and (
        not breaks_colour
        or work.rules.colour_change_first_turn is ColourChangeFirstTurn.PLAYED_CARD
    ):
        player.colour = coloured.colour
    if work.recording:
        shown = " and ".join(
            _describe(components, card) for card in (action.coloured, extra) if card
        )
        work.note("play", seat, f"plays {shown}")
    if extra == plus_two:
        work.note("score", seat, "scores 2 for the +2 special card", 2)
    following = _next_active(work, seat)
    assert following is not None
    work.to_move = following


@implements(
    "TM.COMP.CARDS.SYMBOL_MEANING",
    "TM.COMP.CROWN",
    "TM.WITHDRAW.FINAL",
    "TM.WITHDRAW.COMPARE",
    "TM.WITHDRAW.MAJORITY.REMAINING",
    "TM.WITHDRAW.ONCE_PER_VISIT",
    "TM.WITHDRAW.ANY_COMBINATION",
    "TM.REWARD.INFLUENCE.TILE",
    "TM.REWARD.CROWN.TAKE",
    "TM.REWARD.ELEPHANT.PROVINCE",
    "TM.WITHDRAW.WITHOUT_PLAYING.NOTHING",
    "TM.TURN.WITHDRAWN_SKIPPED",
)
def _apply_withdraw(work: _Work) -> None:
    seat = work.to_move
    assert seat is not None
    components = work.components
    player = work.player(seat)
    counts = symbol_counts(components, player.played)
    compared: list[tuple[int, ...]] = []
    for other_seat in range(work.count):
        if other_seat == seat:
            continue
        other = work.peek(other_seat)
        if not other.withdrawn:
            compared.append(symbol_counts(components, other.played))
        elif work.rules.majority_scope is MajorityScope.ALL and other.withdrawn_counts is not None:
            compared.append(other.withdrawn_counts)
    player.withdrawn = True
    player.withdrawn_counts = counts
    work.note("withdraw", seat, "withdraws" + ("" if player.played else " without playing"))
    palaces_owed = 0
    crown_owed = False
    province_won = None
    for symbol in Symbol:
        index = SYMBOL_INDEX[symbol]
        if symbol is Symbol.MOGUL:
            available = work.crown_in_court
        elif symbol is Symbol.ELEPHANT:
            available = work.court_province_tile is not None
        else:
            available = symbol in work.read("court_influence")
        if not available or not wins_majority(counts[index], (c[index] for c in compared)):
            continue
        if symbol is Symbol.MOGUL:
            work.crown_in_court = False
            crown_owed = True
            work.note("win", seat, f"wins the crown with {counts[index]} Grand Mogul(s)")
        elif symbol is Symbol.ELEPHANT:
            province_won = work.court_province_tile
            work.court_province_tile = None
            work.note(
                "win", seat, f"wins province tile {province_won} with {counts[index]} elephant(s)"
            )
        else:
            work.court_influence.remove(symbol)
            insort(player.influence, symbol, key=SYMBOL_INDEX.__getitem__)
            palaces_owed += 1
            work.note(
                "win",
                seat,
                f"wins the {symbol.value} tile with {counts[index]} {symbol.value} symbol(s)",
            )
    work.withdrawal = Withdrawal(
        seat=seat,
        palaces_owed=palaces_owed,
        crown_owed=crown_owed,
        province_won=province_won,
        played_nothing=not player.played,
    )


@implements(
    "TM.REWARD.INFLUENCE.PALACE",
    "TM.REWARD.FORTRESS.BONUS",
    "TM.SCORE.BONUS.TAJ",
    "TM.SCORE.BONUS.POINTS",
    "TM.SCORE.BONUS.CARD",
    "TM.SCORE.BONUS.GOOD",
    "TM.SCORE.BONUS.SEQUENTIAL",
    "TM.REWARD.PLACEMENT_ORDER",
    "TM.COMP.PALACES.UNLIMITED",
)
def _apply_palace(work: _Work, city: CityId) -> None:
    withdrawal = work.withdrawal
    assert withdrawal is not None
    seat = withdrawal.seat
    if withdrawal.palaces_owed == 0:
        raise IllegalActionError(f"player {seat} owes no normal palace (only the crown palace)")
    allowed = _palace_cities(
        work.components,
        work.rules.own_palace_beside_own_crown,
        work.province,
        work.read("palaces"),
        seat,
    )
    if city not in allowed:
        raise IllegalActionError(_placement_refusal(work, city, seat, crown=False, allowed=allowed))
    insort(work.palaces, Palace(city, seat, False), key=palace_sort_key)
    work.withdrawal = withdrawal.placing(
        withdrawal.palaces_owed - 1, withdrawal.crown_owed, (*withdrawal.placed, city)
    )
    work.note("palace", seat, f"places a palace in {city}")
    tile_id = work.bonus_on_board.pop(city, None)
    if tile_id is None:
        return
    tile = work.components.bonus_tiles[tile_id]
    player = work.player(seat)
    if tile.kind in (BonusKind.TAJ_MAHAL, BonusKind.POINTS):
        work.note(
            "bonus",
            seat,
            f"takes bonus tile {tile_id} ({tile.kind.value}) and scores {tile.points}",
            tile.points,
        )
    elif tile.kind is BonusKind.CARD:
        work.note("bonus", seat, f"takes bonus tile {tile_id} (card): draws the top card")
        work.draw = PendingDraw(seat, 1, "bonus-card")
    else:
        assert tile.good is not None
        points = goods_points(
            (tile.good,), owned_goods(work.components, player.province_tiles, player.goods_tiles)
        )
        player.goods_tiles.append(tile_id)
        work.note(
            "bonus",
            seat,
            f"takes bonus tile {tile_id} ({tile.good.value}) and scores {points}",
            points,
        )


@implements(
    "TM.REWARD.CROWN.PALACE",
    "TM.REWARD.CROWN.OCCUPIED",
    "TM.REWARD.CROWN.NO_BONUS",
    "TM.REWARD.CROWN.BESIDE_OWN",
    "TM.REWARD.PLACEMENT_ORDER",
)
def _apply_crown(work: _Work, city: CityId) -> None:
    withdrawal = work.withdrawal
    assert withdrawal is not None
    seat = withdrawal.seat
    if not withdrawal.crown_owed:
        raise IllegalActionError(f"player {seat} has not won the crown in this withdrawal")
    allowed = _crown_cities(
        work.components,
        work.rules.crown_beside_own_palace,
        work.province,
        work.read("palaces"),
        seat,
    )
    if city not in allowed:
        raise IllegalActionError(_placement_refusal(work, city, seat, crown=True, allowed=allowed))
    insort(work.palaces, Palace(city, seat, True), key=palace_sort_key)
    work.withdrawal = withdrawal.placing(withdrawal.palaces_owed, False, (*withdrawal.placed, city))
    bonus = work.bonus_on_board.get(city)
    work.note(
        "crown",
        seat,
        f"places the crown palace in {city}"
        + (f" (bonus tile {bonus} stays: a crown palace takes no bonus)" if bonus else ""),
    )


def _placement_refusal(
    work: _Work, city: CityId, seat: int, *, crown: bool, allowed: tuple[CityId, ...]
) -> str:
    what = "the crown palace" if crown else "a palace"
    board = work.components.board
    if city not in board.cities:
        return f"unknown city {city!r}"
    if board.cities[city].province != work.province:
        return (
            f"{city} lies in province {board.cities[city].province}; {what} must go in the "
            f"current province {work.province} (allowed: {', '.join(allowed) or 'none'})"
        )
    here = [palace for palace in work.read("palaces") if palace.city == city]
    owners = ", ".join(f"player {p.seat}" + (" (crown)" if p.crowned else "") for p in here)
    return (
        f"{what} cannot go in {city}, which holds {owners}; allowed: {', '.join(allowed) or 'none'}"
    )


@implements("TM.WITHDRAW.PICK_TWO")
def _apply_take(work: _Work, action: Take) -> None:
    withdrawal = work.withdrawal
    assert withdrawal is not None
    seat = withdrawal.seat
    expected = min(2, len(work.read("display")))
    for card in action.cards:
        if card not in work.read("display"):
            raise IllegalActionError(
                f"{card} is not in the display ({', '.join(sorted(work.read('display')))})"
            )
    if len(action.cards) != expected or len(set(action.cards)) != len(action.cards):
        raise IllegalActionError(
            f"player {seat} takes {expected} different card(s) from the "
            f"display, not {len(action.cards)}"
        )
    _take_into_hand(work, seat, action.cards)
    _finish_withdrawal(work, seat)


def _take_into_hand(work: _Work, seat: int, cards: tuple[CardId, ...]) -> None:
    hand = work.player(seat).hand
    for card in cards:
        work.display.remove(card)
        insort(hand, card)
    if work.recording:
        work.note(
            "take",
            seat,
            "takes "
            + ", ".join(_describe(work.components, c) for c in cards)
            + " from the display",
        )


@implements("TM.VISIT.NEXT.RESHUFFLE")
def _apply_reshuffle(work: _Work, action: Reshuffle) -> None:
    if sorted(action.order) != sorted(work.read("discard")):
        unknown = sorted(set(action.order) - set(work.read("discard")))
        missing = sorted(set(work.read("discard")) - set(action.order))
        raise IllegalActionError(
            "a reshuffle orders exactly the discarded cards"
            + (f"; not in the discard pile: {unknown[:5]}" if unknown else "")
            + (f"; missing: {missing[:5]}" if missing else "")
            + ("; a card is listed twice" if not unknown and not missing else "")
        )
    work.deck[:0] = action.order
    work.discard.clear()
    work.note(
        "reshuffle", None, f"the {len(action.order)} discarded cards are shuffled into a new deck"
    )


# ---------------------------------------------------------------------------------------
# Automatic consequences


def _continue(work: _Work) -> None:
    """Carry out everything automatic until a decision, a chance outcome or the end."""
    while True:
        if work.draw is not None and not _perform_draw(work):
            return
        withdrawal = work.withdrawal
        if withdrawal is None:
            if work.step is Step.OVER:
                return
            work.step = Step.PLAY
            if work.to_move is None:  # a reshuffle interrupted the display draw of a new visit
                work.to_move = work.start_player
            return
        seat = withdrawal.seat
        if withdrawal.palaces_owed or withdrawal.crown_owed:
            if _forfeit_impossible(work):
                continue
            work.step = Step.PLACE
            work.to_move = seat
            return
        if not withdrawal.scored:
            _score_and_discard(work)
            continue
        if _next_active(work, seat) is None:
            _last_player_takes(work, seat)
        elif work.read("display"):
            work.step = Step.TAKE
            work.to_move = seat
            return
        _finish_withdrawal(work, seat)
        if work.step is Step.OVER:
            return


@implements("TM.REWARD.INFLUENCE.PALACE")
def _forfeit_impossible(work: _Work) -> bool:
    """Drop placements that have no legal city (RUL.REWARD.NO_LEGAL_CITY); True if any."""
    withdrawal = work.withdrawal
    assert withdrawal is not None
    seat = withdrawal.seat
    changed = False
    if withdrawal.palaces_owed and not _palace_cities(
        work.components,
        work.rules.own_palace_beside_own_crown,
        work.province,
        work.read("palaces"),
        seat,
    ):
        work.note(
            "forfeit",
            seat,
            f"has no legal city for {withdrawal.palaces_owed} palace(s); they are not placed",
        )
        withdrawal = withdrawal.placing(0, withdrawal.crown_owed, withdrawal.placed)
        changed = True
    if withdrawal.crown_owed and not _crown_cities(
        work.components,
        work.rules.crown_beside_own_palace,
        work.province,
        work.read("palaces"),
        seat,
    ):
        work.note("forfeit", seat, "has no legal city for the crown palace; it is not placed")
        withdrawal = withdrawal.placing(withdrawal.palaces_owed, False, withdrawal.placed)
        changed = True
    work.withdrawal = withdrawal
    return changed


@implements(
    "TM.SCORE.ORDER",
    "TM.SCORE.PROVINCE",
    "TM.SCORE.PALACE.CURRENT",
    "TM.WITHDRAW.DISCARD",
    "TM.SPECIAL.RETURN_TO_HAND",
    "TM.WITHDRAW.DISCARDED_NO_INFLUENCE",
    "TM.WITHDRAW.WITHOUT_PLAYING",
    "TM.SCORE.TRACK",
)
def _score_and_discard(work: _Work) -> None:
    """Province tile, then palaces (bonus tiles were scored at placement), then discard."""
    withdrawal = work.withdrawal
    assert withdrawal is not None
    seat = withdrawal.seat
    player = work.player(seat)
    components = work.components
    if withdrawal.province_won is not None:
        tile = components.province_tiles[withdrawal.province_won]
        points = goods_points(
            tile.goods, owned_goods(components, player.province_tiles, player.goods_tiles)
        )
        player.province_tiles.append(tile.id)
        work.note(
            "score",
            seat,
            f"scores {points} for province tile {tile.id} "
            f"({', '.join(g.value for g in tile.goods)})",
            points,
        )
    if withdrawal.placed:
        own = {palace.city for palace in work.read("palaces") if palace.seat == seat}
        points = palace_points(components.board, own, work.province)
        work.note(
            "score",
            seat,
            f"scores {points} for palaces (1 for province {work.province}"
            f" and {points - 1} connected province(s))",
            points,
        )
    specials = [card for card in player.played if components.is_special(card)]
    discarded = [card for card in player.played if not components.is_special(card)]
    work.discard.extend(discarded)
    for card in specials:
        insort(player.hand, card)
    player.played = []
    if discarded or specials:
        work.note(
            "discard",
            seat,
            f"discards {len(discarded)} card(s)"
            + (f"; {', '.join(specials)} back to hand" if specials else ""),
        )
    work.withdrawal = withdrawal.done_scoring()
    if (
        withdrawal.played_nothing
        and work.rules.withdraw_without_playing is WithdrawWithoutPlaying.EXTRA_CARD
    ):
        work.draw = PendingDraw(seat, 1, "extra-card")


@implements("TM.WITHDRAW.LAST_TAKES_ONE", "TM.VISIT.DISPLAY_SHORT")
def _last_player_takes(work: _Work, seat: int) -> None:
    """The last player to withdraw takes what is left of the display (no choice)."""
    if work.read("display"):
        _take_into_hand(work, seat, tuple(sorted(work.read("display"))))


def _finish_withdrawal(work: _Work, seat: int) -> None:
    work.withdrawal = None
    following = _next_active(work, seat)
    if following is None:
        _end_visit(work)
    else:
        work.step = Step.PLAY
        work.to_move = following


@implements("TM.VISIT.NEXT.RESHUFFLE", "TM.VISIT.DISPLAY_SHORT", "TM.SCORE.BONUS.CARD")
def _perform_draw(work: _Work) -> bool:
    """Draw what is pending; False when a reshuffle must come first (a chance step)."""
    pending = work.draw
    assert pending is not None
    remaining = pending.count
    drawn: list[CardId] = []
    while remaining:
        if not work.read("deck"):
            if work.read("discard"):
                work.draw = PendingDraw(pending.destination, remaining, pending.reason)
                _note_drawn(work, pending, drawn)
                work.step = Step.SHUFFLE
                work.to_move = None
                return False
            work.note(
                "draw",
                None if pending.destination == DISPLAY else pending.destination,
                f"cannot draw {remaining} card(s): deck and discard pile are empty",
            )
            break
        card = work.deck.pop(0)
        drawn.append(card)
        if pending.destination == DISPLAY:
            work.display.append(card)
        else:
            insort(work.player(pending.destination).hand, card)
        remaining -= 1
    _note_drawn(work, pending, drawn)
    work.draw = None
    return True


def _note_drawn(work: _Work, pending: PendingDraw, drawn: list[CardId]) -> None:
    if not drawn:
        return
    if pending.destination == DISPLAY:
        work.note("draw", None, f"display: {', '.join(sorted(drawn))}")
    else:
        work.note(
            "draw",
            pending.destination,
            f"draws {len(drawn)} card(s) from the deck ({pending.reason})",
        )


@implements(
    "TM.TURN.VISIT_ENDS",
    "TM.VISIT.END",
    "TM.SPECIAL.EARN",
    "TM.SPECIAL.EXCHANGE_AT_VISIT_END",
    "TM.SPECIAL.TAKE_FROM_HOLDER",
    "TM.SPECIAL.ALREADY_HELD",
    "TM.VISIT.UNWON_PROVINCE",
    "TM.VISIT.UNWON_COURT",
    "TM.VISIT.NEXT.START_PLAYER",
    "TM.VISIT.NEXT.PROVINCE",
    "TM.VISIT.NEXT.PROVINCE_TILE",
    "TM.VISIT.NEXT.INFLUENCE_REFILL",
    "TM.VISIT.NEXT.CROWN",
    "TM.VISIT.NEXT.DISPLAY",
    "TM.TURN.TWELVE_VISITS",
    "TM.END.AFTER_TWELVE",
    "TM.PLAY.COLOUR_RESET",
    "TM.COMP.INFLUENCE_TILES",
)
def _end_visit(work: _Work) -> None:
    components = work.components
    for seat, player in enumerate(work.players):
        for symbol in INFLUENCE_SYMBOLS:
            if player.influence.count(symbol) < 2:
                continue
            special = components.special_earned_by(symbol)
            if special.id in player.hand:
                if work.rules.already_held_special is AlreadyHeldSpecial.RETURN_TILES:
                    player.influence.remove(symbol)
                    player.influence.remove(symbol)
                    work.note(
                        "exchange", seat, f"returns two {symbol.value} tiles and keeps {special.id}"
                    )
                continue
            player.influence.remove(symbol)
            player.influence.remove(symbol)
            if special.id in work.specials_on_table:
                work.specials_on_table.remove(special.id)
                source = "the table"
            else:
                holder = next(s for s, p in enumerate(work.players) if special.id in p.hand)
                work.player(holder).hand.remove(special.id)
                source = f"player {holder}"
            insort(player.hand, special.id)
            work.note(
                "exchange",
                seat,
                f"exchanges two {symbol.value} tiles for {special.id} from {source}",
            )
    if work.court_province_tile is not None:
        work.note(
            "unwon",
            None,
            f"nobody won province tile {work.court_province_tile}; it leaves the game",
        )
        work.court_province_tile = None
    for player in work.players:
        player.played = []
        player.colour = None
        player.withdrawn = False
        player.withdrawn_counts = None
    if work.visit == VISITS:
        _end_game(work)
        return
    work.visit += 1
    work.start_player = (work.start_player + 1) % work.count
    work.to_move = work.start_player
    province = work.province
    tile = next(t for t in components.province_tiles.values() if t.number == work.visit)
    work.court_province_tile = tile.id
    for symbol in INFLUENCE_SYMBOLS:
        if symbol in work.read("court_influence"):
            continue
        held = sum(player.influence.count(symbol) for player in work.players)
        if held < INFLUENCE_TILES_PER_KIND:
            work.court_influence.append(symbol)
    work.crown_in_court = True
    work.note(
        "visit",
        None,
        f"visit {work.visit}: province {province} (tile {tile.id}); "
        f"player {work.start_player} starts",
    )
    work.step = Step.PLAY
    work.draw = PendingDraw(DISPLAY, DISPLAY_SIZES[work.count], "display")


@implements("TM.END.HAND.INCLUDES_LAST_PICKS", "TM.END.WINNER", "TM.END.TIE")
def _end_game(work: _Work) -> None:
    for seat, player in enumerate(work.players):
        points = hand_points(work.components, player.hand)
        work.note("hand", seat, f"scores {points} for the cards in hand", points)
    work.step = Step.OVER
    work.to_move = None
    best = max(player.score for player in work.players)
    winners = [seat for seat, player in enumerate(work.players) if player.score == best]
    work.note("end", None, f"game over; winner(s): {', '.join(map(str, winners))} with {best}")
