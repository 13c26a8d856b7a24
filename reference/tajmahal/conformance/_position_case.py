"""From a disagreeing game to a one-step position case, ready for an engine's test suite.

A shrunk game still has many steps; the engines parted at one of them. When the other
engine can start a game from a position (``new`` with ``state``, ``docs/protocol.md``),
:func:`position_case` finds that step: it loads the reference's position before a step
into the other engine and plays the game's steps from there to the disagreement,
starting from the disagreeing step and going back a step at a time, until the
disagreement shows again. The latest such step is where the engines parted (its
position hides nothing the other engine could have kept from earlier steps), and it
becomes a position case in the format of ``specs/cases`` (``docs/cases.md``,
``specs/schemas/case.schema.json``): the position, and the step's action with the
reference's outcome (or, when the legal actions of the position itself differ, the
reference's list), with the parts of the position that differ named in ``after``.
"""

from __future__ import annotations

from typing import Any

import attrs

from tajmahal.conformance._foreign import ForeignEngine
from tajmahal.conformance._hypotheses import Reading, reading_of
from tajmahal.conformance._lockstep import Played
from tajmahal.engine import apply, apply_with_events, legal_actions, new_game
from tajmahal.errors import IllegalActionError
from tajmahal.inputs import first_violation
from tajmahal.model import DEFAULT_RULES, Action, Components, GameState, Reshuffle
from tajmahal.notation import legal_digest, state_digest, state_to_json
from tajmahal.records import TAGS, edge_tags, step_clauses
from tajmahal.verification import Hypothesis, refusal

LOOK_BACK = 16
"""How many steps before the disagreement are tried as the step where the engines parted
(a withdrawal with its placements and display picks takes a few), for a game both
engines played from the setup; a game that gave the other engine a position
(``Played.start``) is tried back to that position, from which it disagrees."""


@attrs.frozen(slots=True)
class PositionCase:
    """The outcome of looking for a one-step position case."""

    document: dict[str, Any] | None
    """The cases file (``format`` ``tajmahal-cases``) holding the one case, or None."""
    step: int | None
    """The number (counted from 1) of the step the case plays, where the engines parted
    (for a legal-actions case, the step about to be taken), or None."""
    note: str
    """How it was found, or why there is none."""


def divergence_index(played: Played) -> tuple[int, str] | None:
    """The 0-based index and field of the disagreement of a game played in lockstep
    (for ``legal``, the index of the step about to be taken)."""
    divergence = played.divergence
    if divergence is None:
        return None
    if divergence.field == "legal":
        return len(played.actions), "legal"
    return max(len(played.actions) - 1, 0), divergence.field


def game_states(played: Played, components: Components) -> list[GameState]:
    """The reference's positions along a played game: after the setup, then after each
    step."""
    plan = played.plan
    state = new_game(components, plan.players, played.setup, plan.rules)
    states = [state]
    for action in played.actions:
        state = apply(state, action)
        states.append(state)
    return states


def _differs_from(
    engine: ForeignEngine,
    states: list[GameState],
    actions: tuple[Action, ...],
    start: int,
    end: int,
    legal_at_end: bool,
    compare: frozenset[str],
) -> bool | None:
    """Load ``states[start]`` into the engine and play ``actions[start:end]``; True when
    an answer differs from the reference's (on the ``compare`` fields, a refusal, or the
    legal actions at ``end``), False when every answer agrees, None when the engine does
    not start from a position."""
    reply = engine.request({"op": "new", "state": state_to_json(states[start])})
    if not reply.get("ok"):
        return None
    if "state_digest" in compare and reply.get("state_digest") != state_digest(states[start]):
        return True
    for index in range(start, end):
        state = states[index]
        legal_compared = "legal" in compare and index > start and not state.is_chance
        if legal_compared and _legal_differs(engine, state):
            return True
        answer = engine.request({"op": "apply", "action": str(actions[index])})
        after = states[index + 1]
        if not answer.get("ok"):
            return True
        if "state_digest" in compare and answer.get("state_digest") != state_digest(after):
            return True
        if "scores" in compare and answer.get("scores") != list(after.scores):
            return True
    return legal_at_end and _legal_differs(engine, states[end])


