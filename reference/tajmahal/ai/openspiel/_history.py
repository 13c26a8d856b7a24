"""A game's history and what each seat learns from it: the chain of history links, the
position data a state wraps (and how it pickles), per-seat knowledge and the
perfect-recall information-state text."""

from __future__ import annotations

from typing import Any

import attrs
import pyspiel

from tajmahal.ai._chance import Dealing, Shuffling
from tajmahal.ai._observation import Knowledge, Observation, observe
from tajmahal.ai.openspiel._config import GameConfig
from tajmahal.engine import apply
from tajmahal.model import GameState

PUBLIC = -1
"""Knowledge key of an onlooker who sees no hand (used to resample)."""

Node = Dealing | Shuffling | GameState


@attrs.frozen(slots=True, eq=False)
class HistoryBase:
    """Where per-seat knowledge starts: the end of the dealing, or a resampled state."""

    knowledge: dict[int, Knowledge]
    """Per seat (and :data:`PUBLIC`), the knowledge at this point."""
    prefix: dict[int, str]
    """Per seat (and :data:`PUBLIC`), the information-state text up to this point."""


class _Link:
    """Where per-seat knowledge starts: the end of a dealing, a seeded setup, a resampled
    or a restored state. The steps after it are :data:`Step` lists.

    A game's history is a chain of steps back to its start, from which a seat's
    knowledge is worked out. Clones share their common past. A step holds the engine
    state after it only where it is needed: where knowledge has been worked out (it is
    replayed from there: ``apply`` is a pure function of the state before and the
    action). A simulated game asks for no knowledge, so its states are let go step by
    step as in a bare engine loop, which spares Python's garbage collector the whole
    history of states.
    """

    __slots__ = ("base", "cache", "state")

    def __init__(self, state: GameState, base: HistoryBase | None = None) -> None:
        self.state = state
        """The engine state here."""
        self.base = base
        """Set at a resampled or restored state, and at the end of a dealing once asked for."""
        self.cache: dict[int, tuple[Knowledge, str]] = {}
        """Per seat: the knowledge here and the information-state text up to here."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Link:
        return self

    def start_base(self) -> HistoryBase:
        """The knowledge where it starts (built on first use at the end of a dealing)."""
        if self.base is None:
            self.base = _start_base(self.state)
        return self.base


Step = list[Any]
"""One step of a game's history: ``[parent, action]``, the parent being the step before
(a :data:`Step`) or the start (a :class:`_Link`), the action the engine action from the
parent's state to this one; extended by a third item, its :class:`_Worked`, once some
seat's knowledge has been worked out here. A two-item list rather than an object: one is
built per decision, on the adapter's hot path, and a list costs about 20 ns where a
slotted class's initialiser costs about 180."""


