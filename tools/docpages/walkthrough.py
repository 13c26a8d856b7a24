"""The walkthrough: a golden record replayed visit by visit, with a picture per visit.

Apart because it replays a game through the engine (events, account lines, positions)
while the other pages only read files.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from docpages.common import ROOT, Writer, id_link, one_line
from docpages.index import Index
from tajmahal.model import Components, EventKind
from tajmahal.notation import position_svg
from tajmahal.records import event_lines, initial_state, opening_lines, read_record, replay_steps

WALKTHROUGH_TRACES = ("seeded-4p-001.json", "golden-4p-seed2000.json", "full-3p.json")
"""The golden records the walkthrough prefers, first found in ``specs/traces/`` wins."""


def walkthrough_trace() -> Path:
    folder = ROOT / "specs" / "traces"
    for name in WALKTHROUGH_TRACES:
        if (folder / name).is_file():
            return folder / name
    return sorted(folder.glob("*.json"))[0]


POINT_COLUMNS = {
    "palaces": "palaces",
    "province-tile": "province tile",
    "bonus-points": "bonus points",
    "bonus-good": "bonus goods",
    "plus-two": "+2 card",
    "hand": "hand",
}
"""The sources of points (:class:`tajmahal.model.PointSource`) as table columns."""


def points_table(
    points: Counter[tuple[int, str]], scores: Sequence[int], names: Sequence[str] | None
) -> list[str]:
    """Points scored in one visit by player and source, and the scores after it."""
    sources = [source for source in POINT_COLUMNS if any(s == source for _, s in points)]
    header = ["player", *(POINT_COLUMNS[s] for s in sources), "this visit", "score"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for seat, score in enumerate(scores):
        row = [points.get((seat, source), 0) for source in sources]
        label = f"P{seat} ({names[seat]})" if names and seat < len(names) else f"P{seat}"
        cells = [label, *(str(n) if n else "" for n in row), str(sum(row)), str(score)]
        lines.append("| " + " | ".join(cells) + " |")
    return [*lines, ""]


def walkthrough_page(writer: Writer, index: Index, components: Components) -> None:
    path = walkthrough_trace()
    record = read_record(path)
    names = record.names
    relative = path.relative_to(ROOT).as_posix()
    state = initial_state(record, components, relative)
    lines = [
        "# A game, visit by visit",
        "",
        f"The golden record `{relative}` ({record.players} players, "
        f"{len(record.steps)} steps), replayed by the reference engine. For each visit: what "
        "happened, in the words of `tajmahal replay`, and the clauses and rulings that "
        "decided each event; the points of the visit by source; then the board after the "
        "visit (`tajmahal show " + relative + " --step N --svg board.svg`): the court, the "
        "display and each player's cards and tiles under it, and a legend; the province "
        "outlined in red is the one visited next.",
        "",
        "Each step begins with its number, as in `tajmahal replay`, and what followed from "
        "it in the same step hangs below it. `tajmahal show " + relative + " --step N` shows "
        "the position after step N.",
        "",
        "Rule set: " + ", ".join(f"`{k}={v}`" for k, v in record.rules.to_json().items()) + ".",
        "",
    ]
    description = getattr(record, "description", None)
    if description:
        lines[2:2] = [f"*The record's description:* {one_line(str(description))}.", ""]
    visit_number = 1
    header = opening_lines(state, names)[-1].strip("\n= ")
    visit_lines: list[str] = ["## Visit 1", "", header + ".", ""]
    points: Counter[tuple[int, str]] = Counter()

    def close_visit(after: Any, step: int) -> None:
        nonlocal visit_lines
        if not visit_lines:
            return
        picture = f"walkthrough/visit-{visit_number:02d}.svg"
        caption = f"After visit {visit_number} (step {step})"
        if not after.is_over:
            caption += f"; next: province {after.current_province}"
        writer.write(picture, position_svg(after, names, caption))
        # The steps in a container whose clause and ruling links are small, as sources.
        heading, steps = visit_lines[:4], visit_lines[4:]
        lines.extend([*heading, ":::{container} walkthrough-steps", *steps, ":::"])
        lines.extend(["", *points_table(points, after.scores, names)])
        points.clear()
        lines.extend(
            [
                f"```{{image}} {picture}",
                f":alt: {caption}",
                ":class: board",
                "```",
                "",
            ]
        )
        visit_lines = []

    previous = state
    for replayed in replay_steps(record, components, relative):
        numbered = False  # the step's first line carries its number, the others hang below
        for event in replayed.events:
            if event.kind is EventKind.VISIT:
                close_visit(replayed.after, replayed.index + 1)
                visit_number = event.counts[0] if event.counts else visit_number + 1
                header = event_lines([event], names, replayed.after)[-1].strip("\n= ")
                visit_lines = [f"## Visit {visit_number}", "", header + ".", ""]
                numbered = False  # the step goes on in the new visit: number it there too
                continue
            if event.points and event.seat is not None:
                points[(event.seat, str(event.source or "bonus-card"))] += event.points
            texts = event_lines([event], names, replayed.after)
            if not texts:
                continue
            where = f"{relative} step {replayed.number}"
            why = [c for c in event.clauses if index.known(c, where)]
            because = " — " + ", ".join(id_link(c) for c in why) if why else ""
            text = f"{one_line(texts[0].strip())}{because}"
            if numbered:
                visit_lines.append(f"  - {text}")
            else:
                visit_lines.append(f"- **{replayed.number}** {text}")
                numbered = True
        previous = replayed.after
    close_visit(previous, len(record.steps))
    final = previous
    winners = final.winners()
    label = " and ".join(f"P{seat}" for seat in winners)
    won = f"winners (tied): {label}" if len(winners) > 1 else f"winner: {label}"
    scores = ", ".join(f"P{seat} {score}" for seat, score in enumerate(final.scores))
    lines += ["## The result", "", f"Final scores: {scores}; {won}.", ""]
    writer.write("walkthrough.md", "\n".join(lines))
