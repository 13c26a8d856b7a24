"""OpenSpiel's information-set MCTS against the built-in players: the measured win rate.

Plays ``--games`` games of ``--players`` players through the ``tajmahal`` OpenSpiel game.
One seat (rotating: seat ``game % players``) is OpenSpiel's ``ISMCTSBot``, which samples
hidden cards with ``resample_from_infostate`` (``tajmahal.ai``); every other seat
is a built-in player (``--opponent random`` or ``greedy``, seeded by the game number).
The leaf evaluator plays ``--rollout`` random steps and then scores the position by the
share of points: a seat's value is its score over the sum of scores (the final result,
once the game is over, is the ``win`` utility: the winners share 1).

Prints the win rate of the searching seat (a shared win counts as its share), the rate
expected from a seat that wins at random (1 / players), CPU seconds, and a digest of
every game's final scores, the same on every run for the same arguments (every draw comes
from one generator per game, seeded by its number). Slow by design; never part of
``make check``.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import tajmahal.ai.openspiel  # noqa: F401 - registers the game
from tajmahal.agents import PLAYER_TYPES
from tajmahal.ai._action_space import action_space
from tajmahal.engine import legal_actions
from tajmahal.model import GameState


class ScoreShareEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """A short random rollout, then each seat's share of the points scored so far."""

    def __init__(self, steps: int, rng: np.random.RandomState) -> None:
        self.steps = steps
        self.rng = rng

    def evaluate(self, state: Any) -> Any:
        working = state.clone()
        for _ in range(self.steps):
            if working.is_terminal():
                return np.array(working.returns())
            if working.is_chance_node():
                actions, probabilities = zip(*working.chance_outcomes(), strict=True)
                working.apply_action(int(self.rng.choice(actions, p=probabilities)))
            else:
                working.apply_action(int(self.rng.choice(working.legal_actions())))
        if working.is_terminal():
            return np.array(working.returns())
        node = working.node
        engine_state = node if isinstance(node, GameState) else node.state
        scores = np.array(engine_state.scores, dtype=float) + 1.0
        return scores / scores.sum()

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def play(players: int, game_number: int, arguments: argparse.Namespace) -> tuple[float, str]:
    game = pyspiel.load_game("tajmahal", {"players": players})
    rng = np.random.RandomState(game_number)
    searcher = game_number % players
    bot = ismcts.ISMCTSBot(
        game,
        ScoreShareEvaluator(arguments.rollout, rng),
        arguments.uct,
        arguments.simulations,
        random_state=rng,
        allow_inconsistent_action_sets=True,
    )
    # OpenSpiel's own resampler seeds a new sampler from the operating system at every
    # simulation; drawing from the game's generator makes the match reproducible.
    bot.set_resampler(
        lambda root, player: root.resample_from_infostate(
            player, lambda: float(rng.random_sample())
        )
    )
    opponents = {
        seat: PLAYER_TYPES[arguments.opponent](seed=game_number * 10 + seat)
        for seat in range(players)
    }
    space = action_space()
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        elif state.current_player() == searcher:
            state.apply_action(bot.step(state))
        else:
            node = state.node
            chosen = opponents[state.current_player()].choose(node, legal_actions(node))
            state.apply_action(space.action_id(chosen))
    returns = state.returns()
    scores = ",".join(str(score) for score in state.node.scores)
    return returns[searcher], f"{game_number}:{searcher}:{scores}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--players", type=int, choices=(3, 4, 5), default=3)
    parser.add_argument("--opponent", choices=sorted(PLAYER_TYPES), default="random")
    parser.add_argument("--simulations", type=int, default=40)
    parser.add_argument("--rollout", type=int, default=30, help="random steps before scoring")
    parser.add_argument("--uct", type=float, default=1.0)
    arguments = parser.parse_args()
    digest = hashlib.sha256()
    won = 0.0
    started = time.process_time()
    for number in range(arguments.games):
        share, line = play(arguments.players, number, arguments)
        won += share
        digest.update(line.encode("utf-8"))
        print(f"game {number}: searching seat {number % arguments.players} won {share:.2f}")
    seconds = time.process_time() - started
    print(
        f"ISMCTS ({arguments.simulations} simulations, rollout {arguments.rollout}) against "
        f"{arguments.players - 1} {arguments.opponent} players: win rate "
        f"{won / arguments.games:.2f} over {arguments.games} games "
        f"(a random seat wins {1 / arguments.players:.2f})"
    )
    print(f"time: {seconds:.1f} s CPU")
    print(f"digest: sha256:{digest.hexdigest()}")


if __name__ == "__main__":
    main()
