"""Agreement metrics of the judging tasks, over golds ``{"human", "input_group"[, "pair"]}``
and predictions (the judge's score or verdict; ``None`` = unscored, left out and counted by
``judge_unscored_rate``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from seebench.suites.judge.agreement import correlate_per_input, correlate_pooled
from seebench.suites.judge.comparison import compare_with_human


def _scored(golds: Sequence[dict], predictions: Sequence[Any]) -> tuple[list, list, list]:
    kept = [(g, float(p)) for g, p in zip(golds, predictions, strict=True) if p is not None]
    return (
        [p for _, p in kept],
        [g["human"] for g, _ in kept],
        [g["input_group"] for g, _ in kept],
    )


def _pooled(name: str, golds: Sequence[dict], predictions: Sequence[Any]) -> float:
    judge, human, _ = _scored(golds, predictions)
    return correlate_pooled(judge, human, [name])[name] if len(judge) > 1 else math.nan


def _per_input(name: str, golds: Sequence[dict], predictions: Sequence[Any]) -> float:
    judge, human, groups = _scored(golds, predictions)
    return correlate_per_input(judge, human, groups, [name])[name][0] if judge else math.nan


def judge_pearson(golds: Sequence[dict], predictions: Sequence[Any], **_: Any) -> float:
    """Pearson's r between judge and human scores, pooled over all scored items."""
    return _pooled("pearson", golds, predictions)


def judge_spearman(golds: Sequence[dict], predictions: Sequence[Any], **_: Any) -> float:
    """Spearman's rho between judge and human scores, pooled over all scored items."""
    return _pooled("spearman", golds, predictions)


def judge_kendall(golds: Sequence[dict], predictions: Sequence[Any], **_: Any) -> float:
    """Kendall's tau-b between judge and human scores, pooled over all scored items."""
    return _pooled("kendall", golds, predictions)


def judge_pearson_per_input(golds: Sequence[dict], predictions: Sequence[Any], **_: Any) -> float:
    """Pearson's r within each input's responses, averaged over inputs where it is defined."""
    return _per_input("pearson", golds, predictions)


def judge_spearman_per_input(golds: Sequence[dict], predictions: Sequence[Any], **_: Any) -> float:
    """Spearman's rho within each input's responses, averaged over inputs where it is defined."""
    return _per_input("spearman", golds, predictions)


def judge_kendall_per_input(golds: Sequence[dict], predictions: Sequence[Any], **_: Any) -> float:
    """Kendall's tau-b within each input's responses, averaged over inputs where defined."""
    return _per_input("kendall", golds, predictions)


def judge_unscored_rate(golds: Sequence[Any], predictions: Sequence[Any], **_: Any) -> float:
    """Share of judgments that are unscored (no readable score, or outside the scale)."""
    return sum(p is None for p in predictions) / len(predictions) if predictions else math.nan


def _comparison(golds: Sequence[dict], predictions: Sequence[Any]) -> Any:
    pairs = [(g["input_group"], *g["pair"]) for g in golds]
    human = [g["human"] for g in golds]
    return compare_with_human(list(predictions), human, pairs)


def preference_accuracy(golds: Sequence[dict], predictions: Sequence[Any], **_: Any) -> float:
    """Share of scored pairwise verdicts equal to the human preference (ties included)."""
    return _comparison(golds, predictions).accuracy


def preference_accuracy_without_ties(
    golds: Sequence[dict], predictions: Sequence[Any], **_: Any
) -> float:
    """Like ``preference_accuracy``, over the pairs the humans did not rate as a tie."""
    return _comparison(golds, predictions).accuracy_without_human_ties


def position_consistency(golds: Sequence[dict], predictions: Sequence[Any], **_: Any) -> float:
    """Share of pairs judged in both orders whose two verdicts are opposite (or both ties)."""
    return _comparison(golds, predictions).consistency_rate


def position_bias_rate(golds: Sequence[dict], predictions: Sequence[Any], **_: Any) -> float:
    """Share of pairs judged in both orders where the same position won both times."""
    return _comparison(golds, predictions).position_bias_rate
