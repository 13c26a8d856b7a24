"""Explaining a disagreement: what differs, where the two engines parted, and which rules.

``tajmahal verify`` (a record against the reference) and ``tajmahal diff`` (another
engine against the reference, live) find the first step where the reference and the
other side disagree; this module turns that into an :class:`Explanation` in the terms an
implementer in any language acts on:

- **what differs**: the legal actions at the start of a step in both directions
  (missing: the reference allows them, the other side does not; extra: the other way
  round), with the step kind and the seat to move as each side reports them; or the
  fields of the two position documents after a step (paths, expected and found), the
  scores, and only as a last resort, said so, two digests;
- **where the engines parted**: the step itself, or for a difference at the start of a
  step, the step before it and what followed it automatically;
- **the rules**: at most three clauses and rulings, likeliest first, from the events of
  the step where the engines parted, ranked by the part that differs (the seat, the
  card, tile, symbol or city, the points), each with the account line of the event
  that names it, or the reference's refusal of an extra action;
- **hypotheses**: a variant of the rules that reproduces the other side's behaviour,
  printed first; found elsewhere (see :data:`HypothesisTester`) and added with
  :meth:`Explanation.with_hypotheses`.

Throughout, *expected* is the reference's value and *found* the other side's. The
module knows nothing of records or of the engine protocol: the callers hand it the
reference's positions and events and the other side's answers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from tajmahal.engine import apply, apply_with_events, legal_actions
from tajmahal.errors import IllegalActionError, TajMahalError
from tajmahal.model import Event, EventKind, GameState, Step, parse_action
from tajmahal.notation import count_of
from tajmahal.records import event_lines, player_label, step_clauses
from tajmahal.verification._differences import Difference, json_differences

MAX_RULES = 3
"""The most rules an explanation names."""
MAX_DIFFERENCES = 24
"""The most differing fields printed (all are kept in the value and the JSON)."""

# ---------------------------------------------------------------------------------------
# The values


@attrs.frozen(slots=True)
class RankedRule:
    """A clause or ruling that decided the part that differs."""

    id: str
    """``TM.…`` or ``RUL.…``."""
    reason: str
    """Why it is named: the reference's account of the event that names it, its refusal
    of an action, or the hypothesis that reproduces the other side."""


@attrs.frozen(slots=True)
class Hypothesis:
    """A variant of the rules that reproduces the other side's behaviour."""

    text: str
    """What the other engine does, in words: ``your engine plays as if ties won``."""
    rule: str
    """The clause or ruling it departs from."""
    option: str | None = None
    """For a configurable ruling, the option that reproduces it (``NAME=VALUE``)."""


@attrs.frozen(slots=True)
class LegalView:
    """One side's legal actions at the start of a step, as that side reports them."""

    step_kind: str | None
    """``play``, ``place``, ``take``, ``shuffle`` or ``over``; None when not known."""
    to_move: int | None
    """The seat to move (None: a chance step, or not known)."""
    count: int | None
    """How many legal actions (None: not known)."""
    actions: tuple[str, ...] | None = None
    """The actions themselves, sorted (None when only the count and digest are known)."""


@attrs.frozen(slots=True)
class PartedStep:
    """The step where the two engines parted."""

    step: int
    """Its number (``docs/trace-format.md``, "Step numbers"; 0: the setup)."""
    action: str | None
    """Its action (None: the setup)."""
    actor: int | None
    """Who took it (None: chance, or the setup)."""
    account: tuple[str, ...]
    """The reference's account of it: the action and everything automatic after it."""
    clauses: tuple[str, ...]
    """Every clause and ruling behind it in the reference."""


