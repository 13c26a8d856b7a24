"""The OpenSpiel state (:class:`TajMahalState`): its queries, legal actions and chance
outcomes, the application of an action or a chance draw (the adapter's hot path), and
resampling from an information state."""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable

import attrs
import pyspiel

from tajmahal.accel import apply
from tajmahal.ai._chance import Dealing, Shuffling
from tajmahal.ai._fast_paths import LEGAL_IDS
from tajmahal.ai._observation import Knowledge
from tajmahal.ai._sampling import sample_consistent_state
from tajmahal.ai.openspiel._config import ConfiguredGame, GameConfig
from tajmahal.ai.openspiel._history import (
    PUBLIC,
    Drawn,
    HistoryBase,
    HistoryData,
    HistoryDraws,
    HistoryStep,
    Node,
    dealing_text,
    drawn_ids,
    knowledge_at,
)
from tajmahal.engine import new_game, random_setup
from tajmahal.model import GameState, Reshuffle, Step, view

_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


_legal_ids = LEGAL_IDS.chosen()


def _initial_data(config: GameConfig) -> HistoryData:
    """The start of a game: a dealing at its first draw, or the seeded initial state."""
    if config.staged:
        return HistoryData(Dealing(config.components, config.players, config.rules))
    setup = random_setup(config.components, config.players, config.seed)
    state = new_game(config.components, config.players, setup, config.rules)
    return HistoryData(state, start=True)


def _without(ids: list[int], action: int) -> list[int] | None:
    """A new list: ``ids`` (distinct) without ``action``, or None when it is not among them.

    Found by bisection, as the lists are sorted; by a scan if that misses."""
    at = bisect_left(ids, action)
    if at == len(ids) or ids[at] != action:
        if action not in ids:
            return None
        at = ids.index(action)
    left = ids[:]
    del left[at]
    return left


