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
from tajmahal.conformance._position_case import (
    LOOK_BACK,
    PositionCase,
    divergence_index,
    game_states,
    position_case,
)
from tajmahal.engine import new_game, random_setup
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
from tajmahal.notation import state_to_json
from tajmahal.verification import Hypothesis, HypothesisTester

POLICIES = ("edge", *PLAYER_TYPES)
"""The ways seats choose in generated games: the edge seeker below and every built-in
player type (:data:`tajmahal.agents.PLAYER_TYPES`)."""

DRY_TABLES = 0.2
"""The share of games (after the first) whose seats all choose as the players of
:data:`DRY_POLICIES`: tables that run the deck and the discard pile dry (short displays,
reshuffles during a withdrawal, card bonus tiles taken with no card left)."""

DRY_POLICIES: tuple[tuple[str, int], ...] = (("hoarder", 5), ("stubborn", 1))
"""The players of a dry table, with their weights."""


@attrs.frozen(slots=True)
class Shrunk:
    """The outcome of shrinking a disagreeing game."""

    original: Played
    """The game as first found."""
    shortest: Played
    """The shortest disagreeing game found: when the other engine starts a game from a
    position, most often one whose first steps the reference played alone
    (:attr:`Played.start`)."""
    replays: int
    """Games replayed while shrinking."""
    from_setup: Played | None = None
    """The shortest disagreeing game found that both engines played from the setup
    (None: :attr:`shortest` is one)."""

    @property
    def setup_steps(self) -> int:
        """The length of the shortest game both engines played from the setup."""
        return (self.from_setup or self.shortest).steps


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
    tags: Mapping[str, int] = attrs.field(factory=dict)
    """How many games reached each edge tag (:func:`tajmahal.records.edge_tags`), not
    counting shrinking."""
    first_games: Mapping[str, int] = attrs.field(factory=dict)
    """The 0-based index of the first game that reached each edge tag."""
    case: PositionCase | None = None
    """The one-step position case of the disagreement (or why there is none)."""

    @property
    def hypotheses(self) -> tuple[Hypothesis, ...]:
        """The variants of the rules that reproduce the disagreement, best first (those
        of the shrunk game's explanation)."""
        divergence = self.shrunk.shortest.divergence if self.shrunk is not None else None
        if divergence is None or divergence.explanation is None:
            return ()
        return divergence.explanation.hypotheses

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

    def starts_from_positions(self, components: Components) -> bool:
        """Whether the engine starts a game from a position (``new`` with ``state``):
        asked with a setup position, which every engine that does must accept."""
        if self.exhausted:
            return False
        position = new_game(components, 3, random_setup(components, 3, 0))
        try:
            reply = self.engine.request({"op": "new", "state": state_to_json(position)})
        except EngineFailure:
            self._restart()
            return False
        return bool(reply.get("ok"))

    def _restart(self) -> None:
        """The engine failed: start it again, or stop shrinking when it no longer starts."""
        self.engine.close()
        try:
            self.engine.start()
        except EngineFailure:
            self.budget = 0

    def run(self, plan: GamePlan) -> Played | None:
        self.replays += 1
        try:
            return play_plan(plan, self.engine, self.components, compare=self.compare)
        except EngineFailure:
            self._restart()
            return None


def _size(played: Played) -> tuple[int, int, int]:
    """What shrinking reduces: players, then steps, then the choices (a withdrawal,
    written -1, counts as the simplest)."""
    plan = played.plan
    return (plan.players, played.steps, sum(max(choice, 0) for choice in plan.choices))


POSITION_SHARE = 0.2
"""The share of the shrinking budget (replays and seconds) kept for shrinking from a
position, when the other engine starts a game from one."""


