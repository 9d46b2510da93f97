"""Judge-vs-human correlations, pooled and per input, on toy data and on the study's data."""

from __future__ import annotations

import math

import pytest

from seebench.suites.judge.agreement import (
    correlate_per_input,
    correlate_pooled,
    per_input_values,
    score_agreement,
)
from seebench.suites.judge.methods import RELEASED_METHODS


def test_per_input_skips_inputs_where_the_coefficient_is_undefined():
    human = [1, 2, 3, 4, 4, 4, 1, 2, 3]
    judge = [1, 2, 3, 1, 2, 3, 3, 2, 1]
    ids = [0, 0, 0, 1, 1, 1, 2, 2, 2]
    values = per_input_values(judge, human, ids, "pearson")
    assert (
        values[0] == pytest.approx(1) and math.isnan(values[1]) and values[2] == pytest.approx(-1)
    )
    mean, defined = correlate_per_input(judge, human, ids, ["pearson"])["pearson"]
    assert (mean, defined) == (pytest.approx(0.0), 2)


def test_pooling_can_hide_a_judge_that_cannot_rank_responses_to_one_input():
    """Easy inputs score high for everyone: pooled looks good, per input is perfectly wrong."""
    human = [1, 2, 3, 4]
    judge = [2, 1, 4, 3]
    ids = [0, 0, 1, 1]
    assert correlate_pooled(judge, human, ["pearson"])["pearson"] > 0.5
    assert correlate_per_input(judge, human, ids, ["pearson"])["pearson"][0] == pytest.approx(-1)


def test_unscored_units_are_dropped_and_counted_or_kept_as_released():
    human = [1.0, 2.0, 3.0, 4.0, 5.0, 3.0]
    judge = [1.0, 2.0, -1.0, 4.0, 5.0, None]
    flags = [False, False, True, False, False, False]
    ids = [0, 0, 1, 1, 2, 2]
    dropped = score_agreement(judge, human, ids, unscored=flags, n_bootstrap=50)
    assert dropped.n_unscored == 2 and dropped.unscored_rate == pytest.approx(2 / 6)
    assert dropped.pooled["pearson"] == pytest.approx(1.0)
    kept = score_agreement(judge, human, ids, unscored=flags, policy="keep", n_bootstrap=50)
    assert kept.n_unscored == 2
    assert kept.pooled["pearson"] < 0.9


def test_intervals_are_seeded_and_bracket_the_estimate(released):
    task = released("codetransocean_scoring")
    method = RELEASED_METHODS["gpt4o"]
    values = task.methods["gpt4o"]
    flags = [method.is_unscored(v) for v in values]
    first = score_agreement(values, task.human, task.input_ids, unscored=flags, n_bootstrap=200)
    again = score_agreement(values, task.human, task.input_ids, unscored=flags, n_bootstrap=200)
    assert first.pooled_interval == again.pooled_interval
    for name in ("pearson", "spearman", "kendall"):
        low, high = first.pooled_interval[name]
        assert low < first.pooled[name] < high
        low, high = first.per_input_interval[name]
        assert low < first.per_input[name] < high


def test_the_published_and_quoted_pooled_correlations_are_reproduced(
    released, published_correlations
):
    """As the study computed them: SciPy over the 150 released values, failures (-1) kept."""
    assert published_correlations
    for row in published_correlations:
        task = released(row["task"])
        ours = correlate_pooled(task.methods[row["method"]], task.human, [row["coefficient"]])
        allowed = 0.5 * 10 ** -int(row["decimals"]) + 1e-12
        assert ours[row["coefficient"]] == pytest.approx(float(row["value"]), abs=allowed), row


def test_per_input_differs_from_pooled_on_the_study_data(released):
    """Issue 15's example: GPT-4o on code generation, 0.547 pooled vs 0.350 per input."""
    task = released("complexcodeeval_scoring")
    report = score_agreement(
        task.methods["gpt4o"], task.human, task.input_ids, policy="keep", n_bootstrap=0
    )
    assert report.pooled["spearman"] == pytest.approx(0.547, abs=5e-4)
    assert report.per_input["spearman"] == pytest.approx(0.350, abs=5e-4)
    assert report.per_input_defined["spearman"] == 50 - 13


def test_released_failures_and_out_of_scale_scores_are_found(released):
    task = released("codetransocean_scoring")
    autoj = RELEASED_METHODS["autoj"]
    unscored = [v for v in task.methods["autoj"] if autoj.is_unscored(v)]
    assert sorted(unscored) == [-1.0] * 5 + [29.0, 32.0]
    assert not any(RELEASED_METHODS["bleu"].is_unscored(v) for v in task.methods["bleu"])