class _Worked:
    """What has been worked out at a step (the third item of a :data:`Step`)."""

    __slots__ = ("cache", "observed", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        """The engine state after the step (kept: knowledge is replayed from here)."""
        self.cache: dict[int, tuple[Knowledge, str]] = {}
        """Per seat: the knowledge here and this step's information-state line."""
        self.observed: tuple[Observation, ...] = ()
        """What each seat learned from the step, once asked for."""


History = Step | _Link
"""Where a position's history ends: its last step, or the start itself."""


class HistoryData:
    """One position of a game: the node and what is asked of it, with the history link
    that leads to it. Clones share it (it never changes but for answers remembered).

    A plain slotted class rather than an attrs value: one is built per step, on the
    adapter's hot path.
    """

    __slots__ = ("chance", "legal", "link", "node", "player")

    def __init__(
        self,
        node: Node,
        link: History | None = None,
        restored: None = None,
        base: HistoryBase | None = None,
        player: int | None = None,
        start: bool = False,
    ) -> None:
        self.node = node
        """Where the game stands."""
        if base is not None or start:
            # A start of knowledge: the end of a dealing, a seeded setup, a resampled
            # state, or an unpickled one (pickles call ``HistoryData(node, None, None, base)``,
            # hence the unused third argument).
            state = node.state if isinstance(node, Shuffling) else node
            assert isinstance(state, GameState)
            link = _Link(state, base)
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

    def __deepcopy__(self, memo: dict[int, Any]) -> HistoryData:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (OpenSpiel's serialization) without the history: the node, and every
        seat's knowledge and information-state text here."""
        state = self.engine_state()
        if state is None:
            return (HistoryData, (self.node,))
        seats = [*range(state.players_count), PUBLIC]
        found = {seat: knowledge_at(self, seat) for seat in seats}
        knowledge = {seat: item[0] for seat, item in found.items() if item is not None}
        prefix = {seat: item[1] for seat, item in found.items() if item is not None}
        return (HistoryData, (self.node, None, None, HistoryBase(knowledge, prefix)))

    def engine_state(self) -> GameState | None:
        """The engine state here (the state at the chance step while shuffling)."""
        node = self.node
        if isinstance(node, GameState):
            return node
        if isinstance(node, Shuffling):
            return node.state
        return None


class HistoryStep(HistoryData):
    """A position reached by a decision: a :class:`HistoryData` built by a shorter initialiser
    (no start of knowledge to check for, the player known), as one is built per decision
    on the adapter's hot path. It pickles and behaves as a :class:`HistoryData`."""

    __slots__ = ()

    def __init__(self, node: GameState, link: Step, player: int) -> None:
        self.node = node
        self.link = link
        self.chance = None
        self.legal = None
        self.player = player


_CHANCE_ID = int(pyspiel.PlayerId.CHANCE)

Drawn = tuple[Any, int]
"""Draws as a chain of pairs: ``(earlier, last)``, ``earlier`` the same for the draws
before the last, or None before the first (one pair per draw, not a longer tuple)."""


def drawn_ids(drawn: Drawn | None) -> list[int]:
    """The chance ids of a chain of draws, in the order drawn."""
    ids: list[int] = []
    while drawn is not None:
        drawn, last = drawn
        ids.append(last)
    ids.reverse()
    return ids


class HistoryDraws(HistoryData):
    """A chance node inside a run of draws (a dealing, or a reshuffle drawn card by
    card), kept as the node the run started from and the chance ids drawn since: its
    :class:`~tajmahal.ai._chance.Dealing` or :class:`~tajmahal.ai._chance.Shuffling` is made
    only when asked for (:attr:`node`), not at every draw. A game played through asks
    for none of them; what they would be is what ``Dealing.draw`` and
    ``Shuffling.draw`` give (``tests/ai/test_openspiel_draws.py``)."""

    __slots__ = ("config", "done", "drawn", "made", "start")

    def __init__(
        self,
        start: Dealing | Shuffling,
        drawn: Drawn,
        done: int,
        config: GameConfig,
        link: History | None,
        chance: list[int],
    ) -> None:
        self.start = start
        """The node the run of draws started from."""
        self.drawn = drawn
        """The chance ids drawn since ``start`` (see :data:`Drawn`)."""
        self.done = done
        """How many draws a dealing has made in all (unused while shuffling)."""
        self.config = config
        """The game's configuration (what each chance id draws)."""
        self.made: Node | None = None
        """The node, once made (:attr:`node`)."""
        self.link = link
        self.chance = chance
        self.legal = None
        self.player = _CHANCE_ID

    @property
    def node(self) -> Node:  # type: ignore[override]
        """The dealing or reshuffle in progress (made on first use)."""
        if self.made is None:
            self.made = drawn_node(self.start, self.drawn, self.config)
        return self.made


def drawn_node(start: Dealing | Shuffling, draws: Drawn, config: GameConfig) -> Dealing | Shuffling:
    """``start`` after the draws ``draws`` (chance ids), as ``draw`` of the node would
    make it draw after draw (without checking them: the state checked each)."""
    cards = config.cards
    drawn = drawn_ids(draws)
    if isinstance(start, Shuffling):
        return Shuffling(start.state, (*start.order, *(cards[i] for i in drawn)))
    provinces = list(start.province_tiles)
    bonus = list(start.bonus_tiles)
    dealt = list(start.cards)
    phases = config.deal_phases[len(provinces) + len(bonus) + len(dealt) :]
    for phase, item in zip(phases, drawn, strict=False):
        if phase == "card":
            dealt.append(cards[item])
        elif phase == "province-tile":
            provinces.append(config.province_tiles[item])
        else:
            bonus.append(config.bonus_tiles[item])
    return Dealing(
        start.components, start.players, start.rules, tuple(provinces), tuple(bonus), tuple(dealt)
    )


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


def _start_base(state: GameState) -> HistoryBase:
    seats = [*range(state.players_count), PUBLIC]
    return HistoryBase(
        {seat: Knowledge.initial(state, seat) for seat in seats},
        {seat: _header(state, seat) for seat in seats},
    )


def knowledge_at(data: HistoryData, seat: int) -> tuple[Knowledge, str] | None:
    """The knowledge of ``seat`` at ``data`` and the full information-state text.

    Walks back to the nearest step where ``seat``'s knowledge is known (or to the start),
    then forward again, updating it with what the seat learns at each step. A step passed
    on the way keeps its engine state (replayed from the one before where it was let go)."""
    current = data.link
    if current is None:
        return None  # still dealing
    chain: list[Step] = []
    link: History = current
    while type(link) is list and (len(link) == 2 or seat not in link[2].cache):
        chain.append(link)
        link = link[0]
    if isinstance(link, _Link):
        before = link.state
        if seat in link.cache:
            knowledge = link.cache[seat][0]
        else:
            base = link.start_base()
            knowledge = base.knowledge[seat]
            link.cache[seat] = (knowledge, base.prefix[seat])
    else:
        worked: _Worked = link[2]
        before = worked.state
        knowledge = worked.cache[seat][0]
    for step in reversed(chain):
        action = step[1]
        if len(step) == 2:
            after = data.engine_state() if step is current else apply(before, action)
            assert after is not None
            step.append(_Worked(after))
        worked = step[2]
        after = worked.state
        if not worked.observed:
            worked.observed = observe(before, action, after)
        seen = worked.observed[0 if seat == PUBLIC else seat]
        if seat == PUBLIC:
            seen = attrs.evolve(seen, seat=PUBLIC, private=())
        knowledge = knowledge.update(seen)
        worked.cache[seat] = (knowledge, seen.to_text())
        before = after
    lines: list[str] = []
    link = current
    while type(link) is list:
        line = link[2].cache[seat][1]
        if line:
            lines.append(line)
        link = link[0]
    assert isinstance(link, _Link)
    lines.append(link.start_base().prefix[seat])
    here = current.cache if isinstance(current, _Link) else current[2].cache
    return here[seat][0], "\n".join(reversed(lines))


def dealing_text(node: Dealing, seat: int) -> str:
    from tajmahal.model import HAND_SIZE

    own = node.cards[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] if seat >= 0 else ()
    return (
        f"dealing; seat {seat}; provinces {','.join(node.province_tiles)}; "
        f"bonus {','.join(node.bonus_tiles)}; dealt {len(node.cards)}; hand {','.join(own)}"
    )