@attrs.frozen(slots=True)
class Explanation:
    """Why the reference and another engine (or a record) disagree at one step."""

    kind: str
    """``legal`` (the legal actions or the seat to move at the start of the step),
    ``refused`` (the other side refused the step's action, which the reference allows),
    ``scores``, ``state`` (the position after the step), ``different-move`` (the record's
    expectations are those of another action), ``deleted-step``, ``inserted-step``,
    ``annotations`` (only the step's clauses or tags differ)."""
    step: int
    """The step where the difference shows, numbered from 1."""
    other: str
    """Who is compared with the reference: ``the record`` or the engine's name."""
    summary: str
    """One line saying what differs."""
    action: str | None = None
    """The step's action (None: a difference before it was chosen)."""
    actor: int | None = None
    """The seat to move at the step in the reference (None: chance)."""
    visit: int = 0
    """The visit of the position the step is played from."""
    step_kind: str = ""
    """The kind of that position's step in the reference."""
    names: tuple[str, ...] | None = None
    """The seats' names, when known."""
    differences: tuple[Difference, ...] = ()
    """Where the position after the step differs: ``expected`` the reference's,
    ``actual`` the other side's (found)."""
    scores: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    """The scores after the step, expected and found, when they differ."""
    digests: tuple[str, str] | None = None
    """The state digests, expected and found, when nothing better is known."""
    hidden_only: bool = False
    """The public positions agree: what differs is hidden (hands, the deck's order)."""
    legal: tuple[LegalView, LegalView] | None = None
    """The legal actions at the start of the step: the reference's, the other side's."""
    missing: tuple[str, ...] = ()
    """Actions the reference allows and the other side does not."""
    extra: tuple[str, ...] = ()
    """Actions the other side allows (or took) and the reference refuses."""
    refusals: tuple[tuple[str, str, str], ...] = ()
    """For each extra action: the action, the clause of the reference's refusal and its
    message."""
    detail: tuple[str, ...] = ()
    """Lines specific to the kind (the step a record lacks, the action it should have)."""
    parted: PartedStep | None = None
    """The step where the engines parted."""
    rules: tuple[RankedRule, ...] = ()
    """At most :data:`MAX_RULES` clauses and rulings, likeliest first."""
    hypotheses: tuple[Hypothesis, ...] = ()
    """Variants of the rules that reproduce the other side (printed first)."""

    @property
    def digest_only(self) -> bool:
        """True when only two digests say that the positions differ."""
        return self.digests is not None and not self.differences

    def with_hypotheses(self, hypotheses: Iterable[Hypothesis]) -> Explanation:
        """This explanation with ``hypotheses`` added (printed before everything else).
        The rule of the first hypothesis becomes the likeliest of :attr:`rules`: a
        variant of the rules that plays as the other side did is stronger evidence than
        the events of the step (all that is known when only digests differ)."""
        added = (*self.hypotheses, *hypotheses)
        if not added:
            return self
        lead = added[0]
        kept = [rule for rule in self.rules if rule.id != lead.rule]
        reason = next(
            (rule.reason for rule in self.rules if rule.id == lead.rule),
            f"a variant of this rule reproduces {self.other}: {lead.text}",
        )
        rules = (RankedRule(lead.rule, reason), *kept)[:MAX_RULES]
        return attrs.evolve(self, hypotheses=added, rules=rules)

    def lines(self) -> list[str]:
        """The explanation as indented lines (see :func:`explanation_lines`)."""
        return explanation_lines(self)

    def to_json(self) -> dict[str, Any]:
        """The explanation as a JSON object (see :func:`explanation_to_json`)."""
        return explanation_to_json(self)


HypothesisTester = Callable[[Any, Explanation], Sequence[Hypothesis]]
"""Finds variants of the rules that reproduce the other side's behaviour. It is given
the other side's game as a record (:class:`tajmahal.records.Record`: up to and
including the step of the explanation, with the other side's values at that step) and
the explanation; it returns what it found, best first (empty: nothing)."""


# ---------------------------------------------------------------------------------------
# Parts of a position and the events that decide them


@attrs.frozen(slots=True)
class _Part:
    """One part of the position that differs: a field, the seat it belongs to, the ids
    it mentions on one side only, and for a score the points that differ."""

    field: str
    seat: int | None = None
    values: frozenset[str] = frozenset()
    points: int | None = None


def _kinds(text: str) -> frozenset[EventKind]:
    return frozenset(EventKind(kind) for kind in text.split())


FIELD_EVENTS: dict[str, frozenset[EventKind]] = {
    name: _kinds(kinds)
    for name, kinds in {
        "start_player": "visit",
        "visit": "visit end",
        "step": "withdraw win no-majority forfeit palace crown take visit end draw reshuffle",
        "to_move": "play withdraw take palace crown forfeit visit",
        "deck": "draw reshuffle",
        "draw": "draw reshuffle bonus withdraw",
        "discard": "discard reshuffle",
        "display": "draw take visit",
        "specials_on_table": "exchange take",
        "court_influence": "win no-majority exchange forfeit visit",
        "crown_in_court": "win no-majority visit",
        "court_province_tile": "win no-majority unwon visit",
        "bonus_on_board": "palace bonus crown",
        "palaces": "palace crown forfeit",
        "withdrawal": "withdraw win no-majority palace crown forfeit",
        "seats.hand": "play discard take draw exchange",
        "seats.played": "play discard",
        "seats.colour": "play visit",
        "seats.withdrawn": "withdraw visit",
        "seats.withdrawn_counts": "withdraw visit",
        "seats.influence": "win no-majority exchange forfeit",
        "seats.province_tiles": "win score",
        "seats.goods_tiles": "bonus",
        "seats.score": "score bonus hand",
    }.items()
}
"""The kinds of event that can change each part of the position document (``seats.X``
for a field of any seat); the events of these kinds in the step where the engines
parted are where the rules are looked for."""

_ALIASES = {"seats.hand_size": "seats.hand", "deck_size": "deck", "scores": "seats.score"}
"""Fields of the public position (and the scores) that stand for a field above."""

PART_CLAUSES: dict[str, str] = {
    "start_player": "TM.VISIT.NEXT.START_PLAYER",
    "to_move": "TM.VISIT.NEXT.START_PLAYER",
    "visit": "TM.VISIT.NEXT.PROVINCE",
    "court_province_tile": "TM.VISIT.NEXT.PROVINCE_TILE",
    "court_influence": "TM.VISIT.NEXT.INFLUENCE_REFILL",
    "crown_in_court": "TM.VISIT.NEXT.CROWN",
    "display": "TM.VISIT.NEXT.DISPLAY",
}
"""For the event that begins a visit (which names every clause of a new visit), the one
that decides each part."""

