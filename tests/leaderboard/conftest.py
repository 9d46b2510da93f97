"""Fixtures for the leaderboard tests."""

from __future__ import annotations

from dataclasses import replace

import pytest

from seebench.leaderboard.inputs import read_inputs
from seebench.plugin_manager import get_registry
from seebench.stats import ComparisonReport, Settings, compare_models
from tests.leaderboard.builders import SELU_CSV


@pytest.fixture(scope="session")
def small_report() -> ComparisonReport:
    """The SELU analysis with few posterior draws: enough to exercise the exporters."""
    matrix = read_inputs([SELU_CSV]).to_matrix(get_registry()).complete()
    return compare_models(
        matrix, Settings(nsamples=2000), title="SELU test", sources=(str(SELU_CSV),)
    )


@pytest.fixture(scope="session")
def tiny_report() -> ComparisonReport:
    """Five SELU models: for the exporters that draw heatmaps (quick to render)."""
    keep = ("GPT-2 xl", "BERT base", "T5 small", "FastText", "GPT-4o (3-shot)")
    matrix = read_inputs([SELU_CSV]).to_matrix(get_registry()).complete()
    columns = [matrix.models.index(m) for m in keep]
    tiny = replace(matrix, models=keep, scores=matrix.scores[:, columns])
    return compare_models(tiny, Settings(nsamples=2000), title="tiny")
