"""The fuzzer: campaigns are reproducible and split cleanly; planted engine faults are
found, written at once, and shrunk to small games.

Faults are planted through a test seam only: the campaign looks the engine up as
``tajmahal.accel.legal_actions`` / ``apply_with_events`` when each game starts, and
these tests replace those public attributes with wrappers that break one rule. The
shipped engine is never changed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import attrs
import pytest

import tajmahal.accel
import tajmahal.engine._withdraw
import tajmahal.model._view
import tajmahal.notation._reading
import tajmahal.testing.fuzz._campaign
import tajmahal.testing.invariants
from depth import depth
from tajmahal.engine import SetupOutcome, symbol_counts
from tajmahal.model import (
    SYMBOL_INDEX,
    Action,
    Event,
    GameState,
    PlacePalace,
    Play,
    PlayerState,
    RuleSet,
    Step,
    Take,
    View,
    Withdraw,
)
from tajmahal.model._view import Picks
from tajmahal.records import edge_tags
from tajmahal.testing.fuzz import (
    Checks,
    Options,
    Script,
    Summary,
    failure_key,
    merge,
    play_script,
    run_campaign,
    spec_for,
)
from tajmahal.testing.fuzz._campaign import _processes

Corruption = Callable[[GameState, Action, GameState], GameState]


def quick(tmp_path: Path, **changes: Any) -> Options:
    return attrs.evolve(Options(games=12, out=tmp_path, deep_every=4), **changes)


# ---------------------------------------------------------------------------------------
# Reproducibility


def test_the_same_options_give_the_same_games_whatever_the_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chunks of 3 games, so that the campaign with two jobs plays in two processes."""
    monkeypatch.setattr(tajmahal.testing.fuzz._campaign, "CHUNK", 3)
    games = depth(6, 12)
    one = run_campaign(quick(tmp_path / "one", games=games), tagger=edge_tags)
    two = run_campaign(quick(tmp_path / "two", games=games, jobs=2), tagger=edge_tags)
    assert _processes(quick(tmp_path, games=games, jobs=2), 0) == 2
    assert one.games == two.games == games
    assert one.steps == two.steps > games * 100
    assert one.digest == two.digest
    assert one.tags == two.tags
    # Every visit ends with one player left alone in it.
    assert dict(one.tags)["last-player-alone"] == games
    assert not one.failed


def test_shards_merge_into_the_whole_campaign(tmp_path: Path) -> None:
    whole = run_campaign(quick(tmp_path / "whole", games=6))
    parts = [
        (str(tmp_path / f"s{i}"), run_campaign(quick(tmp_path / f"s{i}", games=6, shard=(i, 3))))
        for i in range(3)
    ]
    assert [summary.ranges for _, summary in parts] == [((0, 2),), ((2, 4),), ((4, 6),)]
    merged = merge(parts)
    assert merged.ranges == ((0, 6),)
    assert (merged.games, merged.steps, merged.digest) == (whole.games, whole.steps, whole.digest)
    document = json.loads((tmp_path / "s1" / "summary.json").read_text())
    assert Summary.from_json(document) == parts[1][1]


def test_merging_overlapping_shards_is_refused(tmp_path: Path) -> None:
    part = run_campaign(quick(tmp_path, games=2))
    with pytest.raises(Exception, match="counted twice"):
        merge([("a", part), ("b", part)])


def test_a_campaign_game_replays_from_its_index() -> None:
    options = Options(games=10, seed=7, agents=("hoarder", "stubborn"))
    spec = spec_for(options, 3)
    assert spec == spec_for(options, 3)
    assert spec.agents[:2] == ("hoarder", "stubborn")
    assert spec.players in (3, 4, 5)


def test_find_keeps_the_first_records_of_a_tag(tmp_path: Path) -> None:
    options = quick(tmp_path, games=3, find=("last-player-alone",), keep=2)
    summary = run_campaign(options, tagger=edge_tags)
    files = dict(summary.found)["last-player-alone"]
    assert files == (
        "found/last-player-alone/game-0.json",
        "found/last-player-alone/game-1.json",
    )
    record = json.loads((tmp_path / files[0]).read_text())
    assert record["format"] == "tajmahal-trace" and record["result"]["winners"]


# ---------------------------------------------------------------------------------------
# Planted faults


