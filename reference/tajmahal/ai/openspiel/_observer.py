"""OpenSpiel's Python observer for the ``tajmahal`` game: the observation and
information-state tensors and strings (:class:`TajMahalObserver`)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np

from tajmahal.ai._chance import Dealing
from tajmahal.ai._fast_paths import TENSOR_OBSERVER
from tajmahal.ai._observation import (
    fill_information_tensor,
    information_tensor_size,
    view_to_json,
)
from tajmahal.ai._tensor import TensorWriter, tensor_layout
from tajmahal.ai.openspiel._config import ConfiguredGame
from tajmahal.ai.openspiel._history import dealing_text
from tajmahal.model import view

if TYPE_CHECKING:
    from tajmahal.ai.openspiel._state import TajMahalState


class TajMahalObserver:
    """OpenSpiel's Python observer interface: ``tensor``, ``dict``, ``set_from``,
    ``string_from``."""

    def __init__(self, game: ConfiguredGame, perfect_recall: bool) -> None:
        self.game = game.config()
        """The configuration of the game observed."""
        self.perfect_recall = perfect_recall
        """True for the information state, False for the observation."""
        layout = tensor_layout(self.game.components)
        size = information_tensor_size(self.game.components) if perfect_recall else layout.size
        self.tensor = np.zeros(size, np.float32)
        """The flat tensor, refilled by :meth:`set_from`."""
        self.layout = layout
        """The layout of the observation tensor."""
        self.observer: TensorWriter = TENSOR_OBSERVER.chosen()(layout)
        """Writes the observation tensor (:class:`tajmahal.ai.TensorObserver`)."""
        self.dict: dict[str, Any] = {}
        """Named, shaped views into :attr:`tensor`."""
        for section in layout.sections:
            self.dict[section.name] = self.tensor[
                section.offset : section.offset + section.size
            ].reshape(section.shape)
        if perfect_recall:
            cards = len(layout.cards)
            self.dict["known_in_hand"] = self.tensor[layout.size :].reshape((5, cards))

    def set_from(self, state: TajMahalState, player: int) -> None:
        """Fill :attr:`tensor` for ``player`` (zeros while the setup is dealt)."""
        engine_state = state._data.engine_state()
        if engine_state is None:
            self.tensor.fill(0.0)
            return
        tensor = self.tensor
        tensor.fill(0.0)
        if self.perfect_recall:
            knowledge = state.knowledge(player)
            assert knowledge is not None
            fill_information_tensor(view(engine_state, player), knowledge, self.layout, tensor)
        else:
            self.observer.write(engine_state, player, tensor)

    def string_from(self, state: TajMahalState, player: int) -> str:
        """The information-state text, or the view as compact JSON."""
        if self.perfect_recall:
            return state.information_text(player)
        engine_state = state._data.engine_state()
        if engine_state is None:
            node = state.node
            assert isinstance(node, Dealing)
            return dealing_text(node, player)
        return json.dumps(
            view_to_json(view(engine_state, player)), sort_keys=True, separators=(",", ":")
        )
