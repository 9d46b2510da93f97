"""The vectorised Bayesian signed-rank test against autorank/baycomp and a brute-force formula."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seebench.stats import ComparisonReport, pairwise_posteriors, signed_rank_probs
from seebench.stats.bayesian import _PairPlan, dirichlet_weights

REFERENCE = Path(__file__).parent / "data" / "autorank_selu_reference.json"


@pytest.fixture(scope="module")
def reference() -> dict:
    """autorank's posteriors for the SELU table (made by data/make_autorank_reference.py)."""
    return json.loads(REFERENCE.read_text())


def test_posteriors_match_autorank_within_monte_carlo_error(
    selu_report: ComparisonReport, reference: dict
) -> None:
    assert list(selu_report.models) == reference["order"]
    index = {model: i for i, model in enumerate(selu_report.models)}
    p = selu_report.posteriors
    assert len(reference["pairs"]) == 28 * 27 // 2
    for pair in reference["pairs"]:
        i, j = index[pair["a"]], index[pair["b"]]
        assert p.p_better[i, j] == pytest.approx(pair["p_a_better"], abs=0.02), pair
        assert p.p_equal[i, j] == pytest.approx(pair["p_equal"], abs=0.02), pair
        assert p.p_better[j, i] == pytest.approx(pair["p_b_better"], abs=0.02), pair


def test_decisions_match_autorank_where_not_borderline(
    selu_report: ComparisonReport, reference: dict
) -> None:
    """Same decision wherever autorank's posteriors are not within MC error of 0.95."""
    names = {
        "smaller": "better",
        "larger": "worse",
        "equal": "equal",
        "inconclusive": "inconclusive",
    }
    index = {model: i for i, model in enumerate(selu_report.models)}
    for pair in reference["pairs"]:
        probs = (pair["p_a_better"], pair["p_equal"], pair["p_b_better"])
        if any(abs(p - 0.95) < 0.02 for p in probs):
            continue
        ours = selu_report.decisions[index[pair["a"]], index[pair["b"]]]
        assert ours == names[pair["decision"]], pair


def test_rows_sum_to_one_and_mirror(selu_report: ComparisonReport) -> None:
    p = selu_report.posteriors
    total = p.p_better + p.p_equal + p.p_better.T
    off_diagonal = ~np.eye(len(selu_report.models), dtype=bool)
    assert np.allclose(total[off_diagonal], 1.0)
    assert np.allclose(p.p_equal, p.p_equal.T, equal_nan=True)


def _brute_force_masses(diffs: np.ndarray, rope: float, weights: np.ndarray):
    """The quadratic forms of Benavoli et al. written out as a matrix product."""
    z = np.concatenate(([0.0], diffs))
    sums = z[:, None] + z[None, :]
    step = lambda v: (v > 2 * rope) + 0.5 * (v == 2 * rope)  # noqa: E731
    mass_a = np.einsum("is,ij,js->s", weights, step(sums), weights)
    mass_b = np.einsum("is,ij,js->s", weights, step(-sums), weights)
    return mass_a, mass_b


@settings(max_examples=40, deadline=None)
@given(
    diffs=st.lists(
        st.sampled_from([-0.2, -0.1, -0.05, 0.0, 0.05, 0.1, 0.15, 0.3]), min_size=1, max_size=12
    ),
    rope=st.sampled_from([0.0, 0.025, 0.05, 0.1]),
)
def test_suffix_sums_equal_the_quadratic_forms_even_with_ties(
    diffs: list[float], rope: float
) -> None:
    d = np.array(diffs)
    weights = dirichlet_weights(d.size, 64, np.random.default_rng(1))
    suffix = np.zeros((d.size + 2, 64))
    ours = _PairPlan.make(d, rope).masses(weights, suffix)
    theirs = _brute_force_masses(d, rope, weights)
    np.testing.assert_allclose(ours, theirs, atol=1e-12)


def test_clear_winner_and_clear_equivalence() -> None:
    better = signed_rank_probs(
        np.full(20, 0.2) + np.linspace(0, 0.01, 20), rope=0.01, nsamples=5000
    )
    assert better[0] > 0.99
    same = signed_rank_probs(np.linspace(-0.001, 0.001, 20), rope=0.05, nsamples=5000)
    assert same[1] > 0.99


def test_swapping_models_swaps_the_posteriors() -> None:
    rng = np.random.default_rng(3)
    d = rng.normal(0.02, 0.1, size=20)
    forward = signed_rank_probs(d, 0.01, nsamples=20_000, seed=5)
    backward = signed_rank_probs(-d, 0.01, nsamples=20_000, seed=5)
    assert forward == pytest.approx(backward[::-1], abs=1e-3)


def test_without_rope_there_is_no_equivalence() -> None:
    p_a, p_eq, p_b = signed_rank_probs(
        np.array([0.1, -0.05, 0.2, 0.0, 0.03]), rope=0.0, nsamples=4000
    )
    assert p_eq == 0.0 and p_a + p_b == pytest.approx(1.0)


def test_seed_makes_results_reproducible() -> None:
    scores = np.random.default_rng(0).uniform(size=(10, 4))
    first = pairwise_posteriors(scores, 0.01, nsamples=3000, seed=42)
    second = pairwise_posteriors(scores, 0.01, nsamples=3000, seed=42)
    np.testing.assert_array_equal(first.p_better, second.p_better)


def test_decisions_follow_the_threshold() -> None:
    scores = np.column_stack(
        [np.linspace(0.8, 0.9, 15), np.linspace(0.3, 0.4, 15), np.linspace(0.3, 0.4, 15)]
    )
    decisions = pairwise_posteriors(scores, 0.01, nsamples=2000).decisions(0.95)
    assert decisions[0, 1] == "better" and decisions[1, 0] == "worse"
    assert decisions[1, 2] == "equal" and decisions[0, 0] == ""
