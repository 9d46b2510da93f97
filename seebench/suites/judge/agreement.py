"""Judge-vs-human agreement for the scoring variant: correlations pooled and per input.

The study reports Pearson, Spearman and Kendall (tau-b) coefficients between a method's scores
and the human scores, **pooled** over all responses of a task (150 = 50 inputs x 3 responses),
computed by SciPy on the values as released (parse failures written as -1 included). Its
headline figures (Pearson 81.32 for code translation, 68.51 for code generation) are these pooled
values. Pooling mixes two things: telling good inputs from hard ones, and ranking the responses
to one input. The **per-input** figure isolates the second: the coefficient over the responses
to each input, averaged over the inputs where it is defined (it is not when the judge or the
humans gave all responses of an input the same score; those inputs are counted).

Intervals are seeded percentile-bootstrap intervals that resample inputs (with all their
responses), so they respect the grouping.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

COEFFICIENTS = ("pearson", "spearman", "kendall")
DEFAULT_BOOTSTRAP = 1000
DEFAULT_SEED = 0
CONFIDENCE = 0.95


def _coefficient(name: str, x: np.ndarray, y: np.ndarray) -> float:
    if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return math.nan
    if name == "pearson":
        return float(stats.pearsonr(x, y).statistic)
    if name == "spearman":
        return float(stats.spearmanr(x, y).statistic)
    if name == "kendall":
        return float(stats.kendalltau(x, y).statistic)
    raise ValueError(f"unknown correlation {name!r} (choose from {', '.join(COEFFICIENTS)})")


def correlate_pooled(
    judge: Sequence[float] | np.ndarray,
    human: Sequence[float] | np.ndarray,
    coefficients: Sequence[str] = COEFFICIENTS,
) -> dict[str, float]:
    """Each coefficient over all (judge, human) pairs; NaN when either side is constant."""
    x, y = _as_arrays(judge, human)
    return {name: _coefficient(name, x, y) for name in coefficients}


def per_input_values(
    judge: Sequence[float] | np.ndarray,
    human: Sequence[float] | np.ndarray,
    input_ids: Sequence[int] | np.ndarray,
    coefficient: str,
) -> dict[int, float]:
    """The coefficient within each input's responses (NaN where undefined), by input id."""
    x, y = _as_arrays(judge, human)
    ids = np.asarray(input_ids)
    if len(ids) != len(x):
        raise ValueError(f"{len(ids)} input ids for {len(x)} scores")
    return {
        int(group): _coefficient(coefficient, x[ids == group], y[ids == group])
        for group in dict.fromkeys(ids.tolist())
    }


def correlate_per_input(
    judge: Sequence[float] | np.ndarray,
    human: Sequence[float] | np.ndarray,
    input_ids: Sequence[int] | np.ndarray,
    coefficients: Sequence[str] = COEFFICIENTS,
) -> dict[str, tuple[float, int]]:
    """For each coefficient: (mean over inputs where it is defined, number of such inputs)."""
    result: dict[str, tuple[float, int]] = {}
    for name in coefficients:
        values = [v for v in per_input_values(judge, human, input_ids, name).values()]
        defined = [v for v in values if not math.isnan(v)]
        result[name] = (float(np.mean(defined)) if defined else math.nan, len(defined))
    return result


@dataclass
class CorrelationReport:
    """Agreement of one judge with the humans on one scoring task."""

    n_units: int
    n_unscored: int
    unscored_policy: str
    pooled: dict[str, float]
    pooled_interval: dict[str, tuple[float, float]]
    per_input: dict[str, float]
    per_input_defined: dict[str, int]
    per_input_interval: dict[str, tuple[float, float]]
    n_inputs: int
    bootstrap: dict[str, int] = field(default_factory=dict)

    @property
    def unscored_rate(self) -> float:
        """Share of units the judge left unscored (parse failure or out of scale)."""
        return self.n_unscored / self.n_units if self.n_units else math.nan

    def as_dict(self) -> dict:
        return {
            "n_units": self.n_units,
            "n_inputs": self.n_inputs,
            "n_unscored": self.n_unscored,
            "unscored_rate": self.unscored_rate,
            "unscored_policy": self.unscored_policy,
            "pooled": self.pooled,
            "pooled_interval": {k: list(v) for k, v in self.pooled_interval.items()},
            "per_input": self.per_input,
            "per_input_defined": self.per_input_defined,
            "per_input_interval": {k: list(v) for k, v in self.per_input_interval.items()},
            "bootstrap": self.bootstrap,
        }


