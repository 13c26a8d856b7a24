"""Regenerate the golden corpus of game records in specs/traces/ and its manifest.

The corpus is what other engines are checked against, so it must reach every edge case
and every option of every configurable ruling, not only what random play happens to
meet. It is built in five deterministic parts:

- ``seeded``: games between the built-in greedy and random players under the default
  rules, for 3, 4 and 5 players;
- ``options``: for every non-default option of a configurable ruling, three games (3, 4
  and 5 players) by players that seek the situations the option changes; and games that
  mix several non-default options;
- ``edge``: for every edge tag, games found by searching seeds, rule sets and mixes of
  edge-seeking players (players that prefer, at each decision, an action whose step
  reaches a wanted tag; hoarders that withdraw without playing to run the deck dry);
- ``scenario``: hand-crafted games (chosen cards dealt to a seat, a chosen start player,
  a script of that seat's first actions) for edge cases the search does not reach;
- ``full``: a few records written with the legal actions and public position of every
  step (OpenSpiel playthrough style).

Every game is a plain record: only its setup and actions are input, everything else is
derived by the reference and checked by ``tajmahal verify``. The manifest
(``specs/traces/index.json``) lists for every record its id, player count, non-default
options, the clauses and rulings it exercises and its edge tags, like test262's
features. ``--check`` regenerates in memory and reports any difference instead of
writing; ``--coverage`` prints the coverage report. Run it deliberately, review the diff,
commit: the test suite fails when a record stops verifying or the corpus or its
coverage shrinks.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import tomllib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from tajmahal.actions import Action, PlacePalace, Withdraw
from tajmahal.components import Components, default_components
from tajmahal.engine import apply_with_events, legal_actions, random_reshuffle
from tajmahal.match import chance_seed, play_match
from tajmahal.players import GreedyPlayer, Player, RandomPlayer
from tajmahal.rules import RULE_OPTIONS, RuleSet
from tajmahal.setup import SetupOutcome, new_game, random_setup
from tajmahal.state import GameState, Step
from tajmahal.tags import TAGS as EDGE_TAGS
from tajmahal.tags import edge_tags
from tajmahal.trace import Record, Recorder, dumps_record, write_text_atomic

ROOT = Path(__file__).resolve().parent.parent
CORPUS_DIR = ROOT / "specs" / "traces"
MANIFEST = "index.json"
MANIFEST_FORMAT = "tajmahal-trace-index"

TRACE_TAGS: tuple[str, ...] = tuple(tag for tag in EDGE_TAGS if tag != "placement-refused")
"""Tags a record can reach (a refused placement is never a step of a record)."""

NOT_IN_RECORDS: dict[str, str] = {
    "placement-refused": "a refused placement is an illegal action, never a step of a "
    "record; records show it as a legal-action list without that placement (see "
    "crown_beside_own_palace=forbidden traces) and the position cases test the refusal",
}
"""Edge tags no record can carry, with the reason (printed by the coverage report)."""

PER_TAG = 3
"""Records wanted for each edge tag."""


# ---------------------------------------------------------------------------------------
# Edge-seeking players


class EdgeSeeker:
    """Prefers, at each decision, an action whose step reaches one of ``wanted`` (tried
    by applying each legal action); otherwise decides like ``base``."""

    def __init__(self, seed: int, wanted: Iterable[str], base: Player | None = None) -> None:
        self.name = "edge"
        self.wanted = frozenset(wanted)
        self.base: Player = base if base is not None else RandomPlayer(seed)
        self.rng = random.Random(seed)

    def choose(self, state: GameState, legal: tuple[Action, ...]) -> Action:
        hits = []
        for action in legal:
            after, events = apply_with_events(state, action)
            if edge_tags(state, action, events, after) & self.wanted:
                hits.append(action)
        if hits:
            return hits[self.rng.randrange(len(hits))]
        return self.base.choose(state, legal)


class Hoarder:
    """Withdraws at once, without playing, in every visit, and takes cards at random:
    the deck runs dry because cards only ever go into hands."""

    def __init__(self, seed: int) -> None:
        self.name = "hoarder"
        self.rng = random.Random(seed)

    def choose(self, state: GameState, legal: tuple[Action, ...]) -> Action:
        if state.step is Step.PLAY and any(isinstance(a, Withdraw) for a in legal):
            return next(a for a in legal if isinstance(a, Withdraw))
        return legal[self.rng.randrange(len(legal))]


MIXES: dict[str, Callable[[int, int, frozenset[str]], list[Player]]] = {
    "greedy-random": lambda n, s, w: [
        GreedyPlayer(s * 10 + i) if i % 2 == 0 else RandomPlayer(s * 10 + i) for i in range(n)
    ],
    "edge-random": lambda n, s, w: [
        EdgeSeeker(s * 10 + i, w) if i % 2 == 0 else RandomPlayer(s * 10 + i) for i in range(n)
    ],
    "edge-greedy": lambda n, s, w: [
        EdgeSeeker(s * 10 + i, w, GreedyPlayer(s)) if i % 2 == 0 else GreedyPlayer(s * 10 + i)
        for i in range(n)
    ],
    "edge-all": lambda n, s, w: [EdgeSeeker(s * 10 + i, w) for i in range(n)],
    "hoarders": lambda n, s, w: [
        Hoarder(s * 10 + i) if i < n - 1 else EdgeSeeker(s * 10 + i, w) for i in range(n)
    ],
    "all-hoarders": lambda n, s, w: [Hoarder(s * 10 + i) for i in range(n)],
    "hoarders-after-seat-0": lambda n, s, w: [
        EdgeSeeker(s * 10, w) if i == 0 else Hoarder(s * 10 + i) for i in range(n)
    ],
}
"""Named player mixes: (players, seed, wanted tags) -> players, seat 0 first."""


# ---------------------------------------------------------------------------------------
# Corpus entries


def _rules(options: dict[str, str]) -> RuleSet:
    return RuleSet.from_json(options)


def _non_default(rules: RuleSet) -> dict[str, str]:
    default = RuleSet().to_json()
    return {k: v for k, v in rules.to_json().items() if default[k] != v}


@attrs.frozen
class Entry:
    """One record of the corpus: how to play it."""

    id: str
    origin: str
    players: int
    seed: int
    mix: str
    options: tuple[tuple[str, str], ...] = ()
    wanted: tuple[str, ...] = ()
    full: bool = False
    description: str = ""

    def play(self, components: Components) -> Record:
        rules = _rules(dict(self.options))
        agents = MIXES[self.mix](self.players, self.seed, frozenset(self.wanted))
        result = play_match(components, agents, self.seed, rules, full=self.full)
        return attrs.evolve(result.record, id=self.id, description=self.description)


OPTION_WANTS: dict[str, tuple[str, ...]] = {
    "majority_scope": ("tie", "tie-broken", "zero-symbols"),
    "colour_change_first_turn": ("colour-change-first-turn",),
    "withdraw_without_playing": ("withdraw-without-playing",),
    "crown_beside_own_palace": ("crown-beside-palace", "crown-on-occupied"),
    "own_palace_beside_own_crown": ("crown-on-fortress", "crown-beside-palace"),
    "already_held_special": ("special-changes-hands", "pairs-collide"),
}
"""The tags whose situations each configurable ruling changes."""

MIXED_OPTIONS: tuple[dict[str, str], ...] = (
    {name: values[1] for name, values in RULE_OPTIONS.items()},
    {"majority_scope": "all", "withdraw_without_playing": "none"},
    {"crown_beside_own_palace": "forbidden", "own_palace_beside_own_crown": "allowed"},
    {"colour_change_first_turn": "played-card", "already_held_special": "keep-tiles"},
    {
        "majority_scope": "all",
        "crown_beside_own_palace": "forbidden",
        "already_held_special": "keep-tiles",
    },
    {
        "withdraw_without_playing": "none",
        "own_palace_beside_own_crown": "allowed",
        "colour_change_first_turn": "played-card",
    },
)
"""Rule sets mixing non-default options (the first: every option non-default)."""


SEEDED: dict[int, int] = {3: 12, 4: 6, 5: 4}
"""Seeded default-rule records per player count (3-player games are the shortest)."""


def seeded_entries() -> list[Entry]:
    entries = []
    for players, count in SEEDED.items():
        for seed in range(1, count + 1):
            entries.append(
                Entry(
                    f"seeded-{players}p-{seed:03d}",
                    "seeded",
                    players,
                    seed,
                    "greedy-random",
                    description="greedy and random players, default rules",
                )
            )
    return entries


def option_entries() -> list[Entry]:
    entries = []
    default = RuleSet().to_json()
    for name, values in RULE_OPTIONS.items():
        for value in values:
            if value == default[name]:
                continue
            for players in (3, 4, 5):
                entries.append(
                    Entry(
                        f"option-{name.replace('_', '-')}-{value}-{players}p",
                        "options",
                        players,
                        100 + players,
                        "edge-random",
                        ((name, value),),
                        OPTION_WANTS[name],
                        description=f"{name}={value}: players seek the situations it changes",
                    )
                )
    for index, options in enumerate(MIXED_OPTIONS, start=1):
        players = 3 + index % 3
        entries.append(
            Entry(
                f"mixed-{index:02d}-{players}p",
                "options",
                players,
                200 + index,
                "edge-random",
                tuple(sorted(options.items())),
                tuple(sorted({tag for name in options for tag in OPTION_WANTS[name]})),
                description="several non-default options: " + ", ".join(sorted(options)),
            )
        )
    return entries


def _give(setup: SetupOutcome, seat: int, cards: Sequence[str]) -> SetupOutcome:
    """``setup`` with ``cards`` moved into ``seat``'s hand, each swapped with a card of
    that hand that is not wanted (the setup stays a valid deal)."""
    piles = [list(hand) for hand in setup.hands] + [list(setup.display), list(setup.deck)]
    for card in cards:
        if card in piles[seat]:
            continue
        spare = next(c for c in piles[seat] if c not in cards)
        pile = next(p for p in piles if card in p)
        pile[pile.index(card)] = spare
        piles[seat][piles[seat].index(spare)] = card
    count = len(setup.hands)
    return attrs.evolve(
        setup,
        hands=tuple(tuple(pile) for pile in piles[:count]),
        display=tuple(piles[count]),
        deck=tuple(piles[count + 1]),
    )


@attrs.frozen
class Scenario(Entry):
    """A hand-crafted game: chosen cards dealt to a seat, a chosen start player, and a
    script of actions that seat takes first (``palace *``: any normal palace), then
    the players of ``mix``."""

    seat: int = 0
    cards: tuple[str, ...] = ()
    script: tuple[str, ...] = ()

    def play(self, components: Components) -> Record:
        rules = _rules(dict(self.options))
        setup = _give(random_setup(components, self.players, self.seed), self.seat, self.cards)
        setup = attrs.evolve(setup, start_player=self.seat)
        agents = MIXES[self.mix](self.players, self.seed, frozenset(self.wanted))
        state = new_game(components, self.players, setup, rules)
        recorder = Recorder(
            components,
            self.players,
            setup,
            rules,
            seed=self.seed,
            names=tuple(agent.name for agent in agents),
            record_id=self.id,
            description=self.description,
        )
        chance = random.Random(chance_seed(self.seed))
        script = list(self.script)
        while not state.is_over:
            legal: tuple[Action, ...] | None = None
            if state.is_chance:
                action: Action = random_reshuffle(state, chance)
            else:
                assert state.to_move is not None
                legal = legal_actions(state)
                action = agents[state.to_move].choose(state, legal)
                if state.to_move == self.seat and script:
                    wanted = script[0]
                    scripted = [
                        a
                        for a in legal
                        if str(a) == wanted or (wanted == "palace *" and isinstance(a, PlacePalace))
                    ]
                    if scripted:
                        action = scripted[0]
                        script.pop(0)
            after, events = apply_with_events(state, action)
            recorder.add(state, action, after, events, legal)
            state = after
        return recorder.record(state)


SCENARIO_TAGS = frozenset({"unplaceable-crown"})
"""Tags reached by hand-crafted scenarios rather than by the search."""


def scenario_entries() -> list[Entry]:
    """Hand-crafted games for edge cases the search does not reach."""
    entries: list[Entry] = []
    for players in (3, 4, 5):
        # Alone after the others withdraw at once, seat 0 wins all four influence tiles
        # and the crown with three red cards, places a palace in each city of the
        # province first; the crown palace then has no legal city (RUL.REWARD.NO_LEGAL_CITY
        # under crown_beside_own_palace=forbidden).
        entries.append(
            Scenario(
                f"scenario-unplaceable-crown-{players}p",
                "scenario",
                players,
                400 + players,
                "hoarders-after-seat-0",
                (("crown_beside_own_palace", "forbidden"),),
                ("unplaceable-crown",),
                description="seat 0, alone in visit 1, wins every tile and the crown, fills "
                "the province with palaces: the crown palace cannot be placed",
                seat=0,
                cards=("red-01", "red-03", "red-05"),
                script=(
                    "play red-01",
                    "play red-03",
                    "play red-05",
                    "withdraw",
                    "palace *",
                    "palace *",
                    "palace *",
                    "palace *",
                ),
            )
        )
    return entries


def full_entries() -> list[Entry]:
    return [
        Entry(
            f"full-{players}p",
            "full",
            players,
            300 + players,
            "greedy-random",
            full=True,
            description="full record: legal actions and public position after every step",
        )
        for players in (3,)
    ]


SEARCH_SEEDS = 40
"""Seeds tried per (tag, mix, player count, rule set)."""

SEARCH_GAMES = 60
"""Games played for one tag before the search for it gives up."""

SEARCH_RULES: tuple[dict[str, str], ...] = (
    {},
    {"crown_beside_own_palace": "allowed", "own_palace_beside_own_crown": "allowed"},
    {"majority_scope": "all"},
)


TAG_RULES: dict[str, tuple[dict[str, str], ...]] = {
    "unplaceable-crown": (
        {"crown_beside_own_palace": "forbidden"},
        {"crown_beside_own_palace": "forbidden", "own_palace_beside_own_crown": "allowed"},
    ),
    "pairs-collide": ({}, {"already_held_special": "keep-tiles"}),
    "tied-winners": ({}, {"majority_scope": "all"}),
}
"""Rule sets searched for tags whose situation an option makes likelier (both options
of the ruling a tag concerns, where it has one)."""


def _tags_of(record: Record) -> set[str]:
    return {tag for step in record.steps for tag in (step.tags or ())}


def edge_entries(components: Components, log: Callable[[str], None]) -> list[tuple[Entry, Record]]:
    """For every trace tag, search games by players seeking it until ``PER_TAG`` reach it
    (or the search for it is exhausted)."""
    found: list[tuple[Entry, Record]] = []
    for tag in TRACE_TAGS:
        if tag in SCENARIO_TAGS:
            continue
        have = 0
        mixes = (
            ("all-hoarders", "hoarders", "edge-all")
            if tag
            in (
                "deck-exhausted",
                "discard-exhausted",
                "short-display",
                "card-bonus-empty-deck",
                "one-card-take",
                "withdraw-without-playing",
            )
            else ("edge-all", "edge-random", "edge-greedy", "hoarders")
        )
        rule_sets = TAG_RULES.get(tag, SEARCH_RULES)
        candidates = itertools.product(range(SEARCH_SEEDS), mixes, (3, 4, 5), rule_sets)
        for seed, mix, players, options in itertools.islice(candidates, SEARCH_GAMES):
            if have >= PER_TAG:
                break
            entry = Entry(
                f"edge-{tag}-{have + 1}",
                "edge",
                players,
                1000 + seed,
                mix,
                tuple(sorted(options.items())),
                (tag,),
                description=f"edge-seeking players reach {tag} ({mix})",
            )
            record = entry.play(components)
            tags = _tags_of(record)
            if tag in tags:
                found.append((entry, record))
                have += 1
                log(f"  {entry.id}: seed {entry.seed}, {players}p, {mix}, {dict(options)}")
        if have == 0:
            log(f"  {tag}: not reached by the search")
    return found


# ---------------------------------------------------------------------------------------
# Manifest and coverage


def registry(root: Path = ROOT) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
    """Clause id -> status, and ruling id -> ruling document."""
    clauses: dict[str, str] = {}
    for path in sorted((root / "specs" / "clauses").glob("*.toml")):
        for clause in tomllib.loads(path.read_text(encoding="utf-8")).get("clause", []):
            clauses[clause["id"]] = clause.get("status", "")
    rulings = {
        path.stem: tomllib.loads(path.read_text(encoding="utf-8"))
        for path in sorted((root / "rulings").glob("RUL.*.toml"))
    }
    return clauses, rulings


_LEGALITY = (
    "checked at every decision step through the legal actions it allows or forbids "
    "(legal_count, legal_digest); a step names what decided it, not what was possible"
)
_TURN_ORDER = (
    "checked at every step through the seat to move (actor) and the visits' structure; "
    "no single step is decided by it"
)
_SCORING = (
    "checked through the scores of every scoring step; the step names the broader scoring clause"
)
_STATE = "checked through the state digest after every step; no step is decided by it"

NOT_NAMED: dict[str, str] = {
    **dict.fromkeys(
        (
            "TM.PLAY.NEVER_ALONE",
            "TM.PLAY.THREE_FORMS",
            "TM.PLAY.NO_TAKE_BACK",
            "TM.SPECIAL.PLAY_LIKE_WHITE",
            "TM.SPECIAL.ONE_PER_TURN",
            "TM.SPECIAL.NO_EFFECT_IN_HAND",
            "TM.TURN.CHOICE",
            "TM.TURN.NO_LEGAL_PLAY",
            "TM.WITHDRAW.ANY_COMBINATION",
            "TM.WITHDRAW.EMPTY_HANDED",
            "TM.REWARD.PLACEMENT_ORDER",
            "TM.REWARD.CROWN.OWN_NORMAL_LATER",
            "RUL.CROWN.PLACEMENT_ORDER",
            "RUL.HAND.NO_LIMIT",
            "RUL.PLAY.WHITE_AND_SPECIAL",
            "RUL.TURN.NO_LEGAL_PLAY",
            "RUL.WITHDRAW.FIRST_ROUND",
            "RUL.CROWN.OWN_PALACE_BESIDE_CROWN",
            "RUL.REWARD.TWO_PALACES_PER_CITY",
            "RUL.SPECIAL.ONE_PER_TURN",
        ),
        _LEGALITY,
    ),
    **dict.fromkeys(
        (
            "TM.TURN.TWELVE_VISITS",
            "TM.TURN.START_PLAYER_BEGINS",
            "TM.TURN.CLOCKWISE",
            "TM.TURN.WITHDRAWN_SKIPPED",
            "TM.TURN.VISIT_ENDS",
            "TM.VISIT.END",
            "TM.END.AFTER_TWELVE",
            "RUL.SETUP.START_PLAYER",
        ),
        _TURN_ORDER,
    ),
    **dict.fromkeys(
        (
            "TM.SCORE.ORDER",
            "TM.SCORE.BONUS.SEQUENTIAL",
            "TM.SCORE.PALACE.PROVINCES",
            "TM.SCORE.PALACE.BREAK",
            "TM.SCORE.PALACE.SHARED_CITY",
            "TM.SCORE.TRACK",
            "TM.END.LEFTOVER_NO_VALUE",
            "TM.SPECIAL.ELEPHANT",
            "TM.SPECIAL.MOGUL",
            "RUL.CROWN.COUNTS_AS_PALACE",
            "RUL.SCORE.BONUS_ORDER",
            "RUL.END.WHITE_NOT_A_COLOUR",
        ),
        _SCORING,
    ),
    **dict.fromkeys(
        (
            "TM.PLAY.COLOUR_RESET",
            "TM.PLAY.HANDS_SECRET",
            "TM.VISIT.UNWON_COURT",
            "RUL.VISIT.LAST_VISIT_DISPLAY",
            "RUL.VISIT.UNWON_COURT",
            "RUL.SPECIAL.PAIR_TILES_TO_SUPPLY",
        ),
        _STATE,
    ),
    **dict.fromkeys(
        ("RUL.PLAY.PUBLIC_INFORMATION",),
        "checked through the public position of full records (what every seat sees)",
    ),
}
"""Implemented clauses and rulings no step names, and how the corpus checks them anyway."""

SETUP_PREFIXES = ("TM.SETUP.", "TM.COMP.")
"""Clauses every record exercises through its setup and component set (checked when a
record is replayed: the setup outcome and the components' digest), never a step."""


def manifest_entry(entry: Entry, record: Record) -> dict[str, Any]:
    ids = sorted({i for step in record.steps for i in step.clauses})
    return {
        "id": entry.id,
        "file": f"{entry.id}.json",
        "origin": entry.origin,
        "description": entry.description,
        "players": record.players,
        "ruleset": _non_default(record.rules),
        "seed": entry.seed,
        "agents": entry.mix,
        "steps": len(record.steps),
        "full": entry.full,
        "clauses": [i for i in ids if i.startswith("TM.")],
        "rulings": [i for i in ids if i.startswith("RUL.")],
        "tags": sorted(_tags_of(record)),
    }


def coverage(manifest: dict[str, Any], root: Path = ROOT) -> dict[str, Any]:
    """What the corpus exercises: clauses, rulings, options and tags, each with the
    records exercising it, and what is not exercised with the reason."""
    clauses, rulings = registry(root)
    traces = manifest["traces"]
    by_clause: dict[str, list[str]] = {}
    by_ruling: dict[str, list[str]] = {}
    by_tag: dict[str, list[str]] = {}
    by_option: dict[str, list[str]] = {}
    default = RuleSet().to_json()
    for trace in traces:
        for clause in trace["clauses"]:
            by_clause.setdefault(clause, []).append(trace["id"])
        for ruling in trace["rulings"]:
            by_ruling.setdefault(ruling, []).append(trace["id"])
        for tag in trace["tags"]:
            by_tag.setdefault(tag, []).append(trace["id"])
        options = {**default, **trace["ruleset"]}
        for name, value in options.items():
            by_option.setdefault(f"{name}={value}", []).append(trace["id"])
    missing_clauses: dict[str, str] = {}
    for clause, status in clauses.items():
        if clause in by_clause:
            continue
        if clause in NOT_NAMED:
            missing_clauses[clause] = NOT_NAMED[clause]
        elif clause.startswith(SETUP_PREFIXES):
            missing_clauses[clause] = "setup or components: exercised by every record's setup"
        elif status == "not-modelled":
            missing_clauses[clause] = "not modelled (physical handling or flavour)"
        elif status == "ruling":
            missing_clauses[clause] = "settled by its rulings (see the rulings coverage)"
        else:
            missing_clauses[clause] = "no step names it (tajmahal.tags.step_clauses)"
    missing_rulings: dict[str, str] = {}
    for ruling_id, ruling in rulings.items():
        if ruling_id in by_ruling:
            continue
        option = ruling.get("option")
        if ruling_id in NOT_NAMED:
            missing_rulings[ruling_id] = NOT_NAMED[ruling_id]
        elif ruling_id.startswith("RUL.COMPONENTS."):
            missing_rulings[ruling_id] = (
                "component data: exercised by the component set every record names"
            )
        elif ruling_id.startswith("RUL.TEXT."):
            missing_rulings[ruling_id] = "wording of the rulebooks: no behaviour of its own"
        elif option is not None and any(o.startswith(f"{option}=") for o in by_option):
            missing_rulings[ruling_id] = (
                f"configurable ({option}): its options are exercised (see options); no "
                "step names the ruling itself"
            )
        else:
            missing_rulings[ruling_id] = "no step names it (tajmahal.tags.step_clauses)"
    return {
        "traces": len(traces),
        "steps": sum(trace["steps"] for trace in traces),
        "clause_records": {k: len(v) for k, v in sorted(by_clause.items())},
        "ruling_records": {k: len(v) for k, v in sorted(by_ruling.items())},
        "tag_records": {k: len(v) for k, v in sorted(by_tag.items())},
        "option_records": {k: len(v) for k, v in sorted(by_option.items())},
        "mixed_option_traces": sum(1 for trace in traces if len(trace["ruleset"]) >= 2),
        "missing_tags": {
            tag: NOT_IN_RECORDS.get(tag, "not reached by any record")
            for tag in EDGE_TAGS
            if tag not in by_tag
        },
        "missing_clauses": missing_clauses,
        "missing_rulings": missing_rulings,
    }


def coverage_lines(report: dict[str, Any]) -> list[str]:
    lines = [f"corpus: {report['traces']} records, {report['steps']} steps"]
    lines.append(
        f"options ({len(report['option_records'])}): "
        + ", ".join(f"{k} x{v}" for k, v in report["option_records"].items())
    )
    lines.append(f"records mixing non-default options: {report['mixed_option_traces']}")
    lines.append(
        f"edge tags ({len(report['tag_records'])}): "
        + ", ".join(f"{k} x{v}" for k, v in report["tag_records"].items())
    )
    for tag, reason in report["missing_tags"].items():
        lines.append(f"  tag {tag}: {reason}")
    lines.append(f"clauses exercised by a step: {len(report['clause_records'])}")
    for clause, reason in report["missing_clauses"].items():
        lines.append(f"  {clause}: {reason}")
    lines.append(f"rulings named by a step: {len(report['ruling_records'])}")
    for ruling, reason in report["missing_rulings"].items():
        lines.append(f"  {ruling}: {reason}")
    return lines


# ---------------------------------------------------------------------------------------
# Building


def build(log: Callable[[str], None] = lambda line: None) -> tuple[dict[str, str], dict[str, Any]]:
    """Every record's text by file name, and the manifest."""
    components = default_components()
    played: list[tuple[Entry, Record]] = []
    for entry in (*seeded_entries(), *option_entries(), *scenario_entries(), *full_entries()):
        played.append((entry, entry.play(components)))
    log(f"{len(played)} seeded, option, scenario and full records")
    played.extend(edge_entries(components, log))
    texts = {f"{entry.id}.json": dumps_record(record) for entry, record in played}
    manifest: dict[str, Any] = {
        "format": MANIFEST_FORMAT,
        "version": 1,
        "description": "The golden corpus: every record verifies with `tajmahal verify "
        "specs/traces`. Generated by tools/make_corpus.py; never edit by hand.",
        "generated": True,
        "traces": [manifest_entry(entry, record) for entry, record in played],
    }
    manifest["coverage"] = coverage(manifest)
    return texts, manifest


def manifest_text(manifest: dict[str, Any]) -> str:
    traces = manifest["traces"]
    head = {k: v for k, v in manifest.items() if k not in ("traces", "coverage")}
    parts = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in head.items()]
    lines = ",\n".join("  " + json.dumps(t, ensure_ascii=False) for t in traces)
    parts.append(' "traces": [\n' + lines + "\n ]")
    parts.append(' "coverage": ' + json.dumps(manifest["coverage"], indent=1))
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate the golden corpus of records.")
    parser.add_argument("--out", type=Path, default=CORPUS_DIR)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--coverage", action="store_true", help="print the coverage report")
    arguments = parser.parse_args(argv)
    if arguments.coverage and not arguments.check:
        manifest = json.loads((arguments.out / MANIFEST).read_text(encoding="utf-8"))
        print("\n".join(coverage_lines(coverage(manifest))))
        return 0
    texts, manifest = build(lambda line: print(line, file=sys.stderr))
    texts[MANIFEST] = manifest_text(manifest)
    if arguments.check:
        present = {p.name for p in arguments.out.glob("*.json")}
        differ = sorted(
            name
            for name, text in texts.items()
            if not (arguments.out / name).exists()
            or (arguments.out / name).read_text(encoding="utf-8") != text
        )
        extra = sorted(present - set(texts))
        for name in differ:
            print(f"differs: {name}")
        for name in extra:
            print(f"not generated: {name}")
        print(f"{len(texts)} files generated; {len(differ)} differ, {len(extra)} extra")
        return 1 if differ or extra else 0
    for old in arguments.out.glob("*.json"):
        if old.name not in texts:
            old.unlink()
    for name, text in texts.items():
        write_text_atomic(text, arguments.out / name)
    print("\n".join(coverage_lines(manifest["coverage"])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
