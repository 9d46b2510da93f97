"""Regression metrics. SELU reports 1 - SMAPE (Eq. 2 of the SELU paper)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def smape(golds: Sequence[float], predictions: Sequence[float | None], labels: object = None) -> float:
    """Symmetric mean absolute percentage error as in Eq. 2 of the SELU paper:

    ``mean(|yhat - y| / ((|yhat| + |y|) / 2))``, a term being 0 when both are 0. Each term
    lies in [0, 2] (the paper's prose says 0 to 1, but its equation, which its published
    scores follow, divides by the mean of the two magnitudes). A missing (``None``)
    prediction counts as the worst case, 2.
    """
    del labels
    if len(golds) == 0:
        return 0.0
    terms = []
    for gold, pred in zip(golds, predictions, strict=True):
        if pred is None or not np.isfinite(pred):
            terms.append(2.0)
            continue
        denominator = (abs(gold) + abs(pred)) / 2
        terms.append(0.0 if denominator == 0 else abs(gold - pred) / denominator)
    return float(np.mean(terms))


def one_minus_smape(golds: Sequence[float], predictions: Sequence[float | None], labels: object = None) -> float:
    """``1 - SMAPE`` (SELU's regression score): 1 for perfect predictions, at least -1."""
    return 1.0 - smape(golds, predictions)


def mae(golds: Sequence[float], predictions: Sequence[float | None], labels: object = None) -> float:
    """Mean absolute error (missing predictions are skipped)."""
    pairs = [(g, p) for g, p in zip(golds, predictions, strict=True) if p is not None]
    return float(np.mean([abs(g - p) for g, p in pairs])) if pairs else float("nan")
