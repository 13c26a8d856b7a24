"""Hypotheses for a disagreement: which other reading of the rules the other engine plays.

When another engine disagrees with the reference, the likeliest explanations are that
it settled a configurable ruling the other way, or that it misread a rule the way an
entry of the catalogue of misreadings does (:data:`tajmahal.conformance.MISREADINGS`).
Each is a :class:`Hypothesis`: an engine (the reference with one option changed, or a
catalogue entry) and the clause or ruling it concerns.

A hypothesis *reproduces* a disagreement found by ``diff`` when, replayed in this
process on the same game, it parts from the reference at the same step in the same
field (:func:`parts_like`), and then, played live against the other engine on the same
game, agrees with it at every step (:func:`follows`). For a game record (``verify``), a
hypothesis reproduces it when it replays the whole record meeting every expectation the
record carries (:func:`replays_record`). :func:`reproducing` tries them all, options
first.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from tajmahal.conformance import _variants as variants
from tajmahal.conformance._foreign import EngineFailure, ForeignEngine
from tajmahal.conformance._lockstep import GamePlan, Played, chance_rng, new_request, plan_action
from tajmahal.conformance._misreadings import MISREADINGS, Misreading
from tajmahal.engine import apply, legal_actions, new_game, random_reshuffle, random_setup
from tajmahal.errors import ActionSyntaxError, IllegalActionError
from tajmahal.model import RULE_OPTIONS, Action, Components, GameState, RuleSet, parse_action
from tajmahal.notation import legal_digest, state_digest
from tajmahal.records import Record
from tajmahal.registry import load_registry


@attrs.frozen(slots=True)
class Hypothesis:
    """One other reading of the rules, as an engine."""

    name: str
    """``OPTION=VALUE`` for a rule-set option, else the catalogue entry's name."""
    rule: str
    """The clause or ruling it concerns."""
    does: str
    """What an engine reading the rules so does."""
    legal_actions: variants.Legal
    """Its ``legal_actions``."""
    apply: variants.Apply
    """Its ``apply``."""
    option: tuple[str, str] | None = None
    """``(option, value)`` for a rule-set option."""

    def describe(self) -> str:
        """One line saying what the other engine plays as, leading with the rule."""
        if self.option is not None:
            return f"your engine plays as if `{self.name}`: {self.rule} ({self.does})"
        return f"your engine plays as if misreading {self.rule} ({self.name}): {self.does}"

    def to_json(self) -> dict[str, Any]:
        """The hypothesis as a JSON object (``diff --json``, verify reports)."""
        return {
            "name": self.name,
            "rule": self.rule,
            "option": self.name if self.option is not None else None,
            "does": self.does,
            "text": self.describe(),
        }


@functools.cache
def _option_rulings() -> dict[str, str]:
    """The ruling id of each rule-set option, from the registry."""
    return {
        entry["option"]: entry["id"]
        for entry in load_registry()["rulings"]
        if entry["configurable"] and entry["option"]
    }


def _option_hypothesis(option: str, value: str) -> Hypothesis:
    legal, apply_as_if = variants.as_if_option(option, value)
    entry = next((m for m in MISREADINGS.values() if m.option == (option, value)), None)
    does = entry.does if entry is not None else f"every game is played with {option}={value}"
    rule = _option_rulings().get(option, option)
    return Hypothesis(f"{option}={value}", rule, does, legal, apply_as_if, (option, value))


def _entry_hypothesis(entry: Misreading) -> Hypothesis:
    return Hypothesis(entry.name, entry.rule, entry.does, entry.legal_actions, entry.apply)


def hypotheses(rules: RuleSet) -> tuple[Hypothesis, ...]:
    """Every hypothesis for a game played under ``rules``: each other value of every
    rule-set option, then every catalogue entry that is not an option's."""
    current = rules.to_json()
    options = [
        _option_hypothesis(option, value)
        for option, values in RULE_OPTIONS.items()
        for value in values
        if value != current[option]
    ]
    entries = [_entry_hypothesis(m) for m in MISREADINGS.values() if m.option is None]
    return (*options, *entries)


