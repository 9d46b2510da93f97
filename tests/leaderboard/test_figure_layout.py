"""Heatmaps of two models: the title fits the figure and the colour bar is taller than its
label (with two models both used to overflow)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from seebench.leaderboard.figures import HEATMAPS, _figure
from seebench.leaderboard.inputs import read_inputs
from seebench.plugin_manager import get_registry
from seebench.stats import Settings, compare_models
from tests.leaderboard.builders import SELU_CSV


@pytest.fixture(scope="module")
def two_models():
    keep = ("majority/baseline", "random/baseline")
    matrix = read_inputs([SELU_CSV]).to_matrix(get_registry()).complete()
    pair = replace(matrix, models=keep, scores=matrix.scores[:, :2])
    return compare_models(pair, Settings(nsamples=500), title="two")


@pytest.mark.parametrize("name", sorted(HEATMAPS))
def test_the_title_and_the_colour_bar_label_fit(two_models, name) -> None:
    fig = _figure(two_models, name)
    renderer = fig.canvas.get_renderer()
    bounds = fig.bbox
    [title] = fig.texts
    box = title.get_window_extent(renderer)
    assert box.x0 >= bounds.x0 and box.x1 <= bounds.x1 and box.y1 <= bounds.y1
    for axes in fig.axes[1:]:  # the colour bar: its label no taller than the bar
        label = axes.yaxis.label.get_window_extent(renderer)
        assert label.height <= axes.get_window_extent(renderer).height
        assert label.y1 < box.y0  # below the title
