"""The figures of a campaign (``summary.json``), and merging the summaries of shards.

``digest`` identifies the games played, independently of how they were split into
shards or processes: for each game, the SHA-256 of the UTF-8 line
``"<index> <steps> <final state digest>"`` read as a 256-bit big-endian integer; the
digest is ``"sum256:"`` and the lower-case hex (64 digits) of the sum of those integers
modulo 2**256. The summaries of the shards of a campaign merge into the summary of the
whole campaign: counts add up, index ranges join, digests add up modulo 2**256.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from tajmahal.errors import TajMahalError

SUMMARY_FORMAT = "tajmahal-fuzz-summary"
"""The ``format`` of a summary document."""
SUMMARY_VERSION = 1
"""Its version."""


@attrs.frozen(slots=True)
class CounterexampleEntry:
    """A counterexample file as the summary lists it."""

    key: str
    """What broke: the invariant's name, or ``crash:<exception type>``."""
    game: int | None
    """The campaign game it came from."""
    file: str
    """The record's file name in ``counterexamples/``."""
    decisions: int
    """Decisions up to the failing step."""
    steps: int
    """Steps up to the failing step."""
    players: int
    """Player count."""
    message: str
    """What was wrong."""
    note: str = ""
    """Why the counterexample was not shrunk, when it was not."""

    def to_json(self) -> dict[str, Any]:
        """A JSON object of the fields."""
        return attrs.asdict(self)

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> CounterexampleEntry:
        """Parse :meth:`to_json` output (``note`` may be missing)."""
        fields = attrs.fields_dict(cls)
        return cls(
            **{field: document[field] for field in fields if field != "note"},
            note=str(document.get("note", "")),
        )