# ---------------------------------------------------------------------------------------
# In this process: where a hypothesis parts from the reference


def _strings(actions: Iterable[Action]) -> list[str]:
    return sorted(str(action) for action in actions)


@attrs.frozen(slots=True)
class _Course:
    """The reference's course through a game played: its states, and the legal actions
    (as sorted strings) of each, computed once for every hypothesis tried on it."""

    states: tuple[GameState, ...]
    legal: tuple[list[str], ...]

    @classmethod
    def of(cls, played: Played, components: Components) -> _Course:
        plan = played.plan
        state = new_game(components, plan.players, played.setup, plan.rules)
        states = [state]
        for action in played.actions:
            state = apply(state, action)
            states.append(state)
        return cls(tuple(states), tuple(_strings(legal_actions(state)) for state in states))


def parts_at(
    hypothesis: Hypothesis,
    played: Played,
    components: Components,
    compare: frozenset[str],
    course: _Course | None = None,
) -> tuple[int, str] | None:
    """Where the hypothesis first differs from the reference along the game played (the
    reference's actions): ``(index, field)`` with the 0-based index of the step (for
    ``legal``, the step about to be taken), or None when it never does. A hypothesis
    that fails (raises anything but a refusal) differs at that step in the field
    ``error``."""
    reference = course if course is not None else _Course.of(played, components)
    mine = reference.states[0]
    count = len(played.actions)
    for index in range(count + 1):
        state = reference.states[index]
        try:
            if (
                "legal" in compare
                and not state.is_chance
                and not state.is_over
                and _strings(hypothesis.legal_actions(mine)) != reference.legal[index]
            ):
                return index, "legal"
            if index == count:
                return None
            mine = hypothesis.apply(mine, played.actions[index])
        except IllegalActionError:
            return index, "apply"
        except Exception:  # a hypothesis that breaks explains nothing
            return index, "error"
        after = reference.states[index + 1]
        if mine is after or mine == after:
            continue
        if "state_digest" in compare and state_digest(mine) != state_digest(after):
            return index, "state_digest"
        if "scores" in compare and mine.scores != after.scores:
            return index, "scores"
    return None


def divergence_index(played: Played) -> tuple[int, str] | None:
    """The 0-based index and field of the disagreement of a game played in lockstep."""
    divergence = played.divergence
    if divergence is None:
        return None
    if divergence.field == "legal":
        return len(played.actions), "legal"
    return max(len(played.actions) - 1, 0), divergence.field


def parts_like(
    hypothesis: Hypothesis,
    played: Played,
    components: Components,
    compare: frozenset[str],
    course: _Course | None = None,
) -> bool:
    """True when the hypothesis parts from the reference where the other engine did."""
    found = divergence_index(played)
    return found is not None and parts_at(hypothesis, played, components, compare, course) == found


# ---------------------------------------------------------------------------------------
# Live: does a hypothesis agree with the other engine?


def follows(
    hypothesis: Hypothesis,
    plan: GamePlan,
    engine: ForeignEngine,
    components: Components,
    compare: frozenset[str],
) -> bool:
    """Play ``plan`` through the other engine and the hypothesis in lockstep; True when
    they agree at every step (on the ``compare`` fields and on every action's success).
    The choices index the hypothesis's legal actions; when one refuses an action both
    must refuse it, and the game stops there."""
    setup = random_setup(components, plan.players, plan.setup_seed)
    state = new_game(components, plan.players, setup, plan.rules)
    reply = engine.request(new_request(plan, setup, components))
    if not reply.get("ok"):
        return False
    if "state_digest" in compare and reply.get("state_digest") != state_digest(state):
        return False
    used = 0
    steps = 0
    while not state.is_over:
        try:
            legal = hypothesis.legal_actions(state)
        except Exception:  # a hypothesis that breaks explains nothing
            return False
        if "legal" in compare:
            answer = engine.request({"op": "legal"})
            strings = _strings(legal)
            if answer.get("digest") != legal_digest(strings) or answer.get("count") != len(strings):
                return False
        if state.is_chance:
            action: Action = random_reshuffle(state, chance_rng(plan, steps))
        else:
            picked = plan_action(plan, legal, used)
            if picked is None:
                return True
            action, used = picked, used + 1
        steps += 1
        answer = engine.request({"op": "apply", "action": str(action)})
        try:
            after = hypothesis.apply(state, action)
        except IllegalActionError:
            return not answer.get("ok")
        except Exception:  # a hypothesis that breaks explains nothing
            return False
        if not answer.get("ok"):
            return False
        if "state_digest" in compare and answer.get("state_digest") != state_digest(after):
            return False
        if "scores" in compare and answer.get("scores") != list(after.scores):
            return False
        state = after
    return True


