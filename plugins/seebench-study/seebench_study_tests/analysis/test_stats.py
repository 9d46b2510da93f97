"""Deltas, bootstrap intervals, OLS + Benjamini-Hochberg and task-set z-scores."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from seebench_study.analysis.events import read_events
from seebench_study.analysis.metrics import OUTCOMES, participant_table
from seebench_study.analysis.stats import (
    bootstrap_delta,
    compare_with_control,
    control_condition,
    ols_pvalues,
    zscore_within_task_set,
)
from statsmodels.stats.multitest import multipletests

from seebench.errors import SeebenchError


def _table(values: dict[str, list[float]], task_sets=None) -> pd.DataFrame:
    rows = []
    for condition, numbers in values.items():
        kind = "none" if condition == "ctl" else "chat"
        for i, v in enumerate(numbers):
            rows.append(
                {
                    "condition": condition,
                    "kind": kind,
                    "task_set": (task_sets or {}).get(condition, i % 2),
                    "y": v,
                }
            )
    return pd.DataFrame(rows)


def test_bootstrap_interval_brackets_the_delta_and_is_seeded():
    rng = np.random.default_rng(1)
    a, b = rng.normal(5, 1, 40), rng.normal(3, 1, 40)
    delta, low, high = bootstrap_delta(a, b, resamples=2000, seed=7)
    assert math.isclose(delta, a.mean() - b.mean())
    assert low < delta < high
    assert low > 1.0 and high < 3.0
    assert bootstrap_delta(a, b, resamples=2000, seed=7) == (delta, low, high)
    assert math.isnan(bootstrap_delta(a[:1], b, resamples=100, seed=0)[1])


def test_ols_pvalues_match_a_direct_regression():
    table = _table({"ctl": [1, 2, 3, 2, 1], "a": [3, 4, 5, 4, 3], "b": [1, 2, 2, 1, 3]})
    got = ols_pvalues(table, "y", "ctl")
    design = pd.DataFrame(
        {"a": (table.condition == "a") * 1.0, "b": (table.condition == "b") * 1.0}
    )
    fit = sm.OLS(table["y"].astype(float), sm.add_constant(design)).fit()
    assert got == pytest.approx({"a": fit.pvalues["a"], "b": fit.pvalues["b"]})


def test_comparison_corrects_all_tests_together():
    table = _table({"ctl": [1, 2, 3, 2, 1, 2], "a": [3, 4, 5, 4, 3, 4], "b": [1, 2, 2, 1, 3, 2]})
    table["tasks_completed"] = table["y"]
    table["time_to_success_s"] = -table["y"] * 10
    result = compare_with_control(table, OUTCOMES, resamples=500)
    assert set(result["metric"]) == {
        "tasks_completed",
        "time_to_success_s",
        "tasks_completed_z",
        "time_to_success_s_z",
    }
    _, expected, _, _ = multipletests(result["p"], method="fdr_bh")
    assert result["p_bh"].tolist() == pytest.approx(list(expected))
    row = result[(result.metric == "tasks_completed") & (result.condition == "a")].iloc[0]
    assert row["delta"] == 2.0 and row["significant"]
    row = result[(result.metric == "tasks_completed") & (result.condition == "b")].iloc[0]
    assert not row["significant"]


def test_zscores_within_task_set():
    table = pd.DataFrame({"task_set": [0, 0, 0, 1, 1, 2], "v": [1.0, 2.0, 3.0, 10.0, 30.0, 5.0]})
    z = zscore_within_task_set(table, "v")
    assert z.tolist()[:5] == pytest.approx([-1, 0, 1, -0.7071067811865475, 0.7071067811865475])
    assert math.isnan(z.iloc[5])  # one participant: no spread


def test_control_condition_must_be_unique():
    table = pd.DataFrame({"condition": ["x", "y"], "kind": ["none", "none"]})
    with pytest.raises(SeebenchError, match="more than one no-LLM condition"):
        control_condition(table)
    assert control_condition(pd.DataFrame({"condition": ["x"], "kind": ["chat"]})) is None


def test_simulated_study_shows_faster_assisted_participants(simulated_study):
    participants, _, _ = participant_table(read_events(simulated_study))
    result = compare_with_control(participants, OUTCOMES, resamples=500)
    time = result[result.metric == "time_to_success_s"].set_index("condition")
    assert time.loc["chat-m", "delta"] < 0 and time.loc["chat-m", "ci_high"] < 0
    assert time.loc["chat-m", "significant"]


def test_condition_names_are_data_not_code():
    name = "x') + __import__('os').getpid() + ('"
    table = _table({"ctl": [1, 2, 3, 2], name: [3, 4, 5, 4]})
    assert set(ols_pvalues(table, "y", "ctl")) == {name}
    assert ols_pvalues(table, "y", "missing-control") == {}