BACKGROUND: frozenset[str] = frozenset(
    {
        "TM.WITHDRAW.COMPARE",
        "TM.WITHDRAW.MAJORITY.REMAINING",
        "RUL.MAJORITY.REMAINING_PLAYERS",
        "TM.WITHDRAW.FINAL",
        "TM.WITHDRAW.ONCE_PER_VISIT",
        "TM.PLAY.ONE_COLOURED",
        "TM.REWARD.FORTRESS.BONUS",
        "TM.REWARD.INFLUENCE.PALACE",
        "TM.REWARD.CROWN.PALACE",
    }
)
"""Clauses that say that a kind of thing happens at all (every withdrawal compares and
ends the player's visit, every bonus tile is taken): named after an event's other
clauses, which say how it came out."""

CONSEQUENCES: frozenset[str] = frozenset(
    {"step", "to_move", "withdrawal", "draw", "seats.score", "visit"}
)
"""Parts of the position that follow from nearly everything a step does (what it waits
for, who moves, the withdrawal in progress, the scores): they never point back to an
earlier step by themselves."""

_SEAT_PATH = re.compile(r"^seats\[(\d+)\]\.([a-z_]+)")


def _part_of(difference: Difference) -> _Part:
    path = difference.path
    seat: int | None = None
    match = _SEAT_PATH.match(path)
    if match is not None:
        seat, field = int(match.group(1)), f"seats.{match.group(2)}"
    else:
        field = re.split(r"[.\[]", path, maxsplit=1)[0]
    field = _ALIASES.get(field, field)
    values = _mentioned(difference.expected) ^ _mentioned(difference.actual)
    return _Part(field, seat, frozenset(values))


def _mentioned(value: Any) -> set[str]:
    """Every string inside a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, list | tuple):
        return set().union(*map(_mentioned, value)) if value else set()
    if isinstance(value, dict):
        return set().union(*map(_mentioned, value.values())) if value else set()
    return set()


def _score_parts(expected: Sequence[int], found: Sequence[Any]) -> list[_Part]:
    parts = []
    for seat, (mine, theirs) in enumerate(zip(expected, found, strict=False)):
        if isinstance(theirs, int) and mine != theirs:
            parts.append(_Part("seats.score", seat, points=abs(theirs - mine)))
    return parts


def _is_tie(event: Event) -> bool:
    """A majority lost to a tie (the closest call a withdrawal makes)."""
    return (
        event.kind is EventKind.NO_MAJORITY
        and bool(event.counts)
        and event.counts[0] > 0
        and max(event.counts[1:], default=0) == event.counts[0]
    )


def _relevance(event: Event, part: _Part, prefer: frozenset[EventKind]) -> int:
    """How closely ``event`` concerns ``part`` (0: not at all); an event of a kind in
    ``prefer`` comes first among equals."""
    if event.kind not in FIELD_EVENTS.get(part.field, frozenset()):
        return 0
    if part.seat is not None and not _concerns_seat(event, part.seat):
        return 0  # a seat's part changes only by that seat's events
    score = 1 + (2 if event.kind in prefer else 0)
    mentioned = {*event.cards, *event.tiles, *event.cities}
    if event.symbol is not None:
        mentioned.add(event.symbol.value)
    if part.values & mentioned:
        score += 3
    if part.points is not None and event.points:
        score += 3 if event.points == part.points else 1
    if _is_tie(event):
        score += 1
    return score


def _concerns_seat(event: Event, seat: int) -> bool:
    """Whether ``event`` can change something of ``seat``'s: its own events, and a
    special card taken from it."""
    return event.seat == seat or (event.kind is EventKind.EXCHANGE and seat in event.seats)


def _event_clauses(event: Event, parts: Sequence[_Part]) -> tuple[list[str], list[str]]:
    """An event's clauses in two tiers: those that say how it came out, and the
    background ones (for the start of a visit, which names every clause of a new visit,
    the clauses of the parts that differ come first and the others are background)."""
    clauses = list(event.clauses)
    if event.kind is EventKind.VISIT:
        wanted = {PART_CLAUSES[part.field] for part in parts if part.field in PART_CLAUSES}
        first = [clause for clause in clauses if clause in wanted]
        return first, [clause for clause in clauses if clause not in wanted]
    return (
        [clause for clause in clauses if clause not in BACKGROUND],
        [clause for clause in clauses if clause in BACKGROUND],
    )


def _event_line(event: Event, names: Sequence[str] | None, after: GameState) -> str:
    lines = event_lines((event,), names, after)
    if not lines:
        who = player_label(event.seat, names) + " " if event.seat is not None else ""
        return f"{who}{event.kind.value}"
    return lines[0].strip().lstrip("= ").strip()


def rank_rules(
    events: Sequence[Event],
    parts: Sequence[_Part],
    names: Sequence[str] | None,
    after: GameState,
    *,
    first: Sequence[RankedRule] = (),
    prefer: frozenset[EventKind] = frozenset(),
    limit: int = MAX_RULES,
) -> tuple[RankedRule, ...]:
    """At most ``limit`` rules: ``first``, then the clauses of the events most closely
    concerned by ``parts`` (those of a kind in ``prefer`` first among equals), the
    clauses saying how each came out before the background ones. With no ``parts``
    (nothing known of what differs), the events' own clauses in order; when no event
    concerns the parts, none (the reference changed nothing there)."""
    scored = [
        (sum(_relevance(event, part, prefer) for part in parts), index, event)
        for index, event in enumerate(events)
    ]
    chosen = [event for score, _, event in sorted(scored, key=lambda s: (-s[0], s[1])) if score]
    if not parts:  # nothing known of what differs: the step's own events, in order
        chosen = list(events)
    ranked: list[RankedRule] = []
    seen: set[str] = set()
    for rule in first:
        if rule.id not in seen and len(ranked) < limit:
            ranked.append(rule)
            seen.add(rule.id)
    # Each event's telling clauses first, in the events' order of relevance; then the
    # background clauses of the same events.
    for tier in (0, 1):
        for event in chosen:
            for clause in _event_clauses(event, parts)[tier]:
                if clause in seen:
                    continue
                if len(ranked) >= limit:
                    return tuple(ranked)
                ranked.append(RankedRule(clause, _event_line(event, names, after)))
                seen.add(clause)
    return tuple(ranked)


# ---------------------------------------------------------------------------------------
# Building explanations


def _parted(played: StepPlayed, names: Sequence[str] | None) -> PartedStep:
    """``played`` as the step where the engines parted, with the reference's account."""
    lines = event_lines(played.events, names, played.after)
    return PartedStep(
        played.number,
        str(played.action),
        None if played.before.is_chance else played.before.to_move,
        tuple(line.strip() for line in lines if line.strip()),
        step_clauses(played.action, played.events),
    )


