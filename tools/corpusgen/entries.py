"""What a record of the corpus is (an entry: how to play it) and the fixed lists of them.

The seeded records, the records of every non-default option and of mixed options, and
the full records; the hand-crafted ones are in :mod:`corpusgen.scenarios`, the searched
ones in :mod:`corpusgen.search`.
"""

from __future__ import annotations

import attrs

from corpusgen.players import MIXES
from tajmahal.agents import play_match
from tajmahal.model import RULE_OPTIONS, Components, RuleSet
from tajmahal.records import Record


def rule_set(options: dict[str, str]) -> RuleSet:
    """The rule set of an entry's options (the others at their defaults)."""
    return RuleSet.from_json(options)


def non_default(rules: RuleSet) -> dict[str, str]:
    """The options of ``rules`` that differ from the defaults (as the manifest lists them)."""
    default = RuleSet().to_json()
    return {k: v for k, v in rules.to_json().items() if default[k] != v}


def tags_of(record: Record) -> set[str]:
    """The edge tags of every step of ``record``."""
    return {tag for step in record.steps for tag in (step.tags or ())}


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
        rules = rule_set(dict(self.options))
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
