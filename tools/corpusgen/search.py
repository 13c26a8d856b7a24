"""The search for records that reach every edge tag.

Seeds, player mixes, player counts and rule sets are tried in a fixed order until
enough records reach a tag, so the search is deterministic and its result reviewable.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from corpusgen.entries import Entry, tags_of
from corpusgen.scenarios import SCENARIO_TAGS
from tajmahal.model import Components
from tajmahal.records import TAGS as EDGE_TAGS
from tajmahal.records import Record

TRACE_TAGS: tuple[str, ...] = tuple(tag for tag in EDGE_TAGS if tag != "placement-refused")
"""Tags a record can reach (a refused placement is never a step of a record)."""

PER_TAG = 3
"""Records wanted for each edge tag."""

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
            tags = tags_of(record)
            if tag in tags:
                found.append((entry, record))
                have += 1
                log(f"  {entry.id}: seed {entry.seed}, {players}p, {mix}, {dict(options)}")
        if have == 0:
            log(f"  {tag}: not reached by the search")
    return found
