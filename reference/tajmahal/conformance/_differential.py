"""Live differential testing: many games through another engine and this one.

:func:`run_diff` starts the other engine (a command speaking ``docs/protocol.md``), then
plays games through both (:func:`tajmahal.conformance.play_plan`): random games and
edge-seeking ones (withdrawing at varied moments, preferring special cards, the crown on
an occupied city, palaces on bonus tiles), with the built-in players mixed in. At the
first disagreement it stops and :func:`shrink` searches for a shorter game with the same
kind of disagreement (fewer players, fewer steps, simpler choices). The engine is always
killed at the end; a crash, a hang, garbage or an early close is reported as such.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping

import attrs

from tajmahal.agents import PLAYER_TYPES
from tajmahal.conformance._divergence import OPTIONAL_FIELDS
from tajmahal.conformance._foreign import EngineFailure, ForeignEngine
from tajmahal.conformance._lockstep import Chooser, GamePlan, Played, observed_record, play_plan
from tajmahal.model import (
    RULE_OPTIONS,
    Action,
    Components,
    GameState,
    PlaceCrown,
    PlacePalace,
    Play,
    RuleSet,
    Step,
    Withdraw,
)
from tajmahal.verification import HypothesisTester

POLICIES = ("edge", *PLAYER_TYPES)
"""The ways seats choose in generated games: the edge seeker below and every built-in
player type (:data:`tajmahal.agents.PLAYER_TYPES`)."""


@attrs.frozen(slots=True)
class Shrunk:
    """The outcome of shrinking a disagreeing game."""

    original: Played
    """The game as first found."""
    shortest: Played
    """The shortest disagreeing game found."""
    replays: int
    """Games replayed while shrinking."""


@attrs.frozen(slots=True)
class DiffResult:
    """The outcome of a diff run."""

    engine: str
    """The engine name from its ``hello`` reply (or the command)."""
    games: int
    """Games played to the end or to a disagreement."""
    steps: int
    """Steps compared in all (not counting shrinking)."""
    seconds: float
    """Wall time of the run, shrinking included."""
    game_index: int | None = None
    """The game that disagreed, if one did."""
    shrunk: Shrunk | None = None
    """The disagreement and its shrunk game, if one was found."""
    failure: EngineFailure | None = None
    """How the engine failed (crash, hang, garbage, early close), if it did."""
    failure_at: str = ""
    """Where it failed (game and step)."""

    @property
    def agreed(self) -> bool:
        """True when every game agreed and the engine never failed."""
        return self.shrunk is None and self.failure is None


# ---------------------------------------------------------------------------------------
# Choosing


class EdgeSeeker:
    """Random choices biased towards rare branches.

    Withdraws with a probability drawn per seat (so withdrawals come early, late, or
    without playing), prefers plays with a special card, and at a placement picks a kind
    first (the crown on an occupied city, the crown on an empty one, a palace on a bonus
    tile, another palace) and then a city of that kind.
    """

    WITHDRAW_RATES = (0.03, 0.1, 0.25, 0.5)
    """The per-seat chances of withdrawing instead of playing."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        """The generator of every choice."""
        self.withdraw_rate = rng.choice(self.WITHDRAW_RATES)
        """This seat's chance of withdrawing when it could play."""

    def __call__(self, state: GameState, legal: tuple[Action, ...]) -> int:
        """The index of the chosen action."""
        rng = self.rng
        indices = range(len(legal))
        if state.step is Step.PLAY:
            plays = [i for i in indices if isinstance(legal[i], Play)]
            withdraws = [i for i in indices if isinstance(legal[i], Withdraw)]
            if withdraws and (not plays or rng.random() < self.withdraw_rate):
                return withdraws[0]
            components = state.config.components
            special = [i for i in plays if components.is_special(_extra(legal[i]))]
            if special and rng.random() < 0.6:
                return rng.choice(special)
            return rng.choice(plays)
        if state.step is Step.PLACE:
            occupied = {palace.city for palace in state.palaces}
            bonus = {city for city, _ in state.bonus_on_board}
            kinds: list[list[int]] = [[], [], [], []]
            for i in indices:
                action = legal[i]
                if isinstance(action, PlaceCrown):
                    kinds[0 if action.city in occupied else 1].append(i)
                elif isinstance(action, PlacePalace):
                    kinds[2 if action.city in bonus else 3].append(i)
            return rng.choice(rng.choice([kind for kind in kinds if kind]))
        return rng.randrange(len(legal))


