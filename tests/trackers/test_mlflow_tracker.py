"""The MLflow tracker with a file store in a temporary directory: params, per-unit metrics and
artifacts (result, samples, leaderboard) are recorded; tokens are written nowhere."""

from __future__ import annotations

import pytest

pytest.importorskip("mlflow", reason="the mlflow tracker needs the trackers extra")

from seebench.trackers.mlflow_tracker import flatten, metric_name  # noqa: E402
from tests.trackers.conftest import SECRET, files_containing  # noqa: E402


def test_params_are_flattened_and_metric_names_made_safe():
    assert flatten({"a": {"b": 1, "c": [1, 2]}, "d": None}) == {
        "a.b": "1",
        "a.c": "[1, 2]",
        "d": "None",
    }
    assert metric_name("task(x)", "f1") == "task_x_.f1"


def test_a_file_store_run_holds_params_metrics_and_artifacts(tracked, monkeypatch):
    run, tmp = tracked
    store = tmp / "mlruns"
    monkeypatch.setenv("MLFLOW_TRACKING_URI", store.as_uri())
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    monkeypatch.setenv("MLFLOW_EXPERIMENT_NAME", "seebench-tests")
    assert run("--log-to", "mlflow", "--seed", "5") == 0

    import mlflow
    from mlflow.tracking import MlflowClient

    client = MlflowClient(tracking_uri=store.as_uri())
    experiment = client.get_experiment_by_name("seebench-tests")
    [found] = client.search_runs([experiment.experiment_id])
    assert found.info.status == "FINISHED"
    assert found.data.params["model"] == "majority" and found.data.params["seed"] == "5"
    assert not any(key.startswith("sources.") for key in found.data.params)
    assert set(found.data.metrics) >= {"tiny.f1_macro", "tiny.accuracy", "tiny.seconds"}
    assert found.data.tags["tiny.status"] == "ok"
    paths = {a.path for a in client.list_artifacts(found.info.run_id)}
    assert "leaderboard-mlflow.csv" in paths
    unit = {a.path for a in client.list_artifacts(found.info.run_id, "units/majority/baseline")}
    assert unit == {
        "units/majority/baseline/tiny.json",
        "units/majority/baseline/tiny.samples.jsonl",
    }
    assert files_containing(tmp, SECRET) == []
    assert mlflow.active_run() is None  # the run was ended


def test_a_tracker_that_cannot_start_stops_the_run_before_any_unit(tracked, monkeypatch, capsys):
    run, tmp = tracked
    monkeypatch.setenv("MLFLOW_TRACKING_URI", "unknown-scheme://nowhere")
    assert run("--log-to", "mlflow") == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --log-to mlflow: cannot start:")
    assert not (tmp / "out" / "majority").exists()
