"""Ratings as seebench rows and back: one row per item, the target carrying scale and level.

The data step :func:`ratings_rows` turns the rows of a task's sources (tagged with
``_source``) into one row per item::

    {"input": {"id": "27798254/reference", "fields": {"summary": "..."}},
     "target": {"ratings": {"1": 4, "6": 3}, "scale": [{"value": 1, "label": "..."}, ...],
                "level": "interval"}}

so every sample states its own scale and level of measurement. :func:`check_target` validates
such a target; :func:`data_from_samples` rebuilds :class:`RatingData` from samples.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from seebench.data.dataset import DataError
from seebench.suites.annotation.layouts import ratings_from_sources
from seebench.suites.annotation.ratings import (
    RatingData,
    RatingItem,
    RawRating,
    assemble,
    sample_items,
)
from seebench.suites.annotation.scale import Scale, check_level


def ratings_rows(
    rows: Sequence[Mapping[str, Any]],
    *,
    layout: str,
    level: str,
    scale: list[Any],
    options: Mapping[str, Any] | None = None,
    source: str | None = None,
    sample: Mapping[str, int] | None = None,
) -> list[dict[str, Any]]:
    """Data step: source rows (``_source`` = source name) to one row per item."""
    try:
        parsed_scale = Scale.from_config(scale)
        check_level(level)
    except ValueError as exc:
        raise DataError(str(exc)) from None
    by_source: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        by_source.setdefault(str(row.get("_source", "data")), []).append(row)
    data = ratings_from_sources(
        layout, by_source, parsed_scale, level, source=source, options=options
    )
    if sample:
        data = sample_items(
            data,
            int(sample["size"]),
            seed=int(sample["seed"]),
            min_ratings=int(sample.get("min_ratings", 2)),
        )
    return data_to_rows(data)


def data_to_rows(data: RatingData) -> list[dict[str, Any]]:
    """One ``{input, target, problems}`` row per item of ``data`` (human raters only)."""
    scale = data.scale.to_config()
    rows = []
    for index, item in enumerate(data.items):
        ratings = {r: data.ratings[r][item.id] for r in data.raters if item.id in data.ratings[r]}
        row = {
            "input": {"id": item.id, "fields": dict(item.fields)},
            "target": {"ratings": ratings, "scale": scale, "level": data.level},
        }
        if index == 0 and data.problems:
            row["problems"] = list(data.problems)
        rows.append(row)
    return rows


def check_target(value: Any) -> dict[str, Any]:
    """A ratings target in canonical form; DataError with one line if it is malformed."""
    if not isinstance(value, Mapping) or not {"ratings", "scale", "level"} <= set(value):
        raise DataError(f"a ratings target needs keys ratings, scale and level, got {value!r:.80}")
    try:
        scale = Scale.from_config(list(value["scale"]))
        scale.check_level(value["level"])
    except (TypeError, ValueError) as exc:
        raise DataError(f"ratings target: {exc}") from None
    if not isinstance(value["ratings"], Mapping):
        raise DataError("ratings target: 'ratings' must map rater ids to values")
    ratings = {}
    for rater, raw in value["ratings"].items():
        try:
            parsed = scale.parse(raw)
        except ValueError as exc:
            raise DataError(f"ratings target, rater {rater!r}: {exc}") from None
        if parsed is not None:
            ratings[str(rater)] = parsed
    return {"ratings": ratings, "scale": scale.to_config(), "level": value["level"]}


def data_from_samples(samples: Iterable[Any]) -> RatingData:
    """:class:`RatingData` from samples with ``input = {id, fields}`` and a ratings target.

    All samples must share one scale and level (a task has one).
    """
    items, raw = [], []
    scale_config, level = None, None
    for sample in samples:
        target = check_target(sample.target)
        if scale_config is None:
            scale_config, level = target["scale"], target["level"]
        elif (target["scale"], target["level"]) != (scale_config, level):
            raise DataError(
                f"sample {sample.id!r}: scale or level differs from the task's other samples"
            )
        item_id = (
            str(sample.input.get("id", sample.id))
            if isinstance(sample.input, Mapping)
            else str(sample.id)
        )
        fields = (
            dict(sample.input.get("fields", {}))
            if isinstance(sample.input, Mapping)
            else {"text": sample.input}
        )
        items.append(RatingItem(item_id, fields))
        raw += [
            RawRating(item_id, r, v, f"sample {sample.id}") for r, v in target["ratings"].items()
        ]
    if scale_config is None or level is None:
        raise DataError("no samples")
    return assemble(items, raw, Scale.from_config(scale_config), level)


def data_from_records(records: Iterable[Mapping[str, Any]]) -> RatingData:
    """:class:`RatingData` from samples-file records (``id`` and a ratings ``gold``); items are
    named by sample id. All records must share one scale and level."""
    items, raw = [], []
    scale_config, level = None, None
    for record in records:
        target = check_target(record["gold"])
        if scale_config is None:
            scale_config, level = target["scale"], target["level"]
        elif (target["scale"], target["level"]) != (scale_config, level):
            raise DataError(
                f"record {record['id']!r}: scale or level differs from the other records"
            )
        items.append(RatingItem(str(record["id"]), {}))
        raw += [
            RawRating(str(record["id"]), r, v, f"record {record['id']}")
            for r, v in target["ratings"].items()
        ]
    if scale_config is None or level is None:
        raise DataError("no records")
    return assemble(items, raw, Scale.from_config(scale_config), level)
