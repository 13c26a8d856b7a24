"""Random games per second through the OpenSpiel and PettingZoo adapters, against the
bare engine (the aim: at least 0.7 of the bare engine's rate).

Every loop plays uniformly random legal actions from a seeded generator:

- ``engine``: ``legal_actions`` / ``apply`` with ``random_reshuffle`` at chance steps;
- ``openspiel-seeded``: ``pyspiel`` states with the setup drawn from a seed (chance nodes
  only for reshuffles, drawn card by card);
- ``openspiel-staged``: the default game, the setup dealt by chance nodes too;
- ``pettingzoo-masks``: ``env.last(observe=False)``, the mask from ``infos`` (the random
  agent reads the int8 mask as booleans: numpy's ``nonzero`` is ten times slower on int8);
- ``pettingzoo-observe``: ``env.last()``, building every observation tensor;
- with ``--bridge``, also ``seeded-no-bridge`` and ``staged-no-bridge``: the OpenSpiel
  loops calling the state's ``_apply_action`` directly instead of OpenSpiel's C++
  ``apply_action`` (which asks ``current_player``, calls ``_apply_action`` and keeps the
  history): the difference is what that bridge costs. They are left out of the digest.

Runs every loop once per repeat, in turn (round robin), and keeps the fastest run of
each. Prints CPU seconds, games per second, the ratio to the engine, and a digest of the
final scores of every loop (sha256 over "loop:game:scores" lines, in the order above,
without the ``--bridge`` loops), which must not
change for the same arguments. Never used as a timed test.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time
from collections.abc import Callable
from typing import Any

from bench import play_random_game


def engine_game(players: int, seed: int) -> tuple[int, ...]:
    """The benchmark's own random game (``tools/bench.py``), for the same baseline."""
    final, _decisions, _steps = play_random_game(players, seed)
    return final.scores


def openspiel_game(setup: str, direct: bool = False) -> Callable[[int, int], tuple[int, ...]]:
    import pyspiel

    import tajmahal.openspiel  # noqa: F401 - registers the game

    loaded: dict[int, Any] = {}

    def play(players: int, seed: int) -> tuple[int, ...]:
        # A staged game is loaded once per player count; a seeded one per seed (its setup
        # is a parameter).
        game = loaded.get(players) if setup == "staged" else None
        if game is None:
            game = pyspiel.load_game(
                "tajmahal", {"players": players, "setup": setup, "seed": seed, "utility": "score"}
            )
            if setup == "staged":
                loaded[players] = game
        state = game.new_initial_state()
        rng = random.Random(seed)
        # Direct: the Python step without OpenSpiel's C++ apply_action around it (which
        # asks current_player, calls _apply_action and keeps the history); a measure of
        # that bridge only, not a way to use the game.
        step = state._apply_action if direct else state.apply_action
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                step(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                step(legal[rng.randrange(len(legal))])
        return tuple(int(value) for value in state.returns())

    return play


def pettingzoo_game(observe: bool) -> Callable[[int, int], tuple[int, ...]]:
    import numpy as np

    from tajmahal.pettingzoo import env

    made: dict[int, Any] = {}

    def play(players: int, seed: int) -> tuple[int, ...]:
        # One environment per player count, reset for every game, as a training loop does.
        game = made.get(players)
        if game is None:
            game = made[players] = env(players=players, utility="score")
        game.reset(seed=seed)
        rng = random.Random(seed)
        for _agent in game.agent_iter():
            if observe:
                observation, _, termination, truncation, info = game.last()
                mask = observation["action_mask"]
            else:
                _, _, termination, truncation, info = game.last(observe=False)
                mask = info.get("action_mask")
            if termination or truncation:
                game.step(None)
                continue
            legal = np.flatnonzero(mask.view(np.bool_))  # 10x faster than on int8
            game.step(int(legal[rng.randrange(len(legal))]))
        assert game.state_ is not None
        return game.state_.scores

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, choices=(3, 4, 5), default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--repeat", type=int, default=3, help="report the fastest of N runs of each loop"
    )
    parser.add_argument(
        "--bridge",
        action="store_true",
        help="also time the OpenSpiel loops without OpenSpiel's C++ apply_action "
        "(not in the digest): what the bridge costs",
    )
    arguments = parser.parse_args()
    loops: dict[str, Callable[[int, int], tuple[int, ...]]] = {"engine": engine_game}
    try:
        loops["openspiel-seeded"] = openspiel_game("seeded")
        loops["openspiel-staged"] = openspiel_game("staged")
        if arguments.bridge:
            loops["seeded-no-bridge"] = openspiel_game("seeded", direct=True)
            loops["staged-no-bridge"] = openspiel_game("staged", direct=True)
    except ImportError:
        print("openspiel: not installed (pip install tajmahal-reference[openspiel])")
    try:
        loops["pettingzoo-masks"] = pettingzoo_game(observe=False)
        loops["pettingzoo-observe"] = pettingzoo_game(observe=True)
    except ImportError:
        print("pettingzoo: not installed (pip install tajmahal-reference[pettingzoo])")
    # Round robin: every repeat runs every loop once, so that a busy spell of the shared
    # machine falls on all loops alike rather than on whichever runs then.
    best = dict.fromkeys(loops, float("inf"))
    results: dict[str, list[str]] = {}
    for _ in range(arguments.repeat):
        for name, loop in loops.items():
            lines = []
            started = time.process_time()
            for game in range(arguments.games):
                scores = loop(arguments.players, arguments.seed + game)
                lines.append(f"{name}:{game}:{','.join(map(str, scores))}\n")
            best[name] = min(best[name], time.process_time() - started)
            results[name] = lines
    digest = hashlib.sha256()
    base = arguments.games / best["engine"]
    for name in loops:
        if not name.endswith("-no-bridge"):
            for line in results[name]:
                digest.update(line.encode("utf-8"))
        rate = arguments.games / best[name]
        print(
            f"{name:20} {best[name]:7.2f} s CPU  {rate:8.1f} games/s  {rate / base:5.2f} of engine"
        )
    print(f"digest: sha256:{digest.hexdigest()}")


if __name__ == "__main__":
    main()
