"""Taj Mahal as an OpenSpiel game (``pip install tajmahal-reference[openspiel]``).

Importing this module registers the game ``tajmahal`` with ``pyspiel``::

    import pyspiel
    import tajmahal.openspiel  # registers the game

    game = pyspiel.load_game("tajmahal", {"players": 3, "utility": "score"})

Parameters (all optional):

``players``     3, 4 (default) or 5.
``rules``       non-default rule-set options as ``name=value`` pairs separated by commas,
                e.g. ``majority_scope=all`` (the fields of :class:`tajmahal.rules.RuleSet`).
``setup``       ``staged`` (default): the setup is dealt by chance nodes
                (:class:`tajmahal.chance.Dealing`); ``seeded``: the setup outcome is
                drawn from ``seed`` before the game, as a recorded setup is given.
``seed``        the seed of a ``seeded`` setup (default 0).
``utility``     ``win`` (default): the winners share 1 (constant sum);
                ``score``: each player's final score (general sum).
``components``  a folder of component files (:func:`tajmahal.components.load_components`);
                empty (default): the embedded components.

Player actions are the ids of :mod:`tajmahal.action_space`. Chance actions are indices:
a card (dealt or drawn into a new deck) is its position among the sorted regular card
ids, a province or bonus tile its position among the sorted tile ids, a start player
its seat. A reshuffle is drawn card by card (:class:`tajmahal.chance.Shuffling`) and
folds into one ``reshuffle`` step of the engine.

The observation is the seat's view (:func:`tajmahal.observation.observation_tensor`,
string: the view's JSON); the information state adds everything the seat has learned
(:class:`tajmahal.observation.Knowledge`; string: one line per step, perfect recall).
``resample_from_infostate`` draws a state with
:func:`tajmahal.sampling.sample_consistent_state`, which OpenSpiel's information-set
MCTS (``open_spiel.python.algorithms.ismcts``) needs.
"""

from __future__ import annotations

import json
import random
from bisect import bisect_left
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
import pyspiel

from tajmahal.action_space import ActionSpace, action_space
from tajmahal.actions import Action, Reshuffle
from tajmahal.bounds import Bounds, bounds
from tajmahal.chance import Dealing, Shuffling, deal_phases
from tajmahal.components import Components, default_components, load_components
from tajmahal.encoding import tensor_encoder
from tajmahal.engine import apply, legal_actions
from tajmahal.observation import (
    Knowledge,
    Observation,
    information_tensor_size,
    observe,
    tensor_layout,
    view_to_json,
)
from tajmahal.rules import RuleSet
from tajmahal.sampling import sample_consistent_state
from tajmahal.setup import new_game, random_setup
from tajmahal.state import GameState, Step
from tajmahal.view import view

GAME_NAME = "tajmahal"
"""The short name the game is registered under."""

DEFAULT_PARAMETERS: dict[str, Any] = {
    "components": "",
    "players": 4,
    "rules": "",
    "setup": "staged",
    "seed": 0,
    "utility": "win",
}
"""Every game parameter and its default."""

PUBLIC = -1
"""Knowledge key of an onlooker who sees no hand (used to resample)."""

Node = Dealing | Shuffling | GameState

_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_OVER = Step.OVER
_SHUFFLE = Step.SHUFFLE


def parse_rules(text: str) -> RuleSet:
    """The rule set from ``name=value,name=value`` (empty: the defaults)."""
    if not text:
        return RuleSet()
    options: dict[str, str] = {}
    for item in text.split(","):
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"rules: expected name=value, found {item!r}")
        options[name.strip()] = value.strip()
    return RuleSet.from_json(options, field="rules")


def _game_type(utility: str) -> Any:
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
class _Base:
    """Where per-seat knowledge starts: the end of the dealing, or a resampled state."""

    knowledge: dict[int, Knowledge]
    """Per seat (and :data:`PUBLIC`), the knowledge at this point."""
    prefix: dict[int, str]
    """Per seat (and :data:`PUBLIC`), the information-state text up to this point."""


