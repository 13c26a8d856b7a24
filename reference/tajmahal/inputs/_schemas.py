"""The published JSON Schemas (``specs/schemas/``), loaded once and used at run time.

The schemas are the one statement of the shape of game records, positions and component
files: readers validate a document against its schema first and only then check what a
schema cannot say (a card exists, an action is legal). Cross-file references
(``position.schema.json#/$defs/id``) resolve through one registry of every schema.

Validation errors become :class:`SchemaViolation` values that name the JSON path of the
offending field, so callers can say "file, step, field" in one line.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import jsonschema
from referencing import Registry, Resource

from tajmahal.errors import TajMahalError

SCHEMA_DIR_VARIABLE = "TAJMAHAL_SCHEMAS"
"""Environment variable naming another folder of schemas (default: the repository's)."""


def schema_dir() -> Path:
    """The folder holding ``*.schema.json``: ``$TAJMAHAL_SCHEMAS``, or the copy installed
    with the package (``tajmahal/data/schemas``, which in a source checkout is a link to
    ``specs/schemas``, the one place the schemas are edited)."""
    override = os.environ.get(SCHEMA_DIR_VARIABLE)
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[1] / "data" / "schemas"


@functools.cache
def _schemas() -> dict[str, dict[str, Any]]:
    folder = schema_dir()
    if not folder.is_dir():
        raise TajMahalError(
            f"{folder}: the published schemas are missing (set {SCHEMA_DIR_VARIABLE} to the "
            "specs/schemas folder of tajmahal-reference)"
        )
    schemas: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.schema.json")):
        schemas[path.name.removesuffix(".schema.json")] = json.loads(
            path.read_text(encoding="utf-8")
        )
    return schemas


@functools.cache
def _registry() -> Registry[Any]:
    resources = [
        (schema["$id"], Resource.from_contents(schema))
        for schema in _schemas().values()
        if "$id" in schema
    ]
    return Registry().with_resources(resources)


def _is_integer(_checker: Any, instance: Any) -> bool:
    """JSON integers only: ``4.0`` is a number, not an integer, for our readers."""
    return isinstance(instance, int) and not isinstance(instance, bool)


_STRICT = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)


def schema(name: str) -> dict[str, Any]:
    """The schema ``specs/schemas/<name>.schema.json`` as a JSON document."""
    try:
        return _schemas()[name]
    except KeyError:
        raise TajMahalError(f"no published schema named {name!r}") from None


