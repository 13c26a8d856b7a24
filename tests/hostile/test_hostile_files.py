"""Hostile files and streams: deep, huge, badly encoded, non-finite, looping.

Each attack is run through every command that reads the kind of file it targets; the
outcome is always exit code 2 and one line naming the file (and the field where there
is one), never a traceback, a hang or unbounded memory (see ``tajmahal.inputs``).
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from hostile.support import Run
from tajmahal.inputs import (
    MAX_COMPONENT_BYTES,
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_NAME_CHARS,
    MAX_RECORD_BYTES,
    MAX_STEPS,
    MAX_STRING_CHARS,
    MAX_VALUES,
)
from tajmahal.model import COMPONENT_FILES, default_components

DATA = Path(__file__).resolve().parents[2] / "reference" / "tajmahal" / "data"
RECORD_COMMANDS = (("verify",), ("replay",), ("replay", "--quiet"), ("position",))

DEEP_TEXTS: dict[str, bytes] = {
    "arrays-100000": b"[" * 100_000 + b"]" * 100_000,
    "objects-100000": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    "arrays-unclosed": b"[" * 1_000_000,
    "just-over-limit": b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1),
    "mixed-in-string": b'["' + b"[" * 10_000 + b'", ' + b"[" * 40 + b"]" * 40 + b"]",
}
"""Nesting attacks (whole documents)."""

BAD_BYTES: dict[str, bytes] = {
    "byte-ff": b'{"format": "\xff"}',
    "bom": b'\xef\xbb\xbf{"format": "tajmahal-trace"}',
    "overlong-slash": b'{"a": "\xc0\xaf"}',
    "truncated-sequence": b'{"a": "\xe2\x82',
    "encoded-surrogate": b'{"a": "\xed\xa0\x80"}',
    "utf-16": '{"a": 1}'.encode("utf-16"),
    "nul-bytes": b"\x00" * 100,
    "latin-1": '{"names": ["Zoë"]}'.encode("latin-1"),
}
"""Encoding attacks (whole documents)."""

VALUE_TEXTS: dict[str, str] = {
    "int-5000-digits": "[" + "9" * 5000 + "]",
    "int-over-limit": "[" + "1" * (MAX_INT_DIGITS + 1) + "]",
    "negative-int-5000-digits": "[-" + "9" * 5000 + "]",
    "float-1e400": "[1e400]",
    "float--1e400": "[-1e400]",
    "float-long-mantissa": "[0." + "1" * 5000 + "]",
    "nan": "[NaN]",
    "infinity": "[Infinity]",
    "minus-infinity": "[-Infinity]",
    "lone-surrogate": '["\\ud800"]',
    "lone-low-surrogate": '["x\\udfff"]',
    "surrogate-key": '{"\\ud800": 1}',
    "long-string": '["' + "a" * (MAX_STRING_CHARS + 1) + '"]',
    "long-key": '{"' + "k" * (MAX_STRING_CHARS + 1) + '": 1}',
    "duplicate-key": '{"a": 1, "a": 2}',
    "many-values": "[" + ",".join(["0"] * (MAX_VALUES + 1)) + "]",
    "many-empty-arrays": "[" + ",".join(["[]"] * (MAX_VALUES // 2 + 1)) + "]",
}
"""Value attacks (whole documents)."""


def _write(path: Path, data: bytes | str) -> Path:
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return path


def _tampered(document: dict[str, Any], **changes: Any) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(document))
    copy.update(changes)
    return copy


def _one_line(err: str) -> str:
    return err.strip().splitlines()[0]


# ---------------------------------------------------------------------------------------
# Records


def _run_records(run: Run, path: Path) -> list[str]:
    """What each record command writes to standard error when given ``path``."""
    return [run(*command, str(path))[2] for command in RECORD_COMMANDS]


@pytest.mark.parametrize("name", sorted(DEEP_TEXTS))
def test_deep_records_are_refused(name: str, tmp_path: Path, run: Run) -> None:
    path = _write(tmp_path / f"{name}.json", DEEP_TEXTS[name])
    for err in _run_records(run, path):
        assert str(path) in err
        if name != "mixed-in-string":
            assert f"nested more than {MAX_DEPTH} levels" in err or "not valid JSON" in err


@pytest.mark.parametrize("name", sorted(BAD_BYTES))
def test_badly_encoded_records_are_refused(name: str, tmp_path: Path, run: Run) -> None:
    path = _write(tmp_path / f"{name}.json", BAD_BYTES[name])
    errors = _run_records(run, path)
    for err in errors:
        assert str(path) in err
    if name == "byte-ff":
        assert "byte offset 12" in errors[-1]


@pytest.mark.parametrize("name", sorted(VALUE_TEXTS))
def test_hostile_values_are_refused(name: str, tmp_path: Path, run: Run) -> None:
    path = _write(tmp_path / f"{name}.json", VALUE_TEXTS[name])
    for err in _run_records(run, path):
        assert str(path) in err


@pytest.mark.parametrize(
    ("field", "raw", "named"),
    [
        ("seed", "9" * 5000, "seed"),
        ("seed", "-" + "9" * 41, "seed"),
        ("seed", "NaN", "seed"),
        ("seed", "1e999", "seed"),
        ("names", '["\\ud800", "b", "c"]', "names[0]"),
        ("names", json.dumps(["x" * (MAX_NAME_CHARS + 1), "b", "c"]), "names[0]"),
        ("names", json.dumps(["n"] * 6), "names"),
        ("players", "1" * 4400, "players"),
        ("ruleset", '{"a": 1, "a": 2}', "ruleset.a"),
    ],
)
def test_hostile_values_inside_a_record_name_the_field(
    field: str,
    raw: str,
    named: str,
    record_document: dict[str, Any],
    tmp_path: Path,
    run: Run,
) -> None:
    text = json.dumps(_tampered(record_document, **{field: "@@RAW@@"}))
    path = _write(tmp_path / "record.json", text.replace('"@@RAW@@"', raw))
    for err in _run_records(run, path):
        assert f"{path}: {named}:" in err


def test_a_step_field_is_named_with_its_step(
    record_document: dict[str, Any], tmp_path: Path, run: Run
) -> None:
    document = _tampered(record_document)
    document["steps"][5]["action"] = "play \ud800"
    path = _write(tmp_path / "record.json", json.dumps(document))
    for err in _run_records(run, path):
        assert f"{path}: step 6: action: a lone surrogate" in err


def test_more_steps_than_any_game_is_refused_at_once(
    record_document: dict[str, Any], tmp_path: Path, run: Run
) -> None:
    document = _tampered(record_document)
    document["steps"] = [{"actor": 0, "action": "withdraw"}] * (MAX_STEPS + 1)
    path = _write(tmp_path / "long.json", json.dumps(document))
    for err in _run_records(run, path):
        assert f"steps: {MAX_STEPS + 1} steps; no game has more than {MAX_STEPS}" in err


def test_oversized_files_are_refused_by_size_before_reading(tmp_path: Path, run: Run) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as stream:  # sparse: costs no disk
        stream.truncate(10 * MAX_RECORD_BYTES)
    for err in _run_records(run, path):
        assert f"larger than the limit of {MAX_RECORD_BYTES} bytes" in err


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_endless_devices_are_refused_at_the_limit(run: Run) -> None:
    for command in (("verify",), ("replay", "--quiet")):
        _, _, err = run(*command, "/dev/zero")
        assert f"/dev/zero: larger than the limit of {MAX_RECORD_BYTES} bytes" in err


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_standard_input_is_read_and_bounded(
    record_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run
) -> None:
    _stdin(monkeypatch, record_path.read_bytes())
    _code, out, _ = run("verify", "-", expect={0})
    assert "OK (standard input)" in out
    _stdin(monkeypatch, b" " * (MAX_RECORD_BYTES + 1))
    _, _, err = run("replay", "-")
    assert f"(standard input): larger than the limit of {MAX_RECORD_BYTES} bytes" in err
    _stdin(monkeypatch, b"[" * 50_000)
    _, _, err = run("position", "-")
    assert "(standard input): nested more than" in err


def test_folders_and_missing_files_are_refused(tmp_path: Path, run: Run) -> None:
    for command in RECORD_COMMANDS:
        _, _, err = run(*command, str(tmp_path))
        assert f"{tmp_path}: is a folder" in err
        _, _, err = run(*command, str(tmp_path / "missing.json"))
        assert "no such file" in err
        _, _, err = run(*command, "")
        assert "empty path" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_read_as_a_stream(record_path: Path, tmp_path: Path, run: Run) -> None:
    import threading

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    data = record_path.read_bytes()

    def feed() -> None:
        with fifo.open("wb") as stream:
            stream.write(data)

    writer = threading.Thread(target=feed)
    writer.start()
    _code, out, _ = run("verify", str(fifo), expect={0})
    writer.join(timeout=10)
    assert f"OK {fifo}" in out


# ---------------------------------------------------------------------------------------
# Component folders


def _components_with(tmp_path: Path, name: str, data: bytes | str) -> Path:
    folder = tmp_path / "set"
    folder.mkdir(exist_ok=True)
    _write(folder / name, data)
    return folder


COMPONENT_COMMANDS = ("components", "verify", "replay", "position")


def _run_components(run: Run, folder: Path, record_path: Path) -> list[str]:
    errors = []
    for command in COMPONENT_COMMANDS:
        argv = [command, "--components", str(folder)]
        if command != "components":
            argv.append(str(record_path))
        _, _, err = run(*argv)
        errors.append(err)
    return errors


COSTLY_IN_BOARD = ("arrays-unclosed", "objects-100000")
"""Nesting attacks of a second or so; in board.json, deep cases (``make check`` meets
them in cards.json, and board.json's other nesting attacks)."""

COMPONENT_ATTACKS = [
    *(
        pytest.param(
            file,
            DEEP_TEXTS[name],
            id=f"deep-{file}-{name}",
            marks=pytest.mark.deep if file == "board.json" and name in COSTLY_IN_BOARD else (),
        )
        for file in ("cards.json", "board.json")
        for name in sorted(DEEP_TEXTS)
    ),
    *(
        pytest.param("cards.json", BAD_BYTES[name], id=f"encoding-{name}")
        for name in sorted(BAD_BYTES)
    ),
    *(
        pytest.param("specials.json", VALUE_TEXTS[name], id=f"value-{name}")
        for name in sorted(VALUE_TEXTS)
    ),
]
"""The whole-document attacks on component files: nesting in cards.json and board.json,
encoding in cards.json, values in specials.json."""


@pytest.mark.parametrize(("file", "data"), COMPONENT_ATTACKS)
def test_hostile_component_files_are_refused_naming_the_file(
    file: str, data: bytes | str, tmp_path: Path, record_path: Path, run: Run
) -> None:
    folder = _components_with(tmp_path, file, data)
    for err in _run_components(run, folder, record_path):
        assert f"{folder / file}:" in err


def test_a_lone_surrogate_in_a_component_file_names_the_field(
    tmp_path: Path, record_path: Path, run: Run
) -> None:
    document = json.loads((DATA / "board.json").read_text(encoding="utf-8"))
    document["name"] = "board \ud800"
    folder = _components_with(tmp_path, "board.json", json.dumps(document))
    for err in _run_components(run, folder, record_path):
        assert f"{folder / 'board.json'}: name: a lone surrogate" in err


@pytest.mark.parametrize(
    "value",
    ["1e400", "-1e400", "NaN", "Infinity", "-Infinity", "1" + "0" * 400, "1e300", "1000001"],
)
@pytest.mark.parametrize("axis", ["x", "y"])
def test_coordinates_are_finite_and_bounded(
    value: str, axis: str, tmp_path: Path, record_path: Path, run: Run
) -> None:
    document = json.loads((DATA / "board.json").read_text(encoding="utf-8"))
    document["cities"][3][axis] = 12345
    text = json.dumps(document).replace(f'"{axis}": 12345', f'"{axis}": {value}')
    folder = _components_with(tmp_path, "board.json", text)
    for err in _run_components(run, folder, record_path):
        assert f"board.json: cities[3].{axis}:" in err


def test_oversized_component_files_are_refused(tmp_path: Path, record_path: Path, run: Run) -> None:
    folder = _components_with(tmp_path, "board.json", b"")
    with (folder / "board.json").open("wb") as stream:
        stream.truncate(MAX_COMPONENT_BYTES + 1)
    for err in _run_components(run, folder, record_path):
        assert f"larger than the limit of {MAX_COMPONENT_BYTES} bytes" in err


@pytest.mark.parametrize("file", COMPONENT_FILES)
def test_symlink_loops_and_dangling_links_are_errors(
    file: str, tmp_path: Path, record_path: Path, run: Run
) -> None:
    folder = tmp_path / "links"
    folder.mkdir()
    (folder / file).symlink_to(folder / file)
    for err in _run_components(run, folder, record_path):
        assert f"{folder / file}: cannot be read" in err
    (folder / file).unlink()
    (folder / file).symlink_to(folder / "nowhere.json")
    for err in _run_components(run, folder, record_path):
        assert f"{folder / file}: dangling symbolic link" in err
    (folder / file).unlink()
    (folder / file).mkdir()
    for err in _run_components(run, folder, record_path):
        assert f"{folder / file}: is a folder" in err


def test_a_file_or_missing_folder_as_components_is_refused(
    tmp_path: Path, record_path: Path, run: Run
) -> None:
    for folder in (record_path, tmp_path / "missing"):
        for err in _run_components(run, folder, record_path):
            assert "not a folder of component files" in err


def test_a_path_with_a_nul_character_is_an_error(record_path: Path) -> None:
    from tajmahal.errors import RecordError, StateFormatError
    from tajmahal.notation import read_position
    from tajmahal.records import read_record, write_record

    with pytest.raises(RecordError, match="embedded null byte"):
        read_record("game\0.json")
    with pytest.raises(StateFormatError, match="embedded null byte"):
        read_position("game\0.json", default_components())
    record = read_record(record_path)
    with pytest.raises(RecordError, match="NUL character"):
        write_record(record, "game\0.json")
