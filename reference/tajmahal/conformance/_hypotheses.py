"""Hypotheses for a disagreement: which other reading of the rules the other side plays.

When another engine (or a record it wrote) disagrees with the reference, the likeliest
explanations are that it settled a configurable ruling the other way, or that it misread
a rule the way an entry of the catalogue of misreadings does
(:data:`tajmahal.conformance.MISREADINGS`). Each such reading is a :class:`Reading`: an
engine (the reference with one option changed, or a catalogue entry) and the clause or
ruling it concerns.

:func:`catalogue_tester` is the ``tajmahal.verification.HypothesisTester`` that
tries them all: ``verify``, ``diff`` and ``fuzz --engine`` plug it into their
explanation (``docs/misreadings.md``). A reading *reproduces* the other side when the
other side's game, as a record (for ``verify`` the record as read, for ``diff`` the
shrunk game as the engine saw it, :func:`tajmahal.conformance.observed_record`), replays
under it meeting every expectation the record carries, up to and including the step of
the explanation (:func:`replays_record`); for an engine that refused the step's action,
the reading must refuse it too.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import attrs

from tajmahal.conformance import _variants as variants
from tajmahal.conformance._misreadings import MISREADINGS, Misreading
from tajmahal.engine import apply, legal_actions, new_game
from tajmahal.errors import ActionSyntaxError, IllegalActionError
from tajmahal.model import RULE_OPTIONS, Components, RuleSet, parse_action
from tajmahal.notation import legal_digest, state_digest
from tajmahal.records import Record
from tajmahal.registry import load_registry
from tajmahal.verification import Explanation, Hypothesis, HypothesisTester


@attrs.frozen(slots=True)
class Reading:
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

    def hypothesis(self) -> Hypothesis:
        """The reading as the hypothesis an explanation prints first: ``likely: your
        engine plays as if ...: RULE``."""
        if self.option is not None:
            return Hypothesis(f"your engine plays as if `{self.name}`", self.rule, self.name)
        does = self.does[:1].lower() + self.does[1:].rstrip(".")
        return Hypothesis(
            f"your engine plays as if {does} (misreading {self.name}, docs/misreadings.md)",
            self.rule,
        )


@functools.cache
def _option_rulings() -> dict[str, str]:
    """The ruling id of each rule-set option, from the registry."""
    return {
        entry["option"]: entry["id"]
        for entry in load_registry()["rulings"]
        if entry["configurable"] and entry["option"]
    }


def _option_reading(option: str, value: str) -> Reading:
    legal, apply_as_if = variants.as_if_option(option, value)
    entry = next((m for m in MISREADINGS.values() if m.option == (option, value)), None)
    does = entry.does if entry is not None else f"every game is played with {option}={value}"
    rule = _option_rulings().get(option, option)
    return Reading(f"{option}={value}", rule, does, legal, apply_as_if, (option, value))


def _entry_reading(entry: Misreading) -> Reading:
    return Reading(entry.name, entry.rule, entry.does, entry.legal_actions, entry.apply)


def readings(rules: RuleSet) -> tuple[Reading, ...]:
    """Every other reading for a game played under ``rules``: each other value of every
    rule-set option, then every catalogue entry that is not an option's."""
    current = rules.to_json()
    options = [
        _option_reading(option, value)
        for option, values in RULE_OPTIONS.items()
        for value in values
        if value != current[option]
    ]
    entries = [_entry_reading(m) for m in MISREADINGS.values() if m.option is None]
    return (*options, *entries)


def reading_of(hypothesis: Hypothesis, rules: RuleSet) -> Reading | None:
    """The reading behind a hypothesis found for a game played under ``rules``."""
    return next((r for r in readings(rules) if r.hypothesis() == hypothesis), None)


# ---------------------------------------------------------------------------------------
# Replaying the other side's game under a reading


def replays_record(
    reading: Reading,
    record: Record,
    components: Components,
    upto: int | None = None,
    refused: bool = False,
) -> bool:
    """True when ``reading`` replays the first ``upto`` steps of ``record`` (all when
    None) meeting every expectation they carry that an engine writes (the actor, the
    legal actions' count, digest and list, the scores, the state digest; the final
    scores after the last step of a whole record). With ``refused``, the last of those
    steps must be refused instead. False also when the reading breaks on it (a reading
    that breaks explains nothing)."""
    try:
        return _replays(reading, record, components, upto, refused)
    except Exception:  # a hypothesis that breaks explains nothing
        return False


def _replays(
    reading: Reading, record: Record, components: Components, upto: int | None, refused: bool
) -> bool:
    state = new_game(components, record.players, record.setup, record.rules)
    steps = record.steps if upto is None else record.steps[:upto]
    for number, step in enumerate(steps, 1):
        legal = None if state.is_chance else sorted(str(a) for a in reading.legal_actions(state))
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
            state = reading.apply(state, parse_action(step.action))
        except (IllegalActionError, ActionSyntaxError):
            return refused and number == len(steps)
        if refused and number == len(steps):
            return False
        if step.scores is not None and tuple(step.scores) != state.scores:
            return False
        if step.state_digest is not None and step.state_digest != state_digest(state):
            return False
    whole = upto is None or upto >= len(record.steps)
    return not whole or record.final_scores is None or tuple(record.final_scores) == state.scores


REFERENCE = Reading("reference", "", "the reference's reading", legal_actions, apply)
"""The reference itself as a reading (a record it replays needs no other reading)."""


def reproducing_record(
    record: Record, components: Components, upto: int | None = None, refused: bool = False
) -> tuple[Reading, ...]:
    """The readings that replay ``record`` (up to step ``upto``) meeting every
    expectation, options first; none when the reference itself does (a record that
    verifies is explained already)."""
    if replays_record(REFERENCE, record, components, upto, refused):
        return ()
    return tuple(
        reading
        for reading in readings(record.rules)
        if replays_record(reading, record, components, upto, refused)
    )


def catalogue_tester(components: Components) -> HypothesisTester:
    """The tester of hypotheses ``verify``, ``diff`` and ``fuzz --engine`` use: every
    other option of every configurable ruling and every catalogue entry, tried on the
    other side's game up to and including the step of the explanation; those that
    reproduce it, best first: those whose rule the explanation names (among its ranked
    rules or the clauses of the step where the engines parted), then options, then the
    catalogue's order."""

    def tester(record: Record, explanation: Explanation) -> Sequence[Hypothesis]:
        step = explanation.step
        if step < 1 or step > len(record.steps):
            return ()
        found = reproducing_record(record, components, step, explanation.kind == "refused")
        named = {rule.id for rule in explanation.rules}
        if explanation.parted is not None:
            named.update(explanation.parted.clauses)
        ranked = sorted(found, key=lambda reading: reading.rule not in named)
        return tuple(reading.hypothesis() for reading in ranked)

    return tester


__all__ = [
    "REFERENCE",
    "Reading",
    "catalogue_tester",
    "reading_of",
    "readings",
    "replays_record",
    "reproducing_record",
]
