from __future__ import annotations

import krippendorff
import numpy as np
import pytest

from seebench.suites.annotation.agreement import (
    agreement_by_level,
    counts_alpha,
    pair_alpha,
    pairwise_alpha,
    pairwise_kappa,
    rating_matrix,
    scale_codes,
    zone_table,
)
from seebench.suites.annotation.ratings import MODEL, RANDOM, random_rater


def test_pair_alpha_uses_only_shared_items(small_data):
    matrix = rating_matrix(small_data, ["a", "c"])
    expected = krippendorff.alpha(
        np.array([[1, 2, 3, 4, 4], [2, 2, 3, 3, 4]], float),
        level_of_measurement="interval",
        value_domain=[1, 2, 3, 4],
    )
    assert pair_alpha(matrix[0], matrix[1], "interval", [1, 2, 3, 4]) == pytest.approx(expected)
    codes = scale_codes(matrix, [1.0, 2.0, 3.0, 4.0])
    shared = np.flatnonzero((codes[0] >= 0) & (codes[1] >= 0))
    assert counts_alpha(
        codes[0, shared], codes[1, shared], "interval", [1, 2, 3, 4]
    ) == pytest.approx(expected)


def test_pair_alpha_is_undefined_without_overlap_or_variation():
    nan = np.nan
    assert pair_alpha(np.array([1, nan, nan]), np.array([nan, 2, 3]), "nominal", [1, 2, 3]) is None
    assert pair_alpha(np.array([1.0, 1.0]), np.array([1.0, 1.0]), "nominal", [1, 2]) is None


def test_levels_side_by_side_and_only_admissible_ones(small_data):
    matrices = agreement_by_level(small_data)
    assert list(matrices) == ["nominal", "ordinal", "interval"]
    assert matrices["nominal"].alpha[0, 1] != pytest.approx(matrices["interval"].alpha[0, 1])
    with pytest.raises(ValueError, match="'ratio' is not admissible"):
        pairwise_alpha(small_data, "ratio")


def test_models_and_random_rater_are_more_raters_in_their_zones(small_data):
    data = small_data.with_rater("m1", {"i1": 1, "i2": 2, "i3": 3, "i4": 4, "i5": 4, "i6": 2})
    data = data.with_rater("m2", {"i1": 1, "i2": 2, "i3": 4, "i4": 4, "i5": 4, "i6": 1})
    data = random_rater(data, seed=3)
    matrix = pairwise_alpha(data, "interval")
    assert matrix.raters == ("a", "b", "c", "m1", "m2", "random")
    assert matrix.kinds[3:] == (MODEL, MODEL, RANDOM)
    assert matrix.alpha[0, 3] == pytest.approx(1.0)  # m1 copies rater a
    assert matrix.overlap[2, 3] == 5
    zones = matrix.zones()
    assert zones["HH"]["pairs"] == 3 and zones["HM"]["pairs"] == 6 and zones["MM"]["pairs"] == 1
    assert zones["MM"]["mean"] == pytest.approx(matrix.alpha[3, 4])
    hm = [matrix.alpha[i, j] for i in range(3) for j in (3, 4)]
    assert zones["HM"]["mean"] == pytest.approx(np.mean(hm))
    assert zones["HM"]["median"] == pytest.approx(np.median(hm))
    rows = zone_table({"interval": matrix})
    assert {r["zone"] for r in rows} == {"HH", "HM", "MM"}


def test_added_rater_is_checked(small_data):
    with pytest.raises(Exception, match="rater 'm', item 'i1': 9 is not on the scale"):
        small_data.with_rater("m", {"i1": 9})
    with pytest.raises(Exception, match="unknown item 'zz'"):
        small_data.with_rater("m", {"zz": 1})
    with pytest.raises(Exception, match="already present"):
        small_data.with_rater("a", {"i1": 1})


def test_random_rater_is_seeded_and_uniform_over_the_scale(small_data):
    first = random_rater(small_data, seed=7).ratings["random"]
    assert first == random_rater(small_data, seed=7).ratings["random"]
    assert set(first) == set(small_data.item_ids)
    assert set(first.values()) <= {1, 2, 3, 4}


def test_cohen_kappa_matrix(small_data):
    kappa = pairwise_kappa(small_data, weights="linear")
    assert kappa.shape == (3, 3) and np.isnan(kappa[0, 0])
    assert -1 <= kappa[0, 1] <= 1


def test_fleiss_kappa_on_items_with_the_common_rating_count(small_data):
    from seebench.suites.annotation.agreement import fleiss_kappa

    result = fleiss_kappa(small_data)
    assert result["items"] == 5 and result["ratings_per_item"] == 3
    assert -1 <= result["kappa"] <= 1
    perfect = small_data.subset(["i1", "i2"])
    assert fleiss_kappa(perfect)["items"] == 2
