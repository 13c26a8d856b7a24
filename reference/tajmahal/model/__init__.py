"""The game as values: components, board, rule-set options, state, actions, events, views.

Everything here is data: frozen, comparable, hashable values with no rules attached. The
rules that move from one :class:`GameState` to the next live in :mod:`tajmahal.engine`.

- symbols, colours and goods (:class:`Symbol`, :class:`CardColour`, :class:`Good`);
- the printed parts and the board (:class:`Components`, :class:`Board`,
  :func:`default_components`, :func:`load_components`);
- the rule-set options: the chosen option of every configurable ruling (:class:`RuleSet`);
- the state (:class:`GameState`, :class:`Step`, :class:`PlayerState`, :class:`Palace`,
  :class:`Withdrawal`, :class:`PendingDraw`);
- actions and their canonical strings (:class:`Play`, :class:`Withdraw`,
  :class:`PlacePalace`, :class:`PlaceCrown`, :class:`Take`, :class:`Reshuffle`,
  :func:`parse_action`);
- events, the facts of what happened inside a step (:class:`Event`, :class:`EventKind`);
- views, what one seat may see (:func:`view`, :class:`View`).
"""

from tajmahal.model._actions import (
    WITHDRAW,
    Action,
    PlaceCrown,
    PlacePalace,
    Play,
    Reshuffle,
    Take,
    Withdraw,
    parse_action,
)
from tajmahal.model._board import Board, City, CityId, Province, ProvinceId
from tajmahal.model._components import (
    COMPONENT_FILES,
    Components,
    components_from_documents,
    default_components,
    load_components,
)
from tajmahal.model._events import Event, EventKind, PointSource
from tajmahal.model._options import (
    DEFAULT_RULES,
    RULE_OPTIONS,
    AlreadyHeldSpecial,
    ColourChangeFirstTurn,
    MajorityScope,
    Permission,
    RuleSet,
    WithdrawWithoutPlaying,
)
from tajmahal.model._parsing import (
    parse_bonus_tiles,
    parse_cards,
    parse_province_tiles,
    parse_specials,
)
from tajmahal.model._parts import (
    BonusTile,
    BonusTileId,
    Card,
    CardId,
    ProvinceTile,
    ProvinceTileId,
    SpecialCard,
)
from tajmahal.model._state import (
    DISPLAY,
    DISPLAY_SIZES,
    HAND_SIZE,
    INFLUENCE_TILES_PER_KIND,
    VISITS,
    GameConfig,
    GameState,
    Palace,
    PendingDraw,
    PlayerState,
    Step,
    Withdrawal,
    palace_sort_key,
)
from tajmahal.model._symbols import (
    ALL_SYMBOLS,
    COLOURS,
    INFLUENCE_SYMBOLS,
    SYMBOL_INDEX,
    BonusKind,
    CardColour,
    Good,
    SpecialKind,
    Symbol,
)
from tajmahal.model._view import (
    Picks,
    PlayerView,
    View,
    checked_picks,
    no_picks,
    picks_along,
    player_view,
    track_picks,
    view,
    view_showing,
)

__all__ = [
    "ALL_SYMBOLS",
    "COLOURS",
    "COMPONENT_FILES",
    "DEFAULT_RULES",
    "DISPLAY",
    "DISPLAY_SIZES",
    "HAND_SIZE",
    "INFLUENCE_SYMBOLS",
    "INFLUENCE_TILES_PER_KIND",
    "RULE_OPTIONS",
    "SYMBOL_INDEX",
    "VISITS",
    "WITHDRAW",
    "Action",
    "AlreadyHeldSpecial",
    "Board",
    "BonusKind",
    "BonusTile",
    "BonusTileId",
    "Card",
    "CardColour",
    "CardId",
    "City",
    "CityId",
    "ColourChangeFirstTurn",
    "Components",
    "Event",
    "EventKind",
    "GameConfig",
    "GameState",
    "Good",
    "MajorityScope",
    "Palace",
    "PendingDraw",
    "Permission",
    "Picks",
    "PlaceCrown",
    "PlacePalace",
    "Play",
    "PlayerState",
    "PlayerView",
    "PointSource",
    "Province",
    "ProvinceId",
    "ProvinceTile",
    "ProvinceTileId",
    "Reshuffle",
    "RuleSet",
    "SpecialCard",
    "SpecialKind",
    "Step",
    "Symbol",
    "Take",
    "View",
    "Withdraw",
    "WithdrawWithoutPlaying",
    "Withdrawal",
    "checked_picks",
    "components_from_documents",
    "default_components",
    "load_components",
    "no_picks",
    "palace_sort_key",
    "parse_action",
    "parse_bonus_tiles",
    "parse_cards",
    "parse_province_tiles",
    "parse_specials",
    "picks_along",
    "player_view",
    "track_picks",
    "view",
    "view_showing",
]
