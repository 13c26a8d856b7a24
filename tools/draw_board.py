"""Draw the Taj Mahal board as an SVG picture.

The embedded board is a labelled reconstruction (ruling RUL.COMPONENTS.BOARD), so a
picture is the quickest way to judge whether it still looks like a board that could be
printed: rings inside provinces, no crossing roads, a sparse north-west, Agra in the
south-east. The drawing is :func:`tajmahal.notation._render.board_svg`. Usage:
``python3 tools/draw_board.py [OUT.svg]`` (default ``build/board.svg``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from tajmahal.model import default_components
from tajmahal.notation._render import board_svg
from tajmahal.records import write_text_atomic


def main() -> int:
    """Draw the embedded board to the path in the first argument."""
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("build") / "board.svg"
    board = default_components().board
    write_text_atomic(board_svg(board), target)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
