"""The W&B tracker in offline mode: the run's config, each unit's metrics, a samples table and
the leaderboard artifact are in the offline run file; the API key is written nowhere."""

from __future__ import annotations

import json

import pytest

wandb = pytest.importorskip("wandb", reason="the wandb tracker needs the trackers extra")

from tests.trackers.conftest import SECRET, files_containing  # noqa: E402
from tests.trackers.wandb_log import records  # noqa: E402


@pytest.fixture
def offline(tracked, monkeypatch):
    run, tmp = tracked
    monkeypatch.setenv("WANDB_MODE", "offline")  # never sends anything
    monkeypatch.setenv("WANDB_DIR", str(tmp / "wandb"))
    for name in ("WANDB_CACHE_DIR", "WANDB_CONFIG_DIR", "WANDB_DATA_DIR", "WANDB_ARTIFACT_DIR"):
        monkeypatch.setenv(name, str(tmp / "wandb-home" / name.lower()))
    monkeypatch.setenv("WANDB_SILENT", "true")
    monkeypatch.setenv("WANDB_CONSOLE", "off")
    monkeypatch.setenv("WANDB_PROJECT", "seebench-tests")
    (tmp / "wandb").mkdir()
    return run, tmp


def test_an_offline_run_holds_config_metrics_samples_and_leaderboard(offline):
    run, tmp = offline
    assert run("--log-to", "wandb") == 0
    # W&B's service process writes the offline file; run.finish() only tells it to close the
    # stream. teardown() waits for the service to stop, so the file is complete (reading it
    # earlier found no 'run' record now and then, more often under load).
    wandb.teardown()
    [run_file] = list((tmp / "wandb").rglob("offline-run-*/run-*.wandb"))
    found = records(run_file)
    by_kind: dict[str, list] = {}
    for record in found:
        by_kind.setdefault(record.WhichOneof("record_type"), []).append(record)

    [header] = by_kind["run"]
    config = {
        item.key or "/".join(item.nested_key): json.loads(item.value_json)
        for item in header.run.config.update
    }
    assert config["model"] == "majority" and config["tasks"] == "tiny"
    assert header.run.project == "seebench-tests"

    history = {
        item.key or "/".join(item.nested_key): json.loads(item.value_json)
        for record in by_kind["history"]
        for item in record.history.item
    }
    result = json.loads((tmp / "out" / "majority" / "baseline" / "tiny.json").read_text())
    assert history["tiny/f1_macro"] == pytest.approx(result["metrics"]["f1_macro"])
    assert history["tiny/accuracy"] == pytest.approx(result["metrics"]["accuracy"])

    artifacts = {r.artifact.name: r.artifact for r in by_kind["artifact"]}
    assert artifacts["leaderboard"].type == "leaderboard"
    assert [m.path for m in artifacts["leaderboard"].manifest.contents] == ["leaderboard.csv"]
    [table] = list((tmp / "wandb").rglob("media/table/samples/tiny_*.table.json"))
    rows = json.loads(table.read_text())
    assert rows["columns"] == ["id", "prediction", "gold", "score", "error"]
    assert len(rows["data"]) == result["n"]

    leaderboard = (tmp / "out" / "runs" / "leaderboard-wandb.csv").read_text().splitlines()
    assert leaderboard[0].startswith("model,method,task,status,metric,value")
    assert leaderboard[1].startswith("majority,baseline,tiny,ok,f1_macro,")
    assert files_containing(tmp, SECRET) == []


def test_an_unknown_tracker_is_one_line_before_anything_runs(tracked, capsys):
    run, tmp = tracked
    assert run("--log-to", "wandbb") == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --log-to wandbb: unknown tracker; known:")
    assert not (tmp / "out" / "majority").exists()
