from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from seebench.suites.annotation.replacement import (
    HumanBand,
    ReplacementCurve,
    effort_saved,
    human_band,
    largest_safe_fraction,
    majority_agreement,
    model_agreement_correlation,
    replacement_curves,
)

DATA = Path(__file__).resolve().parent / "data"


def _table(name: str) -> pd.DataFrame:
    return pd.read_csv(DATA / name, comment="#")


def test_rq2_spearman_from_published_table_i():
    table = _table("table_i.csv")
    result = model_agreement_correlation(table["mm_mean"], table["hm_mean"])
    assert round(result["rho"], 3) == 0.650
    assert round(result["p"], 3) == 0.042
    assert result["tasks"] == 10
    # the paper's rule of thumb: MM > 0.5 marks a task fit for one model rating per item
    assert list(table.loc[table["mm_mean"] <= 0.5, "task"]) == ["causality", "sa_warnings"]


def test_table_ii_arithmetic():
    for row in _table("table_ii.csv").itertuples():
        saved = effort_saved(row.one_rating_pct / 100, row.ratings_per_item)
        # the paper truncates 50/3 to 16.5; every other row is rounded to the printed digits
        assert 100 * saved["overall"] == pytest.approx(row.overall_pct, abs=0.7)
    assert [
        round(100 * effort_saved(f, n)["overall"], 1)
        for f, n in [(1, 3), (0.5, 3), (1, 11), (0.6, 2), (0.5, 2)]
    ] == [33.3, 16.7, 9.1, 30.0, 25.0]
    with pytest.raises(ValueError):
        effort_saved(0.5, 0)


def test_largest_safe_fraction_stops_at_the_first_exit_from_the_band():
    band = HumanBand(0.5, 0.4, 0.6, 0.5, 10)
    curve = ReplacementCurve(
        "confidence", (0.1, 0.2, 0.3, 0.4), (0.5, 0.55, 0.39, 0.5), (0,) * 4, (1,) * 4, (1, 2, 3, 4)
    )
    assert largest_safe_fraction(curve, band) == 0.2
    high = ReplacementCurve("random", (0.1,), (0.61,), (0,), (1,), (1,))
    assert largest_safe_fraction(high, band) == 0.0


def test_agreement_at_or_below_chance_is_never_safe():
    # humans who barely agree: a band reaching below chance
    band = HumanBand(0.05, -0.2, 0.3, 0.5, 10)
    disagreeing = ReplacementCurve(
        "confidence", (0.1, 0.5, 1.0), (0.1, -0.05, -0.15), (0,) * 3, (1,) * 3, (1, 2, 3)
    )
    assert largest_safe_fraction(disagreeing, band) == 0.1
    negative = ReplacementCurve("confidence", (0.1, 1.0), (-0.1, -0.1), (0,) * 2, (1,) * 2, (1, 2))
    assert largest_safe_fraction(negative, band) == 0.0


def _copy_model(data, rater):
    """A model that repeats one human's ratings, confident on its first half of the items."""
    model = dict(data.ratings[rater])
    confidence = {item: (0.9 if k < len(model) / 2 else 0.5) for k, item in enumerate(model)}
    return model, confidence


def test_band_contains_the_full_data_estimate(small_data):
    band = human_band(small_data, "interval", repetitions=50, seed=1)
    assert band.low <= band.estimate <= band.high
    assert band == human_band(small_data, "interval", repetitions=50, seed=1)


def test_replacement_with_a_rater_copy_keeps_agreement_and_is_seeded(small_data):
    model, confidence = _copy_model(small_data, "a")
    curves = replacement_curves(
        small_data, model, confidence, "interval", fractions=(0.5, 1.0), repetitions=20, seed=2
    )
    assert set(curves) == {"confidence", "random"}
    again = replacement_curves(
        small_data, model, confidence, "interval", fractions=(0.5, 1.0), repetitions=20, seed=2
    )
    assert curves == again
    for curve in curves.values():
        assert curve.items == (3, 6)
        assert all(
            low <= mean <= high
            for low, mean, high in zip(curve.low, curve.mean, curve.high, strict=True)
        )
    # replacing a rating by a copy of rater a can only make raters look more alike than b/c alone
    assert min(curves["random"].mean) > 0


def test_majority_agreement_ranks_by_confidence(small_data):
    model = {"i1": 1, "i2": 2, "i3": 1, "i4": 1}
    confidence = {"i1": 0.9, "i2": 0.8, "i3": 0.7, "i4": 0.6}
    rows = majority_agreement(small_data, model, confidence, fractions=(0.5, 1.0))
    assert rows == [
        {"fraction": 0.5, "items": 2, "agree": 1.0},
        {"fraction": 1.0, "items": 4, "agree": 0.5},
    ]


def test_replacement_refuses_a_model_without_rated_items(small_data):
    with pytest.raises(ValueError, match="rated none of the items"):
        replacement_curves(small_data, {}, {}, "interval")


def test_band_refuses_ratings_without_variation(likert4):
    from seebench.suites.annotation.ratings import RatingItem, RawRating, assemble

    items = [RatingItem(f"i{k}") for k in range(4)]
    raw = [RawRating(f"i{k}", r, 2, "x") for k in range(4) for r in ("a", "b")]
    data = assemble(items, raw, likert4, "interval")
    with pytest.raises(ValueError, match="no variation"):
        human_band(data, "interval", repetitions=5)