def _legal_differs(engine: ForeignEngine, state: GameState) -> bool:
    strings = sorted(str(action) for action in legal_actions(state))
    answer = engine.request({"op": "legal"})
    return answer.get("digest") != legal_digest(strings) or answer.get("count") != len(strings)


def _parts(expected: dict[str, Any], actual: dict[str, Any]) -> dict[str, Any]:
    """The parts of the reference's state document ``expected`` that ``actual`` does not
    match, as a partial document (``after`` of docs/cases.md; seats by number)."""
    after: dict[str, Any] = {}
    for key, value in expected.items():
        if key in ("format", "version") or actual.get(key) == value:
            continue
        theirs = actual.get(key)
        if key == "seats" and isinstance(value, list) and isinstance(theirs, list):
            seats = {
                str(number): {
                    name: field
                    for name, field in mine.items()
                    if not isinstance(other, dict) or other.get(name) != field
                }
                for number, (mine, other) in enumerate(zip(value, theirs, strict=False))
                if mine != other
            }
            after[key] = seats or value
        else:
            after[key] = value
    return after


def _other_document(
    engine: ForeignEngine, hypothesis: Reading | None, before: GameState, action: Action
) -> dict[str, Any] | None:
    """The other engine's state document after ``action`` (asked for; else what the
    hypothesis that reproduces it gives), or None."""
    full = engine.request({"op": "state", "full": True})
    if full.get("ok") and isinstance(full.get("state"), dict):
        document: dict[str, Any] = full["state"]
        return document
    if hypothesis is not None:
        try:
            return state_to_json(hypothesis.apply(before, action))
        except IllegalActionError:
            return None
    return None


def _case(
    before: GameState,
    rule: str,
    slug: str,
    description: str,
    tests: list[dict[str, Any]],
    clauses: tuple[str, ...],
    tags: set[str],
) -> dict[str, Any]:
    rulings = sorted(
        {c for c in clauses if c.startswith("RUL.")}
        | ({rule} if rule.startswith("RUL.") else set())
    )
    rules = before.config.rules.to_json()
    defaults = DEFAULT_RULES.to_json()
    shown = sorted(tag for tag in tags if tag in TAGS)
    if any(ruling.startswith("RUL.COMPONENTS.") for ruling in rulings):
        shown.append("reconstructed-components")
    return {
        "id": f"{rule}/{slug}",
        "description": description,
        "clauses": sorted(
            {c for c in clauses if c.startswith("TM.")}
            | ({rule} if rule.startswith("TM.") else set())
        ),
        "rulings": rulings,
        "ruleset": {name: value for name, value in rules.items() if defaults[name] != value},
        "tags": shown,
        "position": state_to_json(before),
        "tests": tests,
    }