def explanation_at(
    kind: str,
    number: int,
    before: GameState,
    other: str,
    summary: str,
    names: Sequence[str] | None,
    **details: Any,
) -> Explanation:
    """An explanation of step ``number``, played from ``before`` (which gives the seat
    to move, the visit and the kind of step); ``details`` are its other fields."""
    return Explanation(
        kind=kind,
        step=number,
        other=other,
        summary=summary,
        actor=None if before.is_chance else before.to_move,
        visit=before.visit,
        step_kind=before.step.value,
        names=None if names is None else tuple(names),
        **details,
    )


@attrs.frozen(slots=True)
class StepPlayed:
    """A step as the reference played it: the position before, the action, the position
    after and the events (the step where engines may have parted)."""

    number: int
    before: GameState
    action: Any
    after: GameState
    events: tuple[Event, ...]

    @classmethod
    def of(cls, number: int, before: GameState, action: Any) -> StepPlayed:
        """The reference's step ``number``: ``action`` applied to ``before``."""
        after, events = apply_with_events(before, action)
        return cls(number, before, action, after, events)


def document_differences(expected: Any, found: Any) -> tuple[Difference, ...]:
    """Where two position documents (or public positions) differ: ``expected`` the
    reference's, ``found`` (``actual``) the other side's."""
    return tuple(json_differences(expected, found))


def refusal(state: GameState, text: str) -> tuple[str, str] | None:
    """The clause (or ``""``) and message of the reference's refusal of ``text`` in
    ``state``; None when it accepts it."""
    try:
        apply(state, parse_action(text))
    except IllegalActionError as error:
        return (error.clause or "", str(error))
    except TajMahalError as error:
        return ("", str(error))
    return None


def step_kind_of(actions: Iterable[str]) -> str | None:
    """The step kind actions are taken at (``play``, ``place``, ``take``, ``shuffle``),
    from their first words; None when they are of no one kind."""
    words = {text.split(" ", 1)[0] for text in actions}
    for kind, starts in (
        ("place", {"palace", "crown"}),
        ("take", {"take"}),
        ("play", {"play", "withdraw"}),
        ("shuffle", {"reshuffle"}),
    ):
        if words and words <= starts:
            return kind
    return None


def _shift_parts(
    reference: str | None, other: str | None, seat: int | None
) -> tuple[list[_Part], frozenset[EventKind]]:
    """The parts behind a step kind that differs, and the kinds of event to look at
    first: a placement owed by the other side only comes from a force it won where the
    reference awarded nothing (a tie, most often) or a palace it did not forfeit; a
    placement owed in the reference only, from a force the other side did not award; a
    take or a play from who withdrew; a reshuffle from the deck. A placement concerns
    ``seat``'s own withdrawal only."""
    if reference == other or reference is None or other is None:
        return [], frozenset()
    if "place" in (reference, other):
        # What the seat to move won (or forfeited) in its own withdrawal.
        parts = [_Part("withdrawal", seat)]
        if other == "place":
            return parts, frozenset({EventKind.NO_MAJORITY, EventKind.FORFEIT})
        return parts, frozenset({EventKind.WIN})
    if "shuffle" in (reference, other):
        return [_Part("deck"), _Part("draw")], frozenset({EventKind.DRAW})
    return [_Part("step"), _Part("to_move")], frozenset()


def _near_miss_rules(
    before: GameState, strings: Sequence[str], other_count: int, names: Sequence[str] | None
) -> list[RankedRule]:
    """When only the other side's count is known: the reference's refusals of the
    actions of this kind it does not allow (what an engine with more actions may have
    allowed), each clause with how many actions it refuses, those refusing as many as
    the count differs first."""
    if other_count <= len(strings):
        return []
    refused: dict[str, list[str]] = {}
    messages: dict[str, str] = {}
    for text in _near_misses(before):
        if text in strings:
            continue
        found = refusal(before, text)
        if found is not None and found[0]:
            refused.setdefault(found[0], []).append(text)
            messages.setdefault(found[0], found[1])
    excess = other_count - len(strings)
    order = sorted(refused.items(), key=lambda item: (abs(len(item[1]) - excess), item[0]))
    return [RankedRule(clause, _refused_text(texts, messages[clause])) for clause, texts in order]


