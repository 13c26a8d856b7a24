"""Where two JSON documents differ, leaf by leaf: the record's public position against the
reference's, or two engines' position documents.

:func:`json_differences` lists every :class:`Difference` (a path, both values and
whether a side lacks the field); the explanations of :mod:`tajmahal.verification` lead
with them, so that "the digests differ" becomes "this field differs". The names are
imported from :mod:`tajmahal.verification`.
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen(slots=True)
class Difference:
    """One place where two JSON documents differ."""

    path: str
    """The field path (``seats[2].score``)."""
    expected: Any
    """The value in the first document (absent: None): the record's in a
    :class:`~tajmahal.verification.FileReport`, the reference's in an
    :class:`~tajmahal.verification.Explanation`."""
    actual: Any
    """The value in the second document (absent: None): the reference's in a
    :class:`~tajmahal.verification.FileReport`, the other side's (found) in an
    :class:`~tajmahal.verification.Explanation`."""
    kind: str = "changed"
    """``changed``, or ``missing`` (only ``expected`` has the field) or ``unexpected``
    (only ``actual`` has it): what None alone cannot tell apart from a null value."""


def json_differences(expected: Any, actual: Any, path: str = "") -> list[Difference]:
    """Every leaf path where two JSON values differ (lists compared item by item)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        found: list[Difference] = []
        for key in sorted(set(expected) | set(actual)):
            where = f"{path}.{key}" if path else key
            if key not in expected:
                found.append(Difference(where, None, actual[key], "unexpected"))
            elif key not in actual:
                found.append(Difference(where, expected[key], None, "missing"))
            else:
                found.extend(json_differences(expected[key], actual[key], where))
        return found
    if (
        isinstance(expected, list)
        and isinstance(actual, list)
        and len(expected) == len(actual)
        and any(isinstance(item, dict | list) for item in expected)
    ):
        found = []
        for index, (left, right) in enumerate(zip(expected, actual, strict=True)):
            found.extend(json_differences(left, right, f"{path}[{index}]"))
        return found
    return [] if expected == actual else [Difference(path or "(root)", expected, actual)]


# Every name here is documented under tajmahal.verification, which users import it from.
__all__: list[str] = []
