"""What a fuzzing campaign plays: its options and the game drawn for each index.

The campaign is a function of its options alone. Game ``i`` is drawn from
``random.Random(f"{seed}:{i}")`` (player count, rule set, player types, the game's own
seed) by :func:`spec_for`, so a game can be played again from its index and shards split
the index range (:meth:`Options.index_range`). This is the campaign's definition, apart
from how :mod:`tajmahal.testing.fuzz` runs it (chunks, processes, the summary) and how
:mod:`tajmahal.testing.fuzz` writes what it finds.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import attrs

from tajmahal.agents import PLAYER_TYPES
from tajmahal.model import RULE_OPTIONS, RuleSet
from tajmahal.records import TAGS
from tajmahal.testing.fuzz._games import Checks, GameSpec, Tagger

MIX: tuple[tuple[str, int], ...] = (
    ("random", 3),
    ("edge", 4),
    ("hoarder", 1),
    ("stubborn", 1),
    ("tie-seeker", 2),
    ("crown-chaser", 1),
)
"""Player types drawn for each seat when ``--agents`` is not given, with their weights."""

DRY_TABLES = 0.2
"""The share of games (without ``--agents``) whose seats are all drawn from
:data:`DRY_MIX` instead: tables that run the deck and the discard pile dry."""

DRY_MIX: tuple[tuple[str, int], ...] = (("hoarder", 5), ("stubborn", 1))
"""Player types of a dry table, with their weights."""

SHARD_STRIDE = 10**12
"""First index of shard ``I`` of a time-bounded campaign: ``I * SHARD_STRIDE``."""


@attrs.frozen(slots=True)
class Options:
    """Everything that defines a campaign (and how it is run)."""

    games: int | None = 1000
    """Games to play (the whole campaign, before sharding); None with ``minutes``."""
    minutes: float | None = None
    """Play for this long instead of a fixed number of games."""
    seed: int = 0
    """The campaign seed."""
    players: tuple[int, ...] = (3, 4, 5)
    """Player counts to draw from."""
    rules: str | tuple[str, ...] = "random"
    """``random`` (each option drawn per game), ``default``, or ``OPTION=VALUE`` strings."""
    agents: tuple[str, ...] | None = None
    """Player types round the table; None draws each seat from :data:`MIX`."""
    find: tuple[str, ...] = ()
    """Tags whose first games are kept as records."""
    keep: int = 3
    """Records kept per ``find`` tag."""
    jobs: int = 1
    """Processes."""
    shard: tuple[int, int] = (0, 1)
    """This run's shard ``(I, N)``, 0-based."""
    out: Path | None = None
    """Output folder; None writes nothing."""
    deep_every: int = 25
    """One game in this many (by index) also gets the state and game invariants (1: every
    game; a deep game costs about ten times another, see docs/fuzzing.md)."""
    max_counterexamples: int = 20
    """Stop after this many failing games."""
    shrink_budget: int = 3000
    """Games played at most while shrinking one counterexample."""

    def rule_set(self, rng: random.Random) -> RuleSet:
        """The rule set of one game."""
        if self.rules == "random":
            return RuleSet.from_json(
                {name: rng.choice(values) for name, values in sorted(RULE_OPTIONS.items())}
            )
        if self.rules == "default":
            return RuleSet()
        values = {}
        for option in self.rules:
            name, _, value = option.partition("=")
            values[name.replace("-", "_")] = value
        return RuleSet.from_json(values, source="--rules", field="rules")

    def describe(self) -> dict[str, Any]:
        """The options that define the games (a summary's ``campaign``)."""
        return {
            "seed": self.seed,
            "players": list(self.players),
            "rules": self.rules if isinstance(self.rules, str) else list(self.rules),
            "agents": list(self.agents) if self.agents is not None else "mix",
            "deep_every": self.deep_every,
        }

    def index_range(self) -> range:
        """The game indices of this shard (unbounded above for a timed campaign)."""
        shard, count = self.shard
        if self.games is None:
            return range(shard * SHARD_STRIDE, (shard + 1) * SHARD_STRIDE)
        return range(self.games * shard // count, self.games * (shard + 1) // count)


def spec_for(options: Options, index: int) -> GameSpec:
    """Game ``index`` of the campaign."""
    rng = random.Random(f"{options.seed}:{index}")
    players = rng.choice(options.players)
    rules = options.rule_set(rng)
    if options.agents is not None:
        agents = tuple(options.agents[seat % len(options.agents)] for seat in range(players))
    else:
        mix = DRY_MIX if rng.random() < DRY_TABLES else MIX
        names = [name for name, _ in mix]
        weights = [weight for _, weight in mix]
        agents = tuple(rng.choices(names, weights)[0] for _ in range(players))
    return GameSpec(index, rng.getrandbits(40), players, rules, agents)


def checks_for(options: Options, index: int, tagger: Tagger | None) -> Checks:
    """The checks of game ``index`` (deep for one game in ``deep_every``)."""
    return Checks(deep=index % options.deep_every == 0, tagger=tagger)


def check_options(options: Options) -> None:
    """Raise ValueError naming the option (as the command line spells it) that is out
    of range or unknown."""
    shard, count = options.shard
    if not 0 <= shard < count:
        raise ValueError(f"--shard: expected I/N with 0 <= I < N, found {shard}/{count}")
    if (options.games is None) == (options.minutes is None):
        raise ValueError("give either a number of games or a number of minutes")
    unknown = [name for name in options.agents or () if name not in PLAYER_TYPES]
    if unknown:
        raise ValueError(
            f"--agents: unknown player {'type' if len(unknown) == 1 else 'types'} "
            f"{', '.join(unknown)} "
            f"(known: {', '.join(PLAYER_TYPES)})"
        )
    unknown = [tag for tag in options.find if tag not in TAGS]
    if unknown:
        raise ValueError(
            f"--find: unknown {'tag' if len(unknown) == 1 else 'tags'} {', '.join(unknown)} "
            f"(known: {', '.join(TAGS)})"
        )
    if not options.players or any(count not in (3, 4, 5) for count in options.players):
        raise ValueError("--players: choose among 3, 4 and 5")
    if options.deep_every < 1 or options.jobs < 1 or options.keep < 0:
        raise ValueError("--deep-every, --jobs must be at least 1 and --keep not negative")
    options.rule_set(random.Random(0))


# Options and spec_for are documented under tajmahal.testing.fuzz, checks_for under
# tajmahal.testing.fuzz, where users import them from; listed here are the constants
# (whose docstrings cannot go with them) and the check only the campaign uses.
__all__ = ["DRY_MIX", "DRY_TABLES", "MIX", "SHARD_STRIDE", "check_options"]
