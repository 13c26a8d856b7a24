"""Draw the Taj Mahal board as an SVG picture.

The embedded board is a labelled reconstruction (ruling RUL.COMPONENTS.BOARD), so a
picture is the quickest way to judge whether it still looks like a board that could be
printed: rings inside provinces, no crossing roads, a sparse north-west, Agra in the
south-east. The drawing is :func:`tajmahal.render.board_svg`. Usage:
``python3 tools/draw_board.py [OUT.svg]`` (default ``build/board.svg``).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from tajmahal.components import default_components
from tajmahal.render import board_svg


def write_whole(path: Path, text: str) -> None:
    """Write through a temporary file and rename, so a reader never sees half a picture."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        # mkstemp creates the file private; a picture is meant to be shared.
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def main() -> int:
    """Draw the embedded board to the path in the first argument."""
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("build") / "board.svg"
    board = default_components().board
    write_whole(target, board_svg(board))
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
