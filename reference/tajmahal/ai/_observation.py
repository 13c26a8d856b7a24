"""What each seat learns: views as JSON, per-seat observations, accumulated knowledge.

Each layer is built only from what the seat may know:

* :func:`view_to_json` writes a :class:`~tajmahal.model.View` as a JSON object. Its
  numeric encoding, the fixed-length observation tensor (:func:`observation_tensor`,
  :func:`tensor_layout`), is defined in :mod:`tajmahal.ai`; this module re-exports
  its names, as it always offered them, and they are documented here.
* :func:`observe` turns one step ``(before, action, after)`` into one
  :class:`Observation` per seat: the action as everyone sees it (a reshuffle's order is
  hidden; which cards were shuffled is not, the discard pile being face up), the cards
  each seat received or gave up in the open, how many cards each seat drew face down,
  and the cards the seat itself drew (its ``private`` part: TM.PLAY.HANDS_SECRET).
* :class:`Knowledge` accumulates a seat's observations: the cards known to lie in each
  hand (taken from the face-up display, special cards earned or moved, minus cards
  played) and, for the cards whose place is unknown, which shuffle they last went
  through. That is what :func:`tajmahal.ai._sampling.sample_consistent_state` needs;
  :func:`information_tensor` appends the known cards to the observation tensor.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import attrs

from tajmahal.ai._tensor import (
    MAX_SEATS,
    SEAT_SECTIONS,
    STEPS,
    BufferT,
    Section,
    TensorLayout,
    Writable,
    fill_observation_tensor,
    observation_tensor,
    tensor_layout,
)
from tajmahal.engine import apply_with_events
from tajmahal.model import (
    Action,
    CardId,
    Components,
    Event,
    EventKind,
    GameState,
    PendingDraw,
    Reshuffle,
    View,
    Withdrawal,
)


def view_to_json(seen: View) -> dict[str, Any]:
    """A JSON-ready object holding everything in a view (same field names as :class:`View`)."""
    return {
        "viewer": seen.viewer,
        "visit": seen.visit,
        "province": seen.province,
        "step": seen.step.value,
        "to_move": seen.to_move,
        "start_player": seen.start_player,
        "players": [
            {
                "hand": list(player.hand) if player.hand is not None else None,
                "hand_size": player.hand_size,
                "played": list(player.played),
                "colour": player.colour.value if player.colour is not None else None,
                "withdrawn": player.withdrawn,
                "influence": [symbol.value for symbol in player.influence],
                "province_tiles": list(player.province_tiles),
                "goods_tiles": list(player.goods_tiles),
                "score": player.score,
            }
            for player in seen.players
        ],
        "deck_size": seen.deck_size,
        "discard": list(seen.discard),
        "display": list(seen.display),
        "specials_on_table": list(seen.specials_on_table),
        "court_influence": [symbol.value for symbol in seen.court_influence],
        "crown_in_court": seen.crown_in_court,
        "court_province_tile": seen.court_province_tile,
        "province_order": list(seen.province_order),
        "bonus_on_board": [[city, tile] for city, tile in seen.bonus_on_board],
        "palaces": [[p.city, p.seat, p.crowned] for p in seen.palaces],
    }


# ---------------------------------------------------------------------------------------
# Per-seat observations of one step


@attrs.frozen(slots=True)
class Observation:
    """What one seat learns from one step (the view after it comes on top)."""

    seat: int
    """The observing seat."""
    action: str
    """The action as everyone sees it: its canonical string, except that a reshuffle is
    written ``reshuffle`` (the new order is hidden; the shuffled cards were face up)."""
    gains: tuple[tuple[CardId, ...], ...]
    """Per seat, the cards it received in the open (from the display, or a special card)."""
    losses: tuple[tuple[CardId, ...], ...]
    """Per seat, the cards that left its hand in the open (played, or a special card
    taken by another player)."""
    hidden_draws: tuple[int, ...]
    """Per seat, how many cards it drew face down from the deck."""
    private: tuple[CardId, ...]
    """The cards this seat drew face down itself (known to it alone)."""
    reshuffled: tuple[CardId, ...]
    """The cards shuffled into a new deck in this step (sorted; empty without a reshuffle)."""
    withdrawal: Withdrawal | None
    """The public withdrawal record after the step (rewards still owed)."""
    draw: PendingDraw | None
    """The public pending draw after the step."""
    withdrawn_counts: tuple[tuple[int, ...] | None, ...]
    """Per seat, the public symbol counts recorded at withdrawal."""

    def to_text(self) -> str:
        """One line: the public action, the face-down draws, the seat's private cards."""
        parts = [self.action]
        if any(self.hidden_draws):
            parts.append("drawn " + ",".join(str(n) for n in self.hidden_draws))
        if self.private:
            parts.append("own " + ",".join(self.private))
        return "; ".join(parts)


