"""Krippendorff's alpha over all raters of a task at once (the annotation paper's ``ALL`` rows).

The pairwise analysis (:mod:`.agreement`) computes alpha for each pair of raters on the items
both rated; the paper's per-pair table also has, per task, one row over all raters together:
one reliability-data matrix (raters x items, a missing value where a rater did not rate an
item), every pairable value counted. This module computes that value for the human raters at
each admissible level of measurement.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from seebench.suites.annotation.agreement import rating_matrix
from seebench.suites.annotation.ratings import HUMAN, RatingData
from seebench.suites.annotation.scale import admissible_levels

if TYPE_CHECKING:
    from seebench.suites.annotation.scale import Level


def all_raters_alpha(data: RatingData, level: str, kind: str = HUMAN) -> float | None:
    """Alpha over every rater of ``kind`` at ``level``; ``None`` when undefined (no item with
    two ratings, or no variation)."""
    import krippendorff

    matrix = rating_matrix(data, data.raters_of(kind))
    pairable = (~np.isnan(matrix)).sum(axis=0) >= 2
    if not pairable.any():
        return None
    values = matrix[:, pairable]
    if np.unique(values[~np.isnan(values)]).size < 2:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        value = float(
            krippendorff.alpha(
                values,
                value_domain=list(data.scale.domain()),
                level_of_measurement=cast("Level", level),
            )
        )
    return None if np.isnan(value) else value


def all_raters_table(data: RatingData) -> dict[str, Any]:
    """``{"raters": n, "items": pairable items, "alpha": {level: value}}`` over the humans."""
    humans = data.raters_of(HUMAN)
    matrix = rating_matrix(data, humans)
    return {
        "raters": len(humans),
        "items": int(((~np.isnan(matrix)).sum(axis=0) >= 2).sum()),
        "alpha": {level: all_raters_alpha(data, level) for level in admissible_levels(data.level)},
    }
