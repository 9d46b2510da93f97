"""SELU's grids, option parsing and the plugin's import cost (no model is fitted here)."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

import pytest

from seebench.errors import SeebenchError
from seebench.methods.baseline import ft, xgb
from seebench.methods.baseline.common import GridPoint, best_point, grid, int_list


def test_selu_grids_are_the_defaults():
    assert xgb.DEFAULTS["max_depth"] == [3, 4, 5, 6, 7, 8, 9, 10]
    assert xgb.DEFAULTS["min_child_weight"] == [1, 2, 3, 4, 5, 6, 7]
    assert len(grid({k: xgb.DEFAULTS[k] for k in ("max_depth", "min_child_weight")})) == 56
    assert ft.DEFAULTS["lr"] == [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1]
    assert ft.DEFAULTS["epoch"] == [5, 10, 15, 20]


def test_grid_order_and_ties_are_deterministic():
    points = grid({"a": [1, 2], "b": [3, 4]})
    assert points == [{"a": 1, "b": 3}, {"a": 1, "b": 4}, {"a": 2, "b": 3}, {"a": 2, "b": 4}]
    scored = [GridPoint(p, s) for p, s in zip(points, [0.5, 0.7, 0.7, 0.1], strict=True)]
    assert best_point(scored).params == {"a": 1, "b": 4}  # the earliest of the tied best


def test_best_point_follows_the_metric_direction_and_never_picks_nan():
    points = [GridPoint({"i": i}, s) for i, s in enumerate([float("nan"), 0.4, 0.2, 0.2, 0.9])]
    assert best_point(points).params == {"i": 4}
    assert best_point(points, higher_is_better=False).params == {"i": 2}  # SMAPE, MAE: lowest wins


def test_early_stopping_metric_defaults_by_task_type():
    assert (
        xgb.stop_metric(SimpleNamespace(type="regression", target_kind="number"), "auto")
        == "primary"
    )
    assert (
        xgb.stop_metric(SimpleNamespace(type="binary", target_kind="label", is_binary=True), "auto")
        == "loss"
    )
    assert (
        xgb.stop_metric(
            SimpleNamespace(type="multiclass", target_kind="label", is_binary=False), "primary"
        )
        == "primary"
    )
    with pytest.raises(SeebenchError, match="multi-label"):
        xgb.stop_metric(SimpleNamespace(type="multilabel", target_kind="label_set"), "primary")
    with pytest.raises(SeebenchError, match="early_stopping_metric='f1'"):
        xgb.stop_metric(SimpleNamespace(type="binary", target_kind="label", is_binary=True), "f1")


@pytest.mark.parametrize(
    ("value", "expected"), [("3..5", [3, 4, 5]), ("1,3,5", [1, 3, 5]), (4, [4]), ([2, 3], [2, 3])]
)
def test_int_list(value, expected):
    assert int_list(value, "max_depth") == expected


def test_int_list_rejects_garbage():
    with pytest.raises(SeebenchError, match="max_depth"):
        int_list("deep", "max_depth")


def test_models_are_registered_with_library_versions():
    from seebench.models import resolve_model

    ref, method = resolve_model("tfidf-xgboost")
    assert method == "baseline" and ref.kind == "baseline"
    assert ref.options["estimator"] == "seebench.methods.baseline.xgb:TfidfXGBoostEstimator"
    assert "xgboost" in ref.identity
    ref, _ = resolve_model("fasttext")
    assert (
        ref.options["estimator"] == "seebench.methods.baseline.ft:FastTextEstimator"
        and "fasttext" in ref.identity
    )


def test_plugin_and_resolution_do_not_import_the_libraries():
    code = (
        "import sys; from seebench.models import resolve_model; resolve_model('tfidf-xgboost'); "
        "resolve_model('fasttext'); import seebench.methods.baseline.classic; "
        "print(sorted(m for m in ('xgboost', 'fasttext', 'sklearn') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_the_primary_metric_callback_decodes_xgboost_probabilities():
    import numpy as np

    from seebench.methods.baseline.common import Scorer
    from seebench.scoring.metrics.classification import accuracy

    multiclass = SimpleNamespace(
        type="multiclass",
        target_kind="label",
        is_binary=False,
        label_names=["a", "b", "c"],
        value_range=None,
    )
    scorer = Scorer("accuracy", accuracy, {})
    metric = xgb._primary_metric(multiclass, scorer, ["a", "c"])
    assert metric(np.array([0.7, 0.2, 0.1, 0.1, 0.2, 0.7], dtype=np.float32), None) == (
        "accuracy",
        1.0,
    )
    binary = SimpleNamespace(
        type="binary",
        target_kind="label",
        is_binary=True,
        label_names=["no", "yes"],
        value_range=None,
    )
    metric = xgb._primary_metric(binary, scorer, ["yes", "no", "no"])
    assert metric(np.array([0.9, 0.2, 0.6]), None) == ("accuracy", 2 / 3)
