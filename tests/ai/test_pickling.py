"""Frozen states deep-copy as themselves and pickle through the canonical JSON."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

from scenes import random_game

from tajmahal import default_components, load_components, new_game, random_setup
from tajmahal.model import components_from_documents
from tajmahal.notation import canonical_json


def test_states_copy_as_themselves() -> None:
    components = default_components()
    state = new_game(components, 4, random_setup(components, 4, 3))
    assert copy.deepcopy(state) is state
    assert copy.copy(state) is state
    assert copy.deepcopy(components) is components


def test_states_pickle_and_come_back_equal() -> None:
    for index, (_before, _action, after) in enumerate(random_game(5, seed=11)):
        if index % 25:
            continue
        again = pickle.loads(pickle.dumps(after))
        assert again == after
        assert hash(again) == hash(after)
        assert canonical_json(again) == canonical_json(after)


def test_default_components_pickle_by_reference() -> None:
    components = default_components()
    assert pickle.loads(pickle.dumps(components)) is components
    assert len(pickle.dumps(components)) < 200


def test_custom_components_pickle_by_their_documents(tmp_path: Path) -> None:
    documents = default_components().to_json()
    documents["bonus_tiles.json"]["note"] = "a different note, so a different digest"
    folder = tmp_path / "custom"
    folder.mkdir()
    import json

    (folder / "bonus_tiles.json").write_text(json.dumps(documents["bonus_tiles.json"]))
    custom = load_components(folder)
    assert custom.digest != default_components().digest
    again = pickle.loads(pickle.dumps(custom))
    assert again == custom and again.digest == custom.digest
    assert components_from_documents(custom.to_json()).digest == custom.digest
    state = new_game(custom, 3, random_setup(custom, 3, 1))
    assert pickle.loads(pickle.dumps(state)) == state
