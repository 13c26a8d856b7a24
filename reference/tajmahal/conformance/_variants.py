"""The engines of the catalogue of misreadings: each a small variant of the reference.

Every variant wraps the reference engine's public functions (:func:`tajmahal.engine.
legal_actions`, :func:`tajmahal.engine.apply`) and changes exactly one rule, the way a
plausible misreading of the rulebooks would; the reference engine itself has no switch
for a wrong rule. The catalogue (:data:`tajmahal.conformance.MISREADINGS`) names each
variant, the clause or ruling it misreads and why a reader might read it so.

Most variants change the position a step produces, either by handing the reference a
doctored position (a court holding only what should be won, a pair of tiles hidden, a
rule-set option changed) and putting back what was hidden, or by correcting the
position it returns (a score, a colour, a palace's crown). Each says which, and where
its reading stops short of a whole rule set of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import attrs

from tajmahal.engine import (
    apply,
    apply_with_events,
    legal_actions,
    palace_cities,
    symbol_counts,
)
from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    DISPLAY,
    DISPLAY_SIZES,
    SYMBOL_INDEX,
    VISITS,
    Action,
    CardColour,
    Components,
    Event,
    EventKind,
    GameState,
    MajorityScope,
    Palace,
    PendingDraw,
    PlaceCrown,
    PlacePalace,
    Play,
    PlayerState,
    PointSource,
    Reshuffle,
    RuleSet,
    SpecialKind,
    Step,
    Symbol,
    Withdraw,
    palace_sort_key,
)

Legal = Callable[[GameState], tuple[Action, ...]]
"""A variant's ``legal_actions``."""

Apply = Callable[[GameState, Action], GameState]
"""A variant's ``apply``."""


def _with_player(state: GameState, seat: int, player: PlayerState) -> GameState:
    players = list(state.players)
    players[seat] = player
    return attrs.evolve(state, players=tuple(players))


def _in_symbol_order(symbols: Iterable[Symbol]) -> tuple[Symbol, ...]:
    return tuple(sorted(symbols, key=SYMBOL_INDEX.__getitem__))


def _added_score(state: GameState, extra: dict[int, int]) -> GameState:
    """``state`` with ``extra[seat]`` points added to each seat's score."""
    if not any(extra.values()):
        return state
    players = tuple(
        attrs.evolve(player, score=player.score + extra.get(seat, 0))
        for seat, player in enumerate(state.players)
    )
    return attrs.evolve(state, players=players)


def _available(state: GameState, symbol: Symbol) -> bool:
    """True while the court still offers what ``symbol`` wins."""
    if symbol is Symbol.MOGUL:
        return state.crown_in_court
    if symbol is Symbol.ELEPHANT:
        return state.court_province_tile is not None
    return symbol in state.court_influence


# ---------------------------------------------------------------------------------------
# As if a rule-set option were set otherwise


def as_if_option(option: str, value: str) -> tuple[Legal, Apply]:
    """``legal_actions`` and ``apply`` of an engine that plays every game with ``option``
    set to ``value``, whatever rule set the game names (the position it returns names the
    game's rule set again)."""

    def ruled(state: GameState) -> GameState:
        rules = state.config.rules
        changed = RuleSet.from_json({**rules.to_json(), option: value})
        if changed == rules:
            return state
        return attrs.evolve(state, config=attrs.evolve(state.config, rules=changed))

    def legal(state: GameState) -> tuple[Action, ...]:
        return legal_actions(ruled(state))

    def apply_as_if(state: GameState, action: Action) -> GameState:
        return attrs.evolve(apply(ruled(state), action), config=state.config)

    return legal, apply_as_if


# ---------------------------------------------------------------------------------------
# Majorities


