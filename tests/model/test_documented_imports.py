"""Every ``import`` in the Python examples of the README and the guides works.

A reader copies an example and runs it: a name the example imports that the package
does not export is a broken page. The examples' other lines need files, engines or
time, so only their imports are run here (the README's engine example runs whole in
``test_public_api``).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
IMPORT = re.compile(r"^(?:from\s+(tajmahal[\w.]*)\s+import\s+[^\n(]+|import\s+tajmahal[\w.]*)\s*$")
EXTRAS = {"tajmahal.ai.openspiel": "pyspiel", "tajmahal.ai.pettingzoo": "pettingzoo"}


def _documented_imports() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL):
            for line in block.splitlines():
                if IMPORT.match(line.strip()):
                    found.append((f"{page.relative_to(ROOT)}: {line.strip()}", line.strip()))
    return found


IMPORTS = _documented_imports()


def test_the_guides_have_examples_that_import_the_package() -> None:
    assert len(IMPORTS) >= 10


@pytest.mark.parametrize(("where", "line"), IMPORTS, ids=[where for where, _ in IMPORTS])
def test_a_documented_import_works(where: str, line: str) -> None:
    for module, extra in EXTRAS.items():
        if module in line and importlib.util.find_spec(extra) is None:
            pytest.skip(f"{where}: needs the {extra} extra")
    exec(compile(line, where, "exec"), {})
