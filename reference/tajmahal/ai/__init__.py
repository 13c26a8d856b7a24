"""Interfaces for learning and search: an action space, observations, tensors, chance, sampling.

The framework adapters are the subpackages :mod:`tajmahal.ai.openspiel` and
:mod:`tajmahal.ai.pettingzoo` (each needs its extra: ``pip install
'tajmahal-reference[openspiel]'`` or ``[pettingzoo]``).
"""

from tajmahal.ai._action_space import (
    ACTION_SPACE_VERSION,
    ActionSpace,
    Block,
    action_from_id,
    action_id,
    action_space,
)
from tajmahal.ai._bounds import Bounds, bounds
from tajmahal.ai._chance import (
    ChanceNode,
    ChanceOutcome,
    Dealing,
    Phase,
    Shuffling,
    apply_chance,
    chance_outcomes,
    deal_phases,
)
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
from tajmahal.ai._sampling import sample_consistent_state
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
    "ACTION_SPACE_VERSION",
    "FAST_PATHS",
    "MAX_SEATS",
    "OBSERVATION",
    "SEAT_SECTIONS",
    "STEPS",
    "ActionSpace",
    "Block",
    "Bounds",
    "BufferT",
    "ChanceNode",
    "ChanceOutcome",
    "Dealing",
    "Knowledge",
    "Observation",
    "Phase",
    "Section",
    "Shuffling",
    "TensorLayout",
    "TensorObserver",
    "TensorWriter",
    "Writable",
    "action_from_id",
    "action_id",
    "action_space",
    "apply_chance",
    "bounds",
    "chance_outcomes",
    "deal_phases",
    "fill_information_tensor",
    "fill_observation_tensor",
    "information_tensor",
    "information_tensor_size",
    "knowledge_of",
    "masked_observation",
    "observation_tensor",
    "observe",
    "sample_consistent_state",
    "tensor_layout",
    "view_to_json",
]