def tie_wins_apply(state: GameState, action: Action) -> GameState:
    """Withdrawing wins every force of which the player has at least as many symbols as
    every compared player (and at least one).

    The reference is handed a court holding only those forces and nobody to compare
    with, so that it awards exactly them; the other players' cards and the rest of the
    court are put back afterwards."""
    if state.step is not Step.PLAY or not isinstance(action, Withdraw):
        return apply(state, action)
    seat = state.to_move
    assert seat is not None
    components = state.config.components
    own = symbol_counts(components, state.players[seat].played)
    scope = state.config.rules.majority_scope
    rivals: list[tuple[int, ...]] = []
    for other, player in enumerate(state.players):
        if other == seat:
            continue
        if not player.withdrawn:
            rivals.append(symbol_counts(components, player.played))
        elif scope is MajorityScope.ALL and player.withdrawn_counts is not None:
            rivals.append(player.withdrawn_counts)
    wins = {
        symbol
        for symbol in Symbol
        if _available(state, symbol)
        and own[SYMBOL_INDEX[symbol]] >= 1
        and all(own[SYMBOL_INDEX[symbol]] >= counts[SYMBOL_INDEX[symbol]] for counts in rivals)
    }
    doctored = attrs.evolve(
        state,
        players=tuple(
            player if other == seat else attrs.evolve(player, played=(), withdrawn_counts=None)
            for other, player in enumerate(state.players)
        ),
        court_influence=tuple(s for s in state.court_influence if s in wins),
        crown_in_court=Symbol.MOGUL in wins,
        court_province_tile=state.court_province_tile if Symbol.ELEPHANT in wins else None,
    )
    after = apply(doctored, action)
    if after.visit != state.visit:
        return after
    players = tuple(
        player
        if other == seat
        else attrs.evolve(
            player,
            played=state.players[other].played,
            withdrawn_counts=state.players[other].withdrawn_counts,
        )
        for other, player in enumerate(after.players)
    )
    return attrs.evolve(
        after,
        players=players,
        court_influence=_in_symbol_order(
            set(after.court_influence) | (set(state.court_influence) - wins)
        ),
        crown_in_court=after.crown_in_court or (state.crown_in_court and Symbol.MOGUL not in wins),
        court_province_tile=after.court_province_tile
        if Symbol.ELEPHANT in wins
        else state.court_province_tile,
    )


def _white_cards(components: Components) -> dict[Symbol, str]:
    """One white card of each symbol (the first by id)."""
    found: dict[Symbol, str] = {}
    for card_id in sorted(components.cards):
        card = components.cards[card_id]
        if card.colour is CardColour.WHITE:
            found.setdefault(card.symbols[0], card_id)
    return found


def zero_wins_apply(state: GameState, action: Action) -> GameState:
    """The last player in a visit who has played wins every force still in the court,
    also those of which they have no symbol (nobody is left to have more).

    The reference is handed the player's cards with one white card added for each such
    force, so that it awards them; the added cards are taken out again of the cards
    played, or of the discard pile once the withdrawal has discarded them. A player who
    played nothing still wins nothing (every text but 000 says so)."""
    if state.step is not Step.PLAY or not isinstance(action, Withdraw):
        return apply(state, action)
    seat = state.to_move
    assert seat is not None
    player = state.players[seat]
    compared = [
        other
        for other, rival in enumerate(state.players)
        if other != seat
        and (
            not rival.withdrawn
            or (
                state.config.rules.majority_scope is MajorityScope.ALL
                and rival.withdrawn_counts is not None
            )
        )
    ]
    if compared or not player.played:
        return apply(state, action)
    components = state.config.components
    own = symbol_counts(components, player.played)
    whites = _white_cards(components)
    added = tuple(
        whites[symbol]
        for symbol in Symbol
        if _available(state, symbol) and own[SYMBOL_INDEX[symbol]] == 0
    )
    if not added:
        return apply(state, action)
    doctored = _with_player(state, seat, attrs.evolve(player, played=player.played + added))
    after = apply(doctored, action)
    mine = after.players[seat]
    if mine.played[len(player.played) :] == added:  # still placing: the cards are on the table
        return _with_player(
            after, seat, attrs.evolve(mine, played=player.played, withdrawn_counts=own)
        )
    discard = list(after.discard)
    for card in added:
        discard.remove(card)
    return attrs.evolve(after, discard=tuple(discard))


# ---------------------------------------------------------------------------------------
# Turns and withdrawals


def _withdraws_empty_handed(state: GameState, action: Action) -> bool:
    seat = state.to_move
    return (
        state.step is Step.PLAY
        and isinstance(action, Withdraw)
        and seat is not None
        and not state.players[seat].played
        and len(legal_actions(state)) > 1
    )


def no_empty_withdraw_legal(state: GameState) -> tuple[Action, ...]:
    """The legal actions without a withdrawal before playing (unless nothing else is left)."""
    actions = legal_actions(state)
    return tuple(action for action in actions if not _withdraws_empty_handed(state, action))


def no_empty_withdraw_apply(state: GameState, action: Action) -> GameState:
    """Refuse a withdrawal before playing, naming the clause this engine believes in."""
    if _withdraws_empty_handed(state, action):
        raise IllegalActionError(
            "play a card before withdrawing", clause="TM.WITHDRAW.EMPTY_HANDED"
        )
    return apply(state, action)


