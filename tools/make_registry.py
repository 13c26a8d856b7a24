"""Write the packaged copy of the clause registry and rulings.

``python3 tools/make_registry.py`` rewrites ``reference/tajmahal/data/registry.json`` from
``specs/clauses/*.toml`` and ``rulings/*.toml`` (see :mod:`tajmahal.registry`), so that
``tajmahal rule`` works after a normal install; ``--check`` only says whether the copy is
up to date (exit 1 if not), ``--quiet`` says nothing when nothing changed. ``make specs``
(part of ``make check``) runs it, and a test fails when the copy is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tajmahal.registry._registry import dumps_registry, registry_from_sources

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "reference" / "tajmahal" / "data" / "registry.json"


def main(argv: list[str]) -> int:
    text = dumps_registry(registry_from_sources(ROOT))
    current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else None
    if "--check" in argv:
        if current != text:
            print(f"{TARGET.relative_to(ROOT)} is stale: run python3 tools/make_registry.py")
            return 1
        print(f"{TARGET.relative_to(ROOT)} is up to date")
        return 0
    if current != text:
        temporary = TARGET.with_suffix(".json.tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(TARGET)
        print(f"wrote {TARGET.relative_to(ROOT)}")
    elif "--quiet" not in argv:
        print(f"{TARGET.relative_to(ROOT)} is up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