class _Search:
    """The shortest game found so far with the same kind of disagreement, and the
    attempts to find a shorter one."""

    def __init__(self, best: Played, replayer: _Replayer) -> None:
        assert best.divergence is not None
        self.best = best
        self.field = best.divergence.field
        self.replayer = replayer

    def attempt(self, plan: GamePlan) -> bool:
        """Play ``plan``; keep it (True) when it disagrees in the same field and is
        smaller."""
        if self.replayer.exhausted:
            return False
        candidate = self.replayer.run(plan)
        if candidate is None or candidate.divergence is None:
            return False
        if candidate.divergence.field != self.field or _size(candidate) >= _size(self.best):
            return False
        self.best = candidate
        return True

    def fewer_players(self) -> None:
        """Fewer players, a few setups each."""
        for players in range(3, self.best.plan.players):
            for offset in range(4):
                plan = self.best.plan
                if self.attempt(
                    attrs.evolve(plan, players=players, setup_seed=plan.setup_seed + offset)
                ):
                    break
            if self.best.plan.players == players:
                break

    def shortest_prefix(self) -> None:
        """The shortest prefix of the choices that still disagrees once the game is
        finished (a bisection: a disagreement at the end of the game keeps few of
        them)."""
        kept, tried = len(self.best.plan.choices), 0
        while tried < kept and not self.replayer.exhausted:
            middle = (tried + kept) // 2
            if self.attempt(attrs.evolve(self.best.plan, choices=self.best.plan.choices[:middle])):
                kept = len(self.best.plan.choices)
            else:
                tried = middle + 1

    def simpler_choices(self) -> None:
        """Delete runs of choices (halves, quarters ... single choices, the last runs
        first) and lower choices, until nothing helps or the budget runs out."""
        improved = True
        while improved and not self.replayer.exhausted:
            improved = False
            size = max(1, len(self.best.plan.choices) // 2)
            while size >= 1 and not self.replayer.exhausted:
                start = len(self.best.plan.choices) - size
                while start >= 0 and not self.replayer.exhausted:
                    choices = self.best.plan.choices
                    deleted = choices[:start] + choices[start + size :]
                    if self.attempt(attrs.evolve(self.best.plan, choices=deleted)):
                        improved = True
                        start = min(start, len(self.best.plan.choices) - size)
                    else:
                        start -= size
                size //= 2
            for index in range(len(self.best.plan.choices)):
                if self.replayer.exhausted:
                    break
                for simpler in (-1, 0):  # the last action (withdraw, when playing), the first
                    choices = self.best.plan.choices
                    if index < len(choices) and choices[index] not in (simpler, -1):
                        lowered = (*choices[:index], simpler, *choices[index + 1 :])
                        if self.attempt(attrs.evolve(self.best.plan, choices=lowered)):
                            improved = True
                            break

    def latest_start(self, components: Components) -> bool:
        """Give the other engine a position of the best game instead of its setup: the
        latest position from which the rest of the game, played the same way, disagrees
        again at the same step (or, if none is found within the budget, at a later one).
        The two positions before the step that disagrees are tried first (the engines
        most often parted there); then a bisection of the earlier ones, as a position
        before the step where the engines parted disagrees again and one after it does
        not; then, as that need not hold, the :data:`LOOK_BACK` positions before those
        two one by one. True when one is found (it becomes the best game)."""
        best = self.best
        divergence, found = best.divergence, divergence_index(best)
        assert divergence is not None and found is not None
        plan = best.plan
        states = game_states(best, components)
        decisions = [0]  # decisions[k]: the decisions among the first k steps
        for state in states[:-1]:
            decisions.append(decisions[-1] + (0 if state.is_chance else 1))
        later: list[Played] = []  # games that disagree only at a later step
        tried: dict[int, Played | None] = {}

        def again(start: int) -> Played | None:
            """The game given the position after ``start`` steps, if it disagrees at
            the same step."""
            if start not in tried:
                candidate = attrs.evolve(
                    plan,
                    start=best.actions[:start],
                    choices=plan.choices[decisions[start] :],
                    finish=True,
                )
                played = self.replayer.run(candidate)
                shown = None if played is None else played.divergence
                same = shown is not None and shown.field == self.field
                if same and shown is not None and shown.step != divergence.step:
                    assert played is not None
                    later.append(played)
                    same = False
                tried[start] = played if same else None
            return tried[start]

        last = min(found[0], len(best.actions))
        chosen = None
        for start in (last, last - 1):
            if start >= 1 and not self.replayer.exhausted and (chosen := again(start)):
                break
        low, high = 1, last - 2  # the latest start that disagrees again, in low..high
        if chosen is None and low <= high and not self.replayer.exhausted and again(low):
            while low < high and not self.replayer.exhausted:
                middle = (low + high + 1) // 2
                if again(middle) is not None:
                    low = middle
                else:
                    high = middle - 1
            chosen = tried[low]
            # A bisection assumes that every position before the parting step disagrees
            # again; the positions nearest the step that disagrees are tried one by one.
            for start in range(last - 2, max(low, last - 2 - LOOK_BACK), -1):
                if self.replayer.exhausted:
                    break
                nearer = again(start)
                if nearer is not None:
                    chosen = nearer
                    break
        if chosen is None and later:
            chosen = later[0]
        if chosen is None:
            return False
        self.best = chosen
        return True


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
    few setups each), the shortest prefix of the choices (a bisection), then deleting
    runs of choices (halves, quarters ... single choices, the last runs first) and
    lowering choices, until nothing helps or the budget (replays or seconds) runs out.

    Every game tried finishes: when its choices run out it plays on to the end taking
    the last action (withdrawing, at a play step), so that a disagreement that shows
    only at the end of a game (hand points, the last visit) survives deleting choices.

    When the other engine starts a game from a position (``new`` with ``state``), the
    last :data:`POSITION_SHARE` of the budget shrinks further from a position: the
    latest position of the shortest game from which it disagrees again is given to the
    engine, and the choices after it are shrunk the same way. A disagreement that shows
    only at the end of the game then needs a few steps, not the whole game.
    """
    assert played.divergence is not None
    started = time.monotonic()
    replayer = _Replayer(engine, components, compare, budget, started + seconds)
    search = _Search(attrs.evolve(played, plan=attrs.evolve(played.plan, finish=True)), replayer)
    positions = replayer.starts_from_positions(components)
    if positions:
        replayer.budget = budget - int(budget * POSITION_SHARE)
        replayer.deadline = started + seconds * (1 - POSITION_SHARE)
    search.fewer_players()
    search.shortest_prefix()
    search.simpler_choices()
    if not positions:
        return Shrunk(played, search.best, replayer.replays)
    replayer.budget, replayer.deadline = budget, started + seconds
    from_setup = search.best
    if not search.latest_start(components):
        return Shrunk(played, from_setup, replayer.replays)
    search.simpler_choices()
    return Shrunk(played, search.best, replayer.replays, from_setup)


# ---------------------------------------------------------------------------------------
# A whole run


def _with_hypotheses(
    shrunk: Shrunk, components: Components, tester: HypothesisTester, compare: frozenset[str]
) -> Shrunk:
    """``shrunk`` with the hypotheses ``tester`` finds for its shortest game. When that
    game is explained by none, or by several (a short game can fit more than one
    reading), the longer games are tried too (the shortest from the setup, if the
    shortest started from a position, and the game as first found): the hypotheses
    that reproduce more of them come first, in the order the tester gave them."""
    divergence = shrunk.shortest.divergence
    if divergence is None or divergence.explanation is None:
        return shrunk
    found = list(
        tester(observed_record(shrunk.shortest, components, compare), divergence.explanation)
    )
    if len(found) != 1:
        tried: list[list[Hypothesis]] = [found]
        for game in (shrunk.from_setup, shrunk.original):
            shown = None if game is None else game.divergence
            if game is not None and shown is not None and shown.explanation is not None:
                record = observed_record(game, components, compare)
                tried.append(list(tester(record, shown.explanation)))
        union = list(dict.fromkeys(h for hypotheses in tried for h in hypotheses))
        found = sorted(union, key=lambda h: -sum(h in hypotheses for hypotheses in tried))
    explained = divergence.with_hypotheses(found)
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
    engine: ForeignEngine | None = None,
) -> DiffResult:
    """Play ``games`` games through the engine started by ``command`` (or the given
    ``engine``, not started yet, for example a :class:`tajmahal.conformance.LocalEngine`)
    and the reference; stop at the first disagreement, shrink it, explain it and look
    for its one-step position case. The engine is always closed (its process killed) at
    the end. ``hypotheses`` (for example
    :func:`~tajmahal.conformance.catalogue_tester`) is given the shrunk game as the
    engine saw it (:func:`~tajmahal.conformance.observed_record`) and its explanation;
    what it finds is added to the explanation, first, and names the position case."""
    started = time.monotonic()
    rng = random.Random(seed)
    fixed = dict(rules or {})
    steps = 0
    tags: dict[str, int] = {}
    first_games: dict[str, int] = {}
    engine = engine if engine is not None else ForeignEngine(command, timeout)
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
            policies = _policies(rng, game, count)
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
            for tag in played.tags:
                tags[tag] = tags.get(tag, 0) + 1
                first_games.setdefault(tag, game)
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
                    shrunk = _with_hypotheses(shrunk, components, hypotheses, compare)
                case = _position_case(shrunk, engine, components, compare)
                seconds = time.monotonic() - started
                return DiffResult(
                    name,
                    game + 1,
                    steps,
                    seconds,
                    game,
                    shrunk,
                    None,
                    "",
                    tags,
                    first_games,
                    case,
                )
    finally:
        engine.close()
    return DiffResult(
        name, games, steps, time.monotonic() - started, tags=tags, first_games=first_games
    )


def _position_case(
    shrunk: Shrunk, engine: ForeignEngine, components: Components, compare: frozenset[str]
) -> PositionCase:
    """The shrunk game's one-step position case, named after the first hypothesis found
    (if any); a failing engine gives none."""
    divergence = shrunk.shortest.divergence
    explanation = divergence.explanation if divergence is not None else None
    found = explanation.hypotheses if explanation is not None else ()
    try:
        return position_case(
            shrunk.shortest, engine, components, compare, found[0] if found else None
        )
    except EngineFailure as error:
        return PositionCase(None, None, f"the engine failed while looking for it: {error}")


def _policies(rng: random.Random, game: int, count: int) -> list[str]:
    """How each seat of game ``game`` chooses: all edge-seeking in the first game, a dry
    table in :data:`DRY_TABLES` of the others, else a policy drawn per seat."""
    if game == 0:
        return ["edge"] * count
    if rng.random() < DRY_TABLES:
        names = [name for name, _ in DRY_POLICIES]
        weights = [weight for _, weight in DRY_POLICIES]
        return [rng.choices(names, weights)[0] for _ in range(count)]
    return [rng.choice(POLICIES) for _ in range(count)]


__all__ = [
    "DRY_POLICIES",
    "DRY_TABLES",
    "POLICIES",
    "POSITION_SHARE",
    "DiffResult",
    "EdgeSeeker",
    "Shrunk",
    "game_rules",
    "run_diff",
    "shrink",
]