def _inline(node: Any, resolver: Any) -> Any:
    """``node`` with every ``$ref`` replaced by what it points to (the schemas hold no
    recursive references), so that validating a long record resolves nothing."""
    if isinstance(node, list):
        return [_inline(item, resolver) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        resolved = resolver.lookup(node["$ref"])
        target = _inline(resolved.contents, resolved.resolver)
        rest = {key: value for key, value in node.items() if key not in ("$ref", "description")}
        if not rest:
            return target
        return {"allOf": [target, _inline(rest, resolver)]}
    return {
        key: (value if key in ("$defs", "enum", "const") else _inline(value, resolver))
        for key, value in node.items()
    }


@functools.cache
def validator(name: str, definition: str | None = None) -> Any:
    """A validator for the schema ``name`` (integers must be written without a fraction),
    its references resolved once in advance; with ``definition``, for that entry of its
    ``$defs`` alone (the ``setup`` of a protocol request, say)."""
    document = schema(name)
    resolver = _registry().resolver(base_uri=document.get("$id", ""))
    if definition is not None:
        try:
            document = document["$defs"][definition]
        except KeyError:
            raise TajMahalError(f"schema {name!r} defines no {definition!r}") from None
    inlined = _inline(document, resolver)
    inlined.pop("$defs", None)
    return _STRICT(inlined, registry=_registry())


def schema_names() -> tuple[str, ...]:
    """Every published schema's name (``trace``, ``position``, ``components-cards`` ...)."""
    return tuple(_schemas())


@attrs.frozen(slots=True)
class SchemaViolation:
    """One way a document breaks its schema."""

    path: tuple[str | int, ...]
    """Where, as JSON keys and list indexes from the document's root."""
    message: str
    """What is wrong, in one short line."""

    @property
    def field(self) -> str:
        """The path written as ``setup.hands[1][2]`` (``(root)`` for the document)."""
        return field_path(self.path)


def field_path(path: Sequence[str | int]) -> str:
    """A JSON path as ``a.b[2].c``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "(root)"


def _short(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # not a JSON value (built in Python)
        return f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def _violation(error: Any) -> SchemaViolation:
    path: tuple[str | int, ...] = tuple(error.absolute_path)
    keyword = error.validator
    if keyword == "additionalProperties" and isinstance(error.instance, dict):
        known = set(error.schema.get("properties", {}))
        extra = sorted(key for key in error.instance if key not in known)
        if extra:
            return SchemaViolation((*path, extra[0]), "unknown field (not in the schema)")
    if keyword == "required":
        missing = [key for key in error.validator_value if key not in error.instance]
        if missing:
            return SchemaViolation(path, f"missing field '{missing[0]}'")
    if keyword == "enum":
        allowed = ", ".join(_short(value) for value in error.validator_value)
        return SchemaViolation(path, f"expected one of {allowed}, found {_short(error.instance)}")
    if keyword == "const":
        return SchemaViolation(
            path, f"expected {_short(error.validator_value)}, found {_short(error.instance)}"
        )
    if keyword == "type":
        return SchemaViolation(
            path, f"expected {error.validator_value}, found {_short(error.instance)}"
        )
    if keyword == "pattern":
        return SchemaViolation(path, f"{_short(error.instance)} is malformed")
    if keyword is None or error.schema is False:
        return SchemaViolation(path, "not allowed here")
    message = error.message.splitlines()[0] if error.message else "invalid"
    if len(message) > 120:
        message = message[:117] + "..."
    return SchemaViolation(path, message)


def violations(name: str, document: Any) -> Iterator[SchemaViolation]:
    """Every violation of schema ``name`` by ``document``, most relevant first."""
    errors = list(validator(name).iter_errors(document))
    errors.sort(key=jsonschema.exceptions.relevance)
    for error in errors:
        best = jsonschema.exceptions.best_match([error])
        yield _violation(best)


FAST_PATH_VARIABLE = "TAJMAHAL_SCHEMA_FAST_PATH"
"""Environment variable: ``0`` turns the compiled validator off (every document is then
validated by ``jsonschema`` alone, as when the ``fast`` extra is not installed)."""


@functools.cache
def _compiled(name: str) -> Callable[[Any], bool] | None:
    """``is_valid`` of a compiled validator for the schema ``name`` (the ``fast`` extra,
    ``jsonschema-rs``), built from the same schema :func:`validator` uses; None when the
    extra is not installed or cannot compile the schema."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    try:
        compiled = jsonschema_rs.Draft202012Validator(validator(name).schema)
    except Exception:  # a schema it cannot compile: jsonschema alone decides
        return None
    is_valid: Callable[[Any], bool] = compiled.is_valid
    return is_valid


def compiled_validator_available(name: str) -> bool:
    """Whether documents checked against ``name`` may take the compiled fast path."""
    return os.environ.get(FAST_PATH_VARIABLE) != "0" and _compiled(name) is not None


def compiled_says_valid(name: str, document: Any) -> bool:
    """True when the compiled validator is available and finds ``document`` valid
    against ``name`` (see :func:`first_violation` for when that may be trusted)."""
    if not compiled_validator_available(name):
        return False
    is_valid = _compiled(name)
    assert is_valid is not None  # available means compiled
    try:
        return is_valid(document)
    except Exception:  # a value it cannot read: jsonschema decides
        return False


def first_violation(
    name: str, document: Any, *, plain_json: bool = False, definition: str | None = None
) -> SchemaViolation | None:
    """The most relevant violation of schema ``name`` by ``document``, or None if valid.

    ``jsonschema`` is the authority and writes every message. ``plain_json`` says that
    ``document`` came from the JSON parser of :mod:`tajmahal.inputs` and holds no
    number but integers of at most 15 digits (:attr:`tajmahal.inputs.Parsed.plain_numbers`).
    Such a document is first shown to the compiled validator of the ``fast`` extra, when
    installed, and accepted at once if it finds it valid; anything else, valid or not,
    goes to ``jsonschema``. Only on such documents do the two agree on what is valid:
    the compiled validator counts ``4.0`` as an integer (this package does not, see
    ``_STRICT``), reads a tuple as an array, and so on. ``definition`` checks the
    document against that entry of the schema's ``$defs`` instead (see :func:`validator`).
    """
    if definition is None and plain_json and compiled_says_valid(name, document):
        return None
    error = jsonschema.exceptions.best_match(validator(name, definition).iter_errors(document))
    return None if error is None else _violation(error)


__all__ = [
    "FAST_PATH_VARIABLE",
    "SCHEMA_DIR_VARIABLE",
    "SchemaViolation",
    "compiled_says_valid",
    "compiled_validator_available",
    "field_path",
    "first_violation",
    "schema",
    "schema_dir",
    "schema_names",
    "validator",
    "violations",
]
