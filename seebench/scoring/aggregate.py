"""The aggregate level: metrics over a test set, with seeded bootstrap intervals and pass@k."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from seebench.errors import SeebenchError
from seebench.registry import MetricEntry, Registry
from seebench.scoring.core import DEFAULT_BOOTSTRAP, TYPE_SCORER, Score
from seebench.scoring.ratio import RATIO_ATTRIBUTE, RESAMPLED_ATTRIBUTE, item_ratio
from seebench.tasks.spec import TaskSpec

#: at most this many resamples' ``[resamples, items]`` weights are held at once...
WEIGHT_BLOCK = 250
#: ...and at most this many weights
WEIGHT_CELLS = 2_000_000
__all__ = ["DEFAULT_BOOTSTRAP", "UnitScores", "compute_metrics", "item_ratio", "metric_value"]


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


def _object_array(values: Sequence[Any]) -> np.ndarray:
    array = np.empty(len(values), dtype=object)
    for index, value in enumerate(values):  # element-wise: lists stay list objects
        array[index] = value
    return array


class _Resampler:
    """Draws bootstrap resamples of a unit's data; the columns become object arrays once, so
    a draw is a few fancy-indexing operations instead of Python loops over every item."""

    def __init__(self, data: UnitScores):
        self.data = data
        self.golds = _object_array(data.golds)
        self.predictions = [_object_array(row) for row in data.predictions]
        self.scores = {
            name: [_object_array(row) for row in per] for name, per in data.scores.items()
        }

    def draw(self, items: np.ndarray) -> UnitScores:
        return UnitScores(
            golds=self.golds[items].tolist(),
            predictions=[row[items].tolist() for row in self.predictions],
            scores={
                name: [row[items].tolist() for row in per] for name, per in self.scores.items()
            },
            labels=self.data.labels,
        )


class _RatioDraws:
    """One ratio metric's per-score numerators and denominators, per repeat."""

    def __init__(
        self, per_score: Callable[[Score], tuple[float, float]], repeats: list[list[Score]]
    ):
        pairs = [
            np.array([per_score(s) for s in row], dtype=float).reshape(-1, 2) for row in repeats
        ]
        self.numerators = [p[:, 0] for p in pairs]
        self.denominators = [p[:, 1] for p in pairs]

    def value(self, items: np.ndarray | slice) -> float:
        values = []
        for numerator, denominator in zip(self.numerators, self.denominators, strict=True):
            total = float(denominator[items].sum())
            values.append(float(numerator[items].sum()) / total if total else math.nan)
        return float(np.mean(values))

    def weighted(self, weights: np.ndarray) -> list[float]:
        """:meth:`value` of every resample of ``weights`` (whole-number sums: exact)."""
        per_repeat = []
        for numerator, denominator in zip(self.numerators, self.denominators, strict=True):
            totals = weights @ denominator
            safe = np.where(totals != 0, totals, 1.0)
            per_repeat.append(np.where(totals != 0, (weights @ numerator) / safe, math.nan))
        return _mean_over_repeats(per_repeat)


def _mean_over_repeats(per_repeat: list[np.ndarray]) -> list[float]:
    """Each resample's mean over repeats, as :func:`metric_value` averages them."""
    if len(per_repeat) == 1:
        return [float(v) for v in per_repeat[0]]
    return [float(np.mean(values)) for values in zip(*per_repeat, strict=True)]


def _ratio_draws(entry: MetricEntry, func: Any, data: UnitScores, primary_scorer: str, full: float):
    """The fast resampler of a metric declared with :func:`item_ratio`, or None (not declared,
    not a scores metric, or the declaration disagrees with the metric on all items)."""
    per_score = getattr(func, RATIO_ATTRIBUTE, None)
    scorer = entry.scorer or primary_scorer
    if per_score is None or entry.inputs != "scores" or scorer not in data.scores:
        return None
    draws = _RatioDraws(per_score, data.scores[scorer])
    same = draws.value(slice(None))
    if not (same == full or (math.isnan(same) and math.isnan(full))):
        return None
    return draws


class _WeightedDraws:
    """A predictions metric declared with :func:`~seebench.scoring.ratio.resampled_by`: every
    resample's value from the weights, per repeat."""

    def __init__(self, weighted: Callable[..., Any], data: UnitScores, kwargs: dict[str, Any]):
        self.weighted, self.data, self.kwargs = weighted, data, kwargs

    def value_all(self, weights: np.ndarray) -> list[float]:
        return _mean_over_repeats(
            [
                np.asarray(self.weighted(self.data.golds, row, weights, **self.kwargs), float)
                for row in self.data.predictions
            ]
        )


def _weighted_draws(entry: MetricEntry, func: Any, task: TaskSpec, data: UnitScores, full: float):
    """The vectorised resampler of a predictions metric that declares one, or None (none
    declared, it fails, or it disagrees with the metric on all items)."""
    weighted = getattr(func, RESAMPLED_ATTRIBUTE, None)
    if weighted is None or entry.inputs == "scores":
        return None
    kwargs = dict(task.metric_options(entry.name))
    if data.labels and "labels" not in kwargs:
        kwargs["labels"] = data.labels
    draws = _WeightedDraws(weighted, data, kwargs)
    try:
        same = draws.value_all(np.ones((1, data.n_items)))[0]
    except (TypeError, ValueError):
        return None
    if not (same == full or (math.isnan(same) and math.isnan(full))):
        return None
    return draws


