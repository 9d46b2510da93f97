"""Table IV of the SELU paper, reproduced from the per-task scores of its Table VI."""

from __future__ import annotations

import pytest

from seebench.stats import ComparisonReport, Settings, compare_models

# Model, M, SD, CI lower, CI upper, d, magnitude: as published (paper Table IV).
TABLE_IV = [
    ("GPT-2 xl", 0.755, 0.130, 0.606, 0.903, 0.000, "neg."),
    ("Llama 3.2 3B", 0.747, 0.128, 0.600, 0.893, 0.061, "neg."),
    ("GPT-2 large", 0.746, 0.141, 0.586, 0.907, 0.061, "neg."),
    ("GPT-2 medium", 0.740, 0.141, 0.579, 0.900, 0.110, "neg."),
    ("Llama 3.2 1B", 0.739, 0.128, 0.594, 0.885, 0.120, "neg."),
    ("GPT-2 small", 0.734, 0.134, 0.581, 0.887, 0.157, "neg."),
    ("StarCoder2 3B", 0.734, 0.156, 0.556, 0.911, 0.145, "neg."),
    ("T5 large", 0.733, 0.154, 0.557, 0.908, 0.154, "neg."),
    ("CodeT5+ 770M", 0.731, 0.139, 0.573, 0.889, 0.175, "neg."),
    ("ModernBERT large", 0.724, 0.161, 0.540, 0.908, 0.208, "sml."),
    ("T5 base", 0.716, 0.159, 0.535, 0.898, 0.262, "sml."),
    ("BERT base", 0.716, 0.157, 0.537, 0.895, 0.267, "sml."),
    ("T5 3B", 0.715, 0.162, 0.530, 0.900, 0.268, "sml."),
    ("CodeLlama 7B", 0.714, 0.154, 0.539, 0.889, 0.285, "sml."),
    ("CodeT5+ 220M", 0.714, 0.145, 0.549, 0.879, 0.295, "sml."),
    ("CodeBERT base", 0.714, 0.156, 0.536, 0.892, 0.284, "sml."),
    ("RoBERTa base", 0.711, 0.169, 0.518, 0.903, 0.291, "sml."),
    ("ModernBERT base", 0.709, 0.164, 0.523, 0.896, 0.306, "sml."),
    ("StarCoder2 7B", 0.679, 0.216, 0.432, 0.926, 0.422, "sml."),
    ("TF-IDF+XGBoost", 0.645, 0.132, 0.495, 0.795, 0.839, "lar."),
    ("BERT large", 0.626, 0.247, 0.345, 0.908, 0.649, "med."),
    ("T5 small", 0.625, 0.227, 0.366, 0.885, 0.697, "med."),
    ("GPT-4o (3-shot)", 0.601, 0.226, 0.344, 0.859, 0.831, "lar."),
    ("Claude 3.7 (3-shot)", 0.592, 0.216, 0.346, 0.838, 0.914, "lar."),
    ("FastText", 0.574, 0.179, 0.371, 0.778, 1.154, "lar."),
    ("RoBERTa large", 0.574, 0.282, 0.252, 0.896, 0.822, "lar."),
    ("GPT-4o (zero-shot)", 0.573, 0.235, 0.305, 0.841, 0.955, "lar."),
    ("Claude 3.7 (zero-shot)", 0.572, 0.200, 0.344, 0.799, 1.085, "lar."),
]
ABBREVIATIONS = {"negligible": "neg.", "small": "sml.", "medium": "med.", "large": "lar."}


def test_same_order_as_published(selu_report: ComparisonReport) -> None:
    assert list(selu_report.models) == [row[0] for row in TABLE_IV]


@pytest.mark.parametrize("published", TABLE_IV, ids=[row[0] for row in TABLE_IV])
def test_row_within_tolerance(selu_report: ComparisonReport, published: tuple) -> None:
    model, mean, sd, ci_lower, ci_upper, d, magnitude = published
    row = next(r for r in selu_report.rows if r.model == model)
    assert row.center == pytest.approx(mean, abs=0.0007)
    assert row.spread == pytest.approx(sd, abs=0.0007)
    assert row.ci_lower == pytest.approx(ci_lower, abs=0.001)
    assert row.ci_upper == pytest.approx(ci_upper, abs=0.001)
    assert row.effect_size == pytest.approx(d, abs=0.0025)
    assert ABBREVIATIONS[row.magnitude] == magnitude


def test_all_models_pass_normality_as_the_paper_reports(selu_report: ComparisonReport) -> None:
    assert selu_report.parametric
    assert all(row.normal for row in selu_report.rows)


def test_default_family_wise_intervals_are_narrower(selu_matrix, selu_report) -> None:
    """--ci-correction bonferroni (alpha/k) gives 95% family-wise, narrower than the paper's."""
    default = compare_models(selu_matrix, Settings(nsamples=200))
    assert default.ci_alpha == pytest.approx(0.05 / 28)
    assert selu_report.ci_alpha == pytest.approx(0.05 / 28**2)
    for wide, narrow in zip(selu_report.rows, default.rows, strict=True):
        assert narrow.ci_lower > wide.ci_lower and narrow.ci_upper < wide.ci_upper
        assert narrow.center == wide.center
