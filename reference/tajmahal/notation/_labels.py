"""The words both pictures of a position use: seats, cards, tiles and what the game waits for.

One place for them, so that the text picture, the SVG picture and the command line's
prompts name each thing the same way (the glossary's words: ``docs/rules/glossary.md``).
"""

from __future__ import annotations

from collections.abc import Sequence

from tajmahal.model import (
    Action,
    BonusKind,
    CardId,
    Components,
    GameState,
    PlaceCrown,
    PlacePalace,
    Play,
    ProvinceId,
    ProvinceTileId,
    SpecialKind,
    Step,
    Symbol,
    Take,
    Withdraw,
)

SYMBOL_LETTERS: dict[Symbol, str] = {
    Symbol.VIZIER: "V",
    Symbol.GENERAL: "G",
    Symbol.MONK: "M",
    Symbol.PRINCESS: "P",
    Symbol.MOGUL: "GM",
    Symbol.ELEPHANT: "E",
}
"""The letters a drawn card or influence tile shows for each symbol (the legend spells
them out)."""

SPECIAL_LETTERS: dict[SpecialKind, str] = {
    SpecialKind.ELEPHANT: "E",
    SpecialKind.MOGUL: "GM",
    SpecialKind.PLUS_TWO: "+2",
    SpecialKind.COLOUR_CHANGE: "colour",
}
"""What a drawn special card shows."""


def seat_label(seat: int, names: Sequence[str] | None = None) -> str:
    """``P2`` or ``P2 (greedy)``, as in the account of a game."""
    if names is not None and seat < len(names):
        return f"P{seat} ({names[seat]})"
    return f"P{seat}"


def symbol_name(symbol: Symbol, count: int = 1) -> str:
    """``monk``, ``2 princesses``, ``Grand Mogul``: a symbol's name, counted when
    ``count`` is not 1."""
    name = "Grand Mogul" if symbol is Symbol.MOGUL else symbol.value
    if count == 1:
        return name
    plural = name + ("es" if name.endswith("s") else "s")
    return f"{count} {plural}"


def special_name(components: Components, card: CardId) -> str:
    """A special card by what it is: ``the elephant``, ``the +2``, ``the colour change``."""
    kind = components.specials[card].kind
    return {
        SpecialKind.ELEPHANT: "elephant",
        SpecialKind.MOGUL: "Grand Mogul",
        SpecialKind.PLUS_TWO: "+2",
        SpecialKind.COLOUR_CHANGE: "colour change",
    }[kind]


def card_label(components: Components, card: CardId) -> str:
    """A card with what it shows: ``red-02 (red: general+monk)``, ``white-09 (white:
    elephant)``, ``special-plus-two (special card +2)``."""
    regular = components.cards.get(card)
    if regular is not None:
        symbols = "+".join(symbol_name(symbol) for symbol in regular.symbols)
        return f"{card} ({regular.colour.value}: {symbols})"
    if card in components.specials:
        return f"{card} (special card {special_name(components, card)})"
    return card


def cards_label(components: Components, cards: Sequence[CardId]) -> str:
    """Several cards as :func:`card_label` words them, or ``-`` for none."""
    return ", ".join(card_label(components, card) for card in cards) or "-"


def bonus_label(components: Components, tile_id: str) -> str:
    """What a bonus tile gives, in a word or two (``tea``, ``+2``, ``card``, ``Taj Mahal``)."""
    tile = components.bonus_tiles[tile_id]
    if tile.good is not None:
        return tile.good.value
    return {
        BonusKind.TAJ_MAHAL: "Taj Mahal",
        BonusKind.POINTS: "+2",
        BonusKind.CARD: "card",
        BonusKind.GOOD: "good",
    }[tile.kind]


def province_tile_label(components: Components, tile_id: ProvinceTileId) -> str:
    """``province tile 7 (rice, spices)``."""
    tile = components.province_tiles[tile_id]
    return f"province tile {tile.number} ({', '.join(good.value for good in tile.goods)})"


def tile_of_province(state: GameState, province: ProvinceId) -> ProvinceTileId | None:
    """The province tile that lay on ``province`` at setup (its number is the visit)."""
    number = state.province_order.index(province) + 1
    for tile in state.config.components.province_tiles.values():
        if tile.number == number:
            return tile.id
    return None


def points(score: int) -> str:
    """``1 point``, ``12 points``."""
    return f"{score} point" if score == 1 else f"{score} points"


def count_of(count: int, singular: str, plural: str | None = None) -> str:
    """``1 card``, ``3 cards``, ``2 palaces``: a count with its noun in the right number."""
    return f"{count} {singular if count == 1 else plural or singular + 's'}"


def waiting_for(state: GameState) -> str:
    """What the game waits for, in a few words: ``P2 to play or withdraw``, ``P0 to place
    2 palaces and the crown palace``, ``the game is over``."""
    if state.is_over:
        return "the game is over"
    if state.is_chance:
        return "the discard pile is to be shuffled into a new deck"
    seat = f"P{state.to_move}"
    if state.step is Step.PLAY:
        return f"{seat} to play or withdraw"
    if state.step is Step.PLACE:
        withdrawal = state.withdrawal
        if withdrawal is None:
            return f"{seat} to place a palace"
        owed = []
        if withdrawal.palaces_owed == 1:
            owed.append("a palace")
        elif withdrawal.palaces_owed > 1:
            owed.append(count_of(withdrawal.palaces_owed, "palace"))
        if withdrawal.crown_owed:
            owed.append("the crown palace")
        return f"{seat} to place {' and '.join(owed) or 'a palace'}"
    if state.step is Step.TAKE:
        return f"{seat} to take cards from the display"
    return f"{seat}: {state.step.value}"


def describe_action(state: GameState, action: Action) -> str:
    """What an action does, in words, for a player choosing it: the cards' symbols, what
    a palace's city holds (a bonus tile, another palace), the cards taken."""
    components = state.config.components
    if isinstance(action, Play):
        text = card_label(components, action.coloured)
        if action.extra is not None:
            text += " with " + card_label(components, action.extra)
        return text
    if isinstance(action, Withdraw):
        return "leave the visit: win, place palaces, score, discard, take display cards"
    if isinstance(action, PlacePalace | PlaceCrown):
        what = "the crown palace" if isinstance(action, PlaceCrown) else "a palace"
        notes = [f"{what} in {action.city}"]
        here = [
            f"P{p.seat}'s {'crown ' if p.crowned else ''}palace"
            for p in state.palaces
            if p.city == action.city
        ]
        if here:
            notes.append("in the same city as " + " and ".join(here))
        bonus = dict(state.bonus_on_board).get(action.city)
        if bonus is not None:
            label = bonus_label(components, bonus)
            notes.append(
                f"takes the bonus tile ({label})"
                if isinstance(action, PlacePalace)
                else f"the bonus tile ({label}) stays: a crown palace takes none"
            )
        return "; ".join(notes)
    if isinstance(action, Take):
        return "take " + " and ".join(card_label(components, card) for card in action.cards)
    return str(action)