def score_agreement(
    judge: Sequence[float | None],
    human: Sequence[float],
    input_ids: Sequence[int],
    *,
    unscored: Sequence[bool] | None = None,
    policy: str = "drop",
    coefficients: Sequence[str] = COEFFICIENTS,
    n_bootstrap: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
) -> CorrelationReport:
    """Pooled and per-input correlations with bootstrap intervals over inputs.

    ``judge`` may hold ``None`` for unscored units; ``unscored`` flags more of them (e.g. the
    study's -1 markers). ``policy="drop"`` leaves unscored units out of every coefficient and
    reports their rate; ``policy="keep"`` uses the values as released (to reproduce the study;
    a ``None`` cannot be kept and is always dropped).
    """
    if policy not in ("drop", "keep"):
        raise ValueError(f"unknown policy {policy!r} (drop or keep)")
    if not len(judge) == len(human) == len(input_ids):
        raise ValueError(
            f"lengths differ: {len(judge)} judge scores, {len(human)} human scores, "
            f"{len(input_ids)} input ids"
        )
    flags = list(unscored) if unscored is not None else [False] * len(judge)
    missing = [value is None or flag for value, flag in zip(judge, flags, strict=True)]
    keep = [
        value is not None and (policy == "keep" or not flag)
        for value, flag in zip(judge, flags, strict=True)
    ]
    x = np.array([v for v, k in zip(judge, keep, strict=True) if k], dtype=float)
    y = np.array([h for h, k in zip(human, keep, strict=True) if k], dtype=float)
    ids = np.array([i for i, k in zip(input_ids, keep, strict=True) if k])
    pooled = correlate_pooled(x, y, coefficients)
    per_input = correlate_per_input(x, y, ids, coefficients)
    pooled_ci, per_input_ci = _bootstrap(x, y, ids, coefficients, n_bootstrap, seed)
    return CorrelationReport(
        n_units=len(judge),
        n_unscored=sum(missing),
        unscored_policy=policy,
        pooled=pooled,
        pooled_interval=pooled_ci,
        per_input={name: value for name, (value, _) in per_input.items()},
        per_input_defined={name: count for name, (_, count) in per_input.items()},
        per_input_interval=per_input_ci,
        n_inputs=len(set(np.asarray(input_ids).tolist())),
        bootstrap={"resamples": n_bootstrap, "seed": seed},
    )


def _as_arrays(
    judge: Sequence[float] | np.ndarray, human: Sequence[float] | np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(judge, dtype=float)
    y = np.asarray(human, dtype=float)
    if x.shape != y.shape:
        raise ValueError(f"{len(x)} judge scores but {len(y)} human scores")
    return x, y


def _percentile_interval(values: list[float]) -> tuple[float, float]:
    finite = [v for v in values if not math.isnan(v)]
    if not finite:
        return (math.nan, math.nan)
    tail = (1 - CONFIDENCE) / 2 * 100
    low, high = np.percentile(finite, [tail, 100 - tail])
    return (float(low), float(high))


def _batch_pearson(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson's r of each row pair of two (resamples x units) matrices; NaN when constant."""
    xc = x - x.mean(axis=1, keepdims=True)
    yc = y - y.mean(axis=1, keepdims=True)
    denominator = np.sqrt((xc * xc).sum(axis=1) * (yc * yc).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, (xc * yc).sum(axis=1) / denominator, np.nan)


def _batch_kendall(x: np.ndarray, y: np.ndarray, chunk: int = 64) -> np.ndarray:
    """Kendall's tau-b of each row pair (all unit pairs; ties handled as tau-b does)."""
    values = []
    for start in range(0, len(x), chunk):
        sx = np.sign(x[start : start + chunk, :, None] - x[start : start + chunk, None, :])
        sy = np.sign(y[start : start + chunk, :, None] - y[start : start + chunk, None, :])
        denominator = np.sqrt((sx * sx).sum(axis=(1, 2)) * (sy * sy).sum(axis=(1, 2)))
        with np.errstate(invalid="ignore", divide="ignore"):
            values.append(
                np.where(denominator > 0, (sx * sy).sum(axis=(1, 2)) / denominator, np.nan)
            )
    return np.concatenate(values) if values else np.array([])


def _batch_coefficient(name: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if name == "pearson":
        return _batch_pearson(x, y)
    if name == "spearman":
        return _batch_pearson(stats.rankdata(x, axis=1), stats.rankdata(y, axis=1))
    if name == "kendall":
        return _batch_kendall(x, y)
    raise ValueError(f"unknown correlation {name!r} (choose from {', '.join(COEFFICIENTS)})")


def _bootstrap(
    x: np.ndarray,
    y: np.ndarray,
    ids: np.ndarray,
    coefficients: Sequence[str],
    n_bootstrap: int,
    seed: int,
) -> tuple[dict[str, tuple[float, float]], dict[str, tuple[float, float]]]:
    """Percentile intervals from resampling whole inputs with replacement.

    Resamples are evaluated in batches of equal size (inputs may differ in their number of
    responses); the per-input figure of a resample is the mean of its inputs' defined values.
    """
    groups = list(dict.fromkeys(ids.tolist()))
    if n_bootstrap <= 0 or len(groups) < 2:
        empty = {name: (math.nan, math.nan) for name in coefficients}
        return empty, dict(empty)
    members = [np.flatnonzero(ids == g) for g in groups]
    within = {}
    for name in coefficients:
        values = per_input_values(x, y, ids, name)
        within[name] = np.array([values[g] for g in groups])
    rng = np.random.default_rng(seed)
    chosen = rng.integers(0, len(groups), size=(n_bootstrap, len(groups)))
    rows = [np.concatenate([members[c] for c in draw]) for draw in chosen]
    by_size: dict[int, list[int]] = {}
    for draw, picked in enumerate(rows):
        by_size.setdefault(len(picked), []).append(draw)
    pooled: dict[str, np.ndarray] = {name: np.empty(n_bootstrap) for name in coefficients}
    for draws in by_size.values():
        index = np.stack([rows[d] for d in draws])
        for name in coefficients:
            pooled[name][draws] = _batch_coefficient(name, x[index], y[index])
    per_input: dict[str, list[float]] = {}
    for name in coefficients:
        sample = within[name][chosen]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            per_input[name] = np.nanmean(sample, axis=1).tolist()
    return (
        {name: _percentile_interval(pooled[name].tolist()) for name in coefficients},
        {name: _percentile_interval(per_input[name]) for name in coefficients},
    )
