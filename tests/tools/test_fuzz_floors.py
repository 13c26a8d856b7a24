"""The floors of ``tools/bench/fuzz_speed.py --floors`` are measured on the campaign's very games.

The floors replay the actions the campaign's players chose; these tests show that the
replayed games are the campaign's (same steps, same final states). No clause markers:
they check a measuring tool.
"""

from __future__ import annotations

import attrs
import fuzz_speed

from tajmahal.model import default_components
from tajmahal.notation import state_digest
from tajmahal.testing.fuzz import Checks, Options, run_chunk, spec_for
from tajmahal.testing.fuzz._games import agents_chooser, play

GAMES = 3


def test_the_floors_play_the_campaigns_games() -> None:
    options = attrs.evolve(Options(games=GAMES), deep_every=10**15)
    played, specs, digest = fuzz_speed.campaign_games(options, 1, GAMES)
    assert digest == f"sum256:{run_chunk(options, 1, 1 + GAMES, None, None).digest:064x}"
    states = fuzz_speed.replayed(played, True)
    for spec, game, (_, actions) in zip(specs, states, played, strict=True):
        outcome = play(
            default_components(),
            spec.players,
            spec.rules,
            spec.seed,
            spec.chance_seed,
            agents_chooser(spec),
            Checks(),
        )
        assert len(game) == len(actions) + 1 == outcome.steps + 1
        assert game[-1].is_over
        assert state_digest(game[-1]) == outcome.final_digest
    assert [spec.index for spec in specs] == [spec_for(options, index).index for index in (1, 2, 3)]
