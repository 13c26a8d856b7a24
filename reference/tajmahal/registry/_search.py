"""Finding clauses and rulings by the words a player uses (``tajmahal rule``).

A player at the table asks in the words of the game ("monk tie", "draw pile empty",
"crown next to my own palace"); the statements answer in the glossary's words and in
general terms ("a tie wins nothing", "the deck runs out", "a city holding the player's
own palace"). So each word of a question is looked for together with

- the glossary's word for it when the glossary lists it as a word to avoid (``draw
  pile`` is the deck, ``next to`` is in the same city, ``ring`` is the crown, ``pass``
  is to withdraw), counted as the word itself; and
- the general terms that cover a named thing, counted less: a symbol's name also finds
  "symbol", "force" and "majority", the elephant also "province tile", a good also
  "goods", and ``next to`` also "joined by a road".

An entry matches when it holds every word of the question (or one of its
alternatives); when none holds every word, those holding the most (at least half) are
given. Entries are ranked as the site's search ranks its pages, what a player reads
first counting most: a word in an entry's statement (a clause's text, a ruling's title)
weighs most, then its question, resolution and how the rulebooks differ, the reasoning
least; two neighbouring words of the question found side by side in the same order, and
a statement that begins with the question's first word, add to it; rulings about the
rulebooks' wording and the reconstructed components, clauses listing the components and
clauses the engine does not model rank below the rules.

Strong matches lead: an entry is a strong match when every word of the question is found
where a player reads first (the statement or the question, the answer or the id; see
:data:`STRONG`). An entry holding a word only in its background (how the rulebooks differ,
what each says, the reasoning) is a weak match: "monk tie" finds a ruling that mentions a
tie only in its reasoning. Weak matches follow the strong ones, best first among
themselves, and ``tajmahal rule`` names them only by id when there are strong ones.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from typing import Any

import attrs

STOP_WORDS = frozenset(
    (
        "a",
        "about",
        "allowed",
        "an",
        "and",
        "any",
        "are",
        "be",
        "can",
        "could",
        "do",
        "does",
        "for",
        "get",
        "gets",
        "happen",
        "happens",
        "how",
        "i",
        "if",
        "in",
        "is",
        "it",
        "many",
        "may",
        "me",
        "much",
        "must",
        "my",
        "of",
        "on",
        "or",
        "so",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "they",
        "this",
        "to",
        "we",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "you",
        "your",
    )
)
"""Words that carry no meaning in a question (``own`` is not one: "my own palace")."""

Alternatives = tuple[tuple[str, ...], tuple[str, ...]]
"""What a word may also be found as: words for the same thing (counted as the word
itself), and general terms that cover it (counted less)."""

_SYMBOL = ("symbol", "force", "majority", "majorities", "influence tile")
ALTERNATIVES: dict[str, Alternatives] = {
    # the glossary's words for the words it avoids
    "draw pile": (("deck",), ()),
    "pile": (("deck",), ()),
    "stack": (("deck",), ()),
    "discards": (("discard pile",), ()),
    "market": (("display",), ()),
    "offer": (("display",), ()),
    "pool": (("display",), ()),
    "pass": (("withdraw",), ()),
    "passes": (("withdraw",), ()),
    "retire": (("withdraw",), ()),
    "drop out": (("withdraw",), ()),
    "round": (("visit", "turn"), ()),
    "move": (("turn", "play"), ()),
    "ring": (("crown",), ()),
    "house": (("palace",), ()),
    "building": (("palace",), ()),
    "town": (("city",), ()),
    "space": (("city",), ()),
    "region": (("province",), ()),
    "area": (("province",), ()),
    "joker": (("white card",), ()),
    "neutral": (("white card",), ()),
    "token": (("influence tile",), ()),
    "chip": (("influence tile",), ()),
    "castle": (("fortress",), ()),
    "plurality": (("majority",), ()),
    "character": (("symbol",), ()),
    "icon": (("symbol",), ()),
    "suit": (("colour",), ()),
    "purple": (("violet",), ()),
    "next to": (("beside", "same city", "join"), ("joined by a road",)),
    "next": (("beside", "same city", "join"), ("joined by a road",)),
    "adjacent": (("beside", "same city", "join"), ("joined by a road",)),
    "beside": (("same city", "join"), ()),
    "same city": (("beside", "join"), ("city",)),
    "runs out": (("empty", "exhausted", "run out"), ()),
    "empty": (("runs out", "run out", "exhausted", "no card"), ()),
    "tie": (("tied", "level"), ()),
    "tied": (("tie", "level"), ()),
    "win": (("won",), ("majority", "majorities")),
    "own": (("same player", "player s"), ()),
    "crown": (("golden ring",), ("grand mogul",)),
    # the names of symbols, forces, tiles and cards lead to the general terms
    "vizier": ((), _SYMBOL),
    "general": ((), _SYMBOL),
    "monk": ((), _SYMBOL),
    "princess": ((), _SYMBOL),
    "mogul": ((), (*_SYMBOL[:4], "crown")),
    "grand mogul": (("mogul",), (*_SYMBOL[:4], "crown")),
    "elephant": ((), (*_SYMBOL[:4], "province tile")),
    "rice": ((), ("good", "goods")),
    "tea": ((), ("good", "goods")),
    "spices": ((), ("good", "goods")),
    "jewels": ((), ("good", "goods")),
    "goods": (("good",), ()),
    "red": ((), ("colour", "coloured card")),
    "yellow": ((), ("colour", "coloured card")),
    "green": ((), ("colour", "coloured card")),
    "violet": ((), ("colour", "coloured card")),
}
"""Words and phrases of a question, and what they may also be found as."""

AVOIDED = frozenset(
    (
        "draw pile",
        "pile",
        "stack",
        "discards",
        "market",
        "offer",
        "pool",
        "pass",
        "passes",
        "retire",
        "drop out",
        "round",
        "move",
        "ring",
        "house",
        "building",
        "town",
        "space",
        "region",
        "area",
        "joker",
        "neutral",
        "token",
        "chip",
        "castle",
        "plurality",
        "character",
        "icon",
        "suit",
        "purple",
        "next to",
        "next",
        "adjacent",
    )
)
"""Words the glossary avoids: found as themselves they often mean something else ("the
marker passes clockwise"), so their own spelling counts as a general term."""

FIELDS: tuple[tuple[str, float], ...] = (
    ("id", 2.0),
    ("title", 4.0),
    ("text", 4.0),
    ("question", 2.5),
    ("resolution", 2.0),
    ("differs", 1.0),
    ("says", 0.8),
    ("reasoning", 0.5),
)
"""Where a word is found, and how much it weighs: the statement first."""

BROADER = 0.6
"""How much a general term counts against the word itself."""
ELSEWHERE = 0.25
"""What each further field holding a word adds to the weight of its best field."""
SUBJECT = 1.0
"""What the question's first word adds when an entry's statement begins with it (in its
first three words): "crown next to my own palace" asks about the crown palace."""
IN_ORDER = 1.5
"""What two neighbouring words of the question add when an entry holds them side by
side in the same order (stop words aside): "own palace" in "beside own palace"."""
DETAIL = {"translation": 0.5, "reconstruction": 0.6}
"""Rulings about the rulebooks' wording and the reconstructed components rank lower."""
AREAS = {"components": 0.8}
"""Clauses listing the components rank below the rules that use them."""
NOT_MODELLED = 0.5
"""Clauses the engine does not model (the score track, punching out tiles) rank lower."""
STRONG = 1.5
"""How strongly each word of a strong match is found, at least: the weight of the best
field holding it times the weight of the pattern found there (a general term counts
:data:`BROADER`), times the entry's detail factor (:data:`DETAIL`, :data:`AREAS`,
:data:`NOT_MODELLED`). So a word counts as strongly found in a rule's statement or question,
even as a general term ("monk" as "majority"), and in its answer or id as itself; not in its
background, and not in a ruling about the rulebooks' wording unless its statement holds it."""
ENDINGS = r"(?:s|es|d|ed|ing|n)?"
"""Endings a word may have where it is found (tie, ties, tied; win, wins; draw, drawn)."""
WITHOUT_ENDINGS = frozenset(("beside",))
"""Words found only as they are spelled: an ending makes another word (besides)."""


def normal(text: str) -> str:
    """Lower case, without stop words, each run of other characters one space, with a
    space at each end: ``"the crown's  place"`` is ``" crown s place "``; identifiers'
    dots and underscores become spaces."""
    words = re.findall(r"[a-z0-9+]+", text.lower().replace("_", " "))
    return " " + " ".join(word for word in words if word not in STOP_WORDS) + " "


def _endings(word: str) -> str:
    return "" if word in WITHOUT_ENDINGS else ENDINGS


class _Word:
    """One word (or phrase) of the question, and the patterns that find it with their
    weights."""

    def __init__(self, word: str) -> None:
        same, broader = ALTERNATIVES.get(word, ((), ()))
        if word.endswith("s") and not word.endswith(("ss", "us")) and word not in ALTERNATIVES:
            same = (word[:-1],)
        # An avoided word found as itself counts as a general term; a phrase whose
        # words are partly stop words ("next to") is not looked for as itself at all.
        own = BROADER if word in AVOIDED else 1.0
        spelled = [(word, own)] if normal(word).strip() == word else []
        weighted = [*spelled, *((w, 1.0) for w in same), *((w, BROADER) for w in broader)]
        self.word = word
        self.patterns = [
            (re.compile(rf" {re.escape(found)}{_endings(found)}(?= )"), weight)
            for found, weight in ((normal(a).strip(), w) for a, w in weighted)
            if found
        ]

    def found(self, fields: dict[str, str]) -> list[float]:
        """For each field holding the word, its weight times the best pattern's there."""
        found = []
        for name, weight in FIELDS:
            best = max(
                (w for pattern, w in self.patterns if pattern.search(fields[name])), default=0
            )
            if best:
                found.append(weight * best)
        return found

    def weight(self, fields: dict[str, str]) -> float:
        """The weight of the best field holding the word (by its best pattern there),
        plus a little for each other field holding it."""
        found = self.found(fields)
        if not found:
            return 0.0
        return max(found) + ELSEWHERE * (len(found) - 1)

    def strength(self, fields: dict[str, str]) -> float:
        """The weight of the best field holding the word alone (0 when none holds it)."""
        return max(self.found(fields), default=0.0)

    def places(self, text: str) -> tuple[set[int], set[int]]:
        """Where the word starts and where it ends in ``text`` (a normalised field)."""
        matches = [m for pattern, _ in self.patterns for m in pattern.finditer(text)]
        return {m.start() for m in matches}, {m.end() for m in matches}


def question_words(query: str) -> list[str]:
    """The meaningful words of ``query`` in its order, a known phrase (``draw pile``,
    ``next to``) as one word."""
    text = " " + " ".join(re.findall(r"[a-z0-9+]+", query.lower())) + " "
    for phrase in (key for key in ALTERNATIVES if " " in key):
        text = text.replace(f" {phrase} ", f" {phrase.replace(' ', '_')} ")
    words = (token.replace("_", " ") for token in text.split())
    return [word for word in words if word not in STOP_WORDS]


def _fields(entry: dict[str, Any]) -> dict[str, str]:
    says = " ".join(say.get("summary", "") for say in entry.get("says", []))
    return {
        "id": normal(entry["id"].replace(".", " ")),
        "title": normal(entry.get("title", "")),
        "text": normal(entry.get("text", "")),
        "question": normal(entry.get("question", "")),
        "resolution": normal(entry.get("resolution", "")),
        "differs": normal(entry.get("differs", "")),
        "says": normal(says),
        "reasoning": normal(entry.get("reasoning", "")),
    }


def _in_order(words: list[_Word], fields: dict[str, str]) -> int:
    """How many neighbouring pairs of the question's words stand side by side, in the
    question's order, in one of the entry's fields."""
    pairs = 0
    for first, second in itertools.pairwise(words):
        for text in fields.values():
            _, ends = first.places(text)
            starts, _ = second.places(text)
            if ends & starts:
                pairs += 1
                break
    return pairs


def _begins_with(word: _Word, fields: dict[str, str]) -> bool:
    """Whether the entry's statement (a clause's text, a ruling's title) has ``word``
    among its first three words."""
    statement = fields["title"].strip() or fields["text"].strip()
    opening = " " + " ".join(statement.split()[:3]) + " "
    return any(pattern.search(opening) for pattern, _ in word.patterns)


def _detail(entry: dict[str, Any]) -> float:
    factor = DETAIL.get(entry.get("category", ""), 1.0) * AREAS.get(entry.get("area", ""), 1.0)
    return factor * (NOT_MODELLED if entry.get("status") == "not-modelled" else 1.0)


@attrs.frozen
class Matches:
    """What a question finds: the entries, strong matches first, each part best first."""

    entries: list[dict[str, Any]]
    """The clauses and rulings found (registry entries)."""
    every_word: bool
    """Whether the entries hold every word of the question (when no entry does, those
    holding the most, at least half, are given)."""
    strong: int
    """How many of the first entries are strong matches (every word found where a
    player reads first, :data:`STRONG`); the rest are weak."""


def rank_entries(entries: Iterable[dict[str, Any]], query: str) -> Matches:
    """The entries matching ``query``'s words: strong matches first, then weak ones, each
    part best first (the module's docstring says how)."""
    words = [_Word(word) for word in question_words(query)]
    if not words:
        return Matches([], False, 0)
    scored = []
    for index, entry in enumerate(entries):
        fields = _fields(entry)
        weights = [word.weight(fields) for word in words]
        found = sum(1 for weight in weights if weight)
        if not found or 2 * found < len(words):
            continue
        detail = _detail(entry)
        weakest = min(word.strength(fields) for word, w in zip(words, weights, strict=True) if w)
        score = sum(weights) + IN_ORDER * _in_order(words, fields)
        if _begins_with(words[0], fields):
            score += SUBJECT
        scored.append((found, weakest * detail >= STRONG, score * detail, -index, entry))
    if not scored:
        return Matches([], False, 0)
    most = max(item[0] for item in scored)
    best = sorted((item for item in scored if item[0] == most), key=lambda i: i[1:4])
    best.reverse()
    return Matches(
        [item[4] for item in best], most == len(words), sum(1 for item in best if item[1])
    )