def observe(
    before: GameState,
    action: Action,
    after: GameState,
    events: tuple[Event, ...] | None = None,
) -> tuple[Observation, ...]:
    """One :class:`Observation` per seat for the step ``before -> action -> after``.

    Derived from the step's structured events (:mod:`tajmahal.model`; computed with
    :func:`~tajmahal.engine.apply_with_events` when not given): ``take`` events and
    special cards earned in an ``exchange`` are open gains, ``play`` events and special
    cards taken from their holder are open losses, ``draw`` events into a hand are
    ``private`` to that seat (TM.PLAY.HANDS_SECRET).
    """
    if events is None:
        events = apply_with_events(before, action)[1]
    players = before.players_count
    gains: list[list[CardId]] = [[] for _ in range(players)]
    losses: list[list[CardId]] = [[] for _ in range(players)]
    hidden: list[list[CardId]] = [[] for _ in range(players)]
    for event in events:
        seat = event.seat
        if seat is None:
            continue
        kind = event.kind
        if kind is EventKind.TAKE:
            gains[seat].extend(event.cards)
        elif kind is EventKind.PLAY:
            losses[seat].extend(event.cards)
        elif kind is EventKind.DRAW and event.private:
            hidden[seat].extend(event.cards)
        elif kind is EventKind.EXCHANGE and "TM.SPECIAL.ALREADY_HELD" not in event.clauses:
            gains[seat].extend(event.cards)
            for holder in event.seats:
                losses[holder].extend(event.cards)
    reshuffled: tuple[CardId, ...] = ()
    public = str(action)
    if isinstance(action, Reshuffle):
        reshuffled = tuple(sorted(action.order))
        public = "reshuffle"
    counts = tuple(player.withdrawn_counts for player in after.players)
    open_gains = tuple(tuple(sorted(cards)) for cards in gains)
    open_losses = tuple(tuple(sorted(cards)) for cards in losses)
    drawn = tuple(len(cards) for cards in hidden)
    return tuple(
        Observation(
            seat=seat,
            action=public,
            gains=open_gains,
            losses=open_losses,
            hidden_draws=drawn,
            private=tuple(sorted(hidden[seat])),
            reshuffled=reshuffled,
            withdrawal=after.withdrawal,
            draw=after.draw,
            withdrawn_counts=counts,
        )
        for seat in range(players)
    )


# ---------------------------------------------------------------------------------------
# Accumulated knowledge


