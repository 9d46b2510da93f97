"""Ratio metrics: a ``scores`` metric declared as a ratio of per-score counts, so that its
bootstrap interval is computed from two arrays (:mod:`seebench.scoring.aggregate`). Kept apart
from the aggregate module so that declaring one imports nothing heavy."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from seebench.scoring.core import Score

#: the attribute that carries a metric's per-score counts
RATIO_ATTRIBUTE = "item_ratio"
#: the attribute that carries a predictions metric's weighted (vectorised) form
RESAMPLED_ATTRIBUTE = "resampled"


def item_ratio(per_score: Callable[[Score], tuple[float, float]]) -> Callable[[Any], Any]:
    """Declare a ``scores`` metric a ratio of per-score sums, for fast bootstrap intervals.

    ``per_score(score)`` gives the score's ``(numerator, denominator)`` contribution; the
    metric must equal ``sum(numerators) / sum(denominators)`` (NaN when the denominators sum
    to 0), as a rate over the scored samples does. The bootstrap then sums two arrays per
    draw instead of calling the metric on every resample. Declare it only where the
    contributions are whole numbers (counts): their sums are exact, so every resampled value is
    the one the metric itself gives. The full-data value is still the metric's own, and a
    metric whose declaration disagrees with it there is resampled the slow way.
    """

    def mark(func: Any) -> Any:
        setattr(func, RATIO_ATTRIBUTE, per_score)
        return func

    return mark


def resampled_by(weighted: Callable[..., Any]) -> Callable[[Any], Any]:
    """Declare the vectorised form of a predictions metric, for fast bootstrap intervals.

    ``weighted(golds, predictions, weights, **kwargs)`` gives, for a ``[resamples, items]``
    array of how often each item is drawn, the metric of every resample (an array of
    ``resamples`` values); ``kwargs`` are the metric's own (``labels`` and the task's metric
    options). It must give exactly what the metric gives on the resampled lists: build it from
    whole-number counts, as :mod:`seebench.scoring.metrics.classification` does. The full-data
    value is still the metric's own, and a metric whose weighted form disagrees with it there is
    resampled the slow way.
    """

    def mark(func: Any) -> Any:
        setattr(func, RESAMPLED_ATTRIBUTE, weighted)
        return func

    return mark


def ratio_of_counts(
    scores: Iterable[Score], per_score: Callable[[Score], tuple[int, int]]
) -> float:
    """``sum(numerators) / sum(denominators)`` of ``per_score`` over ``scores`` (NaN when
    nothing is counted): the value a metric declared with the same ``per_score`` must give."""
    passed = counted = 0
    for score in scores:
        numerator, denominator = per_score(score)
        passed += numerator
        counted += denominator
    return passed / counted if counted else math.nan
