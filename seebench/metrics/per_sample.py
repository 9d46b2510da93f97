"""Per-sample scores written to the samples file (the aggregate metrics are computed over
the whole test set; these make error analysis possible)."""

from __future__ import annotations

from typing import Any


def sample_score(task_type: str, gold: Any, prediction: Any) -> float:
    """A score for one sample: exact match for classification, ``1 - |y-p| / ((|y|+|p|)/2)``
    for regression (SELU Eq. 2 per sample), the fraction of correct tags (NER) or masked
    words (MLM)."""
    if prediction is None:
        return 0.0
    if task_type == "regression":  # 1 - the sample's SMAPE term (SELU Eq. 2), in [-1, 1]
        denominator = (abs(gold) + abs(prediction)) / 2
        return 1.0 if denominator == 0 else 1.0 - abs(gold - prediction) / denominator
    if task_type == "multilabel":
        return float(set(gold) == set(prediction))
    if task_type in ("ner", "mlm") and isinstance(gold, list | tuple):
        if not gold:
            return 1.0
        pred = list(prediction) if isinstance(prediction, list | tuple) else [prediction]
        hits = sum(
            1 for i, g in enumerate(gold) if i < len(pred) and str(pred[i]).lower() == str(g).lower()
        )
        return hits / len(gold)
    return float(gold == prediction)
