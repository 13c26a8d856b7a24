"""Information states worked out lazily (replayed from where knowledge is known) are the
information states of the plain recipe: every step's observation, from the start."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import attrs
import pytest
from ai_helpers import extra

from tajmahal.ai import Knowledge, observe
from tajmahal.model import Action, GameState, Reshuffle

pyspiel = extra("pyspiel", "openspiel")
openspiel = extra("tajmahal.ai.openspiel", "openspiel")
history = extra("tajmahal.ai.openspiel._history", "openspiel")
spiel_state = extra("tajmahal.ai.openspiel._state", "openspiel")
chance = extra("tajmahal.ai._chance", "openspiel")


_OBSERVED: dict[tuple[int, int, int], Any] = {}
"""``observe`` of each step, by the identities of its states and action (the states are
kept alive by the game's list of steps while it is played; cleared per game)."""


def plain_information(
    start: GameState, steps: list[tuple[GameState, Action, GameState]], seat: int
) -> tuple[Knowledge, str]:
    """The knowledge and text of ``seat`` computed step by step from the start, with no
    history links, caches or replays (only ``observe``'s answers are kept, so that
    asking at every step stays linear)."""
    knowledge = Knowledge.initial(start, seat)
    lines = [history._header(start, seat)]
    for before, action, after in steps:
        key = (id(before), id(action), id(after))
        if key not in _OBSERVED:
            _OBSERVED[key] = observe(before, action, after)
        seen = _OBSERVED[key][0 if seat == openspiel.PUBLIC else seat]
        if seat == openspiel.PUBLIC:
            seen = attrs.evolve(seen, seat=openspiel.PUBLIC, private=())
        knowledge = knowledge.update(seen)
        if seen.to_text():
            lines.append(seen.to_text())
    return knowledge, "\n".join(lines)


def play(setup: str, players: int, seed: int, ask: str) -> None:
    """Play a random game, asking for information states as ``ask`` says (``every`` step,
    ``sometimes``, or at the ``end``), and compare each answer with the plain recipe;
    clones and pickles made on the way must answer alike when the game ends."""
    _OBSERVED.clear()
    game = pyspiel.load_game(
        "tajmahal", {"players": players, "setup": setup, "seed": seed, "utility": "score"}
    )
    config = game.config()
    state = game.new_initial_state()
    rng = random.Random(seed)
    start: GameState | None = None
    steps: list[tuple[GameState, Action, GameState]] = []
    drawn: list[str] = []
    before: GameState | None = None
    copies: list[tuple[Any, int]] = []
    seats = [*range(players), openspiel.PUBLIC]
    number = 0
    while not state.is_terminal():
        node = state.node
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = outcomes[rng.randrange(len(outcomes))][0]
            if isinstance(node, GameState):
                before, drawn = node, []
            if not isinstance(node, chance.Dealing):
                drawn.append(config.cards[action])
            state.apply_action(action)
            after = state.node
            if isinstance(after, GameState):
                if start is None:
                    start = after
                elif before is not None:
                    steps.append((before, Reshuffle(tuple(drawn)), after))
                    before = None
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            if start is None:
                start = node
            state.apply_action(action)
            steps.append((node, config.space.actions[action], state.node))
        number += 1
        if start is None:
            continue
        if ask == "every" or (ask == "sometimes" and rng.random() < 0.05):
            seat = rng.choice(seats)
            expected = plain_information(start, steps, seat)
            assert state.knowledge(seat) == expected[0]
            assert state.information_text(seat) == expected[1]
        if number % 97 == 0:
            copies.append((state.clone(), len(steps)))
            copies.append((pickle.loads(pickle.dumps(state)), len(steps)))
            copies.append((copy.deepcopy(state), len(steps)))
    assert start is not None and len(steps) > 100
    for seat in seats:
        expected = plain_information(start, steps, seat)
        assert state.information_text(seat) == expected[1]
        assert state.knowledge(seat) == expected[0]
    for copied, count in copies:
        for seat in seats:
            assert copied.information_text(seat) == plain_information(start, steps[:count], seat)[1]


@pytest.mark.parametrize(
    ("setup", "players", "seed", "ask"),
    [
        ("seeded", 4, 11, "end"),
        ("seeded", 3, 12, "sometimes"),
        ("staged", 5, 13, "sometimes"),
        ("staged", 4, 14, "every"),
    ],
)
def test_lazy_information_states_are_the_plain_ones(
    setup: str, players: int, seed: int, ask: str
) -> None:
    play(setup, players, seed, ask)


def test_an_outcome_is_removed_as_list_remove_removes_it() -> None:
    """The bisection that finds a drawn outcome agrees with a scan, on sorted lists and
    (falling back to the scan) on unsorted ones, and refuses what is not there."""
    rng = random.Random(5)
    for _ in range(300):
        ids = rng.sample(range(100), rng.randrange(1, 40))
        if rng.random() < 0.7:
            ids.sort()
        action = rng.randrange(100)
        expected: list[int] | None = ids[:]
        assert expected is not None
        if action in expected:
            expected.remove(action)
        else:
            expected = None
        before = ids[:]
        assert spiel_state._without(ids, action) == expected
        assert ids == before