@attrs.frozen(slots=True)
class Knowledge:
    """Everything a seat has learned about where the cards are, from the start on.

    ``known[s]`` are cards known to be in seat ``s``'s hand (for the seat itself, its whole
    hand). Every other card whose place the seat cannot see went last through shuffle
    ``pool_of.get(card, 0)`` (0 is the setup shuffle, ``k`` the k-th reshuffle), and
    ``hidden[s][k]`` counts the face-down cards of pool ``k`` in seat ``s``'s hand; the
    deck holds cards of the latest pool only (a reshuffle happens only on an empty deck,
    TM.VISIT.NEXT.RESHUFFLE).
    """

    seat: int
    """The seat this knowledge belongs to."""
    known: tuple[tuple[CardId, ...], ...]
    """Per seat, the cards known to be in its hand, sorted."""
    hidden: tuple[tuple[int, ...], ...]
    """Per seat, per pool, the number of face-down cards."""
    pool_of: Mapping[CardId, int]
    """The latest reshuffle each card went through (absent: none since setup)."""
    pools: int
    """Number of pools so far (1 + reshuffles)."""
    withdrawal: Withdrawal | None
    """Public: the withdrawal being resolved."""
    draw: PendingDraw | None
    """Public: the pending draw."""
    withdrawn_counts: tuple[tuple[int, ...] | None, ...]
    """Public: symbol counts recorded at withdrawal, per seat."""
    steps: int = 0
    """Number of observations folded in."""

    @classmethod
    def initial(cls, state: GameState, seat: int) -> Knowledge:
        """What ``seat`` knows at the start: its own hand; every other hand is face down."""
        players = state.players_count
        return cls(
            seat=seat,
            known=tuple(
                state.players[s].hand
                if s == seat
                else tuple(
                    c for c in state.players[s].hand if c in state.config.components.specials
                )
                for s in range(players)
            ),
            hidden=tuple(
                (0,)
                if s == seat
                else (
                    sum(
                        1
                        for c in state.players[s].hand
                        if c not in state.config.components.specials
                    ),
                )
                for s in range(players)
            ),
            pool_of={},
            pools=1,
            withdrawal=state.withdrawal,
            draw=state.draw,
            withdrawn_counts=tuple(player.withdrawn_counts for player in state.players),
        )

    def update(self, seen: Observation) -> Knowledge:
        """This knowledge after one more observation of the same seat."""
        pools = self.pools
        pool_of = self.pool_of
        if seen.reshuffled:
            pools += 1
            pool_of = {**pool_of, **{card: pools - 1 for card in seen.reshuffled}}
        latest = pools - 1
        known: list[tuple[CardId, ...]] = []
        hidden: list[tuple[int, ...]] = []
        for s in range(len(self.known)):
            counts = [*self.hidden[s], *([0] * (pools - len(self.hidden[s])))]
            hand = Counter(self.known[s])
            # Gains first: within one step a card may come back into a hand and leave it
            # again (a special card returned after a withdrawal, then exchanged away at
            # the end of the visit), never the other way round.
            for card in seen.gains[s]:
                hand[card] += 1
            for card in seen.losses[s]:
                if hand[card] > 0:
                    hand[card] -= 1
                else:
                    counts[pool_of.get(card, 0)] -= 1
            if s == self.seat:
                for card in seen.private:
                    hand[card] += 1
            else:
                counts[latest] += seen.hidden_draws[s]
            known.append(tuple(sorted(hand.elements())))
            hidden.append(tuple(counts))
        return Knowledge(
            seat=self.seat,
            known=tuple(known),
            hidden=tuple(hidden),
            pool_of=pool_of,
            pools=pools,
            withdrawal=seen.withdrawal,
            draw=seen.draw,
            withdrawn_counts=seen.withdrawn_counts,
            steps=self.steps + 1,
        )


def knowledge_of(
    initial: GameState, actions: tuple[Action, ...] | list[Action], seat: int
) -> tuple[GameState, Knowledge]:
    """Replay ``actions`` from ``initial``; the final state and what ``seat`` knows then."""
    from tajmahal.engine import apply

    state = initial
    knowledge = Knowledge.initial(initial, seat)
    for action in actions:
        after = apply(state, action)
        knowledge = knowledge.update(observe(state, action, after)[seat])
        state = after
    return state, knowledge


def information_tensor(seen: View, knowledge: Knowledge, components: Components) -> list[float]:
    """:func:`observation_tensor` followed by, per seat slot, the cards
    known in that hand (``MAX_SEATS`` times the card count more values)."""
    layout = tensor_layout(components)
    size = layout.size + MAX_SEATS * len(layout.cards)
    return fill_information_tensor(seen, knowledge, layout, [0.0] * size)


def fill_information_tensor(
    seen: View, knowledge: Knowledge, layout: TensorLayout, out: BufferT
) -> BufferT:
    """Write :func:`information_tensor` into the zero-filled buffer ``out`` (of
    :func:`information_tensor_size` values) and return it."""
    fill_observation_tensor(seen, layout, out)
    cards = layout.cards
    players = len(seen.players)
    for seat, known in enumerate(knowledge.known):
        k = (seat - seen.viewer) % players
        for card in known:
            out[layout.size + k * len(cards) + cards[card]] = 1.0
    return out


def information_tensor_size(components: Components) -> int:
    """Length of :func:`information_tensor`."""
    layout = tensor_layout(components)
    return layout.size + MAX_SEATS * len(layout.cards)


__all__ = [
    "MAX_SEATS",
    "SEAT_SECTIONS",
    "STEPS",
    "BufferT",
    "Knowledge",
    "Observation",
    "Section",
    "TensorLayout",
    "Writable",
    "fill_information_tensor",
    "fill_observation_tensor",
    "information_tensor",
    "information_tensor_size",
    "knowledge_of",
    "observation_tensor",
    "observe",
    "tensor_layout",
    "view_to_json",
]
