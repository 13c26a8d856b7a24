"""Fuzzing speed: CPU milliseconds per campaign game, and the campaign's digest.

Plays the games ``--start`` to ``--start + --games - 1`` of a campaign (the default
mix of players, player counts and rule sets, seed 0) in this one process, the way a
campaign's worker plays them, and prints the CPU time per game (``process_time``, the
best of ``--repeat`` runs: the machine's load varies, CPU time much less), the steps per
game, the projection to a ten-minute campaign on two cores, and the campaign digest
(``sum256:...``, see docs/fuzzing.md), which must not depend on how fast the checks are.

``--deep-every K`` is the campaign option; ``--profile`` splits the time by part
(engine and players only, plus the step invariants, plus the tags, plus the deep
invariants) by playing the same games with more and more switched on. The engine, the
tags and the deep invariants' view and search are those the campaign uses: the
accelerated layer's choice (``TAJMAHAL_PLAIN=1`` measures the plain core).

``--floors`` measures, on the same games, the work that checking every invariant after
every step cannot avoid whatever the checks' own code does: the engine playing the game
(the legal actions at each decision and every step applied), the engine playing it
again (the replay invariant), every seat's view of every state (the views invariant)
and every state written as JSON (the round-trip invariant). Their sum, against the
budget of 12 ms per game that 100,000 games in ten minutes on two cores allow, says how
far the goal is from what the design permits (docs/fuzzing.md, "Floors").
Never used as a timed test.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable

import attrs

from tajmahal.accel import apply_with_events, legal_actions
from tajmahal.agents import PLAYER_TYPES
from tajmahal.engine import new_game
from tajmahal.model import Action, GameState, default_components, view
from tajmahal.model._view import no_picks, track_picks
from tajmahal.notation import state_to_json
from tajmahal.testing.fuzz import Checks, GameSpec, Options, run_chunk, spec_for
from tajmahal.testing.fuzz._games import (
    Tagger,
    agents_chooser,
    default_tagger,
    game_line_hash,
    play,
)

BUDGET_SECONDS = 2 * 10 * 60
"""Two cores for ten minutes."""


def measure(
    options: Options, start: int, games: int, tagger: Tagger | None, repeat: int
) -> tuple[float, int, str]:
    """The best CPU seconds over ``repeat`` runs, the steps, and the campaign digest."""
    best = float("inf")
    steps = 0
    digest = ""
    for _ in range(repeat):
        began = time.process_time()
        result = run_chunk(options, start, start + games, tagger, None)
        spent = time.process_time() - began
        best = min(best, spent)
        found = f"sum256:{result.digest:064x}"
        if digest and found != digest:
            raise SystemExit(f"the digest changed between runs: {digest} then {found}")
        if result.failures:
            raise SystemExit(f"a game failed: {result.failures[0].entry.message}")
        digest, steps = found, result.steps
    return best, steps, digest


Game = tuple[GameState, tuple[Action, ...]]
"""A game as its first state and the actions applied to it."""


def campaign_games(
    options: Options, start: int, games: int
) -> tuple[list[Game], list[GameSpec], str]:
    """The campaign's games ``start`` to ``start + games - 1`` as played by their players
    (with the step invariants only), their specs, and the campaign digest of those games."""
    components = default_components()
    played: list[Game] = []
    specs: list[GameSpec] = []
    digest = 0
    for index in range(start, start + games):
        spec = spec_for(options, index)
        specs.append(spec)
        outcome = play(
            components,
            spec.players,
            spec.rules,
            spec.seed,
            spec.chance_seed,
            agents_chooser(spec),
            Checks(),
        )
        digest = (digest + game_line_hash(index, outcome)) % (1 << 256)
        first = new_game(components, spec.players, outcome.setup, spec.rules)
        played.append((first, outcome.actions))
    return played, specs, f"sum256:{digest:064x}"


def replayed(games: list[Game], decide: bool) -> list[list[GameState]]:
    """Every state of every game, made anew by the engine; with ``decide``, the legal
    actions of every decision state are listed too, as playing needs them."""
    found: list[list[GameState]] = []
    for first, actions in games:
        state = first
        states = [state]
        for action in actions:
            if decide and not state.is_chance:
                legal_actions(state)
            state, _ = apply_with_events(state, action)
            states.append(state)
        found.append(states)
    return found


def every_view(games: list[list[GameState]]) -> None:
    """Every seat's view of every state, with the known display picks followed."""
    for states in games:
        picks = no_picks(states[0])
        before = states[0]
        for state in states:
            picks = track_picks(before, state, picks)
            before = state
            for seat in range(state.players_count):
                view(state, seat, picks)


