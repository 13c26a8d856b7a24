"""Random games per second through the OpenSpiel and PettingZoo adapters, against the
bare engine (the aim: at least 0.7 of the bare engine's rate).

Every loop plays uniformly random legal actions from a seeded generator:

- ``engine``: ``legal_actions`` / ``apply`` with ``random_reshuffle`` at chance steps;
- ``openspiel-seeded``: ``pyspiel`` states with the setup drawn from a seed (chance nodes
  only for reshuffles, drawn card by card);
- ``openspiel-staged``: the default game, the setup dealt by chance nodes too;
- ``pettingzoo-masks``: ``env.last(observe=False)``, the mask from ``infos`` (the random
  agent reads the int8 mask as booleans: numpy's ``nonzero`` is ten times slower on int8);
- ``pettingzoo-observe``: ``env.last()``, the standard loop: the random agent reads only
  the observation's ``action_mask`` (the tensor is written on first use, so it is not
  written here; see ``tajmahal.ai``);
- ``pettingzoo-tensors``: the same loop reading every observation's tensor too (what a
  learner pays). It plays the very games of ``pettingzoo-observe``: its results are
  checked to be theirs, and left out of the digest, so that the digest stays that of the
  five loops above;
- with ``--bridge``, also ``seeded-no-bridge`` and ``staged-no-bridge``: the OpenSpiel
  loops calling the state's ``_apply_action`` directly instead of OpenSpiel's C++
  ``apply_action`` (which asks ``current_player``, calls ``_apply_action`` and keeps the
  history): the difference is what that bridge costs. They are left out of the digest.
- with ``--floors``, also the floors (``tools/bench/adapter_floors.py``): the same caller loops
  over a trivial OpenSpiel game and a trivial PettingZoo environment that replay each
  real game's list lengths, and the null loops (the scripts with one ``randrange`` per
  entry, which the engine loop pays too); then, per loop, what the adapter adds to the
  engine loop, what the floor adds (floor less null), and the highest ratio the loop
  could reach if the adapter's own code took no time: engine / (engine + floor - null).
  Left out of the digest.

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
    """The benchmark's own random game (``tools/bench/bench.py``), for the same baseline."""
    final, _decisions, _steps = play_random_game(players, seed)
    return final.scores


