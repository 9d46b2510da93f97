"""Two models item by item: pairing by id, disagreements first, the paired difference."""

from __future__ import annotations

import json

import numpy as np
from scipy import stats

from seebench.view.compare import pair
from seebench.view.index import load_index
from tests.view.conftest import unit_of


def test_paired_difference_and_order(catalog) -> None:
    a, b = unit_of(catalog, "alpha", "sentiment"), unit_of(catalog, "gamma", "sentiment")
    ia, ib = load_index(a.samples_path, a.root)[0], load_index(b.samples_path, b.root)[0]
    pairing = pair(ia, ib)
    sa = np.array([json.loads(x)["score"] for x in a.samples_path.read_text().splitlines()])
    sb = np.array([json.loads(x)["score"] for x in b.samples_path.read_text().splitlines()])
    diff = sa - sb
    assert pairing.stats.n == 60
    assert pairing.stats.disagree == int((diff != 0).sum())
    assert pairing.stats.mean == diff.mean()
    low, high = stats.ttest_1samp(diff, 0).confidence_interval(0.95)
    assert np.isclose(pairing.stats.ci[0], low) and np.isclose(pairing.stats.ci[1], high)
    k = pairing.stats.disagree
    assert pairing.disagree[:k].all() and not pairing.disagree[k:].any()
    assert (ia.ids[pairing.lines_a] == ib.ids[pairing.lines_b]).all()


def test_items_only_in_one_unit_are_counted(catalog) -> None:
    a, b = unit_of(catalog, "alpha", "sentiment"), unit_of(catalog, "beta", "sentiment")
    lines = b.samples_path.read_text().splitlines()
    b.samples_path.write_text("\n".join(lines[:50]) + "\n")
    ia, ib = load_index(a.samples_path, a.root)[0], load_index(b.samples_path, b.root)[0]
    pairing = pair(ia, ib)
    assert (pairing.stats.n, pairing.stats.only_a, pairing.stats.only_b) == (50, 10, 0)
