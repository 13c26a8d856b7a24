"""The game parameters of the ``tajmahal`` OpenSpiel game: their defaults, their checking,
the game type registered with ``pyspiel``, and the configuration fixed by them
(:class:`GameConfig`)."""

from __future__ import annotations

from typing import Any, Protocol

import attrs
import pyspiel

from tajmahal.ai._action_space import ActionSpace, action_space
from tajmahal.ai._bounds import Bounds, bounds
from tajmahal.ai._chance import Dealing, deal_phases
from tajmahal.errors import RecordError
from tajmahal.model import (
    DEFAULT_RULES,
    Components,
    RuleSet,
    default_components,
    load_components,
)

GAME_NAME = "tajmahal"
"""The short name the game is registered under."""

RULE_PARAMETERS: dict[str, str] = DEFAULT_RULES.to_json()
"""One game parameter per rule-set option (the fields of :class:`~tajmahal.model.RuleSet`),
each with its default value (``majority_scope``: ``remaining``, ...)."""

DEFAULT_PARAMETERS: dict[str, Any] = {
    "components": "",
    "players": 4,
    "setup": "staged",
    "seed": 0,
    "utility": "win",
    **RULE_PARAMETERS,
}
"""Every game parameter and its default."""

_SPECIAL = "(),="
"""The characters that separate parameters in an OpenSpiel game string."""


def rules_of(params: dict[str, Any]) -> RuleSet:
    """The rule set named by the rule-set parameters of ``params`` (absent: defaults)."""
    options = {name: params[name] for name in RULE_PARAMETERS if name in params}
    try:
        return RuleSet.from_json(options, field="rules")
    except RecordError as error:
        raise ValueError(f"{error.field.removeprefix('rules.')}: {error.detail}") from None


def check_writable(name: str, value: str) -> None:
    """Refuse a text parameter that ``str(game)`` could not write so that
    ``pyspiel.load_game`` reads it back as the same text.

    OpenSpiel separates parameters with ``,`` and ``=`` and nests games in parentheses,
    and reads a value made only of digits, signs and ``.`` as a number, ``True`` or
    ``true`` (``False``, ``false``) as a boolean."""
    if any(character in value for character in _SPECIAL):
        raise ValueError(
            f"{name}: {value!r} cannot be written in an OpenSpiel game string "
            f"(it holds one of {' '.join(_SPECIAL)}); use a path without them"
        )
    if value and (value in ("True", "true", "False", "false") or not value.strip("+-0123456789.")):
        raise ValueError(
            f"{name}: {value!r} would be read back from an OpenSpiel game string as a "
            f"number or a boolean; use a path with other characters (./{value}, ...)"
        )


def game_type(utility: str) -> Any:
    """The ``pyspiel.GameType`` of the game with ``utility`` (``win``: constant sum;
    ``score``: general sum)."""
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Taj Mahal (Reiner Knizia, alea 2000)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM
        if utility == "win"
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=5,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULT_PARAMETERS,
    )


@attrs.frozen(slots=True, eq=False)
class GameConfig:
    """Everything fixed by the game parameters: built when the game is loaded, held by
    the game and by each of its states and observers."""

    parameters: tuple[tuple[str, Any], ...]
    """The game parameters, sorted by name."""
    players: int
    """The player count."""
    rules: RuleSet
    """The rule set."""
    staged: bool
    """True when the setup is dealt by chance nodes."""
    seed: int
    """The seed of a seeded setup."""
    utility: str
    """``win`` or ``score``."""
    components: Components
    """The component set (the embedded one)."""
    space: ActionSpace
    """The numbered decisions."""
    limits: Bounds
    """The proven bounds (:mod:`tajmahal.ai`)."""
    cards: tuple[str, ...]
    """Chance index to card id."""
    card_index: dict[str, int]
    """Card id to chance index."""
    province_tiles: tuple[str, ...]
    """Chance index to province tile id."""
    bonus_tiles: tuple[str, ...]
    """Chance index to bonus tile id."""
    tile_index: dict[str, int]
    """Tile id to chance index."""
    deal_phases: tuple[str, ...]
    """What the n-th draw of a staged setup draws (:func:`tajmahal.ai._chance.deal_phases`)."""
    chance_ids: int
    """One more than the largest chance outcome id."""
    first_draws: dict[str, tuple[int, ...]]
    """By kind of dealing draw (:data:`deal_phases`' values): the chance ids of the first
    draw of that kind, when none of it has been drawn (all of them: each kind is drawn
    from its own pile)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> GameConfig:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (game_config, (dict(self.parameters),))


def game_config(params: dict[str, Any]) -> GameConfig:
    """The configuration for a parameter set (absent parameters: their defaults),
    checked: ``ValueError`` naming the parameter."""
    values = {**DEFAULT_PARAMETERS, **params}
    players = int(values["players"])
    if players not in (3, 4, 5):
        raise ValueError(f"players: Taj Mahal is for 3 to 5 players, not {players}")
    if values["setup"] not in ("staged", "seeded"):
        raise ValueError(f"setup: 'staged' or 'seeded', not {values['setup']!r}")
    if values["utility"] not in ("win", "score"):
        raise ValueError(f"utility: 'win' or 'score', not {values['utility']!r}")
    folder = str(values["components"])
    check_writable("components", folder)
    components = load_components(folder) if folder else default_components()
    province_tiles = tuple(sorted(components.province_tiles))
    bonus_tiles = tuple(sorted(components.bonus_tiles))
    cards = tuple(sorted(components.cards))
    chance_ids = max(len(cards), len(province_tiles), len(bonus_tiles), players)
    tile_index = {
        **{t: i for i, t in enumerate(province_tiles)},
        **{t: i for i, t in enumerate(bonus_tiles)},
    }
    taj = components.taj_mahal_tile.id
    space = action_space(components)
    return GameConfig(
        parameters=tuple(sorted(values.items())),
        players=players,
        rules=rules_of(values),
        staged=values["setup"] == "staged",
        seed=int(values["seed"]),
        utility=str(values["utility"]),
        components=components,
        space=space,
        limits=bounds(components, players),
        cards=cards,
        card_index={card: i for i, card in enumerate(cards)},
        province_tiles=province_tiles,
        bonus_tiles=bonus_tiles,
        tile_index=tile_index,
        deal_phases=deal_phases(components),
        chance_ids=chance_ids,
        first_draws={
            "province-tile": tuple(
                tile_index[str(tile)] for tile in Dealing(components, players).outcomes()
            ),
            "bonus-tile": tuple(tile_index[t] for t in bonus_tiles if t != taj),
            "card": tuple(range(len(cards))),
            "start-player": tuple(range(players)),
        },
    )


class ConfiguredGame(Protocol):
    """What a state and its observers ask of the game they belong to: its configuration."""

    def config(self) -> GameConfig:
        """The configuration of the game's parameters."""
        ...
