"""Recording a game as it is played: the steps of a record, with their expectations.

:class:`Recorder` is fed each applied action (by :func:`tajmahal.agents.play_match`, the
fuzzer, the lockstep comparison, the corpus maker) and computes what a record step
states after it: the legal actions' count and digest, the scores, the state digest,
the clauses and the edge tags (with ``full``, the legal actions and the public position
too). It is apart from replaying, which checks the same values against a record, and
from writing, which only turns a finished record into text. The name is imported from
:mod:`tajmahal.records`.
"""

from __future__ import annotations

from tajmahal.engine import SetupOutcome, apply_with_events, legal_actions
from tajmahal.model import Action, Components, Event, GameState, RuleSet
from tajmahal.notation import legal_digest, state_digest
from tajmahal.records._model import Record, RecordStep, public_to_json
from tajmahal.records._tags import edge_tags, step_clauses


class Recorder:
    """Builds a record while a game is played (see :func:`tajmahal.agents.play_match`)."""

    def __init__(
        self,
        components: Components,
        players: int,
        setup: SetupOutcome,
        rules: RuleSet,
        *,
        seed: int | None = None,
        names: tuple[str, ...] | None = None,
        full: bool = False,
        record_id: str | None = None,
        description: str | None = None,
    ) -> None:
        self.components = components
        self.players = players
        self.setup = setup
        self.rules = rules
        self.seed = seed
        self.names = names
        self.full = full
        """Also write the legal actions and the public position of every step."""
        self.record_id = record_id
        self.description = description
        self.steps: list[RecordStep] = []

    def add(
        self,
        before: GameState,
        action: Action,
        after: GameState,
        events: tuple[Event, ...] | None = None,
        legal: tuple[Action, ...] | None = None,
    ) -> None:
        """Record one applied action with its events (applied again to find them when not
        given) and the legal actions of ``before`` (computed when not given)."""
        if events is None:
            events = apply_with_events(before, action)[1]
        strings: list[str] | None = None
        if not before.is_chance:
            strings = sorted(str(item) for item in (legal or legal_actions(before)))
        self.steps.append(
            RecordStep(
                actor=None if before.is_chance else before.to_move,
                action=str(action),
                scores=after.scores,
                clauses=step_clauses(action, events),
                tags=tuple(sorted(edge_tags(before, action, events, after))),
                legal_count=len(strings) if strings is not None else None,
                legal_digest=legal_digest(strings) if strings is not None else None,
                state_digest=state_digest(after),
                legal=tuple(strings) if strings is not None and self.full else None,
                public=public_to_json(after) if self.full else None,
            )
        )

    def record(self, final: GameState | None = None) -> Record:
        """The record so far; with the final state of a finished game, its result too."""
        finished = final is not None and final.is_over
        return Record(
            players=self.players,
            rules=self.rules,
            components_digest=self.components.digest,
            components_name=self.components.name,
            setup=self.setup,
            steps=tuple(self.steps),
            final_scores=final.scores if finished and final is not None else None,
            winners=final.winners() if finished and final is not None else None,
            seed=self.seed,
            names=self.names,
            id=self.record_id,
            description=self.description,
        )


# Every name here is documented under tajmahal.records, which users import it from.
__all__: list[str] = []
