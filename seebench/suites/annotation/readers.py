"""Readers for the five layouts in which multi-rater data are published.

Each reader returns :class:`~.ratings.RatingData`; a bad file, a missing column or a value off
the scale raises :class:`~seebench.data.dataset.DataError` with one line naming the file, the
row and the column. The scale and the level of measurement are arguments: no reader guesses them.

- :func:`read_long`: one row per (item, rater) (code summarization, ``final_megafile.csv``).
- :func:`read_wide_form`: one row per rater, one column per item, as a survey tool exports it
  (name-value consistency: the item is described in the column header).
- :func:`read_sparse_wide`: one row per item, one column per rater, empty = not rated (causality).
- :func:`read_rater_slots`: JSON items with a fixed list of rater slots, ``-1`` = not rated
  (SeSaMe).
- :func:`read_joined`: one file per rater and group, joined on an item key (static-analysis
  warnings).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from seebench.data.dataset import DataError
from seebench.suites.annotation.ratings import RatingData, RatingItem, RawRating, assemble
from seebench.suites.annotation.scale import Scale

FieldSpec = Sequence[str] | Mapping[str, str] | None


def _field_map(fields: FieldSpec) -> dict[str, str]:
    """Normalise ``fields`` to {name shown to the rater: source column}."""
    if fields is None:
        return {}
    if isinstance(fields, Mapping):
        return dict(fields)
    return {name: name for name in fields}


def _is_empty(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _key_text(value: Any) -> str:
    """An id cell as text: 17, 17.0 and "17" all give "17"."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _plain(value: Any) -> Any:
    """A cell as a JSON-friendly Python value (numpy scalars unwrapped, NaN as None)."""
    if hasattr(value, "item"):
        value = value.item()
    return None if _is_empty(value) else value


def _read_table(path: Path) -> Any:
    import pandas as pd

    try:
        return pd.read_csv(path)
    except FileNotFoundError:
        raise DataError(f"{path}: file not found") from None
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DataError(f"{path}: not a readable CSV file ({first})") from None


def _require_columns(path: Path, frame: Any, columns: Sequence[str]) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        found = ", ".join(map(repr, list(frame.columns)[:12]))
        raise DataError(f"{path.name}: column {missing[0]!r} not found (columns: {found})")


def read_long(
    path: Path,
    scale: Scale,
    level: str,
    *,
    item: Sequence[str],
    rater: str,
    rating: str,
    fields: FieldSpec = None,
) -> RatingData:
    """One row per (item, rater); ``item`` lists the columns that together identify an item."""
    path = Path(path)
    frame = _read_table(path)
    shown = _field_map(fields)
    _require_columns(path, frame, [*item, rater, rating, *shown.values()])
    items: dict[str, RatingItem] = {}
    raw = []
    for number, row in enumerate(frame.to_dict(orient="records"), 1):
        for column in (*item, rater):
            if _is_empty(row[column]):
                raise DataError(f"{path.name} row {number} column {column!r}: empty")
        item_id = "/".join(_key_text(row[c]) for c in item)
        if item_id not in items:
            items[item_id] = RatingItem(item_id, {k: _plain(row[c]) for k, c in shown.items()})
        where = f"{path.name} row {number} column {rating!r}"
        raw.append(RawRating(item_id, _key_text(row[rater]), _plain(row[rating]), where))
    return assemble(items.values(), raw, scale, level)


_HEADER_LINE = re.compile(r"^\s*([A-Za-z][\w ]{0,30}):\s*(.*)$")


def _header_fields(header: str) -> dict[str, str]:
    """``"Name: x\\nValue: 1"`` -> ``{"name": "x", "value": "1"}``; other text -> {"question": ...}."""
    fields = {}
    for line in header.splitlines():
        match = _HEADER_LINE.match(line)
        if not match:
            return {"question": header}
        fields[match.group(1).strip().lower().replace(" ", "_")] = match.group(2).strip()
    return fields or {"question": header}


def read_wide_form(
    path: Path,
    scale: Scale,
    level: str,
    *,
    rater: str,
    ignore: Sequence[str] = (),
    id_prefix: str = "q",
) -> RatingData:
    """One row per rater (a survey export), every other column an item described by its header.

    Items are numbered in column order (``q01``, ``q02``...); a header made of ``Key: value``
    lines becomes the item's fields, any other header its ``question`` field.
    """
    path = Path(path)
    frame = _read_table(path)
    _require_columns(path, frame, [rater, *ignore])
    columns = [c for c in frame.columns if c != rater and c not in ignore]
    if not columns:
        raise DataError(f"{path.name}: no item columns besides {rater!r}")
    width = max(2, len(str(len(columns))))
    ids = {c: f"{id_prefix}{n:0{width}d}" for n, c in enumerate(columns, 1)}
    items = [RatingItem(ids[c], _header_fields(str(c))) for c in columns]
    raw = []
    for number, row in enumerate(frame.to_dict(orient="records"), 1):
        if _is_empty(row[rater]):
            raise DataError(f"{path.name} row {number} column {rater!r}: empty rater id")
        who = _key_text(row[rater])
        for column in columns:
            where = f"{path.name} row {number} column {ids[column]} ({str(column)[:40]!r})"
            raw.append(RawRating(ids[column], who, _plain(row[column]), where))
    return assemble(items, raw, scale, level)