def reproducing(
    games: Sequence[Played],
    engine: ForeignEngine | None,
    components: Components,
    compare: frozenset[str],
) -> tuple[Hypothesis, ...]:
    """The hypotheses that reproduce every disagreeing game of ``games`` (the shrunk game
    and the game first found, both played under the same rule set): those that part from
    the reference where the other engine did, then, with ``engine``, agree with it live
    on each game. Options first, then the catalogue's order."""
    if not games:
        return ()
    rules = games[0].plan.rules
    if any(played.plan.rules != rules for played in games):
        return ()
    courses = [_Course.of(played, components) for played in games]
    found = [
        hypothesis
        for hypothesis in hypotheses(rules)
        if all(
            parts_like(hypothesis, played, components, compare, course)
            for played, course in zip(games, courses, strict=True)
        )
    ]
    if engine is None:
        return tuple(found)
    confirmed = []
    for hypothesis in found:
        try:
            if all(
                follows(hypothesis, played.plan, engine, components, compare) for played in games
            ):
                confirmed.append(hypothesis)
        except EngineFailure:
            break
    return tuple(confirmed)


# ---------------------------------------------------------------------------------------
# A game record


def replays_record(hypothesis: Hypothesis, record: Record, components: Components) -> bool:
    """True when the hypothesis replays ``record`` to its end meeting every expectation
    the record's steps carry that an engine writes (the actor, the legal actions' count,
    digest and list, the scores, the state digest) and its final scores; False also when
    the hypothesis breaks on it."""
    try:
        return _replays(hypothesis, record, components)
    except Exception:  # a hypothesis that breaks explains nothing
        return False


def _replays(hypothesis: Hypothesis, record: Record, components: Components) -> bool:
    state = new_game(components, record.players, record.setup, record.rules)
    for step in record.steps:
        legal = None if state.is_chance else _strings(hypothesis.legal_actions(state))
        if step.actor is not None and step.actor != state.to_move:
            return False
        if legal is not None:
            if step.legal_count is not None and step.legal_count != len(legal):
                return False
            if step.legal_digest is not None and step.legal_digest != legal_digest(legal):
                return False
            if step.legal is not None and sorted(step.legal) != legal:
                return False
        try:
            state = hypothesis.apply(state, parse_action(step.action))
        except (IllegalActionError, ActionSyntaxError):
            return False
        if step.scores is not None and tuple(step.scores) != state.scores:
            return False
        if step.state_digest is not None and step.state_digest != state_digest(state):
            return False
    return record.final_scores is None or tuple(record.final_scores) == state.scores


REFERENCE = Hypothesis("reference", "", "the reference's reading", legal_actions, apply)
"""The reference itself as a hypothesis (a record it replays needs no other reading)."""


def reproducing_record(record: Record, components: Components) -> tuple[Hypothesis, ...]:
    """The hypotheses that replay ``record`` meeting every expectation (options first);
    none when the reference itself does (a record that verifies is explained already)."""
    if replays_record(REFERENCE, record, components):
        return ()
    return tuple(
        hypothesis
        for hypothesis in hypotheses(record.rules)
        if replays_record(hypothesis, record, components)
    )


__all__ = [
    "divergence_index",
    "follows",
    "hypotheses",
    "parts_at",
    "parts_like",
    "replays_record",
    "reproducing",
    "reproducing_record",
]
