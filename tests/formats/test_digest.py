"""The published digest recipes, checked against literal values computed outside Python."""

from tajmahal.model import WITHDRAW, Play
from tajmahal.notation import legal_digest

# printf '' | sha256sum ; printf 'play a\nwithdraw' | sha256sum
EMPTY = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
PLAY_A_AND_WITHDRAW = "sha256:f0f104cf5a7995e236115eb012235b4738f0265617e6fd3042d066c97587f813"


def test_no_legal_action_digests_the_empty_string() -> None:
    assert legal_digest([]) == EMPTY


def test_actions_are_sorted_joined_by_line_feeds_without_a_trailing_one() -> None:
    assert legal_digest([WITHDRAW, Play("a")]) == PLAY_A_AND_WITHDRAW
    assert legal_digest(["withdraw", "play a"]) == PLAY_A_AND_WITHDRAW
