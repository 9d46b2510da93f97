"""The runner: results layout, resume, --force, statuses, shards, schema-valid results."""

from __future__ import annotations

import json

import pytest

from seebench import EvalConfig, run_eval
from seebench.errors import SeebenchError
from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.results.io import validate_result
from seebench.runner.config import parse_shard
from seebench.tasks.index import build_task_index
from tests.conftest import make_binary_task, write_task
from tests.plugins import good_plugin, tmp_tasks_plugin


@pytest.fixture
def env(tmp_path, monkeypatch):
    tasks = tmp_path / "tasks"
    for name in ("alpha", "beta", "gamma"):
        make_binary_task(tasks, name)
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tasks))
    pm = create_plugin_manager(
        ((tmp_tasks_plugin, "tmp"), (good_plugin, "good")), entry_points=False
    )
    registry = build_registry(pm)
    return registry, tasks, tmp_path / "out"


def run(env, **kwargs):
    registry, _, out = env
    config = EvalConfig(
        model=kwargs.pop("model", "majority"),
        tasks=kwargs.pop("tasks", "tmp"),
        output=out,
        progress=False,
        **kwargs,
    )
    return run_eval(config, registry, build_task_index(registry))


def test_results_are_written_and_valid(env):
    outcomes = run(env)
    assert [o.status for o in outcomes] == ["ok", "ok", "ok"]
    out = env[2]
    result = json.loads((out / "majority" / "baseline" / "alpha.json").read_text())
    assert validate_result(result) == []
    assert result["task"]["name"] == "alpha" and result["model"]["id"] == "majority"
    assert set(result["metrics"]) == {"f1_macro", "accuracy"}
    assert result["data"]["counts"]["test"] == result["n"] == 8
    samples = (out / "majority" / "baseline" / "alpha.samples.jsonl").read_text().splitlines()
    assert len(samples) == 8
    record = json.loads(samples[0])
    assert set(record) >= {"id", "input_hash", "prediction", "gold", "score"}
    assert "shots" not in record  # only methods that show examples report them
    assert result["timings"]["cpu_s"] >= 0  # CPU time beside the wall times
    assert set(result["environment"]["hardware"]) >= {"cpu", "cpus_usable", "blas"}


def test_rerun_recomputes_nothing_and_force_recomputes(env):
    run(env)
    path = env[2] / "majority" / "baseline" / "beta.json"
    before = path.stat().st_mtime_ns
    assert [o.status for o in run(env)] == ["cached"] * 3
    assert path.stat().st_mtime_ns == before
    assert [o.status for o in run(env, force=True)] == ["ok"] * 3
    assert path.stat().st_mtime_ns != before


def test_changed_config_recomputes(env):
    run(env)
    assert [o.status for o in run(env, limit=3)] == ["ok"] * 3
    result = json.loads((env[2] / "majority" / "baseline" / "alpha.json").read_text())
    assert result["n"] == 3 and result["run"]["limit"] == 3


def test_same_seed_same_predictions_and_ids(env):
    run(env, model="random")
    first = (env[2] / "random" / "baseline" / "alpha.samples.jsonl").read_text()
    run(env, model="random", force=True)
    assert (env[2] / "random" / "baseline" / "alpha.samples.jsonl").read_text() == first


def test_missing_data_is_skipped_not_fatal(env):
    registry, tasks, _ = env
    (tasks / "beta.jsonl").unlink()
    outcomes = run(env)
    assert [o.status for o in outcomes] == ["ok", "skipped", "ok"]
    assert "beta.jsonl is missing" in outcomes[1].reason
    result = json.loads((env[2] / "majority" / "baseline" / "beta.json").read_text())
    assert result["status"] == "skipped" and validate_result(result) == []
    # a skipped unit is retried on the next run
    make_binary_task(tasks, "beta")
    assert [o.status for o in run(env)] == ["cached", "ok", "cached"]


def test_not_applicable_is_recorded(env):
    registry, tasks, _ = env
    write_task(
        tasks,
        "tags",
        """
        name: tags
        suite: tmp
        version: 1
        type: ner
        labels: [{name: API}]
        data: {sources: [{path: tags.conll, format: conll}]}
        metrics: [entity_f1_micro]
    """,
    )
    (tasks / "tags.conll").write_text("call O\nfoo B-API\n\n")
    outcomes = run(env, tasks="tags")
    assert outcomes[0].status == "not_applicable"
    assert "does not support ner" in outcomes[0].reason


def test_failing_method_is_recorded_and_run_continues(env, monkeypatch):
    def boom(self, context):
        raise ValueError("exploded")

    monkeypatch.setattr(good_plugin.EchoMethod, "run", boom)
    outcomes = run(env, model="echo-model")
    assert {o.status for o in outcomes} == {"failed"}
    result = json.loads((env[2] / "echo" / "echo" / "gamma.json").read_text())
    assert result["reason"] == "ValueError: exploded" and "traceback" in result["info"]


def test_perfect_method_scores_one(env):
    outcomes = run(env, model="echo-model")
    assert all(o.metrics["f1_macro"] == 1.0 for o in outcomes)


def test_shards_partition_the_units(env):
    names = []
    for i in (1, 2):
        names += [o.task for o in run(env, shard=(i, 2))]
    assert sorted(names) == ["alpha", "beta", "gamma"]


@pytest.mark.parametrize("text", ["0/2", "3/2", "x", "1/0"])
def test_bad_shard(text):
    with pytest.raises(SeebenchError, match="--shard"):
        parse_shard(text)


def test_observer_sees_every_unit(env, monkeypatch):
    registry, tasks, out = env
    pm = create_plugin_manager(((good_plugin, "good"),), entry_points=False)
    registry.observers = build_registry(pm).observers
    good_plugin.EVENTS.clear()
    run((registry, tasks, out))
    assert [e.task for e in good_plugin.EVENTS] == ["alpha", "beta", "gamma"]
    assert all(e.status == "ok" for e in good_plugin.EVENTS)
