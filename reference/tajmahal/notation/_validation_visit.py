"""The checks of :func:`~tajmahal.notation.validate_state` on the visit in progress:
the palaces placed, the withdrawal being resolved, the step and the pending draw.

They are apart from the checks of where the cards and tiles are because they agree
the state with the turn's progress (and ask the engine which cities are open), which
the others never need.
"""

from __future__ import annotations

from tajmahal.engine import crown_cities, palace_cities
from tajmahal.errors import StateFormatError
from tajmahal.model import (
    DISPLAY,
    DISPLAY_SIZES,
    INFLUENCE_SYMBOLS,
    VISITS,
    GameState,
    Palace,
    Step,
)
from tajmahal.notation._writing import DRAW_REASONS


def check_palaces(state: GameState) -> None:
    """Palaces stand in provinces already visited; a city holds at most a normal palace
    and a crown palace; each visit has at most one crown palace, in its own province."""
    board = state.config.components.board
    count = state.config.players
    visited = set(state.province_order[: state.visit])
    crowns: dict[str, str] = {}
    in_city: dict[str, list[Palace]] = {}
    for index, palace in enumerate(state.palaces):
        where = f"palaces[{index}]"
        if palace.city not in board.cities:
            raise StateFormatError(f"{where}: unknown city {palace.city!r}")
        if not 0 <= palace.seat < count:
            raise StateFormatError(f"{where}: no seat {palace.seat}")
        province = board.cities[palace.city].province
        if province not in visited:
            raise StateFormatError(
                f"{where}: {palace.city} lies in province {province}, not visited yet"
            )
        here = in_city.setdefault(palace.city, [])
        if any(other.crowned == palace.crowned for other in here):
            raise StateFormatError(
                f"{where}: {palace.city} already holds a "
                f"{'crown' if palace.crowned else 'normal'} palace (TM.REWARD.INFLUENCE.PALACE,"
                " TM.REWARD.CROWN.OCCUPIED)"
            )
        here.append(palace)
        if palace.crowned:
            if province in crowns:
                raise StateFormatError(
                    f"{where}: province {province} already has its crown palace in "
                    f"{crowns[province]} (one crown per visit)"
                )
            crowns[province] = palace.city
    current = state.current_province
    crown_owed = state.withdrawal is not None and state.withdrawal.crown_owed
    if state.crown_in_court and (current in crowns or crown_owed):
        raise StateFormatError(
            "crown_in_court: the crown of this visit is already won (TM.REWARD.CROWN.TAKE)"
        )
    if crown_owed and current in crowns:
        raise StateFormatError(
            f"withdrawal.crown_owed: this visit's crown palace already stands in {crowns[current]}"
        )


def check_withdrawal(state: GameState) -> None:
    withdrawal = state.withdrawal
    if withdrawal is None:
        return
    components = state.config.components
    board = components.board
    count = state.config.players
    if not 0 <= withdrawal.seat < count:
        raise StateFormatError(f"withdrawal.seat: no seat {withdrawal.seat}")
    player = state.players[withdrawal.seat]
    if not player.withdrawn:
        raise StateFormatError(
            f"withdrawal.seat: seat {withdrawal.seat} is resolving a withdrawal but has not "
            "withdrawn"
        )
    if not 0 <= withdrawal.palaces_owed <= len(INFLUENCE_SYMBOLS):
        raise StateFormatError(
            f"withdrawal.palaces_owed: expected 0 to {len(INFLUENCE_SYMBOLS)} (one per "
            "influence tile won)"
        )
    if withdrawal.province_won is not None and withdrawal.province_won not in (
        components.province_tiles
    ):
        raise StateFormatError(f"withdrawal.province_won: unknown tile {withdrawal.province_won!r}")
    own = {palace.city for palace in state.palaces if palace.seat == withdrawal.seat}
    for position, city in enumerate(withdrawal.placed):
        where = f"withdrawal.placed[{position}]"
        if city not in board.cities or board.cities[city].province != state.current_province:
            raise StateFormatError(f"{where}: {city!r} is not a city of the current province")
        if city not in own:
            raise StateFormatError(f"{where}: no palace of seat {withdrawal.seat} in {city}")
    if withdrawal.scored and (withdrawal.palaces_owed or withdrawal.crown_owed):
        raise StateFormatError("withdrawal.scored: scoring comes after every placement")
    if withdrawal.played_nothing and player.played:
        raise StateFormatError(
            "withdrawal.played_nothing: the withdrawing player has cards on the table"
        )