def plant(monkeypatch: pytest.MonkeyPatch, corrupt: Corruption) -> None:
    """Replace the engine's ``apply_with_events`` by one whose result ``corrupt`` spoils."""
    real = tajmahal.accel.apply_with_events

    def faulty(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
        after, events = real(state, action)
        return corrupt(state, action, after), events

    monkeypatch.setattr(tajmahal.accel, "apply_with_events", faulty)


def tie_wins_the_tile(before: GameState, action: Action, after: GameState) -> GameState:
    """Fault: a tie for an influence tile wins it (>= instead of >)."""
    if not (before.step is Step.PLAY and isinstance(action, Withdraw)):
        return after
    if after.visit != before.visit:
        return after
    seat = before.to_move
    assert seat is not None
    components = before.config.components
    own = symbol_counts(components, before.players[seat].played)
    rivals = [
        symbol_counts(components, player.played)
        for other, player in enumerate(before.players)
        if other != seat and not player.withdrawn
    ]
    for symbol in after.court_influence:
        index = SYMBOL_INDEX[symbol]
        if rivals and own[index] >= 1 and own[index] == max(r[index] for r in rivals):
            holder = attrs.evolve(
                after.players[seat], influence=(*after.players[seat].influence, symbol)
            )
            return attrs.evolve(
                after,
                court_influence=tuple(s for s in after.court_influence if s is not symbol),
                players=(*after.players[:seat], holder, *after.players[seat + 1 :]),
            )
    return after


def taken_card_vanishes(before: GameState, action: Action, after: GameState) -> GameState:
    """Fault: the second card taken from the display never reaches the hand."""
    if not isinstance(action, Take) or len(action.cards) < 2:
        return after
    seat = before.to_move
    assert seat is not None
    hand = tuple(card for card in after.players[seat].hand if card != action.cards[1])
    holder = attrs.evolve(after.players[seat], hand=hand)
    return attrs.evolve(after, players=(*after.players[:seat], holder, *after.players[seat + 1 :]))


def bonus_tile_stays(before: GameState, action: Action, after: GameState) -> GameState:
    """Fault: a palace on a fortress scores its bonus tile but leaves it on the board."""
    if isinstance(action, PlacePalace) and after.bonus_on_board != before.bonus_on_board:
        return attrs.evolve(after, bonus_on_board=before.bonus_on_board)
    return after


def plant_colour_lock_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault: the legal actions offer plays of any colour, ignoring the colour lock (the
    engine's own ``apply`` then refuses them: a crash)."""
    real = tajmahal.accel.legal_actions

    def faulty(state: GameState) -> tuple[Action, ...]:
        actions = list(real(state))
        if state.step is Step.PLAY and state.to_move is not None:
            components = state.config.components
            for card in state.players[state.to_move].hand:
                if card in components.cards and components.cards[card].colour.is_coloured:
                    actions.append(Play(card))
        return tuple(sorted(set(actions), key=str))

    monkeypatch.setattr(tajmahal.accel, "legal_actions", faulty)


def plant_ties_win_inside_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault, inside the engine package: the majority test of a withdrawal accepts a tie
    (``>=`` for ``>``), patched through the engine module's own attribute."""

    def ties_win(own: int, others: Iterable[int]) -> bool:
        return own >= 1 and all(own >= other for other in others)

    monkeypatch.setattr(tajmahal.engine._withdraw, "wins_majority", ties_win)


def plant_view_shows_the_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault, in the view (not the engine): once the deck is below 40 cards, each
    player's view lists the deck's top card among the viewer's own known picks, deep in
    the view's nested player values."""
    real = tajmahal.model._view.view

    def leaky(state: GameState, player: int, picks: Picks | None = None) -> View:
        seen = real(state, player, picks)
        if len(state.deck) >= 40:
            return seen
        own = attrs.evolve(seen.players[player], known=(state.deck[0],))
        return attrs.evolve(
            seen, players=(*seen.players[:player], own, *seen.players[player + 1 :])
        )

    monkeypatch.setattr(tajmahal.testing.invariants._secrets, "view", leaky)


def plant_goods_tiles_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault, in the position reader (not the engine): a seat's goods tiles are lost when
    the seat is read back from JSON."""
    real = tajmahal.notation._reading._player_from_json

    def lossy(document: Any, path: str) -> PlayerState:
        return attrs.evolve(real(document, path), goods_tiles=())

    monkeypatch.setattr(tajmahal.notation._reading, "_player_from_json", lossy)


FAULTS: dict[str, tuple[Callable[[pytest.MonkeyPatch], None], str]] = {
    "tie-wins-the-tile": (
        lambda patch: plant(patch, tie_wins_the_tile),
        "majority-awards",
    ),
    "taken-card-vanishes": (
        lambda patch: plant(patch, taken_card_vanishes),
        "cards-conserved",
    ),
    "bonus-tile-stays": (lambda patch: plant(patch, bonus_tile_stays), "bonus-tiles"),
    "colour-lock-ignored": (plant_colour_lock_ignored, "crash:IllegalActionError"),
    "ties-win-inside-the-engine": (plant_ties_win_inside_the_engine, "majority-awards"),
    "view-shows-the-deck": (plant_view_shows_the_deck, "views-hide-secrets"),
    "goods-tiles-not-read": (plant_goods_tiles_not_read, "serialization-round-trip"),
}
"""Each planted fault and the failure key it must be found under."""

DEEP_FAULTS = frozenset({"view-shows-the-deck", "goods-tiles-not-read"})
"""Faults only the state invariants (checked in deep games) can see."""

QUICK_FAULTS = frozenset(
    {
        "taken-card-vanishes",
        "colour-lock-ignored",
        "ties-win-inside-the-engine",
        "goods-tiles-not-read",
    }
)
"""The faults ``make check`` plants, one of each kind: a step invariant broken by the
result of ``apply``, a crash from the legal actions, a fault inside an engine module, a
state invariant of deep games; the others are deep cases."""


@pytest.mark.parametrize(
    "fault",
    [
        pytest.param(fault, marks=() if fault in QUICK_FAULTS else pytest.mark.deep)
        for fault in sorted(FAULTS)
    ],
)
def test_a_planted_fault_is_found_written_and_shrunk(
    fault: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install, expected = FAULTS[fault]
    install(monkeypatch)
    # The engine faults are found by the step invariants alone (no deep game but game 0).
    deep_every = 1 if fault in DEEP_FAULTS else 1000
    summary = run_campaign(
        quick(
            tmp_path,
            games=20,
            max_counterexamples=1,
            shrink_budget=depth(15, 120),
            deep_every=deep_every,
        )
    )
    assert summary.failed
    [found] = summary.counterexamples
    assert found.key == expected
    [small] = summary.shrunk
    assert small.key == expected
    assert small.decisions <= found.decisions and small.steps <= found.steps
    assert small.players <= found.players
    # Written at once: the raw record and its explanation, then the shrunk ones.
    folder = tmp_path / "counterexamples"
    for entry in (found, small):
        assert json.loads((folder / entry.file).read_text())["format"] == "tajmahal-trace"
    why = json.loads((folder / small.file.replace(".json", ".why.json")).read_text())
    assert why["key"] == expected and why["shrunk_from"] == found.file
    # The shrunk script still breaks the rule with the fault, and nothing without it.
    script = Script.from_json(why["script"])
    deep = fault in DEEP_FAULTS
    assert failure_key(play_script(script, Checks(deep=deep))) == expected
    monkeypatch.undo()
    assert failure_key(play_script(script, Checks(deep=deep))) is None


def test_a_crash_of_the_tool_keeps_what_was_already_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plant(monkeypatch, taken_card_vanishes)
    calls = []

    def stop(summary: Summary, done: bool) -> None:
        calls.append(summary.games)
        if summary.failed:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_campaign(quick(tmp_path, games=200), progress=stop)
    written = sorted(path.name for path in (tmp_path / "counterexamples").iterdir())
    assert written and all(name.startswith("cards-conserved-game-") for name in written)


class DisagreesOnTakes:
    """A stand-in for a foreign engine: agrees on everything but display picks."""

    def __init__(self) -> None:
        self.games = 0

    def start(self, players: int, rules: RuleSet, setup: SetupOutcome) -> str | None:
        self.games += 1
        return None

    def step(self, action: Action, after: GameState) -> str | None:
        return f"{action}: the hand differs" if isinstance(action, Take) else None


def test_a_followed_engine_that_disagrees_is_a_shrunk_counterexample(tmp_path: Path) -> None:
    follower = DisagreesOnTakes()
    summary = run_campaign(
        quick(tmp_path, games=5, max_counterexamples=1, shrink_budget=60), follower=follower
    )
    [found] = summary.counterexamples
    assert found.key == "engine-disagrees" and "the hand differs" in found.message
    [small] = summary.shrunk
    assert small.key == "engine-disagrees" and small.steps <= found.steps
    assert follower.games > 1  # the shrinker replayed games against it
    # The failing step is named as every tool names steps (counted from 1): the last
    # step of the record kept, a display pick.
    folder = tmp_path / "counterexamples"
    why = json.loads((folder / small.file.replace(".json", ".why.json")).read_text())
    record = json.loads((folder / small.file).read_text())
    assert why["step"] == len(record["steps"])
    assert record["steps"][why["step"] - 1]["action"].startswith("take ")