def _refused_text(texts: Sequence[str], message: str) -> str:
    more = f" and {count_of(len(texts) - 1, 'more action')} of this step" if len(texts) > 1 else ""
    return f"the reference refuses {texts[0]}{more}: {message}"


def _near_misses(state: GameState) -> list[str]:
    """Actions of the kind the position waits for, legal or not: every city of the
    current province for each kind of palace owed, every card of the hand alone or with
    another for a play."""
    seat = state.to_move
    if seat is None:
        return []
    withdrawal = state.withdrawal
    if state.step is Step.PLACE and withdrawal is not None:
        board = state.config.components.board
        province = state.current_province
        cities = sorted(name for name, city in board.cities.items() if city.province == province)
        kinds = [
            kind
            for kind, owed in (
                ("crown", withdrawal.crown_owed),
                ("palace", withdrawal.palaces_owed > 0),
            )
            if owed
        ]
        return [f"{kind} {city}" for kind in kinds for city in cities]
    if state.step is Step.PLAY:
        hand = state.players[seat].hand
        return [f"play {card}" for card in hand] + [
            f"play {card} {extra}" for card in hand for extra in hand if extra != card
        ]
    return []


def explain_legal(
    number: int,
    before: GameState,
    other: LegalView,
    *,
    other_name: str,
    previous: StepPlayed | None = None,
    history: Sequence[StepPlayed] = (),
    names: Sequence[str] | None = None,
    taken: str | None = None,
) -> Explanation:
    """The legal actions at the start of step ``number`` (played from ``before``)
    differ: the reference's against ``other``'s. ``history`` holds the steps before it
    (the last one last; ``previous`` alone, the step before); ``taken`` is the action the
    other side took, when it took one the reference refuses.

    Where the engines parted, and so which rules are named:

    - the step kind or the seat to move differs: the step before, and what followed it
      automatically (a force awarded on one side only makes a placement owed on one side
      only, and so on), its events ranked by what the kinds imply; then the reference's
      refusals of the other side's actions;
    - the other side allows actions the reference refuses: this step, and the rules of
      those refusals;
    - actions are missing on the other side, all naming the same card (or tile, city):
      the last earlier step whose events moved it, when there is one (a special card
      discarded instead of returned to the hand shows here as plays of it missing);
      else the rules that allow the missing actions;
    - only the counts are known: the rules of the reference's refusals of this step's
      kind of action, those refusing as many actions as the counts differ by first.
    """
    steps = list(history) or ([previous] if previous is not None else [])
    previous = steps[-1] if steps else None
    strings = tuple(str(action) for action in legal_actions(before))
    reference = LegalView(
        before.step.value,
        None if before.is_chance else before.to_move,
        len(strings),
        tuple(sorted(strings)),
    )
    listed = set(other.actions) if other.actions is not None else None
    missing = tuple(sorted(set(strings) - listed)) if listed is not None else ()
    extra_set = (listed - set(strings)) if listed is not None else set()
    if taken is not None and taken not in strings:
        extra_set.add(taken)
    extra = tuple(sorted(extra_set))
    refusals = tuple(
        (text, *found) for text in extra if (found := refusal(before, text)) is not None
    )
    other_kind = other.step_kind or (
        step_kind_of(other.actions) if other.actions else step_kind_of([taken]) if taken else None
    )
    other = attrs.evolve(other, step_kind=other_kind)
    refused_rules = [
        RankedRule(clause, f"the reference refuses {text}: {message}")
        for text, clause, message in refusals
        if clause
    ]
    shifted = (other_kind is not None and other_kind != reference.step_kind) or (
        other.to_move is not None and other.to_move != reference.to_move
    )
    parted: StepPlayed | None = None
    rules: tuple[RankedRule, ...]
    parts, prefer = _shift_parts(reference.step_kind, other_kind, reference.to_move)
    if other.to_move is not None and other.to_move != reference.to_move:
        # Who moves first in a visit is decided as it begins; within one, by turns.
        parts.append(_Part("to_move"))
        prefer |= {EventKind.VISIT}
    cause = _last_concerned(parts, steps) if shifted else None
    if cause is not None:
        parted = cause
        rules = rank_rules(cause.events, parts, names, cause.after, prefer=prefer)
        rules = _merged(rules, refused_rules)
    elif refused_rules:
        rules = _merged(refused_rules)
    elif missing and (moved := _last_moved(_shared_ids(missing), steps)) is not None:
        parted, parts = moved
        rules = rank_rules(parted.events, parts, names, parted.after)
    elif missing:
        rules = _merged(_allowing_rules(number, before, missing, names))
    elif other.actions is None and other.count is not None:
        rules = _merged(_near_miss_rules(before, strings, other.count, names))
        if not rules and previous is not None:
            parted = previous
            rules = rank_rules(previous.events, (), names, previous.after)
    else:
        rules = ()
    return explanation_at(
        "legal",
        number,
        before,
        other_name,
        _legal_summary(reference, other, missing, extra, taken, other_name),
        names,
        action=taken,
        legal=(reference, other),
        missing=missing,
        extra=extra,
        refusals=refusals,
        parted=(
            PartedStep(number, taken, reference.to_move, (), ())
            if parted is None
            else _parted(parted, names)
        ),
        rules=rules,
    )