def _weights(draws: list[np.ndarray], n_items: int) -> np.ndarray:
    """``[resamples, items]``: how often each resample drew each item."""
    return np.stack([np.bincount(items, minlength=n_items) for items in draws]).astype(float)


def metric_value(
    entry: MetricEntry, func: Any, task: TaskSpec, data: UnitScores, primary_scorer: str
) -> float:
    """The metric over all of ``data``'s items, averaged over repeats."""
    options = task.metric_options(entry.name)
    values = []
    for repeat in range(data.repeats):
        if entry.inputs == "scores":
            scorer = entry.scorer or primary_scorer
            if scorer not in data.scores:
                raise SeebenchError(
                    f"metric {entry.name!r} needs scores of scorer {scorer!r}, "
                    f"which task {task.name!r} does not run"
                )
            values.append(float(func(data.scores[scorer][repeat], **options)))
            continue
        kwargs = dict(options)
        if data.labels and "labels" not in kwargs:
            kwargs["labels"] = data.labels
        values.append(float(func(data.golds, data.predictions[repeat], **kwargs)))
    return float(np.mean(values))


def compute_metrics(
    task: TaskSpec, data: UnitScores, registry: Registry, *, bootstrap: int, seed: int
) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
    """Each metric's value and its details: direction, bootstrap 95% interval and standard error.

    The interval resamples test items with replacement (``bootstrap`` times, seeded; the same
    draws for every metric); the percentile interval and the standard deviation of the
    resampled values are reported.
    """
    primary_scorer = task.scorers[0] if task.scorers else TYPE_SCORER
    entries = [registry.metric(name) for name in task.metrics]
    funcs = [entry.load() for entry in entries]
    values = {
        e.name: metric_value(e, f, task, data, primary_scorer)
        for e, f in zip(entries, funcs, strict=True)
    }
    details: dict[str, dict[str, Any]] = {
        e.name: {"higher_is_better": e.higher_is_better, "plugin": e.plugin} for e in entries
    }
    if bootstrap <= 0 or not data.n_items:
        return values, details
    resampled = _bootstrap(task, data, entries, funcs, values, primary_scorer, bootstrap, seed)
    for name, draws in resampled.items():
        finite = np.array(draws)[np.isfinite(draws)]
        if finite.size:
            low, high = np.percentile(finite, [2.5, 97.5])
            details[name]["ci95"] = [float(low), float(high)]
            details[name]["stderr"] = float(np.std(finite, ddof=1)) if finite.size > 1 else 0.0
        details[name]["bootstrap"] = {"repetitions": bootstrap, "seed": seed}
    return values, details


def _bootstrap(
    task: TaskSpec,
    data: UnitScores,
    entries: list[MetricEntry],
    funcs: list[Any],
    values: dict[str, float],
    primary_scorer: str,
    bootstrap: int,
    seed: int,
) -> dict[str, list[float]]:
    """Each metric's value on ``bootstrap`` seeded resamples of the test items (the same
    draws for every metric). Ratio metrics and metrics with a vectorised form are computed
    from a ``[resamples, items]`` weight array in blocks; the rest metric call by call."""
    rng = np.random.default_rng(seed)
    # one call per resample, as before: a single call of shape (bootstrap, n) draws other numbers
    draws = [rng.integers(0, data.n_items, data.n_items) for _ in range(bootstrap)]
    fast: dict[str, Any] = {}
    for entry, func in zip(entries, funcs, strict=True):
        full = values[entry.name]
        ratio = _ratio_draws(entry, func, data, primary_scorer, full)
        fast[entry.name] = ratio.weighted if ratio else None
        if fast[entry.name] is None:
            weighted = _weighted_draws(entry, func, task, data, full)
            fast[entry.name] = weighted.value_all if weighted else None
    resampled: dict[str, list[float]] = {e.name: [] for e in entries}
    if any(fast.values()):
        block = max(1, min(WEIGHT_BLOCK, WEIGHT_CELLS // data.n_items))
        for start in range(0, bootstrap, block):
            weights = _weights(draws[start : start + block], data.n_items)
            for name, compute in fast.items():
                if compute is not None:
                    resampled[name] += compute(weights)
    slow = [(e, f) for e, f in zip(entries, funcs, strict=True) if fast[e.name] is None]
    if slow:
        resampler = _Resampler(data)
        for items in draws:
            sample = resampler.draw(items)
            for entry, func in slow:
                resampled[entry.name].append(
                    metric_value(entry, func, task, sample, primary_scorer)
                )
    return resampled


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


def repeat_summary(
    scores: Sequence[Sequence[Score]], ks: Sequence[int], threshold: float = 1.0
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
        spread.append(
            {
                "mean": float(np.mean(ok)) if ok else None,
                "std": float(np.std(ok)) if len(ok) > 1 else 0.0,
                "passed": passes[-1],
                "scored": len(ok),
            }
        )
    for k in ks:
        if k <= n and items:
            summary[f"pass@{k}"] = float(np.mean([pass_at_k(n, c, k) for c in passes]))
            summary[f"pass^{k}"] = float(np.mean([pass_hat_k(n, c, k) for c in passes]))
    return summary, spread
