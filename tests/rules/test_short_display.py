"""A display of one or two cards is taken whole, an empty one offers no pick."""

from __future__ import annotations

import pytest
from positions import run, with_display
from scenes import three

from tajmahal.engine import legal_actions
from tajmahal.model import Step


@pytest.mark.clause("TM.WITHDRAW.PICK_TWO", "RUL.DISPLAY.SHORT")
@pytest.mark.parametrize(
    ("display", "expected"),
    [
        (
            ("green-19", "green-20", "green-21"),
            ["take green-19 green-20", "take green-19 green-21", "take green-20 green-21"],
        ),
        (("green-19", "green-21"), ["take green-19 green-21"]),
        (("green-21",), ["take green-21"]),
        ((), []),
    ],
)
def test_short_displays_are_taken_whole(display: tuple[str, ...], expected: list[str]) -> None:
    state = with_display(run(three(), "withdraw"), display)
    assert state.step is Step.TAKE
    assert [str(action) for action in legal_actions(state)] == expected
