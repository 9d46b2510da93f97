"""Metrics of a model rater on a ratings task (``golds`` are ratings targets, ``predictions``
the model's values, None where it gave no valid answer)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from seebench.suites.annotation.agreement import pair_alpha
from seebench.suites.annotation.scale import Scale


def _scale_level(golds: Sequence[Any], level: str | None) -> tuple[Scale, str]:
    scale = Scale.from_config(list(golds[0]["scale"]))
    return scale, level or golds[0]["level"]


def alpha_human_model(
    golds: Sequence[Any], predictions: Sequence[Any], *, level: str | None = None
) -> float:
    """Mean over human raters of Krippendorff's alpha between that rater and the model, on the
    items both rated (at the task's declared level unless ``level`` is given); NaN if undefined."""
    if not golds:
        return float("nan")
    scale, level = _scale_level(golds, level)
    raters = sorted({r for gold in golds for r in gold["ratings"]})
    model = np.array([np.nan if p is None else scale.numeric(p) for p in predictions], dtype=float)
    domain = scale.domain()
    values = []
    for rater in raters:
        human = np.array(
            [
                scale.numeric(g["ratings"][rater]) if rater in g["ratings"] else np.nan
                for g in golds
            ],
            dtype=float,
        )
        value = pair_alpha(human, model, level, domain)
        if value is not None:
            values.append(value)
    return float(np.mean(values)) if values else float("nan")


def majority_agreement(golds: Sequence[Any], predictions: Sequence[Any]) -> float:
    """Share of the items with a strict human majority where the model gave that answer."""
    hits = total = 0
    for gold, prediction in zip(golds, predictions, strict=True):
        given = list(gold["ratings"].values())
        if not given:
            continue
        value, count = Counter(given).most_common(1)[0]
        if count * 2 <= len(given):
            continue
        total += 1
        hits += prediction == value
    return hits / total if total else float("nan")
