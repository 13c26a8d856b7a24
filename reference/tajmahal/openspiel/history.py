"""A game's history and what each seat learns from it: the chain of history links, the
position data a state wraps (and how it pickles), per-seat knowledge and the
perfect-recall information-state text."""

from __future__ import annotations

from typing import Any

import attrs
import pyspiel

from tajmahal.actions import Action
from tajmahal.chance import Dealing, Shuffling
from tajmahal.engine import apply
from tajmahal.observation import Knowledge, Observation, observe
from tajmahal.openspiel.config import GameConfig
from tajmahal.state import GameState

PUBLIC = -1
"""Knowledge key of an onlooker who sees no hand (used to resample)."""

Node = Dealing | Shuffling | GameState


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


_NODE: Any = _Data.__dict__["node"]
"""The slot that holds a position's node (read and written directly by :class:`_Draws`)."""

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


class _Draws(_Data):
    """A chance node inside a run of draws (a dealing, or a reshuffle drawn card by
    card), kept as the node the run started from and the chance ids drawn since: its
    :class:`~tajmahal.chance.Dealing` or :class:`~tajmahal.chance.Shuffling` is made
    only when asked for (:attr:`node`), not at every draw. A game played through asks
    for none of them; what they would be is what ``Dealing.draw`` and
    ``Shuffling.draw`` give (``tests/ai/test_openspiel_draws.py``)."""

    __slots__ = ("config", "done", "drawn", "start")

    def __init__(
        self,
        start: Dealing | Shuffling,
        drawn: Drawn,
        done: int,
        config: GameConfig,
        link: _Link | None,
        chance: list[int],
    ) -> None:
        _NODE.__set__(self, None)
        self.start = start
        """The node the run of draws started from."""
        self.drawn = drawn
        """The chance ids drawn since ``start`` (see :data:`Drawn`)."""
        self.done = done
        """How many draws a dealing has made in all (unused while shuffling)."""
        self.config = config
        """The game's configuration (what each chance id draws)."""
        self.link = link
        self.chance = chance
        self.legal = None
        self.player = _CHANCE_ID

    @property
    def node(self) -> Node:  # type: ignore[override]
        """The dealing or reshuffle in progress (made on first use)."""
        found: Node | None = _NODE.__get__(self)
        if found is None:
            found = drawn_node(self.start, self.drawn, self.config)
            _NODE.__set__(self, found)
        return found


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


def _dealing_text(node: Dealing, seat: int) -> str:
    from tajmahal.state import HAND_SIZE

    own = node.cards[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] if seat >= 0 else ()
    return (
        f"dealing; seat {seat}; provinces {','.join(node.province_tiles)}; "
        f"bonus {','.join(node.bonus_tiles)}; dealt {len(node.cards)}; hand {','.join(own)}"
    )
