"""The deeper differential run (``make diff``): the reference, then every misreading.

Plays ``--games`` games through ``tajmahal serve`` (which must agree at every step) and
prints how many games it took to reach each edge tag; then runs every entry of the
catalogue of misreadings (``tajmahal.conformance.MISREADINGS``, in this process) in both
comparison modes (with state digests, and with the legal actions and scores only) with
the full shrinking budget, and prints for each what caught it: the field, the step
where it was found (counted from 1), the length of the shortest game from the setup, the
length of the shortest game from a position given to the engine (and the step after
which it starts), the step of the one-step position case, and the rule named first.
Ends with a digest of the findings (shrinking is bounded by seconds as well as games, so
a slower machine may shrink less and print another). Exit code 1 if the reference
disagrees, an entry escapes, or the first rule named is not the entry's.

``--only NAME,...`` runs some entries; ``--markdown`` prints the tables as Markdown.
"""

from __future__ import annotations

import argparse
import hashlib
import shlex
import sys

from tajmahal.conformance import MISREADINGS, DiffResult, LocalEngine, catalogue_tester, run_diff
from tajmahal.model import default_components
from tajmahal.records import TAGS

PYTHON = shlex.quote(sys.executable)
MODES = {
    "digests": frozenset({"legal", "state_digest", "scores"}),
    "legal,scores": frozenset({"legal", "scores"}),
}
"""The two comparison modes: the default, and an engine without the state document."""


def _step(result: DiffResult) -> int:
    """The number (counted from 1) of the step where the disagreement was found."""
    assert result.shrunk is not None
    original = result.shrunk.original
    divergence = original.divergence
    assert divergence is not None
    actions = len(original.actions)
    return actions + 1 if divergence.field == "legal" else max(actions, 1)


def _row(cells: list[str], markdown: bool) -> str:
    if markdown:
        return "| " + " | ".join(cells) + " |"
    widths = (26, 13, 13, 5, 7, 16, 5, 0)
    return " ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=False))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games against the reference")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default="", help="entries to run (default: all)")
    parser.add_argument("--markdown", action="store_true", help="tables as Markdown")
    arguments = parser.parse_args()
    components = default_components()
    markdown = arguments.markdown
    findings: list[str] = []
    failed = False
    if arguments.games:
        reference = run_diff(
            f"{PYTHON} -m tajmahal.cli serve",
            components,
            games=arguments.games,
            seed=arguments.seed,
        )
        rate = reference.steps / reference.seconds
        print(
            f"reference: {'agreed' if reference.agreed else 'DISAGREED'} over {reference.games} "
            f"games, {reference.steps} steps in {reference.seconds:.1f} s ({rate:.0f} steps/s)"
        )
        failed |= not reference.agreed
        print(_row(["tag", "games", "first reached in game"], markdown))
        if markdown:
            print("|---|--:|--:|")
        for tag in TAGS:
            count = reference.tags.get(tag, 0)
            first = reference.first_games.get(tag)
            shown = str(first + 1) if first is not None else f"not in {reference.games}"
            print(_row([tag, str(count), shown], markdown))
            findings.append(f"tag {tag} {count} {first}")
    names = [name for name in arguments.only.split(",") if name] or list(MISREADINGS)
    header = ["entry", "mode", "field", "step", "shrunk", "from a position", "case"]
    print(_row([*header, "first rule named"], markdown))
    if markdown:
        print("|---|---|---|--:|--:|--:|--:|---|")
    for name in names:
        entry = MISREADINGS[name]
        for mode, compare in MODES.items():
            result = run_diff(
                "",
                components,
                games=50,
                seed=arguments.seed,
                rules=dict(entry.rules),
                compare=compare,
                engine=LocalEngine(entry.engine, components),
                hypotheses=catalogue_tester(components),
            )
            if result.shrunk is None or result.shrunk.shortest.divergence is None:
                print(_row([name, mode, f"ESCAPED after {result.games} games"], markdown))
                failed = True
                continue
            divergence = result.shrunk.shortest.divergence
            named_first = result.hypotheses[0].rule if result.hypotheses else "none"
            named = named_first == entry.rule
            failed |= not named
            case = result.case.step if result.case is not None else None
            shortest = result.shrunk.shortest
            cells = [
                name,
                mode,
                divergence.field,
                str(_step(result)),
                str(result.shrunk.setup_steps),
                f"{shortest.length} after {shortest.start}" if shortest.start else "-",
                str(case) if case is not None else "-",
                named_first if named else f"WRONG: {named_first} (expected {entry.rule})",
            ]
            print(_row(cells, markdown), flush=True)
            findings.append(" ".join(cells))
    digest = hashlib.sha256("\n".join(findings).encode("utf-8")).hexdigest()[:16]
    print(f"findings digest {digest}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