def _merged(*groups: Sequence[RankedRule]) -> tuple[RankedRule, ...]:
    """The rules of ``groups`` in order, each id once, at most :data:`MAX_RULES`."""
    merged: list[RankedRule] = []
    for group in groups:
        for rule in group:
            if rule.id not in {kept.id for kept in merged} and len(merged) < MAX_RULES:
                merged.append(rule)
    return tuple(merged)


def _last_concerned(parts: Sequence[_Part], steps: Sequence[StepPlayed]) -> StepPlayed | None:
    """The last of ``steps`` with an event that can change one of ``parts``: the step
    before, or an earlier one in an unbroken run of steps by the same seat (a withdrawal
    and its placements)."""
    if not steps:
        return None
    actor = steps[-1].before.to_move
    for step in reversed(steps):
        if step.before.to_move != actor:
            break
        for event in step.events:
            for part in parts:
                if (part.seat is None or event.seat == part.seat) and _relevance(
                    event, part, frozenset()
                ):
                    return step
    return None


def _shared_ids(actions: Sequence[str]) -> frozenset[str]:
    """The ids (cards, cities) every one of ``actions`` names."""
    shared: set[str] | None = None
    for text in actions:
        words = set(text.split()[1:])
        shared = words if shared is None else shared & words
    return frozenset(shared or ())


def _last_moved(
    ids: frozenset[str], steps: Sequence[StepPlayed]
) -> tuple[StepPlayed, list[_Part]] | None:
    """The last of ``steps`` whose events name one of ``ids``, and the part to rank its
    events by."""
    if not ids:
        return None
    for step in reversed(steps):
        for event in step.events:
            if ids & {*event.cards, *event.tiles, *event.cities}:
                fields = {field for field, kinds in FIELD_EVENTS.items() if event.kind in kinds}
                return step, [_Part(field, values=ids) for field in sorted(fields)]
    return None


def _allowing_rules(
    number: int, before: GameState, missing: Sequence[str], names: Sequence[str] | None
) -> list[RankedRule]:
    """For actions the other side lacks: the clause of the reference's own event for
    each (what allows it), the telling ones first."""
    found: list[RankedRule] = []
    for text in missing[:5]:
        played = StepPlayed.of(number, before, parse_action(text))
        if not played.events:
            continue
        head = played.events[0]
        telling, background = _event_clauses(head, ())
        for clause in telling or background:
            found.append(
                RankedRule(clause, f"allows {text}: {_event_line(head, names, played.after)}")
            )
            break
    return found


def _legal_summary(
    reference: LegalView,
    other: LegalView,
    missing: Sequence[str],
    extra: Sequence[str],
    taken: str | None,
    other_name: str,
) -> str:
    if other.to_move != reference.to_move and other.to_move is not None:
        return (
            f"{_who(reference.to_move)} moves in the reference, {_who(other.to_move)} in "
            f"{other_name}"
        )
    if other.step_kind is not None and other.step_kind != reference.step_kind:
        return (
            f"the reference waits for a {reference.step_kind} step, {other_name} for a "
            f"{other.step_kind} step"
        )
    if taken is not None and taken in extra:
        return f"{other_name} took {taken}, which the reference refuses"
    if missing or extra:
        return (
            f"{count_of(len(missing), 'legal action')} missing and {len(extra)} extra in "
            f"{other_name}"
        )
    return f"the reference has {reference.count} legal actions, {other_name} {other.count}"


def _who(seat: int | None) -> str:
    return "chance" if seat is None else f"P{seat}"


