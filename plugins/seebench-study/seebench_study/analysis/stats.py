"""Comparisons with the no-LLM condition: deltas, bootstrap intervals, corrected tests, z-scores.

For each outcome metric and each assisted condition, the delta is the difference of
participant means (condition minus control) with a percentile bootstrap interval (participants
resampled within each group, seeded). The test is the paper's: an ordinary least squares
regression of the metric on the condition (treatment coding, control as reference), whose
per-condition p-values are corrected together, across metrics and conditions, with
Benjamini-Hochberg. Per-task-set z-scores put task sets of different difficulty on one scale.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from seebench.errors import SeebenchError

CONTROL_KIND = "none"


def control_condition(participants: pd.DataFrame) -> str | None:
    """The one condition of kind ``none`` (``None`` when the study has no control)."""
    controls = sorted(
        participants.loc[participants["kind"] == CONTROL_KIND, "condition"].dropna().unique()
    )
    if len(controls) > 1:
        raise SeebenchError(
            f"more than one no-LLM condition ({', '.join(controls)}); deltas need exactly one"
        )
    return controls[0] if controls else None


def zscore_within_task_set(participants: pd.DataFrame, column: str) -> pd.Series:
    """``column`` z-scored within each task set: (value - set mean) / set SD (ddof=1).

    NaN where the set has fewer than two values or no spread, or the task set is unknown.
    """

    def scale(values: pd.Series) -> pd.Series:
        valid = values.dropna()
        sd = valid.std(ddof=1) if len(valid) > 1 else math.nan
        if not sd or math.isnan(sd):
            return values * math.nan
        return (values - valid.mean()) / sd

    return participants.groupby("task_set", dropna=False)[column].transform(scale)


def bootstrap_delta(
    treated: np.ndarray, control: np.ndarray, *, resamples: int, seed: int, level: float = 0.95
) -> tuple[float, float, float]:
    """Mean difference (treated - control) and its percentile bootstrap interval.

    Each group is resampled with replacement on its own (``scipy.stats.bootstrap``, seeded).
    """
    treated, control = treated[~np.isnan(treated)], control[~np.isnan(control)]
    if len(treated) == 0 or len(control) == 0:
        return math.nan, math.nan, math.nan
    delta = float(treated.mean() - control.mean())
    if len(treated) < 2 or len(control) < 2:
        return delta, math.nan, math.nan
    from scipy.stats import bootstrap

    def mean_difference(t: np.ndarray, c: np.ndarray, axis: int = -1) -> np.ndarray:
        return t.mean(axis=axis) - c.mean(axis=axis)

    interval = bootstrap(
        (treated, control),
        mean_difference,
        n_resamples=resamples,
        confidence_level=level,
        method="percentile",
        vectorized=True,
        rng=np.random.default_rng(seed),
    ).confidence_interval
    low, high = interval.low, interval.high
    return delta, float(low), float(high)


def ols_pvalues(participants: pd.DataFrame, column: str, control: str) -> dict[str, float]:
    """p-value of each condition's coefficient in OLS ``column ~ condition`` (vs ``control``).

    The design matrix is an intercept and one 0/1 column per non-control condition (treatment
    coding), built directly so that no condition name is ever parsed as a formula.
    """
    import statsmodels.api as sm

    data = participants[["condition", column]].dropna()
    others = sorted(c for c in data["condition"].unique() if c != control)
    if control not in set(data["condition"]) or not others or len(data) <= len(others) + 1:
        return {}
    design = pd.DataFrame(
        {f"x{i}": (data["condition"] == c).astype(float) for i, c in enumerate(others)},
        index=data.index,
    )
    fit = sm.OLS(data[column].astype(float), sm.add_constant(design, has_constant="add")).fit()
    return {c: float(fit.pvalues[f"x{i}"]) for i, c in enumerate(others)}


def compare_with_control(
    participants: pd.DataFrame,
    metrics: dict[str, bool],
    *,
    resamples: int = 2000,
    seed: int = 0,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """One row per (metric, assisted condition): delta, CI, raw and BH-corrected p-values.

    ``metrics`` maps a participant column to whether higher is better; each metric is also
    compared z-scored within task set (suffix ``_z``) when task sets are known.
    """
    from statsmodels.stats.multitest import multipletests

    control = control_condition(participants)
    if control is None:
        return pd.DataFrame()
    table = participants.copy()
    columns = dict(metrics)
    if table["task_set"].notna().any():
        for column, higher in metrics.items():
            table[f"{column}_z"] = zscore_within_task_set(table, column)
            columns[f"{column}_z"] = higher
    rows: list[dict[str, Any]] = []
    base = table[table["condition"] == control]
    for number, (column, higher) in enumerate(columns.items()):
        pvalues = ols_pvalues(table, column, control)
        for condition in sorted(c for c in table["condition"].dropna().unique() if c != control):
            group = table[table["condition"] == condition]
            delta, low, high = bootstrap_delta(
                group[column].to_numpy(float),
                base[column].to_numpy(float),
                resamples=resamples,
                seed=seed + number,
            )
            rows.append(
                {
                    "metric": column,
                    "condition": condition,
                    "kind": group["kind"].iloc[0],
                    "higher_is_better": higher,
                    "n": int(group[column].notna().sum()),
                    "n_control": int(base[column].notna().sum()),
                    "delta": delta,
                    "ci_low": low,
                    "ci_high": high,
                    "p": pvalues.get(condition, math.nan),
                }
            )
    result = pd.DataFrame(rows)
    if result.empty:  # only the control condition has participants (after exclusions)
        return result
    tested = result["p"].notna()
    result["p_bh"] = math.nan
    result["significant"] = False
    if tested.any():
        reject, corrected, _, _ = multipletests(
            result.loc[tested, "p"], alpha=alpha, method="fdr_bh"
        )
        result.loc[tested, "p_bh"] = corrected
        result.loc[tested, "significant"] = reject
    return result
