"""The package exports what the README documents, and the README's example runs."""

import re
from pathlib import Path

import tajmahal

README = Path(__file__).resolve().parents[2] / "README.md"


def test_every_exported_name_exists() -> None:
    missing = [name for name in tajmahal.__all__ if not hasattr(tajmahal, name)]
    assert missing == []


def test_the_names_the_readme_documents_are_exported() -> None:
    for name in ("play_match", "Player", "read_record", "replay_steps", "legal_actions", "apply"):
        assert name in tajmahal.__all__


def test_the_readme_engine_example_plays_a_whole_game() -> None:
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert blocks, "the README has a Python example"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], str(README), "exec"), namespace)
    state = namespace["state"]
    assert isinstance(state, tajmahal.GameState)
    assert state.is_over
    assert len(state.scores) == 4


def test_the_published_schemas_are_installed_with_the_package() -> None:
    """Readers validate against the schemas at run time, so the installed package carries
    them (``tajmahal/data/schemas``, a link to ``specs/schemas`` in a checkout)."""
    from tajmahal.inputs import schema_dir

    installed = sorted(path.name for path in schema_dir().glob("*.schema.json"))
    published = sorted(
        path.name for path in (README.parent / "specs" / "schemas").glob("*.schema.json")
    )
    assert installed == published
    assert "trace.schema.json" in installed


def test_the_position_cases_are_installed_with_the_package() -> None:
    """``python -m tajmahal.conformance`` runs the installed copy of ``specs/cases``."""
    from tajmahal.conformance._cases import default_cases_dir

    installed = sorted(path.name for path in default_cases_dir().glob("*.json"))
    published = sorted(path.name for path in (README.parent / "specs" / "cases").glob("*.json"))
    assert installed == published
    assert "withdraw.json" in installed
