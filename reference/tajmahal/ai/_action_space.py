"""A fixed, numbered action space: every decision of the game as one integer.

Learning frameworks need a fixed set of actions numbered ``0 .. size - 1`` and a mask of
the legal ones. The numbering is a pure function of the component set, built from its
sorted ids in blocks (``docs/ai.md`` lists the ranges for the embedded components):

=====  ========================  ================================================
block  actions                   order inside the block
=====  ========================  ================================================
0      ``withdraw``              one id
1      ``play C``                coloured cards C, sorted by id
2      ``play C X``              C as in block 1, then extras X (white cards and
                                 special cards) sorted by id: ``start + c * E + x``
                                 for E extras
3      ``palace Y``              cities Y, sorted by id
4      ``crown Y``               cities Y, sorted by id
5      ``take A``                regular cards A, sorted by id
6      ``take A B``              pairs A < B of regular cards, in lexicographic
                                 order of their positions in the sorted list
=====  ========================  ================================================

The legal ids of a state are the ids of the engine's legal actions, sorted
(:meth:`ActionSpace.legal_ids`); :meth:`ActionSpace.ids_of` numbers any actions a caller
holds.

Chance outcomes (``reshuffle``) are not decisions and have no id here; see
:mod:`tajmahal.ai`. The numbering is part of the published API: a release that
changes it must bump :data:`ACTION_SPACE_VERSION` (a test pins ids literally).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import combinations
from types import MappingProxyType

import attrs

from tajmahal.engine import legal_actions
from tajmahal.model import (
    WITHDRAW,
    Action,
    CardColour,
    CardId,
    Components,
    GameState,
    PlaceCrown,
    PlacePalace,
    Play,
    Take,
    default_components,
)

ACTION_SPACE_VERSION = 1
"""Version of the numbering rule above; bumped whenever an id could change meaning."""


@attrs.frozen(slots=True)
class Block:
    """One contiguous range of ids holding one kind of action."""

    name: str
    """``withdraw``, ``play``, ``play-extra``, ``palace``, ``crown``, ``take-one`` or
    ``take-two``."""
    start: int
    """The first id of the block."""
    size: int
    """How many ids it holds."""


@attrs.frozen(slots=True, eq=False)
class ActionSpace:
    """The numbering of every decision for one component set.

    Built by :func:`action_space`; ``action_from_id(action_id(a)) == a`` for every
    decision ``a`` the components allow.
    """

    components: Components
    """The component set the numbering is derived from."""
    blocks: tuple[Block, ...]
    """The ranges of ids, in order (see the module docstring)."""
    actions: tuple[Action, ...]
    """Every decision, indexed by its id."""
    ids: Mapping[Action, int]
    """The id of every decision."""

    def __deepcopy__(self, memo: dict[int, object]) -> ActionSpace:
        """Itself: the numbering never changes."""
        return self

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its component set (unpickling numbers the actions again)."""
        return (action_space, (self.components,))

    @property
    def size(self) -> int:
        """Number of ids (the length of an action mask)."""
        return len(self.actions)

    def action_id(self, action: Action) -> int:
        """The id of a decision; ``KeyError`` for a chance outcome or an unknown card/city."""
        return self.ids[action]

    def ids_of(self, actions: Iterable[Action]) -> list[int]:
        """The ids of ``actions``, in the same order."""
        return [self.ids[action] for action in actions]

    def legal_ids(self, state: GameState) -> list[int]:
        """The ids of ``legal_actions(state)``, sorted ascending (a new list each call;
        empty where there is no decision). ``ValueError`` for a state of another
        component set."""
        if state.config.components != self.components:
            raise ValueError("the state's component set is not this action space's")
        return sorted(self.ids_of(legal_actions(state)))

    def action_from_id(self, number: int) -> Action:
        """The decision numbered ``number``; ``IndexError`` outside ``0 .. size - 1``."""
        if number < 0:
            raise IndexError(f"action id {number} is negative")
        return self.actions[number]

    def mask(self, legal: Iterable[Action]) -> tuple[bool, ...]:
        """A tuple of ``size`` flags, True at the ids of ``legal``."""
        flags = [False] * len(self.actions)
        ids = self.ids
        for action in legal:
            flags[ids[action]] = True
        return tuple(flags)

    def block_of(self, number: int) -> Block:
        """The block holding id ``number``."""
        for block in self.blocks:
            if block.start <= number < block.start + block.size:
                return block
        raise IndexError(f"action id {number} is outside 0 .. {self.size - 1}")


def action_space(components: Components | None = None) -> ActionSpace:
    """The numbered action space of a component set (the embedded one by default).

    Each call numbers the actions anew (some tens of milliseconds): build it once and
    keep it to number many actions.
    """
    if components is None:
        components = default_components()
    cards = components.cards
    coloured = sorted(c for c, card in cards.items() if card.colour is not CardColour.WHITE)
    extras: list[CardId] = sorted(
        [c for c, card in cards.items() if card.colour is CardColour.WHITE]
        + list(components.specials)
    )
    cities = sorted(components.board.cities)
    regular = sorted(cards)
    groups: list[tuple[str, list[Action]]] = [
        ("withdraw", [WITHDRAW]),
        ("play", [Play(c) for c in coloured]),
        ("play-extra", [Play(c, x) for c in coloured for x in extras]),
        ("palace", [PlacePalace(city) for city in cities]),
        ("crown", [PlaceCrown(city) for city in cities]),
        ("take-one", [Take((card,)) for card in regular]),
        ("take-two", [Take(pair) for pair in combinations(regular, 2)]),
    ]
    blocks: list[Block] = []
    actions: list[Action] = []
    for name, members in groups:
        blocks.append(Block(name, len(actions), len(members)))
        actions.extend(members)
    ids = {action: number for number, action in enumerate(actions)}
    return ActionSpace(components, tuple(blocks), tuple(actions), MappingProxyType(ids))


def action_id(action: Action, components: Components | None = None) -> int:
    """The id of ``action`` in :func:`action_space` of ``components`` (built for the
    call: keep an :class:`ActionSpace` to number many)."""
    return action_space(components).action_id(action)


def action_from_id(number: int, components: Components | None = None) -> Action:
    """The decision numbered ``number`` in :func:`action_space` of ``components`` (built
    for the call: keep an :class:`ActionSpace` to look up many)."""
    return action_space(components).action_from_id(number)
