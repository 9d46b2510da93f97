"""Alpha over all raters at once (the paper's ``ALL`` rows) beside the pairwise alphas."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest

from seebench.suites.annotation.agreement import pair_alpha, rating_matrix
from seebench.suites.annotation.all_raters import all_raters_alpha, all_raters_table
from seebench.suites.annotation.analysis import analyse_task


def test_all_raters_alpha_is_one_matrix_over_every_human(small_data) -> None:
    matrix = rating_matrix(small_data, small_data.raters_of("human"))
    expected = krippendorff.alpha(
        matrix, value_domain=small_data.scale.domain(), level_of_measurement="interval"
    )
    assert all_raters_alpha(small_data, "interval") == pytest.approx(expected)
    table = all_raters_table(small_data)
    assert table["raters"] == 3 and table["items"] == 6
    assert set(table["alpha"]) == {"nominal", "ordinal", "interval"}


def test_with_two_raters_it_is_the_pair_alpha(small_data) -> None:
    two = small_data.__class__(
        small_data.items,
        {r: small_data.ratings[r] for r in ("a", "b")},
        small_data.scale,
        small_data.level,
    )
    matrix = rating_matrix(two)
    pair = pair_alpha(matrix[0], matrix[1], "interval", two.scale.domain())
    assert all_raters_alpha(two, "interval") == pytest.approx(pair)
    assert np.isfinite(pair)


def test_the_analysis_reports_it(small_data) -> None:
    result = analyse_task("t", small_data, band_repetitions=20)
    assert result.to_json()["all_raters"]["alpha"]["interval"] == pytest.approx(
        all_raters_alpha(small_data, "interval")
    )


def test_excluded_values_leave_the_ratings_and_the_scale(small_data) -> None:
    from seebench.data.dataset import DataError
    from seebench.suites.annotation.task_config import exclude_values

    without = exclude_values(small_data, [4], task="t")
    assert 4 not in without.scale.values and len(without.scale.values) == 3
    assert all(4 not in by_item.values() for by_item in without.ratings.values())
    assert without.item_ids == small_data.item_ids
    with pytest.raises(DataError, match="ratings.exclude"):
        exclude_values(small_data, [9], task="t")
