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


@pytest.fixture
def store(tmp_path, monkeypatch):
    """A file store in the test's folder, and a client over it."""
    from mlflow.tracking import MlflowClient

    path = tmp_path / "mlruns"
    monkeypatch.setenv("MLFLOW_TRACKING_URI", path.as_uri())
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    monkeypatch.setenv("MLFLOW_EXPERIMENT_NAME", "seebench-tests")
    return MlflowClient(tracking_uri=path.as_uri())


def _runs(client) -> tuple[object, dict[str, object]]:
    """The parent run and its children by name."""
    experiment = client.get_experiment_by_name("seebench-tests")
    runs = client.search_runs([experiment.experiment_id])
    [parent] = [r for r in runs if "mlflow.parentRunId" not in r.data.tags]
    children = {r.info.run_name: r for r in runs if r is not parent}
    assert all(r.data.tags["mlflow.parentRunId"] == parent.info.run_id for r in children.values())
    return parent, children


def test_a_file_store_run_holds_params_metrics_and_artifacts(tracked, store):
    run, tmp = tracked
    assert run("--log-to", "mlflow", "--seed", "5") == 0

    import mlflow

    parent, children = _runs(store)
    assert parent.info.status == "FINISHED"
    assert parent.data.params["model"] == "majority" and parent.data.params["seed"] == "5"
    assert not any(key.startswith("sources.") for key in parent.data.params)
    assert "leaderboard-mlflow.csv" in {a.path for a in store.list_artifacts(parent.info.run_id)}
    [child] = children.values()
    assert child.info.run_name == "majority/baseline" and child.info.status == "FINISHED"
    assert child.data.params == {"model": "majority", "method": "baseline"}
    assert set(child.data.metrics) >= {"tiny.f1_macro", "tiny.accuracy", "tiny.seconds"}
    assert child.data.tags["tiny.status"] == "ok"
    unit = {a.path for a in store.list_artifacts(child.info.run_id, "units/majority/baseline")}
    assert unit == {
        "units/majority/baseline/tiny.json",
        "units/majority/baseline/tiny.samples.jsonl",
    }
    assert files_containing(tmp, SECRET) == []
    assert mlflow.active_run() is None  # the run was ended


def test_two_models_of_a_sweep_keep_their_own_values(tracked, store):
    import json

    run, tmp = tracked
    assert run("--log-to", "mlflow", "--model", "majority,random") == 0
    _, children = _runs(store)
    assert set(children) == {"majority/baseline", "random/baseline"}
    for name, child in children.items():
        model = name.split("/")[0]
        result = json.loads((tmp / "out" / model / "baseline" / "tiny.json").read_text())
        assert child.data.metrics["tiny.accuracy"] == pytest.approx(result["metrics"]["accuracy"])


def test_a_tracker_that_cannot_start_stops_the_run_before_any_unit(tracked, monkeypatch, capsys):
    run, tmp = tracked
    monkeypatch.setenv("MLFLOW_TRACKING_URI", "unknown-scheme://nowhere")
    assert run("--log-to", "mlflow") == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --log-to mlflow: cannot start:")
    assert not (tmp / "out" / "majority").exists()