class _Link:
    """One step of a game's history, from which a seat's knowledge is worked out.

    Clones share their common past. A link holds the engine state after its step only
    where it is needed: where knowledge starts, and where knowledge has been worked out
    (it is replayed from there: ``apply`` is a pure function of the state before and the
    action). A simulated game asks for no knowledge, so its states are let go step by
    step as in a bare engine loop, which spares Python's garbage collector the whole
    history of states.
    """

    __slots__ = ("action", "base", "cache", "observed", "parent", "start", "state")

    def __init__(
        self,
        parent: _Link | None,
        action: Action | None,
        state: GameState | None = None,
        base: _Base | None = None,
    ) -> None:
        self.parent = parent
        """The previous link (None where knowledge starts)."""
        self.action = action
        """The engine action from the parent's state to this one (None at a start)."""
        self.state = state
        """The engine state after the step, where kept (always at a start)."""
        self.base = base
        """Set at a resampled or restored state, and at a start once asked for."""
        self.start = parent is None
        """True where per-seat knowledge starts (:attr:`base` is then set or computable)."""
        self.cache: dict[int, tuple[Knowledge, str]] | None = None
        """Per seat: the knowledge here and this step's information-state line (made on
        first use: most links of a simulated game are never asked)."""
        self.observed: tuple[Observation, ...] = ()
        """What each seat learned from the step into this link, once asked for."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Link:
        return self

    def start_base(self) -> _Base:
        """The knowledge where it starts (built on first use at the end of a dealing)."""
        if self.base is None:
            assert self.start and self.state is not None
            self.base = _start_base(self.state)
        return self.base


class _Data:
    """One position of a game: the node and what is asked of it, with the history link
    that leads to it. Clones share it (it never changes but for answers remembered).

    A plain slotted class rather than an attrs value: one is built per step, on the
    adapter's hot path.
    """

    __slots__ = ("chance", "legal", "link", "node", "player")

    def __init__(
        self,
        node: Node,
        link: _Link | None = None,
        restored: None = None,
        base: _Base | None = None,
        player: int | None = None,
        start: bool = False,
    ) -> None:
        self.node = node
        """Where the game stands."""
        if base is not None or start:
            # A start of knowledge: the end of a dealing, a seeded setup, a resampled
            # state, or an unpickled one (pickles call ``_Data(node, None, None, base)``,
            # hence the unused third argument).
            state = node.state if isinstance(node, Shuffling) else node
            assert isinstance(state, GameState)
            link = _Link(None, None, state, base)
        self.link = link
        """The history up to here (None while the setup is dealt). A reshuffle's partial
        draws share the link of the chance step: they add nothing a seat learns."""
        self.chance: list[int] | None = None
        """The sorted chance outcome ids here, once known (a chance node's list is derived
        from its parent's by removing the drawn outcome)."""
        self.legal: list[int] | None = None
        """The sorted legal action ids, once asked for."""
        self.player = _player_of(node) if player is None else player
        """OpenSpiel's current player here."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Data:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (OpenSpiel's serialization) without the history: the node, and every
        seat's knowledge and information-state text here."""
        state = self.engine_state()
        if state is None:
            return (_Data, (self.node,))
        seats = [*range(state.players_count), PUBLIC]
        found = {seat: _knowledge(self, seat) for seat in seats}
        knowledge = {seat: item[0] for seat, item in found.items() if item is not None}
        prefix = {seat: item[1] for seat, item in found.items() if item is not None}
        return (_Data, (self.node, None, None, _Base(knowledge, prefix)))

    def engine_state(self) -> GameState | None:
        """The engine state here (the state at the chance step while shuffling)."""
        node = self.node
        if isinstance(node, GameState):
            return node
        if isinstance(node, Shuffling):
            return node.state
        return None


@attrs.frozen(slots=True, eq=False)
class GameConfig:
    """Everything fixed by the game parameters (kept off the pyspiel game object, whose
    Python attributes do not survive every trip through OpenSpiel's C++ side)."""

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
    """The proven bounds (:mod:`tajmahal.bounds`)."""
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
    """What the n-th draw of a staged setup draws (:func:`tajmahal.chance.deal_phases`)."""
    chance_ids: int
    """One more than the largest chance outcome id."""

    def __deepcopy__(self, memo: dict[int, Any]) -> GameConfig:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (game_config, (dict(self.parameters),))


_CONFIGS: dict[tuple[Any, ...], GameConfig] = {}

_UNSEEDED: dict[tuple[Any, ...], GameConfig] = {}
"""A configuration per parameter set but the seed."""

_CACHED_GAMES = 32
"""Configurations and initial states kept (one per parameter set, so per seed when
seeded) before the caches start over."""


def game_config(params: dict[str, Any]) -> GameConfig:
    """The configuration for a parameter set (checked; cached)."""
    values = {**DEFAULT_PARAMETERS, **params}
    key = tuple(values[name] for name in sorted(DEFAULT_PARAMETERS))
    found = _CONFIGS.get(key)
    if found is not None:
        return found
    if len(_CONFIGS) >= _CACHED_GAMES:
        _CONFIGS.clear()
    # Games that differ only in their seed share everything else (a seeded game is
    # loaded per seed): reuse a sibling's tables.
    unseeded = tuple(values[name] if name != "seed" else None for name in sorted(values))
    sibling = _UNSEEDED.get(unseeded)
    if sibling is not None:
        config = attrs.evolve(
            sibling, parameters=tuple(sorted(values.items())), seed=int(values["seed"])
        )
        _CONFIGS[key] = config
        return config
    players = int(values["players"])
    if players not in (3, 4, 5):
        raise ValueError(f"players: Taj Mahal is for 3 to 5 players, not {players}")
    if values["setup"] not in ("staged", "seeded"):
        raise ValueError(f"setup: 'staged' or 'seeded', not {values['setup']!r}")
    if values["utility"] not in ("win", "score"):
        raise ValueError(f"utility: 'win' or 'score', not {values['utility']!r}")
    folder = str(values["components"])
    components = load_components(folder) if folder else default_components()
    province_tiles = tuple(sorted(components.province_tiles))
    bonus_tiles = tuple(sorted(components.bonus_tiles))
    cards = tuple(sorted(components.cards))
    config = GameConfig(
        parameters=tuple(sorted(values.items())),
        players=players,
        rules=parse_rules(str(values["rules"])),
        staged=values["setup"] == "staged",
        seed=int(values["seed"]),
        utility=str(values["utility"]),
        components=components,
        space=action_space(components),
        limits=bounds(components, players),
        cards=cards,
        card_index={card: i for i, card in enumerate(cards)},
        province_tiles=province_tiles,
        bonus_tiles=bonus_tiles,
        tile_index={
            **{t: i for i, t in enumerate(province_tiles)},
            **{t: i for i, t in enumerate(bonus_tiles)},
        },
        deal_phases=deal_phases(components),
        chance_ids=max(len(cards), len(province_tiles), len(bonus_tiles), players),
    )
    _CONFIGS[key] = _UNSEEDED[unseeded] = config
    return config


class TajMahalGame(pyspiel.Game):  # type: ignore[misc]
    """The game object ``pyspiel.load_game("tajmahal", ...)`` returns."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**DEFAULT_PARAMETERS, **(params or {})}
        config = game_config(values)
        limits = config.limits
        length = limits.decisions + limits.reshuffled_cards
        if config.staged:
            length += limits.setup_draws
        super().__init__(
            _game_type(config.utility),
            pyspiel.GameInfo(
                num_distinct_actions=config.space.size,
                max_chance_outcomes=limits.chance_outcomes,
                num_players=config.players,
                min_utility=0.0,
                max_utility=1.0 if config.utility == "win" else float(limits.score),
                utility_sum=1.0 if config.utility == "win" else None,
                max_game_length=length,
            ),
            values,
        )

    def config(self) -> GameConfig:
        """The configuration of this game's parameters."""
        return game_config(dict(self.get_parameters()))

    def new_initial_state(self) -> TajMahalState:
        """The start: a dealing at its first draw, or the seeded initial state."""
        return TajMahalState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TajMahalObserver:
        """An observer: the information state when perfect recall is asked, else the view."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return TajMahalObserver(self, perfect_recall)


_INITIAL: dict[tuple[tuple[str, Any], ...], _Data] = {}


def _initial_data(config: GameConfig) -> _Data:
    """The start of a game (shared: OpenSpiel builds a fresh state for every clone)."""
    found = _INITIAL.get(config.parameters)
    if found is None:
        if config.staged:
            found = _Data(Dealing(config.components, config.players, config.rules))
        else:
            setup = random_setup(config.components, config.players, config.seed)
            state = new_game(config.components, config.players, setup, config.rules)
            found = _Data(state, start=True)
        if len(_INITIAL) >= _CACHED_GAMES:
            _INITIAL.clear()
        _INITIAL[config.parameters] = found
    return found


_PAIRS: dict[tuple[int, int], list[tuple[int, float]]] = {}


def _pairs(count: int, ids: int) -> list[tuple[int, float]]:
    """``(outcome, 1 / count)`` for every chance outcome id below ``ids``, by id (shared,
    never changed: a node's outcome list is picked from it rather than built pair by
    pair)."""
    found = _PAIRS.get((count, ids))
    if found is None:
        probability = 1.0 / count
        found = _PAIRS[count, ids] = [(i, probability) for i in range(ids)]
    return found


def _without(ids: list[int], action: int) -> list[int] | None:
    """A new list: ``ids`` (distinct) without ``action``, or None when it is not among them.

    Found by bisection, as the lists are sorted; by a scan if that misses."""
    at = bisect_left(ids, action)
    if at == len(ids) or ids[at] != action:
        if action not in ids:
            return None
        at = ids.index(action)
    left = ids[:]
    del left[at]
    return left


def _player_of(node: Node) -> int:
    if isinstance(node, GameState):
        if node.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if node.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        assert node.to_move is not None
        return node.to_move
    return int(pyspiel.PlayerId.CHANCE)


def _header(state: GameState, seat: int) -> str:
    order = ",".join(state.province_order)
    bonus = ",".join(f"{city}:{tile}" for city, tile in state.bonus_on_board)
    hand = ",".join(state.players[seat].hand) if seat != PUBLIC else ""
    return f"seat {seat}; provinces {order}; bonus {bonus}; start {state.start_player}; hand {hand}"


def _start_base(state: GameState) -> _Base:
    seats = [*range(state.players_count), PUBLIC]
    return _Base(
        {seat: Knowledge.initial(state, seat) for seat in seats},
        {seat: _header(state, seat) for seat in seats},
    )


def _knowledge(data: _Data, seat: int) -> tuple[Knowledge, str] | None:
    """The knowledge of ``seat`` at ``data`` and the full information-state text.

    Walks back to the nearest link where ``seat``'s knowledge is known (or starts), then
    forward again, updating it with what the seat learns at each step. A link passed on
    the way keeps its engine state (replayed from the one before where it was let go)."""
    current = data.link
    if current is None:
        return None  # still dealing
    chain: list[_Link] = []
    link = current
    while not link.start and (link.cache is None or seat not in link.cache):
        chain.append(link)
        assert link.parent is not None
        link = link.parent
    if link.cache is None:
        link.cache = {}
    if seat in link.cache:
        knowledge = link.cache[seat][0]
    else:
        base = link.start_base()
        knowledge = base.knowledge[seat]
        link.cache[seat] = (knowledge, base.prefix[seat])
    before = link.state
    assert before is not None  # kept at a start and wherever knowledge is known
    for step in reversed(chain):
        action = step.action
        assert action is not None
        after = step.state
        if after is None:
            after = data.engine_state() if step is current else apply(before, action)
            assert after is not None
            step.state = after
        if not step.observed:
            step.observed = observe(before, action, after)
        seen = step.observed[0 if seat == PUBLIC else seat]
        if seat == PUBLIC:
            seen = attrs.evolve(seen, seat=PUBLIC, private=())
        knowledge = knowledge.update(seen)
        if step.cache is None:
            step.cache = {}
        step.cache[seat] = (knowledge, seen.to_text())
        before = after
    lines: list[str] = []
    link = current
    while True:
        assert link.cache is not None
        if link.start:
            lines.append(link.start_base().prefix[seat])
            break
        line = link.cache[seat][1]
        if line:
            lines.append(line)
        assert link.parent is not None
        link = link.parent
    assert current.cache is not None
    return current.cache[seat][0], "\n".join(reversed(lines))


class TajMahalState(pyspiel.State):  # type: ignore[misc]
    """One position of the OpenSpiel game; wraps an engine state or a chance draw."""

    def __init__(self, game: TajMahalGame, data: _Data | None = None) -> None:
        super().__init__(game)
        config = game.config()
        self._game = config
        self._data = data if data is not None else _initial_data(config)

    # -- queries ----------------------------------------------------------------------

    @property
    def node(self) -> Node:
        """The engine state or the chance draw in progress."""
        return self._data.node

    def current_player(self) -> int:
        """The seat to move, or OpenSpiel's CHANCE / TERMINAL id."""
        return self._data.player

    def _legal_actions(self, player: int) -> list[int]:
        data = self._data
        found = data.legal
        if found is None:
            node = data.node
            assert isinstance(node, GameState)
            found = data.legal = self._game.space.sorted_ids_of(legal_actions(node))
        return found

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions (chance outcomes at a chance node), as OpenSpiel's own
        ``State.legal_actions``; answered in Python, without a trip through C++."""
        data = self._data
        current = data.player
        if current == _TERMINAL:
            return []
        if current == _CHANCE:
            return self._chance_ids()[:]
        if player is not None and player != current:
            if player < 0:
                return list(super().legal_actions(player))  # OpenSpiel's own error
            return []
        found = data.legal
        if found is None:
            # As _legal_actions, inline: this is the adapter's hottest path.
            found = data.legal = self._game.space.sorted_ids_of(legal_actions(data.node))  # type: ignore[arg-type]
        return found[:]

    def is_chance_node(self) -> bool:
        """True at a chance node (answered in Python, as :meth:`legal_actions`)."""
        return self._data.player == _CHANCE

    def _chance_ids(self) -> list[int]:
        data = self._data
        if data.chance is not None:
            return data.chance
        game = self._game
        node = data.node
        if isinstance(node, GameState):
            node = Shuffling(node)
        if isinstance(node, Shuffling):
            ids = [game.card_index[card] for card in node.remaining()]
        else:
            outcomes = node.outcomes()
            phase = node.phase()
            if phase == "card":
                ids = [game.card_index[str(card)] for card in outcomes]
            elif phase == "start-player":
                ids = [int(seat) for seat in outcomes]
            else:
                ids = [game.tile_index[str(tile)] for tile in outcomes]
        data.chance = ids
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next draw's outcomes with their probabilities (uniform)."""
        ids = self._data.chance
        if ids is None:
            ids = self._chance_ids()
        pairs = _pairs(len(ids), self._game.chance_ids)
        return [pairs[i] for i in ids]

    def _outcome(self, action: int, phase: str | None = None) -> str | int:
        game = self._game
        node = self._data.node
        if isinstance(node, GameState | Shuffling):
            return game.cards[action]
        if phase is None:
            phase = node.phase()
        if phase == "card":
            return game.cards[action]
        if phase == "province-tile":
            return game.province_tiles[action]
        if phase == "bonus-tile":
            return game.bonus_tiles[action]
        return action

    def _apply_action(self, action: int) -> None:
        data = self._data
        node = data.node
        if data.player >= 0:
            assert isinstance(node, GameState)
            move = self._game.space.actions[action]
            after = apply(node, move)
            step = after.step
            if step is _OVER:
                player = _TERMINAL
            elif step is _SHUFFLE:
                player = _CHANCE
            else:
                assert after.to_move is not None
                player = after.to_move
            self._data = _Data(after, _Link(data.link, move), None, None, player)
            return
        if isinstance(node, GameState):
            node = Shuffling(node)
        following: Node
        if isinstance(node, Shuffling):
            # Checked against the cards left, then drawn as Shuffling.draw draws it (the
            # new node works out the cards left when asked; this list keeps them here).
            ids = data.chance
            left = _without(ids if ids is not None else self._chance_ids(), action)
            if left is None:
                raise ValueError(f"chance outcome {action} is not among the cards to shuffle")
            order = (*node.order, self._game.cards[action])
            if not left:
                reshuffle = Reshuffle(order)
                following = apply(node.state, reshuffle)
                # The partial draws shared the link of the chance step (a state restored
                # in mid-shuffle starts its knowledge there).
                self._data = _Data(following, _Link(data.link, reshuffle))
                return
            child = _Data(Shuffling(node.state, order), data.link, None, None, _CHANCE)
        else:
            game = self._game
            drawn = len(node.province_tiles) + len(node.bonus_tiles) + len(node.cards)
            phase = game.deal_phases[drawn]
            if phase == "start-player":
                following = node.draw(action)
                assert isinstance(following, GameState)
                # Knowledge starts here: the draws of the dealing are let go.
                self._data = _Data(following, None, start=True)
                return
            # A tile or a card: checked against the outcomes left, then added as
            # Dealing.draw adds it (the phase comes from the fixed order of the draws).
            ids = data.chance
            left = _without(ids if ids is not None else self._chance_ids(), action)
            if left is None:
                raise ValueError(f"chance outcome {action} is not possible at the {phase} step")
            provinces, bonus, cards = node.province_tiles, node.bonus_tiles, node.cards
            if phase == "card":
                cards = (*cards, game.cards[action])
            elif phase == "province-tile":
                provinces = (*provinces, game.province_tiles[action])
            else:
                bonus = (*bonus, game.bonus_tiles[action])
            following = Dealing(node.components, node.players, node.rules, provinces, bonus, cards)
            child = _Data(following, None, None, None, _CHANCE)
            if game.deal_phases[drawn + 1] != phase:
                self._data = child
                return
        # The next draw of the same kind: what is left, without the card or tile drawn.
        child.chance = left
        self._data = child

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"draw {self._outcome(action)}"
        return str(self._game.space.actions[action])

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self._data.player == _TERMINAL

    def returns(self) -> list[float]:
        """Zeros until the end; then the utility (``win`` shares or final scores)."""
        node = self._data.node
        players = self._game.players
        if not (isinstance(node, GameState) and node.is_over):
            return [0.0] * players
        if self._game.utility == "score":
            return [float(score) for score in node.scores]
        winners = node.winners()
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]

    def __str__(self) -> str:
        node = self._data.node
        if isinstance(node, GameState):
            from tajmahal.serialize import canonical_json

            return canonical_json(node)
        if isinstance(node, Shuffling):
            return f"shuffling {len(node.order)} of {len(node.state.discard)}"
        return (
            f"dealing provinces {','.join(node.province_tiles)}; bonus "
            f"{','.join(node.bonus_tiles)}; cards {','.join(node.cards)}"
        )

    # -- information ------------------------------------------------------------------

    def knowledge(self, seat: int) -> Knowledge | None:
        """What ``seat`` knows now (None while the setup is being dealt)."""
        found = _knowledge(self._data, seat)
        return None if found is None else found[0]

    def information_text(self, seat: int) -> str:
        """The perfect-recall information state of ``seat`` as text."""
        found = _knowledge(self._data, seat)
        if found is None:
            node = self._data.node
            assert isinstance(node, Dealing)
            return _dealing_text(node, seat)
        return found[1]

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> TajMahalState:
        """A state ``player`` cannot tell from this one, hidden cards drawn at random.

        ``sampler`` gives a float in [0, 1) each call (OpenSpiel passes a
        ``pyspiel.UniformProbabilitySampler``); one call seeds the draw, so a seeded
        sampler makes the resampling reproducible and nothing reads the global generator."""
        data = self._data
        state = data.engine_state()
        found = _knowledge(data, player)
        public = _knowledge(data, PUBLIC)
        if state is None or found is None or public is None or isinstance(data.node, Shuffling):
            return TajMahalState(self.get_game(), data)
        seed = int(sampler() * 2**52)
        rng = random.Random(seed)
        sampled = sample_consistent_state(view(state, player), found[0], rng, config=state.config)
        knowledge: dict[int, Knowledge] = {player: found[0], PUBLIC: public[0]}
        prefix: dict[int, str] = {player: found[1], PUBLIC: public[1]}
        for seat in range(state.players_count):
            if seat == player:
                continue
            hand = sampled.players[seat].hand
            counts = list(public[0].hidden)
            counts[seat] = (0,) * public[0].pools
            known = list(public[0].known)
            known[seat] = hand
            knowledge[seat] = attrs.evolve(
                public[0], seat=seat, known=tuple(known), hidden=tuple(counts)
            )
            prefix[seat] = f"{public[1]}\nsampled hand {','.join(hand)}"
        return TajMahalState(self.get_game(), _Data(sampled, base=_Base(knowledge, prefix)))


