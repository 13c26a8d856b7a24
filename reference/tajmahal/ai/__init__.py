"""Interfaces for learning and search: an action space, observations, tensors, chance, sampling.

The framework adapters are the subpackages :mod:`tajmahal.ai.openspiel` and
:mod:`tajmahal.ai.pettingzoo` (each needs its extra: ``pip install
'tajmahal-reference[openspiel]'`` or ``[pettingzoo]``).
"""

from tajmahal.ai._fast_paths import FAST_PATHS
from tajmahal.ai._observation import (
    Knowledge,
    Observation,
    fill_information_tensor,
    information_tensor,
    information_tensor_size,
    knowledge_of,
    observe,
    view_to_json,
)
from tajmahal.ai._tensor import (
    ACTION_MASK,
    MAX_SEATS,
    OBSERVATION,
    SEAT_SECTIONS,
    STEPS,
    BufferT,
    Section,
    TensorLayout,
    TensorObserver,
    TensorWriter,
    Writable,
    fill_observation_tensor,
    masked_observation,
    observation_tensor,
    tensor_layout,
)

__all__ = [
    "ACTION_MASK",
    "FAST_PATHS",
    "MAX_SEATS",
    "OBSERVATION",
    "SEAT_SECTIONS",
    "STEPS",
    "BufferT",
    "Knowledge",
    "Observation",
    "Section",
    "TensorLayout",
    "TensorObserver",
    "TensorWriter",
    "Writable",
    "fill_information_tensor",
    "fill_observation_tensor",
    "information_tensor",
    "information_tensor_size",
    "knowledge_of",
    "masked_observation",
    "observation_tensor",
    "observe",
    "tensor_layout",
    "view_to_json",
]