@attrs.frozen(slots=True)
class Summary:
    """What a campaign (or a merge of shards) covered and found."""

    campaign: dict[str, Any]
    """The options that define the games (seed, players, rules, agents, deep_every)."""
    invariants: tuple[str, ...]
    """Invariants checked after every step of every game."""
    deep_invariants: tuple[str, ...]
    """Invariants checked after every step of the games checked deeply."""
    ranges: tuple[tuple[int, int], ...] = ()
    """Game index ranges played (start included, stop excluded), sorted and joined."""
    games: int = 0
    """Games played."""
    steps: int = 0
    """Steps applied, each checked by the step invariants (and in a deep game by the deep ones)."""
    decisions: int = 0
    """Decisions among the steps."""
    tags: tuple[tuple[str, int], ...] = ()
    """Games reaching each tag, sorted by tag."""
    found: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Record files kept per ``--find`` tag."""
    counterexamples: tuple[CounterexampleEntry, ...] = ()
    """Failing games as found."""
    shrunk: tuple[CounterexampleEntry, ...] = ()
    """The shrunk game of the first failure of each kind (the others say why not in
    their ``note``)."""
    digest_sum: int = 0
    """The running digest (see the module docstring)."""
    seconds: float = 0.0
    """Wall-clock time (informational; not merged meaningfully)."""

    @classmethod
    def empty(
        cls, campaign: dict[str, Any], invariants: Iterable[str], deep: Iterable[str]
    ) -> Summary:
        """The summary of a campaign before its first game."""
        return cls(campaign, tuple(invariants), tuple(deep))

    @property
    def digest(self) -> str:
        """``sum256:`` and 64 hex digits."""
        return f"sum256:{self.digest_sum:064x}"

    @property
    def found_files(self) -> tuple[str, ...]:
        """Every record file kept for a tag."""
        return tuple(file for _, files in self.found for file in files)

    @property
    def failed(self) -> bool:
        """True when a counterexample was found."""
        return bool(self.counterexamples)

    def add_chunk(
        self,
        start: int,
        stop: int,
        steps: int,
        decisions: int,
        tags: dict[str, int],
        digest: int,
    ) -> Summary:
        """This summary with one more run of games added."""
        counts = dict(self.tags)
        for tag, count in tags.items():
            counts[tag] = counts.get(tag, 0) + count
        return attrs.evolve(
            self,
            ranges=_join((*self.ranges, (start, stop))),
            games=self.games + stop - start,
            steps=self.steps + steps,
            decisions=self.decisions + decisions,
            tags=tuple(sorted(counts.items())),
            digest_sum=(self.digest_sum + digest) % (1 << 256),
        )

    def with_counterexample(self, entry: CounterexampleEntry) -> Summary:
        """This summary with a failing game listed."""
        return attrs.evolve(self, counterexamples=(*self.counterexamples, entry))

    def with_shrunk(self, entry: CounterexampleEntry) -> Summary:
        """This summary with a shrunk counterexample listed."""
        return attrs.evolve(self, shrunk=(*self.shrunk, entry))

    def with_note(self, game: int | None, note: str) -> Summary:
        """This summary with the counterexample of ``game`` saying why it was not shrunk."""
        return attrs.evolve(
            self,
            counterexamples=tuple(
                attrs.evolve(entry, note=note) if entry.game == game else entry
                for entry in self.counterexamples
            ),
        )

    def with_found(self, tag: str, file: str) -> Summary:
        """This summary with one more record kept for ``tag``."""
        found = dict(self.found)
        found[tag] = (*found.get(tag, ()), file)
        return attrs.evolve(self, found=tuple(sorted(found.items())))

    def to_json(self) -> dict[str, Any]:
        """The ``summary.json`` document."""
        return {
            "format": SUMMARY_FORMAT,
            "version": SUMMARY_VERSION,
            "campaign": self.campaign,
            "invariants": list(self.invariants),
            "deep_invariants": list(self.deep_invariants),
            "ranges": [list(pair) for pair in self.ranges],
            "games": self.games,
            "steps": self.steps,
            "decisions": self.decisions,
            "tags": dict(self.tags),
            "found": {tag: list(files) for tag, files in self.found},
            "counterexamples": [entry.to_json() for entry in self.counterexamples],
            "shrunk": [entry.to_json() for entry in self.shrunk],
            "digest": self.digest,
            "seconds": self.seconds,
        }

    @classmethod
    def from_json(cls, document: Any, source: str = "") -> Summary:
        """Parse a ``summary.json`` document; raises :class:`TajMahalError` naming the
        file and field when it is not one."""
        where = f"{source}: " if source else ""
        if not isinstance(document, dict) or document.get("format") != SUMMARY_FORMAT:
            raise TajMahalError(f"{where}format: not a {SUMMARY_FORMAT} document")
        if document.get("version") != SUMMARY_VERSION:
            raise TajMahalError(f"{where}version: expected {SUMMARY_VERSION}")
        try:
            digest = str(document["digest"])
            if not digest.startswith("sum256:"):
                raise ValueError("digest")
            return cls(
                campaign=dict(document["campaign"]),
                invariants=tuple(document["invariants"]),
                deep_invariants=tuple(document["deep_invariants"]),
                ranges=tuple((int(a), int(b)) for a, b in document["ranges"]),
                games=int(document["games"]),
                steps=int(document["steps"]),
                decisions=int(document["decisions"]),
                tags=tuple(sorted((str(k), int(v)) for k, v in document["tags"].items())),
                found=tuple(sorted((str(k), tuple(v)) for k, v in document["found"].items())),
                counterexamples=tuple(
                    CounterexampleEntry.from_json(entry) for entry in document["counterexamples"]
                ),
                shrunk=tuple(CounterexampleEntry.from_json(entry) for entry in document["shrunk"]),
                digest_sum=int(digest.removeprefix("sum256:"), 16),
                seconds=float(document["seconds"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise TajMahalError(f"{where}{error}: a field is missing or malformed") from None


def _join(ranges: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    joined: list[tuple[int, int]] = []
    for start, stop in sorted(ranges):
        if joined and start <= joined[-1][1]:
            if start < joined[-1][1]:
                raise TajMahalError(f"games {start} to {joined[-1][1] - 1} are counted twice")
            joined[-1] = (joined[-1][0], max(stop, joined[-1][1]))
        else:
            joined.append((start, stop))
    return tuple(joined)


def merge(summaries: Iterable[tuple[str, Summary]]) -> Summary:
    """The summary of a whole campaign from those of its shards (``(folder, summary)``
    pairs; file names are made relative to the folders' parent). Raises
    :class:`TajMahalError` when the shards belong to different campaigns or overlap."""
    merged: Summary | None = None
    for folder, summary in summaries:
        prefixed = attrs.evolve(
            summary,
            found=tuple(
                (tag, tuple(f"{folder}/{file}" for file in files)) for tag, files in summary.found
            ),
            counterexamples=tuple(
                attrs.evolve(entry, file=f"{folder}/counterexamples/{entry.file}")
                for entry in summary.counterexamples
            ),
            shrunk=tuple(
                attrs.evolve(entry, file=f"{folder}/counterexamples/{entry.file}")
                for entry in summary.shrunk
            ),
        )
        if merged is None:
            merged = prefixed
            continue
        if prefixed.campaign != merged.campaign:
            raise TajMahalError(f"{folder}: a shard of another campaign ({prefixed.campaign})")
        found = dict(merged.found)
        for tag, files in prefixed.found:
            found[tag] = (*found.get(tag, ()), *files)
        counts = dict(merged.tags)
        for tag, count in prefixed.tags:
            counts[tag] = counts.get(tag, 0) + count
        merged = attrs.evolve(
            merged,
            ranges=_join((*merged.ranges, *prefixed.ranges)),
            games=merged.games + prefixed.games,
            steps=merged.steps + prefixed.steps,
            decisions=merged.decisions + prefixed.decisions,
            tags=tuple(sorted(counts.items())),
            found=tuple(sorted(found.items())),
            counterexamples=merged.counterexamples + prefixed.counterexamples,
            shrunk=merged.shrunk + prefixed.shrunk,
            digest_sum=(merged.digest_sum + prefixed.digest_sum) % (1 << 256),
            seconds=max(merged.seconds, prefixed.seconds),
        )
    if merged is None:
        raise TajMahalError("fuzz merge: name at least one folder")
    return merged
