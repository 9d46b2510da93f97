"""Classification metrics (single- and multi-label).

F1 follows scikit-learn's definition exactly (per label ``2·tp / (true + predicted)``, 0 when
a label is neither true nor predicted, ``zero_division=0``), computed from label counts so that
bootstrap intervals (a thousand metric calls per unit) stay cheap; a test checks equality with
``sklearn.metrics.f1_score`` on random data.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from seebench.scoring.ratio import resampled_by


def _is_multilabel(golds: Sequence[Any]) -> bool:
    return bool(golds) and all(isinstance(g, list | tuple | set) for g in golds)


def _counts(golds: Sequence[Any], predictions: Sequence[Any], labels: Sequence[Any] | None):
    """``(classes, tp, true, predicted)`` counts per class."""
    if _is_multilabel(golds):
        gold_sets = [set(g) for g in golds]
        pred_sets = [set(p or ()) for p in predictions]  # an invalid answer is the empty set
        classes = (
            list(labels) if labels else sorted({x for s in (*gold_sets, *pred_sets) for x in s})
        )
        true = Counter(x for s in gold_sets for x in s)
        pred = Counter(x for s in pred_sets for x in s)
        tp = Counter(x for g, p in zip(gold_sets, pred_sets, strict=True) for x in g & p)
        return classes, tp, true, pred
    # an invalid (None) prediction is wrong: it matches no gold and no listed label
    preds = ["\x00invalid" if p is None else p for p in predictions]
    classes = list(labels) if labels else sorted(set(golds) | set(preds))
    true, pred = Counter(golds), Counter(preds)
    tp = Counter(g for g, p in zip(golds, preds, strict=True) if g == p)
    return classes, tp, true, pred


def _f1(golds, predictions, average: str, labels: Sequence[str] | None) -> float:
    if len(golds) != len(predictions):
        raise ValueError(f"{len(golds)} golds but {len(predictions)} predictions")
    classes, tp, true, pred = _counts(golds, predictions, labels)
    if not classes:
        return 0.0
    if average == "micro":
        tps, trues, preds = (sum(c[x] for x in classes) for c in (tp, true, pred))
        denominator = float(trues) + float(preds)
        return 2.0 * tps / denominator if denominator else 0.0
    scores = np.array(
        [
            2.0 * tp[x] / (float(true[x]) + float(pred[x])) if true[x] + pred[x] else 0.0
            for x in classes
        ],
        dtype=np.float64,
    )
    return float(np.mean(scores))


#: a class of its own for an invalid (None) single-label prediction
_INVALID = "\x00invalid"


def _item_counts(golds: Sequence[Any], predictions: Sequence[Any], labels: Sequence[Any] | None):
    """``(classes, tp, true, predicted)`` per item: ``[items, classes]`` 0/1 arrays over the
    classes :func:`_counts` uses on all items (None when the labels repeat one)."""
    if _is_multilabel(golds):
        gold_sets = [set(g) for g in golds]
        pred_sets = [set(p or ()) for p in predictions]
        seen = {x for s in (*gold_sets, *pred_sets) for x in s}
    else:
        gold_sets = [{g} for g in golds]
        pred_sets = [{_INVALID if p is None else p} for p in predictions]
        seen = {*golds, *(x for s in pred_sets for x in s)}
    classes = list(labels) if labels else sorted(seen)
    index = {c: i for i, c in enumerate(classes)}
    if len(index) != len(classes):
        return None
    arrays = np.zeros((3, len(golds), len(classes)))
    for item, (gold, pred) in enumerate(zip(gold_sets, pred_sets, strict=True)):
        for row, members in enumerate((gold & pred, gold, pred)):
            for x in members:
                if x in index:
                    arrays[row, item, index[x]] = 1.0
    return classes, arrays[0], arrays[1], arrays[2]


def _f1_weighted(golds, predictions, weights: np.ndarray, average: str, labels) -> np.ndarray:
    """F1 of every weighted resample (the operations of :func:`_f1`, on count arrays)."""
    counted = _item_counts(golds, predictions, labels)
    if counted is None:
        raise ValueError("repeated labels")
    classes, tp, true, pred = (counted[0], *(weights @ a for a in counted[1:]))
    if not classes:
        return np.zeros(len(weights))
    if average == "micro":
        denominator = true.sum(axis=1) + pred.sum(axis=1)
        safe = np.where(denominator > 0, denominator, 1.0)
        return np.where(denominator > 0, 2.0 * tp.sum(axis=1) / safe, 0.0)
    denominator = true + pred
    safe = np.where(denominator > 0, denominator, 1.0)
    scores = np.where(denominator > 0, 2.0 * tp / safe, 0.0)
    # without fixed labels a resample averages over the classes it shows (as _counts does)
    shown = np.ones_like(scores, dtype=bool) if labels else denominator > 0
    return np.array([float(np.mean(row[keep])) for row, keep in zip(scores, shown, strict=True)])


def _f1_macro_weighted(golds, predictions, weights, labels=None) -> np.ndarray:
    return _f1_weighted(golds, predictions, weights, "macro", labels)


def _f1_micro_weighted(golds, predictions, weights, labels=None) -> np.ndarray:
    return _f1_weighted(golds, predictions, weights, "micro", labels)


def _accuracy_weighted(golds, predictions, weights, labels=None) -> np.ndarray:
    """Accuracy of every weighted resample: correct draws over the items drawn."""
    correct = np.array(
        [
            (pred is not None and set(gold) == set(pred))
            if isinstance(gold, list | tuple | set)
            else gold == pred
            for gold, pred in zip(golds, predictions, strict=True)
        ],
        dtype=float,
    )
    return (weights @ correct) / len(golds)


@resampled_by(_f1_macro_weighted)
def f1_macro(
    golds: Sequence[Any], predictions: Sequence[Any], labels: Sequence[str] | None = None
) -> float:
    """Unweighted mean of per-class F1 (per-label F1 for multi-label tasks).

    ``labels`` fixes the classes averaged over (default: those seen in golds and predictions).
    """
    return _f1(golds, predictions, "macro", labels)


@resampled_by(_f1_micro_weighted)
def f1_micro(
    golds: Sequence[Any], predictions: Sequence[Any], labels: Sequence[str] | None = None
) -> float:
    """F1 over all decisions pooled (equals accuracy for single-label tasks over all classes)."""
    return _f1(golds, predictions, "micro", labels)


@resampled_by(_accuracy_weighted)
def accuracy(
    golds: Sequence[Any], predictions: Sequence[Any], labels: Sequence[str] | None = None
) -> float:
    """Fraction of exactly correct predictions (exact label set for multi-label tasks)."""
    if not golds:
        return 0.0
    correct = 0
    for gold, pred in zip(golds, predictions, strict=True):
        if isinstance(gold, list | tuple | set):
            correct += pred is not None and set(gold) == set(pred)
        else:
            correct += gold == pred
    return correct / len(golds)