def _dealing_text(node: Dealing, seat: int) -> str:
    from tajmahal.state import HAND_SIZE

    own = node.cards[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] if seat >= 0 else ()
    return (
        f"dealing; seat {seat}; provinces {','.join(node.province_tiles)}; "
        f"bonus {','.join(node.bonus_tiles)}; dealt {len(node.cards)}; hand {','.join(own)}"
    )


class TajMahalObserver:
    """OpenSpiel's Python observer interface: ``tensor``, ``dict``, ``set_from``,
    ``string_from``."""

    def __init__(self, game: TajMahalGame, perfect_recall: bool) -> None:
        self.game = game.config()
        """The configuration of the game observed."""
        self.perfect_recall = perfect_recall
        """True for the information state, False for the observation."""
        layout = tensor_layout(self.game.components)
        size = information_tensor_size(self.game.components) if perfect_recall else layout.size
        self.tensor = np.zeros(size, np.float32)
        """The flat tensor, refilled by :meth:`set_from`."""
        self.encoder = tensor_encoder(self.game.components)
        """Writes the observation part (:class:`tajmahal.encoding.TensorEncoder`)."""
        self.dict: dict[str, Any] = {}
        """Named, shaped views into :attr:`tensor`."""
        for section in layout.sections:
            self.dict[section.name] = self.tensor[
                section.offset : section.offset + section.size
            ].reshape(section.shape)
        if perfect_recall:
            cards = len(layout.cards)
            self.dict["known_in_hand"] = self.tensor[layout.size :].reshape((5, cards))

    def set_from(self, state: TajMahalState, player: int) -> None:
        """Fill :attr:`tensor` for ``player`` (zeros while the setup is dealt)."""
        engine_state = state._data.engine_state()
        if engine_state is None:
            self.tensor.fill(0.0)
            return
        tensor = self.tensor
        tensor.fill(0.0)
        self.encoder.encode(engine_state, player, tensor)
        if self.perfect_recall:
            knowledge = state.knowledge(player)
            assert knowledge is not None
            self.encoder.encode_known(knowledge, player, engine_state.players_count, tensor)

    def string_from(self, state: TajMahalState, player: int) -> str:
        """The information-state text, or the view as compact JSON."""
        if self.perfect_recall:
            return state.information_text(player)
        engine_state = state._data.engine_state()
        if engine_state is None:
            node = state.node
            assert isinstance(node, Dealing)
            return _dealing_text(node, player)
        return json.dumps(
            view_to_json(view(engine_state, player)), sort_keys=True, separators=(",", ":")
        )


pyspiel.register_game(_game_type("win"), TajMahalGame)