def explain_after(
    played: StepPlayed,
    *,
    other_name: str,
    names: Sequence[str] | None = None,
    scores: Sequence[Any] | None = None,
    documents: tuple[Any, Any] | None = None,
    digests: tuple[str, str] | None = None,
    hidden_only: bool = False,
    history: Sequence[StepPlayed] = (),
) -> Explanation:
    """The position after step ``played.number`` differs: ``scores`` (the other side's,
    when they differ), ``documents`` (the reference's position document or public
    position and the other side's), else ``digests`` (the reference's and the other
    side's).

    ``history`` holds the steps before it (the last one last), for when the two sides
    were compared on less than the whole position (only the scores, say): a part that
    differs and that nothing in this step can change was changed earlier, and the
    engines parted at the last earlier step whose events can change it."""
    after = played.after
    differences = document_differences(*documents) if documents is not None else ()
    parts = [_part_of(difference) for difference in differences]
    score_pair: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    if scores is not None and list(scores) != list(after.scores):
        score_pair = (tuple(after.scores), tuple(scores))
        parts.extend(_score_parts(after.scores, scores))
    if hidden_only:
        parts.extend([_Part("seats.hand"), _Part("deck")])
    parted = played
    unexplained = [
        part
        for part in parts
        if part.field not in CONSEQUENCES
        and not any(_relevance(event, part, frozenset()) for event in played.events)
    ]
    for earlier in reversed(history) if unexplained else ():
        if any(
            _relevance(event, part, frozenset()) for event in earlier.events for part in unexplained
        ):
            parted = earlier
            break
    if parted is played:
        rules = rank_rules(played.events, parts, names, after)
    else:
        rules = rank_rules(parted.events, unexplained, names, parted.after)
    kind = "state" if differences or digests is not None or hidden_only else "scores"
    if differences:
        differ = "differs" if len(differences) == 1 else "differ"
        summary = f"{count_of(len(differences), 'field')} of the position after the step {differ}"
    elif score_pair is not None:
        gaps = [
            f"{_who(seat)} {'+' if theirs > mine else ''}{theirs - mine}"
            for seat, (mine, theirs) in enumerate(zip(*score_pair, strict=False))
            if mine != theirs
        ]
        summary = "the scores after the step differ: " + ", ".join(gaps)
    elif hidden_only:
        summary = "the public positions agree; a hidden part differs (hands or deck order)"
    else:
        summary = "the state digests differ; only the digests are known"
    return explanation_at(
        kind,
        played.number,
        played.before,
        other_name,
        summary,
        names,
        action=str(played.action),
        differences=differences,
        scores=score_pair,
        digests=digests if not differences else None,
        hidden_only=hidden_only,
        parted=_parted(parted, names),
        rules=rules,
    )


def explain_refused(
    played: StepPlayed,
    *,
    other_name: str,
    message: str,
    clause: str | None,
    names: Sequence[str] | None = None,
) -> Explanation:
    """The other side refused step ``played.number``'s action, which the reference
    allows: the rules are the reference's permission (the clauses of the action's own
    event first), beside the other side's reason."""
    head = played.events[:1]
    rules = rank_rules(head, (), names, played.after) if head else ()
    detail = [f"{other_name} refuses it: {message}"]
    if clause:
        detail.append(f"{other_name}'s reason: {clause}")
    return explanation_at(
        "refused",
        played.number,
        played.before,
        other_name,
        f"{other_name} refuses {played.action}, which the reference allows",
        names,
        action=str(played.action),
        detail=tuple(detail),
        parted=_parted(played, names),
        rules=rules,
    )


# ---------------------------------------------------------------------------------------
# Rendering