def position_case(
    played: Played,
    engine: ForeignEngine,
    components: Components,
    compare: frozenset[str],
    hypothesis: Hypothesis | None = None,
) -> PositionCase:
    """The one-step position case of a disagreeing game (see the module docstring). The
    case is named after the rule of the ``hypothesis`` that reproduces the disagreement,
    if one does, else after the first clause of the step. The engine must be running;
    its current game is replaced."""
    found = divergence_index(played)
    if found is None:
        return PositionCase(None, None, "the game does not disagree")
    index, field = found
    reading = None if hypothesis is None else reading_of(hypothesis, played.plan.rules)
    states = game_states(played, components)
    actions = played.actions
    if index >= len(actions) and field != "legal":
        return PositionCase(None, None, "the engines disagree before the first step")
    end = index if field == "legal" else index + 1
    # Back to the position the game gave the engine, if it did (from there it disagrees),
    # else LOOK_BACK steps.
    lowest = played.start if played.start else max(0, index - LOOK_BACK)
    parted = None
    for start in range(index, lowest - 1, -1):
        differs = _differs_from(engine, states, actions, start, end, field == "legal", compare)
        if differs is None:
            return PositionCase(
                None, None, "the engine does not start a game from a position (new with state)"
            )
        if differs:
            parted = start
            break
    if parted is None:
        return PositionCase(
            None,
            None,
            f"started from each of the {index - lowest} positions before the disagreement, "
            "the engine agrees: the engines parted earlier, or the engine keeps something "
            "a position does not hold",
        )
    before = states[parted]
    if parted == index and field == "legal":
        return _legal_case(engine, before, hypothesis.rule if hypothesis else None, parted)
    action = actions[parted]
    engine.request({"op": "new", "state": state_to_json(before)})
    engine.request({"op": "apply", "action": str(action)})
    after, events = apply_with_events(before, action)
    clauses = step_clauses(action, events)
    rule = (
        hypothesis.rule
        if hypothesis is not None
        else next((c for c in clauses if c.startswith("TM.")), "TM.TURN.CHOICE")
    )
    other = _other_document(engine, reading, before, action)
    expect: dict[str, Any] = {
        "legal": True,
        "score_change": [mine - was for mine, was in zip(after.scores, before.scores, strict=True)],
        "state_digest": state_digest(after),
    }
    if other is not None:
        parts = _parts(state_to_json(after), other)
        if parts:
            expect["after"] = parts
    kind = "reshuffle" if isinstance(action, Reshuffle) else str(action).split()[0]
    test = {
        "description": f"{action}: the reference's outcome",
        "action": str(action),
        "expect": expect,
    }
    case = _case(
        before,
        rule,
        f"diff-step-{parted + 1}-{kind}",
        f"Step {parted + 1} of a game where tajmahal diff found the engines parting: {action}.",
        [test],
        clauses,
        set(edge_tags(before, action, events, after)),
    )
    return _written(
        case, components, parted + 1, f"the engines part at step {parted + 1} ({action})"
    )


def _legal_case(
    engine: ForeignEngine, before: GameState, rule: str | None, index: int
) -> PositionCase:
    strings = sorted(str(action) for action in legal_actions(before))
    tests: list[dict[str, Any]] = [
        {"description": "the reference's legal actions", "expect": {"legal_actions": strings}}
    ]
    answer = engine.request({"op": "legal"})
    listed = answer.get("actions")
    clauses: set[str] = set()
    if isinstance(listed, list):
        for text in sorted({str(item) for item in listed} - set(strings))[:1]:
            refusal = _refusal(before, text)
            if refusal:
                clauses.add(refusal)
                tests.append(
                    {
                        "description": f"{text}: not legal here",
                        "action": text,
                        "expect": {"legal": False, "clause": refusal},
                    }
                )
    case = _case(
        before,
        rule or min(clauses, default="TM.TURN.CHOICE"),
        f"diff-step-{index + 1}-legal",
        f"The legal actions before step {index + 1} of a game where tajmahal diff found the "
        "engines disagreeing.",
        tests,
        tuple(clauses),
        set(),
    )
    return _written(
        case,
        before.config.components,
        index + 1,
        f"the legal actions before step {index + 1} differ",
    )


def _refusal(state: GameState, text: str) -> str | None:
    """The clause of the reference's refusal of ``text`` (None: it accepts the action, or
    refuses it without naming a clause)."""
    found = refusal(state, text)
    return found[0] or None if found is not None else None


def _written(case: dict[str, Any], components: Components, step: int, note: str) -> PositionCase:
    document = {
        "$comment": "Written by tajmahal diff: the step where the two engines parted, as a "
        "position case (docs/cases.md).",
        "format": "tajmahal-cases",
        "version": 1,
        "area": "diff",
        "components": components.digest,
        "cases": [case],
    }
    problem = first_violation("case", document)
    if problem is not None:
        return PositionCase(
            None,
            None,
            f"the case does not match the case schema: {problem.field}: {problem.message}",
        )
    return PositionCase(document, step, note)


__all__ = ["LOOK_BACK", "PositionCase", "position_case"]