def every_choice(games: list[list[GameState]], specs: list[GameSpec]) -> None:
    """Every decision of every game made again by the campaign's players, which draw
    from their seeds as in the campaign and so make the same choices."""
    for states, spec in zip(games, specs, strict=True):
        players = [
            PLAYER_TYPES[name](spec.seed * 10 + seat) for seat, name in enumerate(spec.agents)
        ]
        for state in states:
            if state.to_move is not None and not state.is_chance and not state.is_over:
                legal = legal_actions(state)
                if legal:
                    players[state.to_move].choose(state, legal)


def every_document(games: list[list[GameState]]) -> None:
    """Every state written as its JSON document."""
    for states in games:
        for state in states:
            state_to_json(state)


def cpu(work: Callable[[], object]) -> float:
    """CPU seconds of ``work``, with the garbage collector off (a floor is a lower bound)."""
    gc.collect()
    gc.disable()
    try:
        began = time.process_time()
        work()
        return time.process_time() - began
    finally:
        gc.enable()


def one_round(played: list[Game], specs: list[GameSpec]) -> dict[str, float]:
    """CPU seconds of each part, on states made anew (so that no memo keyed by a
    state's identity holds an answer from an earlier round)."""
    fresh: list[list[GameState]] = []
    spent = {"play": cpu(lambda: fresh.extend(replayed(played, True)))}
    spent["replay"] = cpu(lambda: replayed(played, False))
    spent["views"] = cpu(lambda: every_view(fresh))
    spent["documents"] = cpu(lambda: every_document(fresh))
    spent["choices"] = cpu(lambda: every_choice(fresh, specs))
    return spent


def floors(options: Options, start: int, games: int, repeat: int) -> None:
    """Print the floors of checking every invariant after every step of these games."""
    played, specs, digest = campaign_games(options, start, games)
    steps = sum(len(actions) for _, actions in played)
    best: dict[str, float] = {}
    for _ in range(repeat):
        for name, seconds in one_round(played, specs).items():
            best[name] = min(best.get(name, seconds), seconds)
    budget = BUDGET_SECONDS / 100_000 * 1000
    print(f"floors over games {start}..{start + games - 1}, {steps / games:.0f} steps/game")
    labels = {
        "play": "playing: legal actions at each decision, every step applied",
        "replay": "replay-reproduces: every step applied again",
        "views": "views-hide-secrets: every seat's view of every state",
        "documents": "serialization-round-trip: every state written as JSON",
    }
    total = 0.0
    for name, label in labels.items():
        per_game = best[name] / games * 1000
        total += per_game
        print(f"  {label}: {per_game:.2f} ms/game, {best[name] / steps * 1e6:.1f} us/step")
    print(
        f"  sum of the floors: {total:.2f} ms/game against the goal's {budget:.0f} ms/game; "
        f"at most {int(BUDGET_SECONDS / (total / 1000)):,} games per 10 min on 2 cores "
        "before any player's choice or any check"
    )
    choices = best["choices"] / games * 1000
    print(
        f"  beyond the floors, the campaign's players choosing: {choices:.2f} ms/game "
        f"(the step invariants: --profile)"
    )
    print(f"  digest {digest} (the campaign's, with no deep game)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="CPU time per fuzzing game.")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--start", type=int, default=0, help="index of the first game")
    parser.add_argument("--seed", type=int, default=0, help="campaign seed")
    parser.add_argument("--deep-every", type=int, default=None, help="default: the campaign's")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the fastest is reported")
    parser.add_argument("--profile", action="store_true", help="split the time by part")
    parser.add_argument(
        "--floors", action="store_true", help="the work every-step checking cannot avoid"
    )
    arguments = parser.parse_args(argv)
    base = Options(games=arguments.games, seed=arguments.seed)
    if arguments.deep_every is not None:
        base = attrs.evolve(base, deep_every=arguments.deep_every)
    if arguments.floors:
        floors(base, max(arguments.start, 1), arguments.games, arguments.repeat)
        return 0
    runs: list[tuple[str, Options, Tagger | None]] = []
    if arguments.profile:
        never = 10**15  # no index in range is a multiple except 0: start at 1
        runs.append(("engine+players+step invariants", attrs.evolve(base, deep_every=never), None))
        runs.append(("  + tags", attrs.evolve(base, deep_every=never), default_tagger()))
    runs.append((f"campaign (deep every {base.deep_every})", base, default_tagger()))
    start = arguments.start if not arguments.profile else max(arguments.start, 1)
    print(f"games {start}..{start + arguments.games - 1}, seed {arguments.seed}")
    for label, options, tagger in runs:
        cpu, steps, digest = measure(options, start, arguments.games, tagger, arguments.repeat)
        per_game = cpu / arguments.games * 1000
        projected = int(BUDGET_SECONDS / (cpu / arguments.games))
        print(
            f"{label}: {per_game:.2f} ms CPU/game, {steps / arguments.games:.0f} steps/game, "
            f"{cpu / steps * 1e6:.1f} us/step; projected {projected:,} games per 10 min "
            f"on 2 cores; digest {digest}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