def _alone(state: GameState) -> bool:
    """True at a play step whose player is the only one left in the visit."""
    seat = state.to_move
    return (
        state.step is Step.PLAY
        and seat is not None
        and all(player.withdrawn for other, player in enumerate(state.players) if other != seat)
    )


def last_must_withdraw_legal(state: GameState) -> tuple[Action, ...]:
    """Only the withdrawal for the last player in the visit."""
    actions = legal_actions(state)
    if _alone(state):
        return tuple(action for action in actions if isinstance(action, Withdraw))
    return actions


def last_must_withdraw_apply(state: GameState, action: Action) -> GameState:
    """Refuse a play by the last player in the visit."""
    if _alone(state) and isinstance(action, Play):
        raise IllegalActionError(
            "the last player in the visit must withdraw", clause="TM.TURN.LAST_PLAYER_CONTINUES"
        )
    return apply(state, action)


def anticlockwise_apply(state: GameState, action: Action) -> GameState:
    """Apply; when a new visit starts, hand its start to the seat before the old start."""
    after = apply(state, action)
    if after.visit == state.visit or after.is_over:
        return after
    wrong = (state.start_player - 1) % state.players_count
    to_move = wrong if after.to_move == after.start_player else after.to_move
    return attrs.evolve(after, start_player=wrong, to_move=to_move)


# ---------------------------------------------------------------------------------------
# Special cards


def special_discarded_apply(state: GameState, action: Action) -> GameState:
    """Apply, then move special cards that went back to hand onto the discard pile."""
    after = apply(state, action)
    seat = state.withdrawal.seat if state.withdrawal is not None else state.to_move
    if seat is None:
        return after
    components = state.config.components
    player = after.players[seat]
    moved = [
        card
        for card in state.players[seat].played
        if components.is_special(card) and card not in player.played and card in player.hand
    ]
    if not moved:
        return after
    after = _with_player(
        after, seat, attrs.evolve(player, hand=tuple(c for c in player.hand if c not in moved))
    )
    return attrs.evolve(after, discard=tuple(sorted(after.discard + tuple(moved))))


def _second_special(state: GameState, action: Action) -> bool:
    seat = state.to_move
    if state.step is not Step.PLAY or seat is None or not isinstance(action, Play):
        return False
    components = state.config.components
    return (
        action.extra is not None
        and components.is_special(action.extra)
        and any(components.is_special(card) for card in state.players[seat].played)
    )


def one_special_legal(state: GameState) -> tuple[Action, ...]:
    """The legal actions without a second special card in the same visit."""
    return tuple(action for action in legal_actions(state) if not _second_special(state, action))


def one_special_apply(state: GameState, action: Action) -> GameState:
    """Refuse a second special card in the same visit."""
    if _second_special(state, action):
        raise IllegalActionError(
            "only one special card may be played in a visit", clause="RUL.SPECIAL.ONE_PER_TURN"
        )
    return apply(state, action)


def colour_change_lasts_apply(state: GameState, action: Action) -> GameState:
    """Apply; a card of another colour played with the colour-change card becomes the
    player's colour for the rest of the visit."""
    after = apply(state, action)
    seat = state.to_move
    if state.step is not Step.PLAY or seat is None or not isinstance(action, Play):
        return after
    components = state.config.components
    colour_change = components.special_of_kind(SpecialKind.COLOUR_CHANGE).id
    before = state.players[seat].colour
    played = components.cards[action.coloured].colour
    if action.extra != colour_change or before is None or played is before:
        return after
    return _with_player(after, seat, attrs.evolve(after.players[seat], colour=played))


# ---------------------------------------------------------------------------------------
# Palaces and the crown palace


