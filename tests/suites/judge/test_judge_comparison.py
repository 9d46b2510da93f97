"""Pairwise verdicts against human preferences: accuracy, order swaps and position bias."""

from __future__ import annotations

import pytest

from seebench.suites.judge.comparison import compare_with_human, verdict
from seebench.suites.judge.readers import ordered_pairs

PAIRS = ordered_pairs([0, 0, 0])  # (0,1) (0,2) (1,0) (1,2) (2,0) (2,1)
SCORES = [5.0, 3.0, 1.0]
HUMAN = [SCORES[j] - SCORES[k] for _, j, k in PAIRS]


def test_verdicts_use_the_tie_threshold():
    assert [verdict(v, 0.7) for v in (0.95, 0.69, -0.7, 0.0)] == [1, 0, -1, 0]


def test_a_perfect_consistent_judge():
    report = compare_with_human([1 if h > 0 else -1 for h in HUMAN], HUMAN, PAIRS)
    assert report.accuracy == 1 and report.swapped_accuracy == 1
    assert report.consistency_rate == 1 and report.position_bias_rate == 0
    assert report.study_same_verdict_rate == 0


def test_a_judge_that_always_picks_the_first_response():
    report = compare_with_human([1] * 6, HUMAN, PAIRS)
    assert report.accuracy == pytest.approx(0.5)
    assert report.position_bias_rate == 1 and report.first_position_share == 1
    assert report.consistency_rate == 0
    assert report.swapped_accuracy == 0  # every swapped verdict is a tie; no human tie here
    # the study's "agreement" rewards exactly this judge
    assert report.study_same_verdict_rate == 1


def test_unscored_judgments_are_counted_and_left_out():
    report = compare_with_human([1, None, -1, 1, -1, -1], HUMAN, PAIRS)
    assert report.n_unscored == 1 and report.unscored_rate == pytest.approx(1 / 6)
    assert report.accuracy == 1
    assert report.n_pairs_both_orders == 2


def test_human_ties_follow_the_threshold():
    human = [0.25, 1.0, -0.25, 1.0, -1.0, -1.0]
    report = compare_with_human([0, 1, 0, 1, -1, -1], human, PAIRS)
    assert report.accuracy == 1 and report.accuracy_without_human_ties == 1


@pytest.mark.parametrize(
    "name", ["codetransocean_comparison", "codexglue_comparison", "complexcodeeval_comparison"]
)
def test_every_released_comparison_method_can_be_analysed(released, name):
    task = released(name)
    for method, values in task.methods.items():
        report = compare_with_human(values, task.human, task.pairs())
        assert report.n_pairs_both_orders == 150, method
        assert 0 <= report.position_bias_rate <= 1
        assert report.consistency_rate + report.position_bias_rate <= 1 + 1e-12


def test_llama2_prefers_the_first_position(released):
    """Llama-2 answered 'first' in 234 of 300 code-translation comparisons."""
    task = released("codetransocean_comparison")
    report = compare_with_human(task.methods["llama2"], task.human, task.pairs())
    assert report.position_bias_rate > 0.5 and report.first_position_share > 0.9
    gpt4o = compare_with_human(task.methods["gpt4o"], task.human, task.pairs())
    assert gpt4o.position_bias_rate < report.position_bias_rate
