"""Interfaces for learning and search: an action space, observations, tensors, chance, sampling.

The framework adapters are the subpackages :mod:`tajmahal.ai.openspiel` and
:mod:`tajmahal.ai.pettingzoo` (each needs its extra: ``pip install
'tajmahal-reference[openspiel]'`` or ``[pettingzoo]``).
"""

from tajmahal.ai._observation import (
    Knowledge,
    Observation,
    information_tensor,
    information_tensor_size,
    knowledge_of,
    observe,
    view_to_json,
)
from tajmahal.ai._tensor import (
    MAX_SEATS,
    SEAT_SECTIONS,
    STEPS,
    BufferT,
    Section,
    TensorLayout,
    Writable,
    fill_observation_tensor,
    observation_tensor,
    tensor_layout,
)

__all__ = [
    "MAX_SEATS",
    "SEAT_SECTIONS",
    "STEPS",
    "BufferT",
    "Knowledge",
    "Observation",
    "Section",
    "TensorLayout",
    "Writable",
    "fill_observation_tensor",
    "information_tensor",
    "information_tensor_size",
    "knowledge_of",
    "observation_tensor",
    "observe",
    "tensor_layout",
    "view_to_json",
]
