"""Token-level metrics: entity F1 for NER (seqeval) and masked-token accuracy for MLM."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def entity_f1_micro(
    golds: Sequence[Sequence[str]], predictions: Sequence[Sequence[str] | None], labels: Any = None
) -> float:
    """Entity-level micro F1 over BIO tag sequences (seqeval, CoNLL evaluation).

    A missing prediction or one of the wrong length counts as all ``O``.
    """
    from seqeval.metrics import f1_score

    fixed = []
    for gold, pred in zip(golds, predictions, strict=True):
        fixed.append(
            list(pred) if pred is not None and len(pred) == len(gold) else ["O"] * len(gold)
        )
    return float(f1_score([list(g) for g in golds], fixed, average="micro", zero_division=0))


def masked_accuracy(
    golds: Sequence[Sequence[str]], predictions: Sequence[Sequence[str] | None], labels: Any = None
) -> float:
    """Fraction of masked tokens predicted exactly (case-insensitive), over all masks."""
    total = correct = 0
    for gold, pred in zip(golds, predictions, strict=True):
        gold_list = [gold] if isinstance(gold, str) else list(gold)
        pred_list = [pred] if isinstance(pred, str) else list(pred or [])
        for index, token in enumerate(gold_list):
            total += 1
            if (
                index < len(pred_list)
                and str(pred_list[index]).strip().lower() == str(token).strip().lower()
            ):
                correct += 1
    return correct / total if total else 0.0
