"""Hand-crafted games for edge cases the search does not reach.

A scenario deals chosen cards to a seat, makes it the start player and scripts its
first actions, then plays on like any entry; apart because it drives the game loop
itself instead of :func:`tajmahal.agents.play_match`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs

from corpusgen.entries import Entry, rule_set
from corpusgen.players import MIXES
from tajmahal.agents import chance_seed
from tajmahal.engine import (
    SetupOutcome,
    apply_with_events,
    legal_actions,
    new_game,
    random_reshuffle,
    random_setup,
)
from tajmahal.model import Action, Components, PlacePalace
from tajmahal.records import Record, Recorder


def _give(setup: SetupOutcome, seat: int, cards: Sequence[str]) -> SetupOutcome:
    """``setup`` with ``cards`` moved into ``seat``'s hand, each swapped with a card of
    that hand that is not wanted (the setup stays a valid deal)."""
    piles = [list(hand) for hand in setup.hands] + [list(setup.display), list(setup.deck)]
    for card in cards:
        if card in piles[seat]:
            continue
        spare = next(c for c in piles[seat] if c not in cards)
        pile = next(p for p in piles if card in p)
        pile[pile.index(card)] = spare
        piles[seat][piles[seat].index(spare)] = card
    count = len(setup.hands)
    return attrs.evolve(
        setup,
        hands=tuple(tuple(pile) for pile in piles[:count]),
        display=tuple(piles[count]),
        deck=tuple(piles[count + 1]),
    )


@attrs.frozen
class Scenario(Entry):
    """A hand-crafted game: chosen cards dealt to a seat, a chosen start player, and a
    script of actions that seat takes first (``palace *``: any normal palace), then
    the players of ``mix``."""

    seat: int = 0
    cards: tuple[str, ...] = ()
    script: tuple[str, ...] = ()

    def play(self, components: Components) -> Record:
        rules = rule_set(dict(self.options))
        setup = _give(random_setup(components, self.players, self.seed), self.seat, self.cards)
        setup = attrs.evolve(setup, start_player=self.seat)
        agents = MIXES[self.mix](self.players, self.seed, frozenset(self.wanted))
        state = new_game(components, self.players, setup, rules)
        recorder = Recorder(
            components,
            self.players,
            setup,
            rules,
            seed=self.seed,
            names=tuple(agent.name for agent in agents),
            record_id=self.id,
            description=self.description,
        )
        chance = random.Random(chance_seed(self.seed))
        script = list(self.script)
        while not state.is_over:
            legal: tuple[Action, ...] | None = None
            if state.is_chance:
                action: Action = random_reshuffle(state, chance)
            else:
                assert state.to_move is not None
                legal = legal_actions(state)
                action = agents[state.to_move].choose(state, legal)
                if state.to_move == self.seat and script:
                    wanted = script[0]
                    scripted = [
                        a
                        for a in legal
                        if str(a) == wanted or (wanted == "palace *" and isinstance(a, PlacePalace))
                    ]
                    if scripted:
                        action = scripted[0]
                        script.pop(0)
            after, events = apply_with_events(state, action)
            recorder.add(state, action, after, events, legal)
            state = after
        return recorder.record(state)


SCENARIO_TAGS = frozenset({"unplaceable-crown"})
"""Tags reached by hand-crafted scenarios rather than by the search."""


def scenario_entries() -> list[Entry]:
    """Hand-crafted games for edge cases the search does not reach."""
    entries: list[Entry] = []
    for players in (3, 4, 5):
        # Alone after the others withdraw at once, seat 0 wins all four influence tiles
        # and the crown with three red cards, places a palace in each city of the
        # province first; the crown palace then has no legal city (RUL.REWARD.NO_LEGAL_CITY
        # under crown_beside_own_palace=forbidden).
        entries.append(
            Scenario(
                f"scenario-unplaceable-crown-{players}p",
                "scenario",
                players,
                400 + players,
                "hoarders-after-seat-0",
                (("crown_beside_own_palace", "forbidden"),),
                ("unplaceable-crown",),
                description="seat 0, alone in visit 1, wins every tile and the crown, fills "
                "the province with palaces: the crown palace cannot be placed",
                seat=0,
                cards=("red-01", "red-03", "red-05"),
                script=(
                    "play red-01",
                    "play red-03",
                    "play red-05",
                    "withdraw",
                    "palace *",
                    "palace *",
                    "palace *",
                    "palace *",
                ),
            )
        )
    return entries
