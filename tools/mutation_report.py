"""Read mutmut's results, compare the survivors with their classification, publish the score.

``make mutation`` runs mutmut over the rules modules (``[tool.mutmut]`` in
``pyproject.toml``); mutmut keeps one ``<module>.py.meta`` JSON file per mutated module
under ``mutants/src/`` (``exit_code_by_key``: mutant name -> exit code of its test run,
``durations_by_key``: seconds) and the mutated source beside it, where every mutant is a
function ``<function>__mutmut_<n>`` next to the original ``<function>__mutmut_orig``.

Every surviving mutant must be classified in ``specs/mutation/survivors.toml``::

    [[survivor]]
    mutant = "tajmahal.engine._reward.x_placement_refusal__mutmut_3"
    fingerprint = "3f1c0b2a9d8e7f60"
    line = "return 'XXa palace ...XX'"
    class = "text-only"          # equivalent | text-only | gap
    reason = "changes only the wording of the refusal message"

The fingerprint is the first 16 hex digits of the SHA-256 of the UTF-8 text
``<module>.<function>\\n<removed lines>\\n--\\n<added lines>``, where the removed and added
lines are the lines of the mutant's unified diff against the original function, its def
line included (each stripped of surrounding blanks, in order, joined by ``\\n``), every
function name read with the ``__mutmut_<n>`` suffix removed. It does not depend on line
numbers or on the mutant's number, so it survives edits elsewhere and renumbering; it
changes when the mutated line does. A survivor whose fingerprint is not in the file is
*new*: the tool exits 1 and prints it with its diff, so it gets classified (a gap gets a
test instead). An entry whose mutant still survives but whose line changed is reported as
changed, also exit 1; an entry whose mutant is now killed is reported as stale.

    python tools/mutation_report.py                   # compare; exit 1 on a new survivor
    python tools/mutation_report.py --write docs/mutation.md   # also publish the score
    python tools/mutation_report.py --template        # print entries for new survivors

A module's score counts killed mutants (and those mutmut times out or that crash the
interpreter) against all checked mutants but the equivalent ones.

The parts live in ``tools/mutscore/``: mutmut's results, the mutants' changes and
fingerprints, the survivors file and the page; this script compares and reports.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mutscore.changes import Change, changes_of
from mutscore.page import Tally, markdown, table_row, write_atomic
from mutscore.results import SOURCE, count_matching, pending, read_mutants, read_runs
from mutscore.survivors import SURVIVORS, read_classified, template


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Compare mutmut's survivors; publish.")
    parser.add_argument("--write", type=Path, help="write the score page (docs/mutation.md)")
    parser.add_argument("--template", action="store_true", help="print new survivors' entries")
    parser.add_argument("--survivors", type=Path, default=SURVIVORS)
    parser.add_argument(
        "--pending", nargs="+", metavar="GLOB", help="print the mutants a run of GLOB still owes"
    )
    parser.add_argument("--retest", action="store_true", help="with --pending: survivors too")
    parser.add_argument("--again", action="store_true", help="with --pending: every mutant")
    parser.add_argument(
        "--count", nargs="+", metavar="GLOB", help="print how many mutants GLOB stands for"
    )
    arguments = parser.parse_args(argv)
    if arguments.count is not None:
        print(count_matching(arguments.count))
        return 0
    if arguments.pending is not None:
        print("\n".join(pending(arguments.pending, arguments.retest, arguments.again)))
        return 0
    if not SOURCE.is_dir():
        print(f"{SOURCE}: no mutmut results; run make mutation first", file=sys.stderr)
        return 2
    classified = read_classified(arguments.survivors)
    by_name = {entry.mutant: entry for entry in classified.values()}
    tallies: dict[str, Tally] = {}
    changes: dict[str, dict[str, Change]] = {}
    problems: list[str] = []
    seen: set[str] = set()
    status_by_name: dict[str, str] = {}
    for mutant in read_mutants():
        status_by_name[mutant.name] = mutant.status
        tally = tallies.setdefault(mutant.module, Tally())
        tally.statuses[mutant.status] += 1
        tally.seconds += mutant.seconds
        if mutant.status != "survived":
            continue
        if mutant.module not in changes:
            changes[mutant.module] = changes_of(mutant.module)
        change = changes[mutant.module][mutant.name]
        entry = classified.get(change.fingerprint)
        if entry is not None:
            tally.survivors[entry.kind] += 1
            seen.add(entry.fingerprint)
            continue
        tally.survivors["unclassified"] += 1
        old = by_name.get(mutant.name)
        what = "changed line" if old is not None else "new survivor"
        diff = "\n".join(
            [*(f"    - {x}" for x in change.removed), *(f"    + {x}" for x in change.added)]
        )
        problems.append(f"{what}: {mutant.name} ({change.fingerprint})\n{diff}")
        if arguments.template:
            print(template(mutant, change))
    stale = [
        entry
        for entry in classified.values()
        if entry.fingerprint not in seen
        and status_by_name.get(entry.mutant, "not checked") not in ("not checked", "survived")
    ]
    for problem in problems:
        print(problem, file=sys.stderr)
    for entry in stale:
        print(f"no longer survives (remove it from {arguments.survivors.name}): {entry.mutant}")
    if arguments.write is not None:
        write_atomic(arguments.write, markdown(tallies, read_runs()))
    print("\n".join(table_row(module, tally) for module, tally in sorted(tallies.items())))
    if problems:
        mutants = "surviving mutant" if len(problems) == 1 else "surviving mutants"
        print(f"{len(problems)} {mutants} not classified", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