def forfeit_apply(state: GameState, action: Action) -> GameState:
    """Apply; when owed palaces will find no city, first return as many of the influence
    tiles won this visit to the court."""
    withdrawal = state.withdrawal
    if withdrawal is None or not isinstance(action, PlacePalace | PlaceCrown):
        return apply(state, action)
    seat = withdrawal.seat
    owed = withdrawal.palaces_owed - (1 if isinstance(action, PlacePalace) else 0)
    placed = Palace(action.city, seat, isinstance(action, PlaceCrown))
    middle = attrs.evolve(
        state, palaces=tuple(sorted((*state.palaces, placed), key=palace_sort_key))
    )
    if owed <= 0 or palace_cities(middle, seat):
        return apply(state, action)
    player = state.players[seat]
    lost: list[Symbol] = []
    for symbol in reversed(player.influence):  # kinds won this visit are out of the court
        if len(lost) < owed and symbol not in state.court_influence and symbol not in lost:
            lost.append(symbol)
    influence = list(player.influence)
    for symbol in lost:
        influence.remove(symbol)
    doctored = _with_player(state, seat, attrs.evolve(player, influence=tuple(influence)))
    doctored = attrs.evolve(
        doctored, court_influence=_in_symbol_order(set(state.court_influence) | set(lost))
    )
    return apply(doctored, action)


def crown_takes_bonus_apply(state: GameState, action: Action) -> GameState:
    """The crown palace placed on a fortress takes its bonus tile like a normal palace.

    The reference is asked to place a normal palace there instead (owed one more normal
    palace and no crown palace), so that it takes and scores the tile; the palace is
    then crowned. A fortress still holding its bonus tile is always empty: a normal
    palace would have taken it."""
    withdrawal = state.withdrawal
    if (
        withdrawal is None
        or not isinstance(action, PlaceCrown)
        or not withdrawal.crown_owed
        or action.city not in dict(state.bonus_on_board)
        or any(palace.city == action.city for palace in state.palaces)
    ):
        return apply(state, action)
    seat = withdrawal.seat
    doctored = attrs.evolve(
        state,
        withdrawal=withdrawal.placing(withdrawal.palaces_owed + 1, False, withdrawal.placed),
    )
    after = apply(doctored, PlacePalace(action.city))
    palaces = tuple(
        sorted(
            (
                Palace(palace.city, seat, True)
                if palace.city == action.city and palace.seat == seat
                else palace
                for palace in after.palaces
            ),
            key=palace_sort_key,
        )
    )
    return attrs.evolve(after, palaces=palaces)


# ---------------------------------------------------------------------------------------
# Scoring during a withdrawal


def _palace_scores(events: Iterable[Event]) -> list[Event]:
    return [
        event
        for event in events
        if event.kind is EventKind.SCORE and event.source is PointSource.PALACES
    ]


def point_per_palace_apply(state: GameState, action: Action) -> GameState:
    """Apply; the current province scores one point per palace placed in it in this
    withdrawal instead of one point in all."""
    after, events = apply_with_events(state, action)
    scored = _palace_scores(events)
    if not scored or scored[0].seat is None:
        return after
    seat = scored[0].seat
    earlier = state.withdrawal.placed if state.withdrawal is not None else ()
    now = sum(
        1
        for event in events
        if event.kind in (EventKind.PALACE, EventKind.CROWN) and event.seat == seat
    )
    return _added_score(after, {seat: len(earlier) + now - 1})


def chain_cities_apply(state: GameState, action: Action) -> GameState:
    """Apply; palace chains score one point per city they reach outside the current
    province instead of one per province."""
    after, events = apply_with_events(state, action)
    scored = _palace_scores(events)
    if not scored or scored[0].seat is None:
        return after
    event = scored[0]
    assert event.seat is not None
    board = state.config.components.board
    province = state.current_province
    own = set(event.cities)
    frontier = [city for city in own if board.cities[city].province == province]
    reached = set(frontier)
    while frontier:
        for neighbour in board.neighbours[frontier.pop()]:
            if neighbour in own and neighbour not in reached:
                reached.add(neighbour)
                frontier.append(neighbour)
    outside = sum(1 for city in reached if board.cities[city].province != province)
    return _added_score(after, {event.seat: 1 + outside - event.points})


def province_first_apply(state: GameState, action: Action) -> GameState:
    """Apply; a province tile won is scored at once, when the player withdraws, before
    the palaces are placed and their bonus tiles taken (instead of after them)."""
    after = apply(state, action)
    withdrawal = after.withdrawal
    if (
        not isinstance(action, Withdraw)
        or withdrawal is None
        or withdrawal.province_won is None
        or withdrawal.scored
    ):
        return after
    components = state.config.components
    seat = withdrawal.seat
    player = after.players[seat]
    tile = components.province_tiles[withdrawal.province_won]
    owned = [
        good for held in player.province_tiles for good in components.province_tiles[held].goods
    ]
    owned += [
        good
        for held in player.goods_tiles
        if (good := components.bonus_tiles[held].good) is not None
    ]
    points = len(tile.goods) + sum(owned.count(good) for good in tile.goods)
    player = attrs.evolve(
        player, province_tiles=(*player.province_tiles, tile.id), score=player.score + points
    )
    return attrs.evolve(
        _with_player(after, seat, player),
        withdrawal=attrs.evolve(withdrawal, province_won=None),
    )