class TajMahalState(pyspiel.State):  # type: ignore[misc]
    """One position of the OpenSpiel game; wraps an engine state or a chance draw."""

    def __init__(self, game: ConfiguredGame, data: HistoryData | None = None) -> None:
        super().__init__(game)
        config = game.config()
        self._game = config
        self._data = data if data is not None else _initial_data(config)

    # -- queries ----------------------------------------------------------------------

    @property
    def node(self) -> Node:
        """The engine state or the chance draw in progress."""
        return self._data.node

    def current_player(self) -> int:
        """The seat to move, or OpenSpiel's CHANCE / TERMINAL id."""
        return self._data.player

    def _legal_actions(self, player: int) -> list[int]:
        """The sorted legal ids at a decision (remembered by the position: OpenSpiel and
        its callers ask for them more than once)."""
        data = self._data
        if data.legal is None:
            node = data.node
            assert isinstance(node, GameState)
            data.legal = _legal_ids(self._game.space, node)
        return data.legal

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions (chance outcomes at a chance node), as OpenSpiel's own
        ``State.legal_actions``; answered in Python, without a trip through C++."""
        current = self._data.player
        if current >= 0 and (player is None or player == current):
            return self._legal_actions(current)[:]
        if current == _TERMINAL:
            return []
        if current == _CHANCE:
            return self._chance_ids()[:]
        if player is not None and player < 0:
            return list(super().legal_actions(player))  # OpenSpiel's own error
        return []

    def is_chance_node(self) -> bool:
        """True at a chance node (answered in Python, as :meth:`legal_actions`)."""
        return self._data.player == _CHANCE

    def _chance_ids(self) -> list[int]:
        data = self._data
        if data.chance is not None:
            return data.chance
        game = self._game
        node = data.node
        if isinstance(node, GameState):
            node = Shuffling(node)
        if isinstance(node, Shuffling):
            ids = [game.card_index[card] for card in node.remaining()]
        else:
            outcomes = node.outcomes()
            phase = node.phase()
            if phase == "card":
                ids = [game.card_index[str(card)] for card in outcomes]
            elif phase == "start-player":
                ids = [int(seat) for seat in outcomes]
            else:
                ids = [game.tile_index[str(tile)] for tile in outcomes]
        data.chance = ids
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next draw's outcomes with their probabilities (uniform)."""
        ids = self._chance_ids()
        probability = 1.0 / len(ids)
        return [(i, probability) for i in ids]

    def _outcome(self, action: int, phase: str | None = None) -> str | int:
        game = self._game
        node = self._data.node
        if isinstance(node, GameState | Shuffling):
            return game.cards[action]
        if phase is None:
            phase = node.phase()
        if phase == "card":
            return game.cards[action]
        if phase == "province-tile":
            return game.province_tiles[action]
        if phase == "bonus-tile":
            return game.bonus_tiles[action]
        return action

    def _apply_action(self, action: int) -> None:
        data = self._data
        if data.player >= 0:
            # A decision: data.node is a GameState (the player's number says so).
            move = self._game.space.actions[action]
            after = apply(data.node, move)  # type: ignore[arg-type]
            step = after.step
            if step is Step.OVER:
                player = _TERMINAL
            elif step is Step.SHUFFLE:
                player = _CHANCE
            else:
                player = after.to_move  # type: ignore[assignment]
            self._data = HistoryStep(after, [data.link, move], player)
            return
        # A chance draw. The node after it is made only when asked for (:class:`HistoryDraws`):
        # the draws are checked against the outcomes left and chained, as ``Dealing.draw``
        # and ``Shuffling.draw`` would add them.
        game = self._game
        left = _without(self._chance_ids(), action)  # the outcomes left after this one
        if type(data) is HistoryDraws:
            start = data.start
            drawn: Drawn | None = data.drawn
            done = data.done
        else:
            node = data.node
            start = Shuffling(node) if isinstance(node, GameState) else node
            drawn = None
            done = (
                len(start.province_tiles) + len(start.bonus_tiles) + len(start.cards)
                if isinstance(start, Dealing)
                else 0
            )
        if isinstance(start, Shuffling):
            if left is None:
                raise ValueError(f"chance outcome {action} is not among the cards to shuffle")
            if not left:
                cards = game.cards
                order = (*start.order, *[cards[i] for i in drawn_ids(drawn)], cards[action])
                reshuffle = Reshuffle(order)
                # The partial draws shared the link of the chance step (a state restored
                # in mid-shuffle starts its knowledge there).
                self._data = HistoryData(apply(start.state, reshuffle), [data.link, reshuffle])
                return
            self._data = HistoryDraws(start, (drawn, action), 0, game, data.link, left)
            return
        phase = game.deal_phases[done]
        if phase == "start-player":
            dealt = data.node
            assert isinstance(dealt, Dealing)
            following = dealt.draw(action)
            assert isinstance(following, GameState)
            # Knowledge starts here: the draws of the dealing are let go.
            self._data = HistoryData(following, None, start=True)
            return
        if left is None:
            raise ValueError(f"chance outcome {action} is not possible at the {phase} step")
        following_phase = game.deal_phases[done + 1]
        if following_phase != phase:
            # The first draw of the next kind: all of that kind (each has its own pile).
            left = list(game.first_draws[following_phase])
        self._data = HistoryDraws(start, (drawn, action), done + 1, game, None, left)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"draw {self._outcome(action)}"
        return str(self._game.space.actions[action])

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self._data.player == _TERMINAL

    def returns(self) -> list[float]:
        """Zeros until the end; then the utility (``win`` shares or final scores)."""
        node = self._data.node
        players = self._game.players
        if not (isinstance(node, GameState) and node.is_over):
            return [0.0] * players
        if self._game.utility == "score":
            return [float(score) for score in node.scores]
        winners = node.winners()
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]

    def __str__(self) -> str:
        node = self._data.node
        if isinstance(node, GameState):
            from tajmahal.notation import canonical_json

            return canonical_json(node)
        if isinstance(node, Shuffling):
            return f"shuffling {len(node.order)} of {len(node.state.discard)}"
        return (
            f"dealing provinces {','.join(node.province_tiles)}; bonus "
            f"{','.join(node.bonus_tiles)}; cards {','.join(node.cards)}"
        )

    # -- information ------------------------------------------------------------------

    def knowledge(self, seat: int) -> Knowledge | None:
        """What ``seat`` knows now (None while the setup is being dealt)."""
        found = knowledge_at(self._data, seat)
        return None if found is None else found[0]

    def information_text(self, seat: int) -> str:
        """The perfect-recall information state of ``seat`` as text."""
        found = knowledge_at(self._data, seat)
        if found is None:
            node = self._data.node
            assert isinstance(node, Dealing)
            return dealing_text(node, seat)
        return found[1]

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> TajMahalState:
        """A state ``player`` cannot tell from this one, hidden cards drawn at random.

        ``sampler`` gives a float in [0, 1) each call (OpenSpiel passes a
        ``pyspiel.UniformProbabilitySampler``); one call seeds the draw, so a seeded
        sampler makes the resampling reproducible and nothing reads the global generator."""
        data = self._data
        state = data.engine_state()
        found = knowledge_at(data, player)
        public = knowledge_at(data, PUBLIC)
        if state is None or found is None or public is None or isinstance(data.node, Shuffling):
            return TajMahalState(self.get_game(), data)
        seed = int(sampler() * 2**52)
        rng = random.Random(seed)
        sampled = sample_consistent_state(view(state, player), found[0], rng, config=state.config)
        knowledge: dict[int, Knowledge] = {player: found[0], PUBLIC: public[0]}
        prefix: dict[int, str] = {player: found[1], PUBLIC: public[1]}
        for seat in range(state.players_count):
            if seat == player:
                continue
            hand = sampled.players[seat].hand
            counts = list(public[0].hidden)
            counts[seat] = (0,) * public[0].pools
            known = list(public[0].known)
            known[seat] = hand
            knowledge[seat] = attrs.evolve(
                public[0], seat=seat, known=tuple(known), hidden=tuple(counts)
            )
            prefix[seat] = f"{public[1]}\nsampled hand {','.join(hand)}"
        return TajMahalState(
            self.get_game(), HistoryData(sampled, base=HistoryBase(knowledge, prefix))
        )
