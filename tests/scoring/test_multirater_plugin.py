"""A new task type with multi-rater targets and a callable scorer, entirely from a test plugin:
correct per-sample scores, score-based metrics with bootstrap intervals, re-scoring without
calling the model, and re-running when the plugin's version changes."""

from __future__ import annotations

import json

import pytest

from seebench import EvalConfig, run_eval
from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.runner.rescore import rescore
from seebench.tasks.index import build_task_index
from tests.conftest import write_task
from tests.plugins import multirater_plugin, tmp_tasks_plugin

# (ratings by rater, the model's label, the expected callable score, the expected type score)
ITEMS = [
    ({"r1": "good", "r2": "good", "r3": "bad"}, "good", 1.0, 2 / 3),
    ({"r1": "bad", "r2": "bad"}, "good", 0.0, 0.0),
    ({"r1": "good", "r3": "bad"}, "bad", 1.0, 0.5),
    ({"r2": "good"}, "good", 1.0, 1.0),
]


@pytest.fixture
def env(tmp_path, monkeypatch):
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    with open(tasks / "rated.jsonl", "w") as handle:
        for number, (ratings, label, _, _) in enumerate(ITEMS):
            handle.write(
                json.dumps({"text": f"item {number}", "ratings": ratings, "model_label": label})
                + "\n"
            )
    write_task(
        tasks,
        "rated",
        """
        name: rated
        suite: tmp
        version: 1
        type: multi_rater
        labels: [{name: good}, {name: bad}]
        data:
          sources: [{path: rated.jsonl, format: jsonl}]
          prepare: [{step: select, columns: {input: text, target: ratings, model_label: model_label}}]
        split: {method: none}
        scorers:
          - {name: callable, options: {function: "tests.plugins.multirater_plugin:majority_agrees"}}
        metrics: [mean_score]
        """,
    )
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tasks))
    multirater_plugin.CALLS.clear()
    return tmp_path / "out"


def _registry():
    pm = create_plugin_manager(
        ((tmp_tasks_plugin, "tmp"), (multirater_plugin, "multirater")), entry_points=False
    )
    return build_registry(pm)


def _run(out, **kwargs):
    registry = _registry()
    config = EvalConfig(
        model="fixed-rater", tasks="rated", output=out, progress=False, bootstrap=200, **kwargs
    )
    return run_eval(config, registry, build_task_index(registry))


def test_per_sample_scores_and_metric_with_interval(env):
    (outcome,) = _run(env)
    assert outcome.status == "ok", outcome.reason
    result = json.loads((env / "fixed-rater" / "rate" / "rated.json").read_text())
    assert result["n"] == len(ITEMS)  # split none: every row is a test item
    expected = [item[2] for item in ITEMS]
    assert result["metrics"]["mean_score"] == pytest.approx(sum(expected) / len(expected))
    info = result["metric_info"]["mean_score"]
    assert info["higher_is_better"] is True
    low, high = info["ci95"]
    assert 0.0 <= low <= result["metrics"]["mean_score"] <= high <= 1.0
    records = [
        json.loads(line) for line in (env / "fixed-rater" / "rate" / "rated.samples.jsonl").open()
    ]
    by_gold = {json.dumps(r["gold"], sort_keys=True): r for r in records}
    for ratings, label, score, _ in ITEMS:
        record = by_gold[json.dumps(ratings, sort_keys=True)]
        assert record["prediction"] == label and record["score"] == score
        assert record["scores"]["callable"]["explanation"] == f"{len(ratings)} raters"
    assert result["scorers"]["callable"]["function"].endswith(":majority_agrees")
    assert result["run"]["config"]["plugins"]["multirater"] == "<multirater>==1.0"


def test_the_type_score_is_used_without_scorers(env, tmp_path):
    path = tmp_path / "tasks" / "rated.yaml"
    text = path.read_text()
    path.write_text(text[: text.index("scorers:")] + "metrics: [mean_score]\n")
    (outcome,) = _run(env)
    assert outcome.status == "ok", outcome.reason
    expected = [item[3] for item in ITEMS]
    assert outcome.metrics["mean_score"] == pytest.approx(sum(expected) / len(expected))


def test_predict_only_then_score_equals_a_plain_run(env, tmp_path):
    (plain,) = _run(tmp_path / "plain")
    (predicted,) = _run(env, predict_only=True)
    assert predicted.metrics == {}
    result_path = env / "fixed-rater" / "rate" / "rated.json"
    assert json.loads(result_path.read_text())["scored"] is False
    registry = _registry()
    done = rescore(result_path, registry, build_task_index(registry), bootstrap=200)
    assert done.metrics == plain.metrics
    result = json.loads(result_path.read_text())
    plain_result = json.loads(
        (tmp_path / "plain" / "fixed-rater" / "rate" / "rated.json").read_text()
    )
    assert (
        result["metric_info"]["mean_score"]["ci95"]
        == plain_result["metric_info"]["mean_score"]["ci95"]
    )


def test_changing_a_scorer_option_rescores_without_the_model(env):
    _run(env)
    assert multirater_plugin.CALLS["model"] == len(ITEMS)
    calls = multirater_plugin.CALLS["scorer"]
    registry = _registry()
    index = build_task_index(registry)
    path = env / "fixed-rater" / "rate" / "rated.json"
    function = "tests.plugins.multirater_plugin:majority_agrees"
    halved = rescore(
        path, registry, index, scorer="callable", options={"function": function, "weight": 0.5}
    )
    assert multirater_plugin.CALLS["model"] == len(ITEMS)  # the model was not called again
    assert multirater_plugin.CALLS["scorer"] == calls + len(ITEMS)  # a new identity scores afresh
    assert halved.metrics["mean_score"] == pytest.approx(0.5 * 0.75)
    again = rescore(
        path, registry, index, scorer="callable", options={"function": function, "weight": 0.5}
    )
    assert multirater_plugin.CALLS["scorer"] == calls + len(ITEMS)  # the same identity: all cached
    assert again.metrics == halved.metrics and sum(again.computed.values()) == 0


def test_a_plugin_version_change_reruns_its_units(env, monkeypatch):
    assert [o.status for o in _run(env)] == ["ok"]
    assert [o.status for o in _run(env)] == ["cached"]
    monkeypatch.setattr(multirater_plugin, "__version__", "1.1")
    assert [o.status for o in _run(env)] == ["ok"]


def test_an_unknown_ratings_shape_is_one_clear_line(env, tmp_path):
    (tmp_path / "tasks" / "rated.jsonl").write_text(
        json.dumps({"text": "x", "ratings": [], "model_label": "good"}) + "\n"
    )
    (outcome,) = _run(env)
    assert outcome.status == "failed"
    assert "ratings must be a non-empty mapping" in outcome.reason and "\n" not in outcome.reason


def test_a_plain_run_after_predict_only_scores_without_the_model(env, tmp_path):
    (plain,) = _run(tmp_path / "plain")
    _run(env, predict_only=True)
    calls = multirater_plugin.CALLS["model"]
    (outcome,) = _run(env)
    assert multirater_plugin.CALLS["model"] == calls
    assert outcome.metrics == plain.metrics
    assert [o.status for o in _run(env)] == ["cached"]


def test_results_of_both_kinds_validate_against_the_schema(env, tmp_path):
    from seebench.results.io import validate_result

    _run(env, predict_only=True)
    path = env / "fixed-rater" / "rate" / "rated.json"
    assert validate_result(json.loads(path.read_text())) == []
    _run(env)
    assert validate_result(json.loads(path.read_text())) == []