def _value(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _seat_text(seat: int | None, names: Sequence[str] | None) -> str:
    return "chance" if seat is None else player_label(seat, names)


def _wrapped(label: str, items: Sequence[str], width: int = 96) -> list[str]:
    """``label`` then ``items`` separated by commas, wrapped, every item whole."""
    lines: list[str] = []
    line = label
    for index, item in enumerate(items):
        piece = item + ("," if index < len(items) - 1 else "")
        if len(line) + 1 + len(piece) > width and line.strip() != label.strip():
            lines.append(line)
            line = " " * len(label) + piece
        else:
            line = f"{line} {piece}" if line != label else f"{label} {piece}"
    lines.append(line)
    return lines


def explanation_lines(explanation: Explanation) -> list[str]:
    """The explanation as lines indented by two spaces: hypotheses first, then where
    (step, position, action), what differs (expected: the reference's; found: the
    other side's), where the engines parted and the rules, likeliest first."""
    e = explanation
    names = e.names
    other = e.other
    lines: list[str] = []
    for hypothesis in e.hypotheses:
        named = hypothesis.option and hypothesis.option not in hypothesis.text
        option = f" ({hypothesis.option})" if named else ""
        lines.append(f"  likely: {hypothesis.text}: {hypothesis.rule}{option}")
    before = e.step - 1
    who = _seat_text(e.actor, names)
    where = f"the position after step {before} (visit {e.visit}, a {e.step_kind} step)"
    if e.action is not None:
        lines.append(f"  step {e.step}: {e.action}, by {who}, from {where}")
    else:
        lines.append(f"  step {e.step}, before its action: {where}, {who} to move")
    lines.append(f"  what differs: {e.summary}")
    lines.extend(f"  {line}" for line in e.detail)
    if e.legal is not None:
        reference, theirs = e.legal
        lines.append(f"  legal actions at the start of step {e.step}:")
        lines.append(f"    expected (the reference): {_legal_view(reference, names)}")
        lines.append(f"    found ({other}): {_legal_view(theirs, names)}")
        if theirs.actions is not None or e.missing:
            lines.extend(
                _wrapped(f"    missing in {other} ({len(e.missing)}):", list(e.missing) or ["none"])
            )
        if theirs.actions is not None or e.extra:
            lines.extend(
                _wrapped(f"    extra in {other} ({len(e.extra)}):", list(e.extra) or ["none"])
            )
        for text, clause, message in e.refusals:
            lines.append(f"      the reference refuses {text}: {clause or 'no clause'}: {message}")
        if theirs.actions is None:
            lines.extend(
                _wrapped(f"    the reference's {reference.count}:", list(reference.actions or ()))
            )
    if e.scores is not None:
        expected, found = e.scores
        lines.append(
            f"  scores after step {e.step}: expected {list(expected)} (the reference), "
            f"found {list(found)} ({other})"
        )
    if e.differences:
        lines.append(
            f"  the position after step {e.step}, field by field (expected: the reference; "
            f"found: {other}):"
        )
        for difference in e.differences[:MAX_DIFFERENCES]:
            lines.append(f"    {_difference_text(difference)}")
        if len(e.differences) > MAX_DIFFERENCES:
            lines.append(f"    ... and {len(e.differences) - MAX_DIFFERENCES} more")
    elif e.digests is not None:
        expected_digest, found_digest = e.digests
        lines.append(
            f"  state digest after step {e.step}: expected {expected_digest} (the reference), "
            f"found {found_digest} ({other})"
        )
        if e.hidden_only:
            lines.append(
                "  the public positions agree, so what differs is hidden: a hand or the "
                "deck's order"
            )
        else:
            lines.append(
                f"  only the digests are known (the last resort): {other} gives no position "
                "to compare field by field (a record with `public` in its steps, or an "
                "engine answering `state`, names the fields)"
            )
    if e.parted is not None:
        part = e.parted
        if part.step != e.step:
            by = f" by {_seat_text(part.actor, names)}" if part.action else ""
            what = part.action or "the setup"
            lines.append(
                f"  the engines parted at step {part.step} ({what}{by}) and what followed "
                "it automatically; the reference's account of it:"
            )
            lines.extend(f"    {line}" for line in part.account)
        elif part.account:
            lines.append(f"  the reference's account of step {part.step}:")
            lines.extend(f"    {line}" for line in part.account)
    if e.rules:
        lines.append("  rules, likeliest first:")
        for rule in e.rules:
            lines.append(f"    {rule.id}: {rule.reason}")
    elif e.kind in ("scores", "state"):
        lines.append(
            "  rules: nothing the reference did in the step changes what differs, so "
            f"{other} changed it on its own"
        )
    return lines


def _legal_view(view: LegalView, names: Sequence[str] | None) -> str:
    kind = f"a {view.step_kind} step" if view.step_kind else "a step of unknown kind"
    seat = (
        "nobody to move"
        if view.to_move is None and view.step_kind in ("shuffle", "over")
        else f"{_seat_text(view.to_move, names)} to move"
        if view.to_move is not None
        else "the seat to move not known"
    )
    count = (
        "the number of actions not known" if view.count is None else count_of(view.count, "action")
    )
    listed = "" if view.actions is not None else " (count and digest only)"
    return f"{kind}, {seat}, {count}{listed}"


def _difference_text(difference: Difference) -> str:
    where = difference.path
    if difference.kind == "missing":
        return f"{where}: expected {_value(difference.expected)}, missing in the other"
    if difference.kind == "unexpected":
        return f"{where}: not expected, found {_value(difference.actual)}"
    left, right = difference.expected, difference.actual
    if isinstance(left, list) and isinstance(right, list):
        lacking = [item for item in left if item not in right]
        added = [item for item in right if item not in left]
        if lacking or added:
            parts = []
            if lacking:
                parts.append(f"lacks {_value(lacking, 80)}")
            if added:
                parts.append(f"adds {_value(added, 80)}")
            return (
                f"{where}: expected {_value(left, 80)}, found {_value(right, 80)} "
                f"({'; '.join(parts)})"
            )
    return f"{where}: expected {_value(left)}, found {_value(right)}"


def explanation_to_json(explanation: Explanation) -> dict[str, Any]:
    """The explanation as a JSON object (``expected``: the reference's; ``found``: the
    other side's)."""
    e = explanation

    def view(item: LegalView) -> dict[str, Any]:
        return {
            "step_kind": item.step_kind,
            "to_move": item.to_move,
            "count": item.count,
            "actions": None if item.actions is None else list(item.actions),
        }

    document: dict[str, Any] = {
        "kind": e.kind,
        "step": e.step,
        "position": e.step - 1,
        "other": e.other,
        "summary": e.summary,
        "action": e.action,
        "actor": e.actor,
        "visit": e.visit,
        "step_kind": e.step_kind,
        "hypotheses": [{"text": h.text, "rule": h.rule, "option": h.option} for h in e.hypotheses],
        "differences": [
            {"path": d.path, "expected": d.expected, "found": d.actual, "kind": d.kind}
            for d in e.differences
        ],
        "scores": None
        if e.scores is None
        else {"expected": list(e.scores[0]), "found": list(e.scores[1])},
        "digests": None if e.digests is None else {"expected": e.digests[0], "found": e.digests[1]},
        "digest_only": e.digest_only,
        "hidden_only": e.hidden_only,
        "legal": None
        if e.legal is None
        else {
            "expected": view(e.legal[0]),
            "found": view(e.legal[1]),
            "missing": list(e.missing),
            "extra": list(e.extra),
            "refusals": [
                {"action": text, "clause": clause or None, "message": message}
                for text, clause, message in e.refusals
            ],
        },
        "detail": list(e.detail),
        "parted": None
        if e.parted is None
        else {
            "step": e.parted.step,
            "action": e.parted.action,
            "actor": e.parted.actor,
            "account": list(e.parted.account),
            "clauses": list(e.parted.clauses),
        },
        "rules": [{"id": rule.id, "reason": rule.reason} for rule in e.rules],
    }
    return document


__all__ = ["BACKGROUND", "FIELD_EVENTS", "MAX_DIFFERENCES", "MAX_RULES", "PART_CLAUSES"]
