"""The aggregate level: metrics over a test set, with seeded bootstrap intervals and pass@k."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from seebench.errors import SeebenchError
from seebench.registry import MetricEntry, Registry
from seebench.scoring.core import TYPE_SCORER, Score
from seebench.tasks.spec import TaskSpec

DEFAULT_BOOTSTRAP = 1000


@dataclass
class UnitScores:
    """Everything metrics need for one unit: per repeat, the golds, predictions and scores.

    ``predictions[r][i]`` is repeat ``r``'s prediction for test item ``i``; ``scores[name][r][i]``
    the :class:`Score` that scorer ``name`` gave it.
    """

    golds: list[Any]
    predictions: list[list[Any]]
    scores: dict[str, list[list[Score]]]
    labels: list[str] | None = None

    @property
    def n_items(self) -> int:
        return len(self.golds)

    @property
    def repeats(self) -> int:
        return len(self.predictions)


def _call_metric(entry: MetricEntry, func: Any, task: TaskSpec, data: UnitScores, items: np.ndarray,
                 repeat: int, primary_scorer: str) -> float:
    options = task.metric_options(entry.name)
    if entry.inputs == "scores":
        scorer = entry.scorer or primary_scorer
        if scorer not in data.scores:
            raise SeebenchError(f"metric {entry.name!r} needs scores of scorer {scorer!r}, "
                                f"which task {task.name!r} does not run")
        chosen = [data.scores[scorer][repeat][i] for i in items]
        return float(func(chosen, **options))
    if data.labels and "labels" not in options:
        options["labels"] = data.labels
    golds = [data.golds[i] for i in items]
    predictions = [data.predictions[repeat][i] for i in items]
    return float(func(golds, predictions, **options))


def metric_value(entry: MetricEntry, task: TaskSpec, data: UnitScores, items: np.ndarray,
                 primary_scorer: str) -> float:
    """The metric over ``items`` (indices), averaged over repeats."""
    func = entry.load()
    values = [_call_metric(entry, func, task, data, items, r, primary_scorer) for r in range(data.repeats)]
    return float(np.mean(values))


def compute_metrics(task: TaskSpec, data: UnitScores, registry: Registry, *, bootstrap: int,
                    seed: int) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
    """Each metric's value and its details: direction, bootstrap 95% interval and standard error.

    The interval resamples test items with replacement (``bootstrap`` times, seeded); the
    percentile interval and the standard deviation of the resampled values are reported.
    """
    primary_scorer = task.scorers[0] if task.scorers else TYPE_SCORER
    all_items = np.arange(data.n_items)
    values: dict[str, float] = {}
    details: dict[str, dict[str, Any]] = {}
    rng = np.random.default_rng(seed)
    draws = [rng.integers(0, data.n_items, data.n_items) for _ in range(bootstrap)] if data.n_items else []
    for name in task.metrics:
        entry = registry.metric(name)
        value = metric_value(entry, task, data, all_items, primary_scorer)
        values[name] = value
        info: dict[str, Any] = {"higher_is_better": entry.higher_is_better, "plugin": entry.plugin}
        if draws:
            resampled = np.array([metric_value(entry, task, data, d, primary_scorer) for d in draws])
            finite = resampled[np.isfinite(resampled)]
            if finite.size:
                low, high = np.percentile(finite, [2.5, 97.5])
                info["ci95"] = [float(low), float(high)]
                info["stderr"] = float(np.std(finite, ddof=1)) if finite.size > 1 else 0.0
            info["bootstrap"] = {"repetitions": bootstrap, "seed": seed}
        details[name] = info
    return values, details


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k estimator (Chen et al., 2021): ``1 - C(n-c, k) / C(n, k)``."""
    if k > n:
        raise ValueError(f"pass@{k} needs at least {k} samples per item, got {n}")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k: the chance that ``k`` samples drawn without replacement all pass, ``C(c,k)/C(n,k)``."""
    if k > n:
        raise ValueError(f"pass^{k} needs at least {k} samples per item, got {n}")
    return math.comb(c, k) / math.comb(n, k)


def repeat_summary(scores: Sequence[Sequence[Score]], ks: Sequence[int], threshold: float = 1.0
                   ) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """pass@k / pass^k over items and each item's spread, from ``scores[repeat][item]``.

    An item passes a repeat when its score is at least ``threshold``.
    """
    n = len(scores)
    items = len(scores[0]) if n else 0
    summary: dict[str, float] = {}
    spread = []
    passes = []
    for i in range(items):
        values = [scores[r][i].value for r in range(n)]
        ok = [v for v in values if v is not None]
        passes.append(sum(1 for v in ok if v >= threshold))
        spread.append({"mean": float(np.mean(ok)) if ok else None,
                       "std": float(np.std(ok)) if len(ok) > 1 else 0.0,
                       "passed": passes[-1], "scored": len(ok)})
    for k in ks:
        if k <= n and items:
            summary[f"pass@{k}"] = float(np.mean([pass_at_k(n, c, k) for c in passes]))
            summary[f"pass^{k}"] = float(np.mean([pass_hat_k(n, c, k) for c in passes]))
    return summary, spread
