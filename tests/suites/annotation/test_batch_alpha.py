"""The batched pair alpha gives krippendorff.alpha's numbers replicate by replicate."""

from __future__ import annotations

import numpy as np
import pytest

from seebench.suites.annotation.agreement import counts_alpha
from seebench.suites.annotation.batch_alpha import pair_alpha_batch

DOMAIN = [1.0, 2.0, 3.0, 4.0, 5.0]


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_each_replicate_matches_the_library(level):
    rng = np.random.default_rng(7)
    first = rng.integers(0, 5, (60, 30))
    second = np.clip(first + rng.integers(-2, 3, (60, 30)), 0, 4)
    keep = rng.random((60, 30)) < 0.5
    keep[0] = False  # no items: undefined
    keep[1] = False
    keep[1, :3] = True
    second[1, :3] = first[1, :3] = 2  # one value only: undefined
    batch = pair_alpha_batch(np.where(keep, first, -1), np.where(keep, second, -1), level, DOMAIN)
    for r in range(60):
        expected = counts_alpha(first[r][keep[r]], second[r][keep[r]], level, DOMAIN)
        if expected is None:
            assert np.isnan(batch[r]), r
        else:
            assert batch[r] == pytest.approx(expected, abs=1e-12), r
    assert np.isnan(batch[:2]).all()


def test_a_single_replicate_and_perfect_agreement():
    codes = np.array([0, 1, 2, 3, 4, 0])
    assert pair_alpha_batch(codes, codes, "interval", DOMAIN)[0] == pytest.approx(1.0)
