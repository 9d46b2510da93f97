"""Regression metrics. SELU reports 1 - SMAPE (Eq. 2 of the SELU paper). Vectorised with numpy
(bootstrap intervals call them a thousand times per unit)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def _arrays(
    golds: Sequence[float], predictions: Sequence[float | None]
) -> tuple[np.ndarray, np.ndarray]:
    if len(golds) != len(predictions):
        raise ValueError(f"{len(golds)} golds but {len(predictions)} predictions")
    gold = np.asarray(golds, dtype=np.float64)
    pred = np.array([np.nan if p is None else p for p in predictions], dtype=np.float64)
    return gold, pred


def smape(
    golds: Sequence[float], predictions: Sequence[float | None], labels: object = None
) -> float:
    """Symmetric mean absolute percentage error as in Eq. 2 of the SELU paper:

    ``mean(|yhat - y| / ((|yhat| + |y|) / 2))``, a term being 0 when both are 0. Each term
    lies in [0, 2] (the paper's prose says 0 to 1, but its equation, which its published
    scores follow, divides by the mean of the two magnitudes). A missing (``None``) or
    non-finite prediction counts as the worst case, 2.
    """
    del labels
    if len(golds) == 0:
        return 0.0
    gold, pred = _arrays(golds, predictions)
    denominator = (np.abs(gold) + np.abs(pred)) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.abs(gold - pred) / denominator
    terms = np.where(denominator == 0, 0.0, terms)
    terms = np.where(np.isfinite(pred), terms, 2.0)
    return float(np.mean(terms))


def one_minus_smape(
    golds: Sequence[float], predictions: Sequence[float | None], labels: object = None
) -> float:
    """``1 - SMAPE`` (SELU's regression score): 1 for perfect predictions, at least -1."""
    return 1.0 - smape(golds, predictions)


def mae(
    golds: Sequence[float], predictions: Sequence[float | None], labels: object = None
) -> float:
    """Mean absolute error (missing predictions are skipped)."""
    gold, pred = _arrays(golds, predictions)
    keep = ~np.isnan(pred)
    return float(np.mean(np.abs(gold[keep] - pred[keep]))) if keep.any() else float("nan")