def _extra(action: Action) -> str:
    return (action.extra or "") if isinstance(action, Play) else ""


def _chooser(policy: str, rng: random.Random) -> Chooser:
    if policy == "edge":
        return EdgeSeeker(rng)
    player = PLAYER_TYPES[policy](rng.randrange(2**31))
    return lambda state, legal: legal.index(player.choose(state, legal))


# ---------------------------------------------------------------------------------------
# Shrinking


class _Replayer:
    """Replays plans, restarting the engine when it fails, within a budget."""

    def __init__(
        self,
        engine: ForeignEngine,
        components: Components,
        compare: frozenset[str],
        budget: int,
        deadline: float,
    ) -> None:
        self.engine = engine
        self.components = components
        self.compare = compare
        self.budget = budget
        self.deadline = deadline
        self.replays = 0

    @property
    def exhausted(self) -> bool:
        return self.replays >= self.budget or time.monotonic() >= self.deadline

    def run(self, plan: GamePlan) -> Played | None:
        self.replays += 1
        try:
            return play_plan(plan, self.engine, self.components, compare=self.compare)
        except EngineFailure:
            self.engine.close()
            try:
                self.engine.start()
            except EngineFailure:
                self.budget = 0  # the engine no longer starts: stop shrinking
            return None


def _better(candidate: Played | None, best: Played, field: str) -> bool:
    if candidate is None or candidate.divergence is None:
        return False
    if candidate.divergence.field != field:
        return False
    return _size(candidate) < _size(best)


def _size(played: Played) -> tuple[int, int, int]:
    """What shrinking reduces: players, then steps, then the choices (a withdrawal,
    written -1, counts as the simplest)."""
    plan = played.plan
    return (plan.players, played.steps, sum(max(choice, 0) for choice in plan.choices))