def read_sparse_wide(
    path: Path,
    scale: Scale,
    level: str,
    *,
    raters: Sequence[str],
    fields: FieldSpec = None,
    id_column: str | None = None,
    id_prefix: str = "s",
) -> RatingData:
    """One row per item, one column per rater in ``raters``; an empty cell means not rated.

    Without ``id_column`` an item's id is its row number (stable because sources are checksummed).
    """
    path = Path(path)
    frame = _read_table(path)
    shown = _field_map(fields)
    _require_columns(path, frame, [*raters, *shown.values(), *([id_column] if id_column else [])])
    width = len(str(len(frame)))
    items, raw = [], []
    for number, row in enumerate(frame.to_dict(orient="records"), 1):
        if id_column:
            if _is_empty(row[id_column]):
                raise DataError(f"{path.name} row {number} column {id_column!r}: empty id")
            item_id = _key_text(row[id_column])
        else:
            item_id = f"{id_prefix}{number:0{width}d}"
        items.append(RatingItem(item_id, {k: _plain(row[c]) for k, c in shown.items()}))
        for who in raters:
            raw.append(
                RawRating(
                    item_id, who, _plain(row[who]), f"{path.name} row {number} column {who!r}"
                )
            )
    return assemble(items, raw, scale, level)


def _dig(record: Any, dotted: str) -> Any:
    value = record
    for part in dotted.split("."):
        if not isinstance(value, Mapping) or part not in value:
            raise KeyError(dotted)
        value = value[part]
    return value


def read_rater_slots(
    path: Path,
    scale: Scale,
    level: str,
    *,
    criterion: str,
    id_key: str,
    rating_key: str = "rating",
    missing: Any = -1,
    fields: FieldSpec = None,
    rater_prefix: str = "r",
) -> RatingData:
    """A JSON list of items, each with a list of rater slots under ``criterion``.

    Slot *k* belongs to rater ``r<k+1>`` in every item; a slot whose ``rating_key`` equals
    ``missing`` was not rated. ``fields`` are dotted paths (``first.method``).
    """
    path = Path(path)
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(f"{path}: file not found") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"{path.name}: not valid JSON ({exc})") from None
    if not isinstance(records, list):
        raise DataError(f"{path.name}: expected a JSON list of items, got {type(records).__name__}")
    shown = _field_map(fields)
    items, raw = [], []
    for number, record in enumerate(records, 1):
        where = f"{path.name} item {number}"
        try:
            item_id = _key_text(_dig(record, id_key))
            slots = _dig(record, criterion)
            values = {k: _dig(record, dotted) for k, dotted in shown.items()}
        except KeyError as exc:
            raise DataError(f"{where}: key {exc.args[0]!r} missing") from None
        if not isinstance(slots, list):
            raise DataError(f"{where} key {criterion!r}: expected a list of rater slots")
        items.append(RatingItem(item_id, values))
        for slot, entry in enumerate(slots):
            if not isinstance(entry, Mapping) or rating_key not in entry:
                raise DataError(f"{where} {criterion}[{slot}]: key {rating_key!r} missing")
            value = entry[rating_key]
            if value == missing:
                continue
            raw.append(
                RawRating(
                    item_id,
                    f"{rater_prefix}{slot + 1}",
                    value,
                    f"{where} {criterion}[{slot}].{rating_key}",
                )
            )
    return assemble(items, raw, scale, level)


def read_joined(
    groups: Mapping[str, Mapping[str, Path]],
    scale: Scale,
    level: str,
    *,
    key: str,
    rating: str,
    fields: FieldSpec = None,
) -> RatingData:
    """One file per (group, rater), joined on the ``key`` column within each group.

    ``groups`` maps a group name (a warning category) to {rater id: file}. An item's id is
    ``<group>:<key>``; its fields come from the first file that holds it. A file listing the
    same key twice with the same label counts once; with different labels it is an error.
    """
    shown = _field_map(fields)
    items: dict[str, RatingItem] = {}
    raw = []
    for group, files in groups.items():
        for who, file in files.items():
            path = Path(file)
            frame = _read_table(path)
            _require_columns(path, frame, [key, rating, *shown.values()])
            for number, row in enumerate(frame.to_dict(orient="records"), 1):
                if _is_empty(row[key]):
                    raise DataError(f"{path.name} row {number} column {key!r}: empty key")
                item_id = f"{group}:{_key_text(row[key])}"
                if item_id not in items:
                    values = {"group": group, **{k: _plain(row[c]) for k, c in shown.items()}}
                    items[item_id] = RatingItem(item_id, values)
                where = f"{path.name} row {number} column {rating!r}"
                raw.append(RawRating(item_id, who, _plain(row[rating]), where))
    return assemble(items.values(), raw, scale, level)
