"""The whole comparison: fallback for non-normal data, tiers, validation."""

from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pandas as pd
import pytest
from autorank import autorank

from seebench.stats import ComparisonReport, ScoreMatrix, Settings, compare_models


def _matrix(scores: np.ndarray) -> ScoreMatrix:
    n_tasks, k = scores.shape
    return ScoreMatrix(
        models=tuple(f"m{j}" for j in range(k)),
        tasks=tuple(f"t{i}" for i in range(n_tasks)),
        scores=scores,
        task_types=("binary",) * n_tasks,
        task_families=("f",) * n_tasks,
    )


def _skewed() -> np.ndarray:
    rng = np.random.default_rng(0)
    normal = rng.normal(0.7, 0.05, size=(20, 2))
    skewed = np.concatenate([np.full(17, 0.6), [0.0, 0.05, 0.1]])  # not normal
    return np.column_stack([normal, skewed])


def test_non_normal_population_falls_back_to_median_and_says_so() -> None:
    report = compare_models(_matrix(_skewed()), Settings(nsamples=2000))
    assert not report.parametric
    assert report.center_label == "median" and report.spread_label == "MAD"
    assert any("m2" in note and "rejects normality" in note for note in report.notes)
    assert any("Non-parametric fallback" in note for note in report.notes)
    row = next(r for r in report.rows if r.model == "m2")
    assert row.center == pytest.approx(0.6) and not row.normal


def test_mode_parametric_forces_means() -> None:
    report = compare_models(_matrix(_skewed()), Settings(nsamples=2000, mode="parametric"))
    assert report.parametric
    assert any("forced" in note for note in report.notes)


def test_ranking_is_by_mean_descending() -> None:
    scores = np.column_stack(
        [np.linspace(0.1, 0.3, 8), np.linspace(0.5, 0.9, 8), np.linspace(0.3, 0.5, 8)]
    )
    report = compare_models(_matrix(scores), Settings(nsamples=1000))
    assert report.models == ("m1", "m2", "m0")
    assert [r.rank for r in report.rows] == [1, 2, 3]
    assert report.rows[0].effect_size == 0.0


def test_no_pair_within_a_tier_is_decided_apart(selu_report: ComparisonReport) -> None:
    decisions = selu_report.decisions
    position = {model: i for i, model in enumerate(selu_report.models)}
    flat = [m for tier in selu_report.tiers for m in tier]
    assert flat == list(selu_report.models)
    for tier in selu_report.tiers:
        for a in tier:
            for b in tier:
                assert decisions[position[a], position[b]] not in ("better", "worse")
    for upper, lower in zip(selu_report.tiers, selu_report.tiers[1:], strict=False):
        first = position[lower[0]]
        assert any(decisions[position[m], first] == "better" for m in upper)


def test_selu_tiers_separate_fine_tuned_llms_from_prompting(selu_report: ComparisonReport) -> None:
    tier = {row.model: row.tier for row in selu_report.rows}
    assert tier["GPT-2 xl"] == 1
    assert tier["ModernBERT base"] < tier["TF-IDF+XGBoost"] < tier["Claude 3.7 (zero-shot)"]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (Settings(mode="robust"), "unknown mode"),
        (Settings(rope_mode="relative"), "unknown ROPE mode"),
        (Settings(ci_correction="holm"), "unknown CI correction"),
        (Settings(rope=-1), "must not be negative"),
    ],
)
def test_invalid_settings(settings: Settings, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        compare_models(_matrix(np.random.default_rng(0).uniform(size=(5, 3))), settings)


def test_needs_complete_data_and_enough_models() -> None:
    scores = np.random.default_rng(0).uniform(size=(5, 3))
    scores[0, 0] = np.nan
    with pytest.raises(ValueError, match="missing"):
        compare_models(_matrix(scores))
    with pytest.raises(ValueError, match="two models"):
        compare_models(_matrix(np.ones((5, 1))))


def test_report_to_dict_is_json_ready(selu_report: ComparisonReport) -> None:
    data = json.loads(json.dumps(selu_report.to_dict(), allow_nan=False))
    assert data["ranking"][0]["model"] == "GPT-2 xl"
    assert data["ranking"][0]["p_top_better"] is None  # NaN against itself
    assert len(data["pairs"]) == 378
    assert data["settings"]["ci_correction"] == "autorank"


def test_nonparametric_fallback_matches_autorank() -> None:
    """Median, MAD, intervals and Akinshin's gamma as autorank's Bayesian path reports them."""
    rng = np.random.default_rng(1)
    scores = rng.normal(0.7, 0.05, size=(20, 5))
    scores[:, 2] = np.concatenate([np.full(17, 0.65), [0.0, 0.05, 0.1]])
    scores[:, 4] = rng.exponential(0.1, size=20) + 0.5
    matrix = _matrix(scores)
    with contextlib.redirect_stdout(io.StringIO()):  # autorank prints its table
        theirs = autorank(
            pd.DataFrame(scores, columns=list(matrix.models)),
            approach="bayesian",
            nsamples=200,
            random_state=0,
        )
    ours = compare_models(matrix, Settings(ci_correction="autorank", nsamples=200))
    assert not theirs.all_normal and not ours.parametric
    assert list(theirs.rankdf.index) == list(ours.models)
    for row in ours.rows:
        expected = theirs.rankdf.loc[row.model]
        assert row.center == pytest.approx(expected["median"])
        assert row.spread == pytest.approx(expected["mad"])
        assert (row.ci_lower, row.ci_upper) == pytest.approx(
            (expected["ci_lower"], expected["ci_upper"])
        )
        assert row.effect_size == pytest.approx(expected["effect_size"])
        assert row.magnitude == expected["magnitude"]


def test_a_model_without_spread_gets_an_undefined_effect_size_and_a_note() -> None:
    rng = np.random.default_rng(1)
    scores = np.column_stack(
        [np.full(8, 0.9), np.full(8, 0.5), rng.normal(0.6, 0.05, size=8)]
    )  # m0 and m1 constant: their pooled spread is 0
    report = compare_models(_matrix(scores), Settings(nsamples=500, mode="parametric"))
    row = {r.model: r for r in report.rows}
    assert row["m1"].magnitude == "undefined" and np.isnan(row["m1"].effect_size)
    assert row["m2"].magnitude != "undefined" and np.isfinite(row["m2"].effect_size)
    assert any(
        n.startswith("m1: Cohen's d against the top model is undefined") for n in report.notes
    )
    ranking = {r["model"]: r for r in report.to_dict()["ranking"]}
    assert ranking["m1"]["effect_size"] is None
