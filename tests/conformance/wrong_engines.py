"""Deliberately wrong engines that speak the engine protocol, for testing ``tajmahal diff``.

Each wraps the reference engine's public functions and changes exactly one rule, the
way a plausible misreading of the rulebooks would; ``tests/conformance/test_diff.py`` checks that
``diff`` catches each and names the clause it breaks. Run one as a server::

    python tests/conformance/wrong_engines.py tie-wins

None of this is part of the package: the shipped engine has no switch for a wrong rule.
"""

from __future__ import annotations

import sys

import attrs

from tajmahal.conformance import Engine, Session, serve
from tajmahal.engine import apply, legal_actions, palace_cities, symbol_counts
from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    SYMBOL_INDEX,
    Action,
    GameState,
    MajorityScope,
    Palace,
    Permission,
    PlaceCrown,
    PlacePalace,
    PlayerState,
    Step,
    Symbol,
    Withdraw,
    palace_sort_key,
)


def _with_player(state: GameState, seat: int, player: PlayerState) -> GameState:
    players = list(state.players)
    players[seat] = player
    return attrs.evolve(state, players=tuple(players))


def _in_symbol_order(symbols: set[Symbol]) -> tuple[Symbol, ...]:
    return tuple(sorted(symbols, key=SYMBOL_INDEX.__getitem__))


# ---------------------------------------------------------------------------------------
# tie-wins: a tie goes to the player who withdraws first (breaks TM.WITHDRAW.MAJORITY.STRICT)


def _available(state: GameState, symbol: Symbol) -> bool:
    if symbol is Symbol.MOGUL:
        return state.crown_in_court
    if symbol is Symbol.ELEPHANT:
        return state.court_province_tile is not None
    return symbol in state.court_influence


def tie_wins_apply(state: GameState, action: Action) -> GameState:
    """Withdrawing wins every symbol where the player has at least as many as anyone."""
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
    # Let the reference award exactly ``wins``: nobody to compare against, a court that
    # offers only those symbols; then put back what was hidden.
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


# ---------------------------------------------------------------------------------------
# crown-beside-own: the crown palace may join one's own palace even when the rule set
# forbids it (breaks TM.REWARD.CROWN.BESIDE_OWN under crown_beside_own_palace=forbidden)


def _loosened(state: GameState) -> GameState:
    rules = state.config.rules
    if rules.crown_beside_own_palace is Permission.ALLOWED:
        return state
    loose = attrs.evolve(rules, crown_beside_own_palace=Permission.ALLOWED)
    return attrs.evolve(state, config=attrs.evolve(state.config, rules=loose))


def crown_legal(state: GameState) -> tuple[Action, ...]:
    """The legal actions as if the crown could always join one's own palace."""
    return legal_actions(_loosened(state))


def crown_apply(state: GameState, action: Action) -> GameState:
    """Apply as if the crown could always join one's own palace."""
    return attrs.evolve(apply(_loosened(state), action), config=state.config)


# ---------------------------------------------------------------------------------------
# special-discarded: special cards go to the discard pile with the other played cards
# (breaks TM.SPECIAL.RETURN_TO_HAND)


def discard_apply(state: GameState, action: Action) -> GameState:
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


# ---------------------------------------------------------------------------------------
# forfeit-tile: a palace without a legal city costs its influence tile too
# (breaks RUL.REWARD.NO_LEGAL_CITY)


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


# ---------------------------------------------------------------------------------------
# anticlockwise: the next visit's start player is the one on the right
# (breaks TM.VISIT.NEXT.START_PLAYER)


def anticlockwise_apply(state: GameState, action: Action) -> GameState:
    """Apply; when a new visit starts, hand its start to the seat before the old start."""
    after = apply(state, action)
    if after.visit == state.visit or after.is_over:
        return after
    wrong = (state.start_player - 1) % state.players_count
    to_move = wrong if after.to_move == after.start_player else after.to_move
    return attrs.evolve(after, start_player=wrong, to_move=to_move)


# ---------------------------------------------------------------------------------------
# no-empty-withdraw: withdrawing needs a card played first (breaks TM.WITHDRAW.EMPTY_HANDED
# and RUL.WITHDRAW.WITHOUT_PLAYING); it refuses with a clause of its own


def _empty_withdraw(state: GameState, action: Action) -> bool:
    seat = state.to_move
    return (
        state.step is Step.PLAY
        and isinstance(action, Withdraw)
        and seat is not None
        and not state.players[seat].played
        and len(legal_actions(state)) > 1
    )


def strict_legal(state: GameState) -> tuple[Action, ...]:
    """The legal actions without a withdrawal before playing (unless nothing else is left)."""
    actions = legal_actions(state)
    return tuple(action for action in actions if not _empty_withdraw(state, action))


def strict_apply(state: GameState, action: Action) -> GameState:
    """Refuse a withdrawal before playing, naming the rule this engine believes in."""
    if _empty_withdraw(state, action):
        raise IllegalActionError(
            "play a card before withdrawing", clause="TM.WITHDRAW.EMPTY_HANDED"
        )
    return apply(state, action)


WRONG_ENGINES: dict[str, Engine] = {
    "tie-wins": Engine(apply=tie_wins_apply, name="wrong: tie-wins"),
    "crown-beside-own": Engine(crown_legal, crown_apply, name="wrong: crown-beside-own"),
    "special-discarded": Engine(apply=discard_apply, name="wrong: special-discarded"),
    "forfeit-tile": Engine(apply=forfeit_apply, name="wrong: forfeit-tile"),
    "anticlockwise": Engine(apply=anticlockwise_apply, name="wrong: anticlockwise"),
    "no-empty-withdraw": Engine(strict_legal, strict_apply, name="wrong: no-empty-withdraw"),
}
"""Every wrong engine by name."""


def main(argv: list[str]) -> int:
    """Serve the wrong engine named in ``argv`` on stdin/stdout."""
    if len(argv) != 1 or argv[0] not in WRONG_ENGINES:
        print(f"usage: wrong_engines.py {'|'.join(WRONG_ENGINES)}", file=sys.stderr)
        return 2
    return serve(sys.stdin.buffer, sys.stdout.buffer, Session(engine=WRONG_ENGINES[argv[0]]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
