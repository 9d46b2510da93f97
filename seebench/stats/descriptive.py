"""Per-model descriptive statistics: location, spread, normality, confidence intervals, effect sizes.

Every function takes plain NumPy arrays so it can be tested without the rest of seebench.
``scores`` arrays are laid out as (tasks, models): one column per model.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from scipy import stats

#: How the confidence level of the per-model intervals is corrected for ``k`` models.
CI_CORRECTIONS: dict[str, str] = {
    "bonferroni": "alpha / k: a family-wise 95% level over the k intervals (the paper's stated intent)",
    "autorank": "alpha / k^2: Bonferroni applied twice, as autorank's Bayesian path does "
    "(reproduces the published Table IV)",
    "none": "alpha: each interval on its own at 1 - alpha",
}

#: Scale factor that makes the median absolute deviation estimate the SD of a normal sample.
MAD_TO_SD = 1.4826

Magnitude = Literal["negligible", "small", "medium", "large", "undefined"]


def ci_alpha(alpha: float, n_models: int, correction: str) -> float:
    """The per-interval significance level for ``correction`` (see :data:`CI_CORRECTIONS`)."""
    if correction == "bonferroni":
        return alpha / n_models
    if correction == "autorank":
        return alpha / n_models**2
    if correction == "none":
        return alpha
    raise ValueError(f"unknown CI correction {correction!r}; known: {', '.join(CI_CORRECTIONS)}")


def shapiro_pvalues(scores: np.ndarray) -> np.ndarray:
    """Shapiro–Wilk p-value of each column (model); NaN where a column is constant."""
    pvalues = np.full(scores.shape[1], np.nan)
    for j in range(scores.shape[1]):
        column = scores[:, j]
        if np.ptp(column) > 0:
            pvalues[j] = stats.shapiro(column).pvalue
    return pvalues


def mad(scores: np.ndarray, scaled: bool = False) -> np.ndarray:
    """Median absolute deviation of each column; ``scaled`` multiplies by 1.4826 (SD-like)."""
    deviations = np.abs(scores - np.median(scores, axis=0))
    raw = np.median(deviations, axis=0)
    return raw * MAD_TO_SD if scaled else raw


def t_interval(scores: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided ``1 - alpha`` t confidence interval of each column's mean."""
    n = scores.shape[0]
    mean = scores.mean(axis=0)
    sem = scores.std(axis=0, ddof=1) / np.sqrt(n)
    half = sem * stats.t.ppf(1 - alpha / 2, n - 1)
    return mean - half, mean + half


def median_interval(scores: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Distribution-free interval of each column's median from order statistics.

    Uses the normal approximation to the binomial for the ranks of the bounds, clipped to the
    sample, as autorank does for non-normal populations.
    """
    n = scores.shape[0]
    z = stats.norm.ppf(1 - alpha / 2)
    low_rank = max(0.0, n / 2 - z * np.sqrt(n / 2))
    high_rank = min(n - 1.0, 1 + n / 2 + z * np.sqrt(n / 2))
    ordered = np.sort(scores, axis=0)
    return ordered[_round_half_even(low_rank)], ordered[_round_half_even(high_rank)]


def _round_half_even(value: float) -> int:
    return int(round(value))


def pooled_sd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pooled standard deviation of two score vectors (or of matching columns)."""
    na, nb = a.shape[0], b.shape[0]
    var = ((na - 1) * a.var(axis=0, ddof=1) + (nb - 1) * b.var(axis=0, ddof=1)) / (na + nb - 2)
    return np.sqrt(var)


def pooled_mad(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pooled scaled MAD of two score vectors: the robust analogue of :func:`pooled_sd`."""
    na, nb = a.shape[0], b.shape[0]
    var = ((na - 1) * mad(a, scaled=True) ** 2 + (nb - 1) * mad(b, scaled=True) ** 2) / (
        na + nb - 2
    )
    return np.sqrt(var)


def cohen_d(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cohen's d of ``a`` over ``b``: difference of means over the pooled SD (NaN where the
    pooled SD is 0 and the means differ: no spread to measure the difference in)."""
    return _standardised(a.mean(axis=0) - b.mean(axis=0), pooled_sd(a, b))


def akinshin_gamma(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Akinshin's gamma: difference of medians over the pooled scaled MAD (NaN where that is 0
    and the medians differ)."""
    return _standardised(np.median(a, axis=0) - np.median(b, axis=0), pooled_mad(a, b))


def _standardised(difference: np.ndarray, spread: np.ndarray) -> np.ndarray:
    """``difference / spread``; 0 where both are 0, NaN (undefined, never infinite) where only
    the spread is."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.asarray(difference / spread, dtype=float)
    undefined = ~(np.asarray(spread) > 0)
    same = np.asarray(difference) == 0
    return np.where(undefined, np.where(same, 0.0, np.nan), ratio)


def magnitude(effect_size: float) -> Magnitude:
    """Cohen's labels for ``|d|``: negligible < 0.2 <= small < 0.5 <= medium < 0.8 <= large;
    ``undefined`` for a NaN effect size (no spread)."""
    if not np.isfinite(effect_size):
        return "undefined"
    size = abs(effect_size)
    if size < 0.2:
        return "negligible"
    if size < 0.5:
        return "small"
    if size < 0.8:
        return "medium"
    return "large"
