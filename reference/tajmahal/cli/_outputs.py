"""No command writes over what it reads: every output is compared with every input.

``verify REC --output REC`` would replace the record with its report, ``play --components
D --trace D/cards.json`` a component file with a game record, ``fuzz merge A --out A`` a
shard's summary with the merged one. Before anything runs, each command hands its
outputs and inputs to :func:`refuse_overwriting_inputs`, which compares them as files:
paths resolved and symbolic links followed, and hard links too (two names of one file
have the same device and inode). An output that is an input is refused with one line
naming both.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterable
from pathlib import Path

from tajmahal.errors import TajMahalError
from tajmahal.inputs import STDIN, display_name
from tajmahal.model import COMPONENT_FILES

Named = tuple[str, "str | Path | None"]
"""An output with the option that names it: ``("--output", "report.json")``."""


def _identity(path: str | Path) -> tuple[int, int] | None:
    """The device and inode of the file at ``path`` (links followed), or None when there
    is no such file (yet)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


def component_inputs(folder: str | Path | None) -> list[Path]:
    """The files a ``--components`` folder is read from (none for the embedded set)."""
    if folder is None or not str(folder):
        return []
    return [Path(folder) / name for name in COMPONENT_FILES]


def command_files(command: str | None) -> list[str]:
    """The words of an ``--engine`` command that name existing files (its program, its
    script), which an output must not replace either."""
    if not command:
        return []
    try:
        words = shlex.split(command)
    except ValueError:
        return []
    return [word for word in words if os.path.isfile(word)]


def refuse_overwriting_inputs(outputs: Iterable[Named], inputs: Iterable[str | Path]) -> None:
    """Raise :class:`TajMahalError` when an output is the same file as an input.

    ``outputs`` are ``(option, path)`` pairs (a path of None, ``""`` or ``-`` writes no
    file and is left out); ``inputs`` are the files the command reads (``-``, standard
    input, is left out). Files are compared by device and inode, so a path spelled
    another way, a symbolic link to the input and a hard link to it are all found."""
    known: dict[tuple[int, int], str | Path] = {}
    for item in inputs:
        if str(item) in ("", STDIN):
            continue
        identity = _identity(item)
        if identity is not None:
            known.setdefault(identity, item)
    for option, output in outputs:
        if output is None or str(output) in ("", STDIN):
            continue
        identity = _identity(output)
        same = known.get(identity) if identity is not None else None
        if same is not None:
            raise TajMahalError(
                f"{option} {display_name(output)}: the same file as the input "
                f"{display_name(same)}; an input is never overwritten (choose another file)"
            )


__all__ = ["command_files", "component_inputs", "refuse_overwriting_inputs"]