def drive_openspiel(state: Any, seed: int, step: Callable[[int], None]) -> None:
    """The caller's loop: random outcomes and actions (``random.Random(seed)``) through
    ``step`` until ``state`` is terminal. The floors (``tools/bench/adapter_floors.py``) run this
    very loop over their trivial game."""
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            step(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            step(legal[rng.randrange(len(legal))])


def drive_pettingzoo(game: Any, seed: int, observe: bool, tensors: bool = False) -> None:
    """The caller's loop over a reset AEC environment: a random action among the mask's
    (``random.Random(seed)``), from ``last()`` with the observation or from the infos;
    with ``tensors``, every observation's tensor is read too. The floors run this very
    loop over their trivial environment."""
    import numpy as np

    rng = random.Random(seed)
    for _agent in game.agent_iter():
        if observe:
            observation, _, termination, truncation, info = game.last()
            mask = observation["action_mask"]
            if tensors:
                observation["observation"]
        else:
            _, _, termination, truncation, info = game.last(observe=False)
            mask = info.get("action_mask")
        if termination or truncation:
            game.step(None)
            continue
        legal = np.flatnonzero(mask.view(np.bool_))  # 10x faster than on int8
        game.step(int(legal[rng.randrange(len(legal))]))


def openspiel_game(setup: str, direct: bool = False) -> Callable[[int, int], tuple[int, ...]]:
    import pyspiel

    import tajmahal.ai.openspiel  # noqa: F401 - registers the game

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
        # Direct: the Python step without OpenSpiel's C++ apply_action around it (which
        # asks current_player, calls _apply_action and keeps the history); a measure of
        # that bridge only, not a way to use the game.
        drive_openspiel(state, seed, state._apply_action if direct else state.apply_action)
        return tuple(int(value) for value in state.returns())

    return play


def pettingzoo_game(observe: bool, tensors: bool = False) -> Callable[[int, int], tuple[int, ...]]:

    from tajmahal.ai.pettingzoo import env

    made: dict[int, Any] = {}

    def play(players: int, seed: int) -> tuple[int, ...]:
        # One environment per player count, reset for every game, as a training loop does.
        game = made.get(players)
        if game is None:
            game = made[players] = env(players=players, utility="score")
        game.reset(seed=seed)
        drive_pettingzoo(game, seed, observe, tensors)
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
    parser.add_argument(
        "--floors",
        action="store_true",
        help="also time the floors of each loop (not in the digest): the frameworks' "
        "own machinery with trivial games replaying the same games' list lengths",
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
        loops["pettingzoo-tensors"] = pettingzoo_game(observe=True, tensors=True)
    except ImportError:
        print("pettingzoo: not installed (pip install tajmahal-reference[pettingzoo])")
    if arguments.floors:
        loops.update(floor_loops(arguments.players, arguments.seed, arguments.games))
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
                lines.append(f"{name}:{game}:{','.join(map(str, scores or ()))}\n")
            best[name] = min(best[name], time.process_time() - started)
            results[name] = lines
    if "pettingzoo-tensors" in results:
        played = [line.split(":", 1)[1] for line in results["pettingzoo-tensors"]]
        if played != [line.split(":", 1)[1] for line in results["pettingzoo-observe"]]:
            raise SystemExit("pettingzoo-tensors played other games than pettingzoo-observe")
    digest = hashlib.sha256()
    base = arguments.games / best["engine"]
    for name in loops:
        if name in DIGESTED:
            for line in results[name]:
                digest.update(line.encode("utf-8"))
        if name.startswith(("floor-", "null-")):
            continue
        rate = arguments.games / best[name]
        print(
            f"{name:20} {best[name]:7.2f} s CPU  {rate:8.1f} games/s  {rate / base:5.2f} of engine"
        )
    print(f"digest: sha256:{digest.hexdigest()}")
    if arguments.floors:
        print_floors(best, arguments.games)


DIGESTED = (
    "engine",
    "openspiel-seeded",
    "openspiel-staged",
    "pettingzoo-masks",
    "pettingzoo-observe",
)
"""The loops whose results make the digest (the others play no new games)."""

FLOORED = {
    "openspiel-seeded": ("floor-openspiel-seeded", "null-openspiel-seeded"),
    "openspiel-staged": ("floor-openspiel-staged", "null-openspiel-staged"),
    "pettingzoo-masks": ("floor-pettingzoo-masks", "null-pettingzoo"),
    "pettingzoo-observe": ("floor-pettingzoo-observe", "null-pettingzoo"),
    "pettingzoo-tensors": ("floor-pettingzoo-tensors", "null-pettingzoo"),
}
"""Each real loop's floor loop and null loop."""


def floor_loops(players: int, seed: int, games: int) -> dict[str, Callable[[int, int], Any]]:
    """The floor and null loops of the same games (their scripts recorded here, untimed)."""
    import adapter_floors as floors

    seeds = range(seed, seed + games)
    loops: dict[str, Callable[[int, int], Any]] = {}
    for setup in ("seeded", "staged"):
        scripts = {s: floors.record_openspiel(setup, players, s) for s in seeds}
        loops[f"floor-openspiel-{setup}"] = floors.openspiel_floor(scripts)
        loops[f"null-openspiel-{setup}"] = null_of(scripts)
    scripts = {s: floors.record_pettingzoo(players, s) for s in seeds}
    loops["floor-pettingzoo-masks"] = floors.pettingzoo_floor(scripts, observe=False)
    loops["floor-pettingzoo-observe"] = floors.pettingzoo_floor(scripts, observe=True)
    loops["floor-pettingzoo-tensors"] = floors.pettingzoo_floor(scripts, True, tensors=True)
    loops["null-pettingzoo"] = null_of(scripts)
    return loops


def null_of(scripts: dict[int, Any]) -> Callable[[int, int], None]:
    """The null loop over recorded scripts."""
    from adapter_floors import null_loop

    def play(players: int, seed: int) -> None:
        null_loop(scripts[seed], seed)

    return play


def print_floors(best: dict[str, float], games: int) -> None:
    """Per loop, in milliseconds per game: the engine loop, what the adapter adds, what
    the floor adds (floor less null), and the highest ratio the floor allows."""
    engine = best["engine"] / games * 1000
    print(f"floors (ms per game; the engine loop {engine:.3f}):")
    heads = ("adds", "floor", "null", "floor adds", "ratio", "at most")
    print(f"{'loop':20} " + " ".join(f"{head:>7}" for head in heads))
    for name, (floor, null) in FLOORED.items():
        if name not in best or floor not in best:
            continue
        loop = best[name] / games * 1000
        floor_ms = best[floor] / games * 1000
        null_ms = best[null] / games * 1000
        adds = floor_ms - null_ms
        print(
            f"{name:20} {loop - engine:7.3f} {floor_ms:7.3f} {null_ms:7.3f} {adds:10.3f} "
            f"{engine / loop:6.2f} {engine / (engine + adds):7.2f}"
        )


if __name__ == "__main__":
    main()
