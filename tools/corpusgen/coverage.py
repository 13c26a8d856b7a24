"""What the corpus exercises, and why what it does not exercise is not missed.

Read from the manifest alone (and the registry), so ``make corpus-coverage`` and the
tests recompute it without playing a game.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from tajmahal.model import RuleSet
from tajmahal.records import TAGS as EDGE_TAGS

ROOT = Path(__file__).resolve().parents[2]
"""The repository."""

NOT_IN_RECORDS: dict[str, str] = {
    "placement-refused": "a refused placement is an illegal action, never a step of a "
    "record; records show it as a legal-action list without that placement (see "
    "crown_beside_own_palace=forbidden traces) and the position cases test the refusal",
}
"""Edge tags no record can carry, with the reason (printed by the coverage report)."""


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
            "TM.PLAY.FROM_HAND",
            "TM.REWARD.PLACE_AT_ONCE",
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
            "TM.SPECIAL.NO_SYMBOL",
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
            "RUL.SPECIAL.THREE_TILES",
        ),
        _STATE,
    ),
    **dict.fromkeys(
        ("RUL.PLAY.PUBLIC_INFORMATION",),
        "checked through the public position of full records (the table and hand sizes); "
        "the special cards held and the display picks a view adds are checked by the view's "
        "tests",
    ),
}
"""Implemented clauses and rulings no step names, and how the corpus checks them anyway."""

SETUP_PREFIXES = ("TM.SETUP.", "TM.COMP.")
"""Clauses every record exercises through its setup and component set (checked when a
record is replayed: the setup outcome and the components' digest), never a step."""


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
            missing_clauses[clause] = "no step names it (tajmahal.records._tags.step_clauses)"
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
            missing_rulings[ruling_id] = "no step names it (tajmahal.records._tags.step_clauses)"
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
