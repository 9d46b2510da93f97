"""Descriptive statistics: intervals, effect sizes, magnitudes, normality."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from seebench.stats import descriptive as ds


def test_ci_alpha_corrections() -> None:
    assert ds.ci_alpha(0.05, 10, "bonferroni") == pytest.approx(0.005)
    assert ds.ci_alpha(0.05, 10, "autorank") == pytest.approx(0.0005)
    assert ds.ci_alpha(0.05, 10, "none") == 0.05
    with pytest.raises(ValueError, match="unknown CI correction"):
        ds.ci_alpha(0.05, 10, "holm")


def test_t_interval_matches_scipy() -> None:
    x = np.random.default_rng(0).normal(size=(12, 3))
    lower, upper = ds.t_interval(x, 0.01)
    for j in range(3):
        expected = stats.t.interval(0.99, 11, loc=x[:, j].mean(), scale=stats.sem(x[:, j]))
        assert (lower[j], upper[j]) == pytest.approx(expected)


def test_median_interval_brackets_the_median() -> None:
    x = np.arange(20, dtype=float)[:, None]
    lower, upper = ds.median_interval(x, 0.05)
    assert lower[0] < np.median(x) < upper[0]
    wide_lower, wide_upper = ds.median_interval(x, 0.0001)
    assert wide_lower[0] <= lower[0] and wide_upper[0] >= upper[0]


def test_cohen_d_uses_pooled_sd() -> None:
    a, b = np.array([1.0, 2.0, 3.0, 4.0]), np.array([2.0, 3.0, 4.0, 5.0, 6.0])
    pooled = np.sqrt((3 * a.var(ddof=1) + 4 * b.var(ddof=1)) / 7)
    assert ds.cohen_d(a, b) == pytest.approx((a.mean() - b.mean()) / pooled)


def test_akinshin_gamma_uses_scaled_mad() -> None:
    a, b = np.array([1.0, 2.0, 3.0, 10.0]), np.array([0.0, 1.0, 2.0, 3.0])
    expected = (np.median(a) - np.median(b)) / np.sqrt(
        (
            3 * stats.median_abs_deviation(a, scale="normal") ** 2
            + 3 * stats.median_abs_deviation(b, scale="normal") ** 2
        )
        / 6
    )
    assert ds.akinshin_gamma(a, b) == pytest.approx(expected, rel=1e-4)


@pytest.mark.parametrize(
    ("d", "label"),
    [
        (0.0, "negligible"),
        (-0.19, "negligible"),
        (0.2, "small"),
        (0.49, "small"),
        (-0.5, "medium"),
        (0.8, "large"),
        (3.0, "large"),
    ],
)
def test_magnitude_labels(d: float, label: str) -> None:
    assert ds.magnitude(d) == label


def test_shapiro_skips_constant_columns() -> None:
    x = np.column_stack([np.ones(10), np.random.default_rng(1).normal(size=10)])
    p = ds.shapiro_pvalues(x)
    assert np.isnan(p[0]) and 0 <= p[1] <= 1


def test_an_effect_size_without_spread_is_undefined_not_infinite() -> None:
    constant = np.full((5, 1), 0.5)
    lower = np.full((5, 1), 0.3)
    assert np.isnan(ds.cohen_d(constant, lower)).all()
    assert np.isnan(ds.akinshin_gamma(constant, lower)).all()
    assert (ds.cohen_d(constant, constant) == 0).all()  # no difference is no effect
    assert ds.magnitude(float("nan")) == "undefined"
    assert ds.magnitude(float("inf")) == "undefined"