def check_step(state: GameState) -> None:
    """The step, the player to move, the withdrawal and the pending draw agree, and a
    player to move has a legal action."""
    count = state.config.players
    withdrawal = state.withdrawal
    draw = state.draw
    step = state.step
    if (draw is not None) != (step is Step.SHUFFLE):
        raise StateFormatError(
            "draw: a draw is pending exactly at a shuffle step (it is made at once otherwise)"
        )
    if step is Step.OVER:
        if state.visit != VISITS or withdrawal is not None:
            raise StateFormatError(
                f"step: the game is over only after visit {VISITS}, with no withdrawal pending"
            )
        return
    active = [seat for seat, player in enumerate(state.players) if not player.withdrawn]
    if step in (Step.PLACE, Step.TAKE) and (withdrawal is None or state.to_move != withdrawal.seat):
        raise StateFormatError(
            f"withdrawal: a {step.value} step needs the withdrawal of the player to move"
        )
    if step is Step.PLACE:
        assert withdrawal is not None and state.to_move is not None
        if not (withdrawal.palaces_owed > 0 or withdrawal.crown_owed):
            raise StateFormatError("withdrawal: a place step needs a palace or the crown owed")
        seat = state.to_move
        if not (
            (withdrawal.palaces_owed and palace_cities(state, seat))
            or (withdrawal.crown_owed and crown_cities(state, seat))
        ):
            raise StateFormatError(
                "withdrawal: no city is open for what is owed; it would have been forfeited "
                "(RUL.REWARD.NO_LEGAL_CITY)"
            )
    if step is Step.TAKE:
        assert withdrawal is not None
        if not withdrawal.scored or not state.display or active == []:
            raise StateFormatError(
                "withdrawal: a take step comes after scoring, with cards in the display and "
                "another player still in the visit (TM.WITHDRAW.PICK_TWO)"
            )
    if step is Step.PLAY and (
        withdrawal is not None or state.to_move is None or state.players[state.to_move].withdrawn
    ):
        raise StateFormatError(
            "to_move: a play step needs a player still in the visit and no "
            "withdrawal being resolved"
        )
    if step is Step.SHUFFLE:
        assert draw is not None
        if state.deck or not state.discard:
            raise StateFormatError(
                "draw: a shuffle step needs a pending draw, an empty deck and a discard pile"
            )
        if draw.count < 1 or draw.reason not in DRAW_REASONS:
            raise StateFormatError(
                f"draw: expected a positive count and a reason among {', '.join(DRAW_REASONS)}"
            )
        if draw.reason == "display":
            if draw.destination != DISPLAY or withdrawal is not None or len(active) != count:
                raise StateFormatError(
                    "draw: the display is drawn (destination -1) at the start of a visit, "
                    "with every player in it and no withdrawal pending"
                )
            if draw.count + len(state.display) > DISPLAY_SIZES[count]:
                raise StateFormatError("draw.count: more cards than the display holds")
        elif withdrawal is None or draw.destination != withdrawal.seat or draw.count != 1:
            raise StateFormatError(
                f"draw: a {draw.reason} draw is one card for the withdrawing player"
            )
        elif draw.reason == "extra-card" and not withdrawal.scored:
            raise StateFormatError("draw: the extra card is drawn after scoring")
    if withdrawal is None and step is not Step.SHUFFLE:
        for seat, player in enumerate(state.players):
            if player.withdrawn and player.played:
                raise StateFormatError(f"seats[{seat}].played: withdrawn, cards still on table")
