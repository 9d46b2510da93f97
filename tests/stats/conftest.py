"""Fixtures for the statistics tests: the SELU score table (paper Table VI) and its analysis."""

from __future__ import annotations

from pathlib import Path

import pytest

from seebench.leaderboard.inputs import read_inputs
from seebench.plugin_manager import get_registry
from seebench.stats import ComparisonReport, ScoreMatrix, Settings, compare_models

DATA = Path(__file__).parent / "data"
SELU_CSV = DATA / "selu_table_vi.csv"


@pytest.fixture(scope="session")
def selu_matrix() -> ScoreMatrix:
    """The 28 x 20 classification and regression scores of the SELU paper."""
    return read_inputs([SELU_CSV]).to_matrix(get_registry()).complete()


@pytest.fixture(scope="session")
def selu_report(selu_matrix: ScoreMatrix) -> ComparisonReport:
    """The paper's analysis with the settings that reproduce Table IV (50,000 draws)."""
    return compare_models(selu_matrix, Settings(ci_correction="autorank", nsamples=50_000, seed=0))