# ---------------------------------------------------------------------------------------
# The deck


def between_visits_apply(state: GameState, action: Action) -> GameState:
    """Apply; a card owed during a withdrawal (a card bonus, the extra card) from an
    empty deck is not drawn: the discard pile is reshuffled only for the next display.

    Where the reference stops for a reshuffle during a withdrawal, the draw is skipped
    (the reference is handed the position with nothing left to draw and an empty
    discard pile, which it reshuffles as nothing) and the discard pile put back; when
    the visit then ends with an empty deck, the position waits for the reshuffle of the
    new display, as the reference's would."""
    after = apply(state, action)
    hidden: list[str] = []
    while after.step is Step.SHUFFLE and after.draw is not None and after.draw.reason != "display":
        hidden += after.discard
        skipped = attrs.evolve(
            after, discard=(), draw=PendingDraw(after.draw.destination, 0, after.draw.reason)
        )
        after = apply(skipped, Reshuffle(()))
    if not hidden:
        return after
    after = attrs.evolve(after, discard=tuple(sorted((*hidden, *after.discard))))
    size = DISPLAY_SIZES[state.players_count]
    if (
        after.visit != state.visit
        and after.step is Step.PLAY
        and after.draw is None
        and not after.deck
        and len(after.display) < size
    ):
        after = attrs.evolve(
            after,
            step=Step.SHUFFLE,
            to_move=None,
            draw=PendingDraw(DISPLAY, size - len(after.display), "display"),
        )
    return after


# ---------------------------------------------------------------------------------------
# The end of the game


def _at_the_end(state: GameState, after: GameState) -> bool:
    return after.is_over and not state.is_over


def _hand_counts(components: Components, hand: Iterable[str]) -> tuple[int, dict[CardColour, int]]:
    """White cards, and cards of each of the four colours, in a hand."""
    whites = 0
    colours: dict[CardColour, int] = {}
    for card_id in hand:
        if components.is_special(card_id):
            continue
        colour = components.cards[card_id].colour
        if colour is CardColour.WHITE:
            whites += 1
        else:
            colours[colour] = colours.get(colour, 0) + 1
    return whites, colours


def white_colour_apply(state: GameState, action: Action) -> GameState:
    """Apply; at the end, white cards compete for the largest colour too (and so may
    score twice)."""
    after = apply(state, action)
    if not _at_the_end(state, after):
        return after
    components = state.config.components
    extra: dict[int, int] = {}
    for seat, player in enumerate(after.players):
        whites, colours = _hand_counts(components, player.hand)
        largest = max(colours.values(), default=0)
        extra[seat] = max(whites - largest, 0)
    return _added_score(after, extra)


def tied_colours_apply(state: GameState, action: Action) -> GameState:
    """Apply; at the end, every colour tied for the largest scores."""
    after = apply(state, action)
    if not _at_the_end(state, after):
        return after
    components = state.config.components
    extra: dict[int, int] = {}
    for seat, player in enumerate(after.players):
        _, colours = _hand_counts(components, player.hand)
        largest = max(colours.values(), default=0)
        tied = sum(1 for count in colours.values() if count == largest)
        extra[seat] = (tied - 1) * largest if largest else 0
    return _added_score(after, extra)


def no_last_exchange_apply(state: GameState, action: Action) -> GameState:
    """Apply; the game ends with the twelfth visit's last withdrawal, before pairs of
    influence tiles are exchanged for special cards.

    In the twelfth visit the reference is handed the position with every influence tile
    held set aside; when the step ends the game, the tiles are given back (no pair was
    there to exchange), otherwise the step is played as it is."""
    if state.visit != VISITS or state.is_over:
        return apply(state, action)
    bare = attrs.evolve(
        state, players=tuple(attrs.evolve(player, influence=()) for player in state.players)
    )
    after = apply(bare, action)
    if not after.is_over:
        return apply(state, action)
    players = tuple(
        attrs.evolve(player, influence=_in_symbol_order((*held.influence, *player.influence)))
        for held, player in zip(state.players, after.players, strict=True)
    )
    return attrs.evolve(after, players=players)


__all__ = ["Apply", "Legal", "as_if_option"]
