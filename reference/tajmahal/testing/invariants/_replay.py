"""The game invariant that a game's record replays to the same game."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tajmahal.engine import SetupOutcome
from tajmahal.model import Action, Event, GameState

# Game invariants


def replay_reproduces(
    setup: SetupOutcome,
    states: Sequence[GameState],
    actions: Sequence[Action],
    events: Sequence[tuple[Event, ...]] | None = None,
    legal: Sequence[tuple[Action, ...]] | None = None,
) -> Iterable[str]:
    """The game's record, written by the shipped recorder, survives its round trip
    through its text (read back as a record file is read, so that the compiled schema
    validator may confirm it valid, as for files); the record read back replays, with
    the shipped replay code, to the very same states as the game played (the same record
    gives the same game), matching every recorded expectation of every step (actor,
    legal actions, scores, state digest, clauses, tags); and the record of a finished
    game verifies (its result holds).

    The played game and the replay are two runs of the same actions, compared state by
    state; ``events`` and ``legal`` (per step, as play found them) spare the recorder
    running the engine a third time.
    """
    # Imported here: the trace module imports the engine, which tests may patch.
    from tajmahal.accel import REPLAY, parse_json_document, schema_vouch
    from tajmahal.inputs import RECORD_LIMITS, check_record_limits
    from tajmahal.records import (
        Recorder,
        check_result,
        dumps_record,
        record_from_json,
        replay_steps,
    )

    first = states[0]
    components = first.config.components
    recorder = Recorder(components, first.config.players, setup, first.config.rules)
    for index, (before, action, after) in enumerate(zip(states, actions, states[1:], strict=False)):
        recorder.add(
            before,
            action,
            after,
            events[index] if events is not None else None,
            legal[index] or None if legal is not None else None,
        )
    record = recorder.record(states[-1])
    # Through the record's text and the reader of record files, as a file would go.
    parsed = parse_json_document(dumps_record(record), RECORD_LIMITS, "(record)")
    check_record_limits(parsed.document, "(record)")
    vouch = schema_vouch if parsed.plain_numbers else None
    loaded = record_from_json(parsed.document, "(record)", vouch=vouch, bounded=True)
    if loaded != record:
        yield "the record changes over a JSON round trip"
        return
    replayed = 0
    final = first
    try:
        for step in replay_steps(loaded, components, functions=REPLAY):
            if step.after != states[step.index + 1]:
                yield f"the replay differs from the game at step {step.index}"
                return
            final = step.after
            replayed += 1
    except Exception as error:  # the finding is that the record does not replay
        yield f"the replay fails: {type(error).__name__}: {error}"
        return
    if replayed != len(states) - 1:
        yield f"the replay has {replayed} steps, the game {len(states) - 1}"
        return
    if final.is_over:
        try:
            check_result(loaded, final)
        except Exception as error:
            yield f"the record does not verify: {type(error).__name__}: {error}"
