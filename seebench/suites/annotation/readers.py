"""The five layouts in which multi-rater data are published, read into :class:`RatingData`.

Each layout function takes rows (dicts, as seebench's CSV/JSON readers return them) and the
source's name for messages; ``read_*`` wrappers read a file first. A missing column or a
value off the scale raises :class:`~seebench.data.dataset.DataError` with one line naming the
source, the row and the column. The scale and the level of measurement are arguments: nothing
here guesses them.

- ``long``: one row per (item, rater) (code summarization, ``final_megafile.csv``).
- ``wide_form``: one row per rater, one column per item, as a survey tool exports it
  (name-value consistency: the item is described in the column header).
- ``sparse_wide``: one row per item, one column per rater, empty = not rated (causality).
- ``rater_slots``: JSON items with a fixed list of rater slots, ``-1`` = not rated (SeSaMe).
- ``joined``: one source per rater and group, joined on an item key (static-analysis warnings).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.data.cache import TABLE_MAX_BYTES
from seebench.data.dataset import DataError
from seebench.suites.annotation.ratings import RatingData, RatingItem, RawRating, assemble
from seebench.suites.annotation.scale import Scale

Rows = Sequence[Mapping[str, Any]]
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


def _columns(rows: Rows) -> list[str]:
    columns: dict[str, None] = {}
    for row in rows[:50]:
        columns.update(dict.fromkeys(k for k in row if not str(k).startswith("_")))
    return list(columns)


def _require_columns(name: str, rows: Rows, columns: Sequence[str]) -> None:
    if not rows:
        return  # no rows, nothing to read (a header-only CSV file has no row to show its columns)
    present = _columns(rows)
    missing = [c for c in columns if c not in present]
    if missing:
        found = ", ".join(map(repr, present[:12]))
        raise DataError(f"{name}: column {missing[0]!r} not found (columns: {found})")


# -- files -----------------------------------------------------------------------------


def table_rows(path: Path) -> list[dict[str, Any]]:
    """A CSV file as row dicts (empty cells None); DataError naming the file if unreadable."""
    import pandas as pd

    try:
        safe_files.check_regular(path, TABLE_MAX_BYTES)  # a FIFO or device is refused
        frame = pd.read_csv(path)
    except FileNotFoundError:
        raise DataError(f"{path}: file not found") from None
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DataError(f"{path}: not a readable CSV file ({first})") from None
    return [{k: _plain(v) for k, v in row.items()} for row in frame.to_dict(orient="records")]


def json_rows(path: Path) -> list[dict[str, Any]]:
    """A JSON list of objects; DataError naming the file otherwise."""
    try:
        records = json.loads(safe_files.read_text(path))
    except FileNotFoundError:
        raise DataError(f"{path}: file not found") from None
    except safe_files.UnsafeFileError as exc:
        raise DataError(str(exc)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"{Path(path).name}: not valid JSON ({exc})") from None
    if not isinstance(records, list):
        raise DataError(
            f"{Path(path).name}: expected a JSON list of items, got {type(records).__name__}"
        )
    return records


# -- layouts ---------------------------------------------------------------------------


def long_layout(
    rows: Rows,
    scale: Scale,
    level: str,
    *,
    name: str,
    item: Sequence[str],
    rater: str,
    rating: str,
    fields: FieldSpec = None,
) -> RatingData:
    """One row per (item, rater); ``item`` lists the columns that together identify an item."""
    shown = _field_map(fields)
    _require_columns(name, rows, [*item, rater, rating, *shown.values()])
    items: dict[str, RatingItem] = {}
    raw = []
    for number, row in enumerate(rows, 1):
        for column in (*item, rater):
            if _is_empty(row.get(column)):
                raise DataError(f"{name} row {number} column {column!r}: empty")
        item_id = "/".join(_key_text(row[c]) for c in item)
        if item_id not in items:
            items[item_id] = RatingItem(item_id, {k: _plain(row.get(c)) for k, c in shown.items()})
        where = f"{name} row {number} column {rating!r}"
        raw.append(RawRating(item_id, _key_text(row[rater]), _plain(row.get(rating)), where))
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


def wide_form_layout(
    rows: Rows,
    scale: Scale,
    level: str,
    *,
    name: str,
    rater: str,
    ignore: Sequence[str] = (),
    id_prefix: str = "q",
) -> RatingData:
    """One row per rater (a survey export), every other column an item described by its header.

    Items are numbered in column order (``q01``, ``q02``...); a header made of ``Key: value``
    lines becomes the item's fields, any other header its ``question`` field.
    """
    _require_columns(name, rows, [rater, *ignore])
    columns = [c for c in _columns(rows) if c != rater and c not in ignore]
    if not columns:
        raise DataError(f"{name}: no item columns besides {rater!r}")
    width = max(2, len(str(len(columns))))
    ids = {c: f"{id_prefix}{n:0{width}d}" for n, c in enumerate(columns, 1)}
    items = [RatingItem(ids[c], _header_fields(str(c))) for c in columns]
    raw = []
    for number, row in enumerate(rows, 1):
        if _is_empty(row.get(rater)):
            raise DataError(f"{name} row {number} column {rater!r}: empty rater id")
        who = _key_text(row[rater])
        for column in columns:
            where = f"{name} row {number} column {ids[column]} ({str(column)[:40]!r})"
            raw.append(RawRating(ids[column], who, _plain(row.get(column)), where))
    return assemble(items, raw, scale, level)


def sparse_wide_layout(
    rows: Rows,
    scale: Scale,
    level: str,
    *,
    name: str,
    raters: Sequence[str],
    fields: FieldSpec = None,
    id_column: str | None = None,
    id_prefix: str = "s",
) -> RatingData:
    """One row per item, one column per rater in ``raters``; an empty cell means not rated.

    Without ``id_column`` an item's id is its row number (stable because sources are checksummed).
    """
    shown = _field_map(fields)
    _require_columns(name, rows, [*raters, *shown.values(), *([id_column] if id_column else [])])
    width = len(str(len(rows)))
    items, raw = [], []
    for number, row in enumerate(rows, 1):
        if id_column:
            if _is_empty(row.get(id_column)):
                raise DataError(f"{name} row {number} column {id_column!r}: empty id")
            item_id = _key_text(row[id_column])
        else:
            item_id = f"{id_prefix}{number:0{width}d}"
        items.append(RatingItem(item_id, {k: _plain(row.get(c)) for k, c in shown.items()}))
        for who in raters:
            where = f"{name} row {number} column {who!r}"
            raw.append(RawRating(item_id, who, _plain(row.get(who)), where))
    return assemble(items, raw, scale, level)


def _dig(record: Any, dotted: str) -> Any:
    value = record
    for part in dotted.split("."):
        if not isinstance(value, Mapping) or part not in value:
            raise KeyError(dotted)
        value = value[part]
    return value


def rater_slots_layout(
    rows: Rows,
    scale: Scale,
    level: str,
    *,
    name: str,
    criterion: str,
    id_key: str,
    rating_key: str = "rating",
    missing: Any = -1,
    fields: FieldSpec = None,
    rater_prefix: str = "r",
) -> RatingData:
    """Items (JSON objects), each with a list of rater slots under ``criterion``.

    Slot *k* belongs to rater ``r<k+1>`` in every item; a slot whose ``rating_key`` equals
    ``missing`` was not rated. ``fields`` are dotted paths (``first.method``).
    """
    shown = _field_map(fields)
    items, raw = [], []
    for number, record in enumerate(rows, 1):
        where = f"{name} item {number}"
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


def joined_layout(
    sources: Mapping[str, Rows],
    scale: Scale,
    level: str,
    *,
    groups: Mapping[str, Mapping[str, str]],
    key: str,
    rating: str,
    fields: FieldSpec = None,
) -> RatingData:
    """One source per (group, rater), joined on the ``key`` column within each group.

    ``sources`` maps source names to rows; ``groups`` maps a group name (a warning category) to
    {rater id: source name}. An item's id is ``<group>:<key>``; its fields come from the first
    source that holds it.
    """
    shown = _field_map(fields)
    items: dict[str, RatingItem] = {}
    raw = []
    for group, raters in groups.items():
        for who, source in raters.items():
            if source not in sources:
                known = ", ".join(sorted(sources)) or "none"
                raise DataError(
                    f"groups.{group}.{who}: no source named {source!r} (sources: {known})"
                )
            rows = sources[source]
            _require_columns(source, rows, [key, rating, *shown.values()])
            for number, row in enumerate(rows, 1):
                if _is_empty(row.get(key)):
                    raise DataError(f"{source} row {number} column {key!r}: empty key")
                item_id = f"{group}:{_key_text(row[key])}"
                if item_id not in items:
                    values = {"group": group, **{k: _plain(row.get(c)) for k, c in shown.items()}}
                    items[item_id] = RatingItem(item_id, values)
                where = f"{source} row {number} column {rating!r}"
                raw.append(RawRating(item_id, who, _plain(row.get(rating)), where))
    return assemble(items.values(), raw, scale, level)


# -- file wrappers ---------------------------------------------------------------------


def read_long(path: Path, scale: Scale, level: str, **options: Any) -> RatingData:
    """:func:`long_layout` on a CSV file."""
    return long_layout(table_rows(path), scale, level, name=Path(path).name, **options)


def read_wide_form(path: Path, scale: Scale, level: str, **options: Any) -> RatingData:
    """:func:`wide_form_layout` on a CSV file."""
    return wide_form_layout(table_rows(path), scale, level, name=Path(path).name, **options)


def read_sparse_wide(path: Path, scale: Scale, level: str, **options: Any) -> RatingData:
    """:func:`sparse_wide_layout` on a CSV file."""
    return sparse_wide_layout(table_rows(path), scale, level, name=Path(path).name, **options)


def read_rater_slots(path: Path, scale: Scale, level: str, **options: Any) -> RatingData:
    """:func:`rater_slots_layout` on a JSON file."""
    return rater_slots_layout(json_rows(path), scale, level, name=Path(path).name, **options)


def read_joined(
    files: Mapping[str, Mapping[str, Path]], scale: Scale, level: str, **options: Any
) -> RatingData:
    """:func:`joined_layout` on CSV files given as {group: {rater: file}} (sources named by file)."""
    sources: dict[str, list[dict[str, Any]]] = {}
    groups: dict[str, dict[str, str]] = {}
    for group, raters in files.items():
        for who, path in raters.items():
            sources[Path(path).name] = table_rows(Path(path))
            groups.setdefault(group, {})[who] = Path(path).name
    return joined_layout(sources, scale, level, groups=groups, **options)
