"""Numbers read back from results, score caches and comparison inputs must be numbers: finite,
in a sane range. A ``NaN`` metric, an ``Infinity`` or a ``1e400`` (which JSON reads as
infinity) makes the file untrusted, as does an integer too large for 64 bits."""

from __future__ import annotations

import math
from typing import Any

#: The largest magnitude of a float seebench trusts (no metric, count or time comes near).
MAX_FLOAT = 1e15
#: The largest magnitude of an integer seebench trusts.
MAX_INT = 2**63 - 1


def bad_number(value: Any, where: str = "") -> str | None:
    """The first number in ``value`` (walked recursively) that is not finite or not in range,
    as ``"<key path>: <value> is not ..."``; ``None`` when every number is sane."""
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, bool):
            continue
        if isinstance(item, float):
            if not math.isfinite(item):
                return f"{path or '<root>'}: {item!r} is not a finite number"
            if abs(item) > MAX_FLOAT:
                return f"{path or '<root>'}: {item!r} is out of range (|x| > {MAX_FLOAT:g})"
        elif isinstance(item, int):
            if abs(item) > MAX_INT:
                return f"{path or '<root>'}: an integer of {len(str(abs(item)))} digits is out of range"
        elif isinstance(item, dict):
            stack.extend((v, f"{path}.{k}" if path else str(k)) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(item))
    return None


def sane_number(value: Any) -> bool:
    """Whether ``value`` is an int or float (not a bool) that :func:`bad_number` accepts."""
    return (
        isinstance(value, int | float) and not isinstance(value, bool) and bad_number(value) is None
    )
