"""The example plugin's metric."""

from __future__ import annotations

from collections.abc import Sequence


def balanced_accuracy(
    golds: Sequence[str], predictions: Sequence[str | None], labels: Sequence[str] | None = None
) -> float:
    """Mean per-class recall; classes are ``labels`` or those present in ``golds``."""
    classes = list(labels) if labels else sorted(set(golds))
    recalls = []
    for label in classes:
        support = [p for g, p in zip(golds, predictions, strict=True) if g == label]
        if support:
            recalls.append(sum(p == label for p in support) / len(support))
    return sum(recalls) / len(recalls) if recalls else 0.0
