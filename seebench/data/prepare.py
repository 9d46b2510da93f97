"""Built-in preparation steps: small, composable row transformations named in task YAML.

Each step is ``step(rows, **options) -> rows`` and is registered with a JSON Schema for its
options, so ``seebench tasks validate`` catches a misspelt option.
"""

from __future__ import annotations

import math
import string
from typing import Any

Rows = list[dict[str, Any]]


def _is_missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or value == ""


def select(rows: Rows, *, columns: dict[str, str]) -> Rows:
    """Keep and rename columns: ``columns: {new_name: old_name}``."""
    out = []
    for row in rows:
        missing = [old for old in columns.values() if old not in row]
        if missing:
            raise KeyError(f"column {missing[0]!r} not found; columns are {sorted(row)}")
        new = {new: row[old] for new, old in columns.items()}
        for meta in ("_source", "_split"):
            if meta in row:
                new[meta] = row[meta]
        out.append(new)
    return out


def template(rows: Rows, *, column: str, format: str) -> Rows:
    """Build ``column`` from a format string over the row, e.g. ``"{title}. {description}"``.

    Missing values format as empty strings; surrounding whitespace is stripped.
    """
    fields = [name for _, name, _, _ in string.Formatter().parse(format) if name]
    for row in rows:
        values = {name: "" if _is_missing(row.get(name)) else row.get(name) for name in fields}
        row[column] = format.format(**values).strip()
    return rows


def drop_missing(rows: Rows, *, columns: list[str]) -> Rows:
    """Drop rows where any of ``columns`` is missing or empty."""
    return [row for row in rows if not any(_is_missing(row.get(c)) for c in columns)]


def map_values(rows: Rows, *, column: str, mapping: dict[str, Any], strict: bool = True) -> Rows:
    """Replace values of ``column`` by ``mapping`` (keys compared as strings).

    With ``strict`` an unmapped value is an error; otherwise it is kept.
    """
    table = {str(k): v for k, v in mapping.items()}
    for row in rows:
        key = _as_key(row.get(column))
        if key in table:
            row[column] = table[key]
        elif strict:
            raise ValueError(f"value {row.get(column)!r} of column {column!r} has no mapping")
    return rows


def _as_key(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def filter_rows(
    rows: Rows, *, column: str, keep: list[Any] | None = None, drop: list[Any] | None = None
) -> Rows:
    """Keep rows whose ``column`` is in ``keep`` and/or not in ``drop`` (compared as strings)."""
    keep_set = {str(v) for v in keep} if keep is not None else None
    drop_set = {str(v) for v in drop or []}
    out = []
    for row in rows:
        key = _as_key(row.get(column))
        if (keep_set is None or key in keep_set) and key not in drop_set:
            out.append(row)
    return out


def columns_to_labels(
    rows: Rows,
    *,
    columns: dict[str, str],
    column: str = "target",
    positive: list[Any] | None = None,
) -> Rows:
    """Multi-label target from indicator columns: ``columns: {label_name: column_name}``.

    A label is set when its column's value is in ``positive`` (default 1/true/yes).
    """
    positives = {str(v).lower() for v in (positive or [1, "1", "1.0", True, "true", "yes"])}
    for row in rows:
        row[column] = [
            label for label, col in columns.items() if _as_key(row.get(col)).lower() in positives
        ]
    return rows


def to_number(rows: Rows, *, column: str) -> Rows:
    """Convert ``column`` to float; rows where it is not a number are an error."""
    for row in rows:
        try:
            row[column] = float(row[column])
        except (TypeError, ValueError):
            raise ValueError(
                f"value {row.get(column)!r} of column {column!r} is not a number"
            ) from None
    return rows


def deduplicate(rows: Rows, *, columns: list[str]) -> Rows:
    """Drop later rows that repeat the values of ``columns``."""
    seen: set[tuple[str, ...]] = set()
    out = []
    for row in rows:
        key = tuple(repr(row.get(c)) for c in columns)
        if key not in seen:
            seen.add(key)
            out.append(row)
    return out


STEP_SCHEMAS: dict[str, dict[str, Any]] = {
    "select": {
        "type": "object",
        "additionalProperties": False,
        "required": ["columns"],
        "properties": {"columns": {"type": "object", "additionalProperties": {"type": "string"}}},
    },
    "template": {
        "type": "object",
        "additionalProperties": False,
        "required": ["column", "format"],
        "properties": {"column": {"type": "string"}, "format": {"type": "string"}},
    },
    "drop_missing": {
        "type": "object",
        "additionalProperties": False,
        "required": ["columns"],
        "properties": {"columns": {"type": "array", "items": {"type": "string"}}},
    },
    "map_values": {
        "type": "object",
        "additionalProperties": False,
        "required": ["column", "mapping"],
        "properties": {
            "column": {"type": "string"},
            "mapping": {"type": "object"},
            "strict": {"type": "boolean"},
        },
    },
    "filter_rows": {
        "type": "object",
        "additionalProperties": False,
        "required": ["column"],
        "properties": {
            "column": {"type": "string"},
            "keep": {"type": "array"},
            "drop": {"type": "array"},
        },
    },
    "columns_to_labels": {
        "type": "object",
        "additionalProperties": False,
        "required": ["columns"],
        "properties": {
            "columns": {"type": "object", "additionalProperties": {"type": "string"}},
            "column": {"type": "string"},
            "positive": {"type": "array"},
        },
    },
    "to_number": {
        "type": "object",
        "additionalProperties": False,
        "required": ["column"],
        "properties": {"column": {"type": "string"}},
    },
    "deduplicate": {
        "type": "object",
        "additionalProperties": False,
        "required": ["columns"],
        "properties": {"columns": {"type": "array", "items": {"type": "string"}}},
    },
}

STEPS = {
    "select": select,
    "template": template,
    "drop_missing": drop_missing,
    "map_values": map_values,
    "filter_rows": filter_rows,
    "columns_to_labels": columns_to_labels,
    "to_number": to_number,
    "deduplicate": deduplicate,
}
