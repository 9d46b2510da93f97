"""Classification metrics (single- and multi-label) built on scikit-learn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def _is_multilabel(golds: Sequence[Any]) -> bool:
    return bool(golds) and all(isinstance(g, list | tuple | set) for g in golds)


def _binarise(golds: Sequence[Any], predictions: Sequence[Any], labels: Sequence[str] | None):
    from sklearn.preprocessing import MultiLabelBinarizer

    classes = list(labels) if labels else sorted({x for row in (*golds, *predictions) for x in (row or [])})
    binariser = MultiLabelBinarizer(classes=classes)
    binariser.fit([classes])
    # predictions may hold None (invalid answers): treated as the empty label set
    return binariser.transform([list(g) for g in golds]), binariser.transform([list(p or []) for p in predictions])


def _f1(golds, predictions, average: str, labels: Sequence[str] | None) -> float:
    from sklearn.metrics import f1_score

    if _is_multilabel(golds):
        y_true, y_pred = _binarise(golds, predictions, labels)
        return float(f1_score(y_true, y_pred, average=average, zero_division=0))
    # an invalid (None) prediction is wrong: map it to a value no gold has
    preds = ["\x00invalid" if p is None else p for p in predictions]
    label_list = list(labels) if labels else None
    return float(f1_score(list(golds), preds, average=average, labels=label_list, zero_division=0))


def f1_macro(golds: Sequence[Any], predictions: Sequence[Any], labels: Sequence[str] | None = None) -> float:
    """Unweighted mean of per-class F1 (per-label F1 for multi-label tasks).

    ``labels`` fixes the classes averaged over (default: those seen in golds and predictions).
    """
    return _f1(golds, predictions, "macro", labels)


def f1_micro(golds: Sequence[Any], predictions: Sequence[Any], labels: Sequence[str] | None = None) -> float:
    """F1 over all decisions pooled (equals accuracy for single-label tasks over all classes)."""
    return _f1(golds, predictions, "micro", labels)


def accuracy(golds: Sequence[Any], predictions: Sequence[Any], labels: Sequence[str] | None = None) -> float:
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