def shrink(
    played: Played,
    engine: ForeignEngine,
    components: Components,
    *,
    budget: int = 400,
    seconds: float = 30.0,
    compare: frozenset[str] = OPTIONAL_FIELDS,
) -> Shrunk:
    """Search for a shorter game with the same kind of disagreement: fewer players (a
    few setups each), then deleting runs of choices and lowering choices, until nothing
    helps or the budget (replays or seconds) runs out."""
    assert played.divergence is not None
    field = played.divergence.field
    replayer = _Replayer(engine, components, compare, budget, time.monotonic() + seconds)
    best = played

    def attempt(plan: GamePlan) -> bool:
        nonlocal best
        if replayer.exhausted:
            return False
        candidate = replayer.run(plan)
        if _better(candidate, best, field):
            assert candidate is not None
            best = candidate
            return True
        return False

    for players in range(3, best.plan.players):
        for offset in range(4):
            plan = attrs.evolve(
                best.plan, players=players, setup_seed=best.plan.setup_seed + offset
            )
            if attempt(plan):
                break
        if best.plan.players == players:
            break
    improved = True
    while improved and not replayer.exhausted:
        improved = False
        size = max(1, len(best.plan.choices) // 2)
        while size >= 1 and not replayer.exhausted:
            start = 0
            while start < len(best.plan.choices) and not replayer.exhausted:
                choices = best.plan.choices
                if attempt(
                    attrs.evolve(best.plan, choices=choices[:start] + choices[start + size :])
                ):
                    improved = True
                else:
                    start += size
            size //= 2
        for index in range(len(best.plan.choices)):
            if replayer.exhausted:
                break
            for simpler in (-1, 0):  # the last action (withdraw, when playing), the first
                choices = best.plan.choices
                if index < len(choices) and choices[index] not in (simpler, -1):
                    lowered = (*choices[:index], simpler, *choices[index + 1 :])
                    if attempt(attrs.evolve(best.plan, choices=lowered)):
                        improved = True
                        break
    return Shrunk(played, best, replayer.replays)


# ---------------------------------------------------------------------------------------
# A whole run


def _with_hypotheses(shrunk: Shrunk, components: Components, tester: HypothesisTester) -> Shrunk:
    """``shrunk`` with the hypotheses ``tester`` finds for its shortest game."""
    divergence = shrunk.shortest.divergence
    if divergence is None or divergence.explanation is None:
        return shrunk
    found = tester(observed_record(shrunk.shortest, components), divergence.explanation)
    explained = attrs.evolve(divergence, explanation=divergence.explanation.with_hypotheses(found))
    return attrs.evolve(shrunk, shortest=attrs.evolve(shrunk.shortest, divergence=explained))


def game_rules(fixed: Mapping[str, str], rng: random.Random, first: bool) -> RuleSet:
    """The rule set of a game: the fixed options, the others at their defaults in the
    first game and drawn at random in later ones."""
    values = {} if first else {name: rng.choice(options) for name, options in RULE_OPTIONS.items()}
    values.update(fixed)
    return RuleSet.from_json(values, source="--rule", field="rule")


def run_diff(
    command: str,
    components: Components,
    *,
    games: int = 20,
    seed: int = 0,
    players: int | None = None,
    rules: Mapping[str, str] | None = None,
    timeout: float = 10.0,
    shrink_budget: int = 400,
    shrink_seconds: float = 30.0,
    compare: frozenset[str] = OPTIONAL_FIELDS,
    hypotheses: HypothesisTester | None = None,
) -> DiffResult:
    """Play ``games`` games through the engine started by ``command`` and the reference;
    stop at the first disagreement and shrink it. The engine is always killed at the end.
    ``hypotheses`` is given the shrunk game as the engine saw it
    (:func:`~tajmahal.conformance.observed_record`) and its explanation; what it finds
    is added to the explanation, first."""
    started = time.monotonic()
    rng = random.Random(seed)
    fixed = dict(rules or {})
    steps = 0
    engine = ForeignEngine(command, timeout)
    try:
        try:
            hello = engine.start()
            theirs = hello.get("components")
            if theirs is not None and theirs != components.digest:
                raise EngineFailure(
                    "protocol",
                    f"plays with component set {theirs}, the reference with "
                    f"{components.digest} ({components.name}); give both the same files",
                )
        except EngineFailure as error:
            return DiffResult(
                command, 0, 0, time.monotonic() - started, failure=error, failure_at="handshake"
            )
        name = engine.name or command
        for game in range(games):
            count = players if players is not None else rng.choice((3, 4, 5))
            plan = GamePlan(
                count, game_rules(fixed, rng, game == 0), rng.randrange(2**31), rng.randrange(2**31)
            )
            policies = [rng.choice(POLICIES) if game else "edge" for _ in range(count)]
            choosers = [
                _chooser(policy, random.Random(rng.randrange(2**31))) for policy in policies
            ]
            try:
                played = play_plan(plan, engine, components, choosers, compare)
            except EngineFailure as error:
                where = f"game {game}" + (f", step {error.step}" if error.step is not None else "")
                seconds = time.monotonic() - started
                return DiffResult(name, game + 1, steps, seconds, failure=error, failure_at=where)
            steps += played.steps
            if played.divergence is not None:
                shrunk = shrink(
                    played,
                    engine,
                    components,
                    budget=shrink_budget,
                    seconds=shrink_seconds,
                    compare=compare,
                )
                if hypotheses is not None:
                    shrunk = _with_hypotheses(shrunk, components, hypotheses)
                return DiffResult(name, game + 1, steps, time.monotonic() - started, game, shrunk)
    finally:
        engine.close()
    return DiffResult(name, games, steps, time.monotonic() - started)


__all__ = [
    "POLICIES",
    "DiffResult",
    "EdgeSeeker",
    "Shrunk",
    "game_rules",
    "run_diff",
    "shrink",
]
