"""tfidf-xgboost and fasttext through the runner on tiny tasks of every baseline task type."""

from __future__ import annotations

import dataclasses
import json
from types import SimpleNamespace

import pytest

from seebench import EvalConfig, run_eval
from seebench.errors import SeebenchError

pytest.importorskip("xgboost")
pytest.importorskip("fasttext")

# Small grids keep the tests fast; the SELU grids are checked in test_grids.py.
XGB_OPTIONS = {"max_depth": "3,4", "min_child_weight": "1,2", "n_estimators": 20, "progress": False}
FT_OPTIONS = {"lr": [0.01, 0.1], "epoch": "5,10", "dim": 16, "progress": False}


def evaluate(env, model: str, options: dict, tasks: str = "tmp", **kwargs):
    registry, index, out = env
    config = EvalConfig(
        model=model, tasks=tasks, output=out, progress=False, method_options=options, **kwargs
    )
    return run_eval(config, registry, index)


def with_registry(estimator, registry):
    """An estimator as the baseline method hands it over: with the registry it scores with."""
    estimator.registry = registry
    return estimator


def result(env, model: str, task: str) -> dict:
    return json.loads((env[2] / model / "baseline" / f"{task}.json").read_text())


@pytest.mark.parametrize(
    ("model", "options"), [("tfidf-xgboost", XGB_OPTIONS), ("fasttext", FT_OPTIONS)]
)
def test_every_task_type_gets_results_with_the_selection(tiny_env, model, options):
    outcomes = evaluate(tiny_env, model, options)
    assert {o.task: o.status for o in outcomes} == {
        "tiny_binary": "ok",
        "tiny_multiclass": "ok",
        "tiny_multilabel": "ok",
        "tiny_regression": "ok",
    }
    for task in ("tiny_binary", "tiny_multiclass", "tiny_multilabel"):
        fit = result(tiny_env, model, task)["info"]["fit"]
        assert fit["grid_size"] == 4 and len(fit["grid_scores"]) == 4
        assert set(fit["selected"]) == (
            {"max_depth", "min_child_weight"} if model == "tfidf-xgboost" else {"lr", "epoch"}
        )
        assert (
            fit["validation"]["metric"] == "f1_macro" and 0.0 <= fit["validation"]["score"] <= 1.0
        )
        assert (
            fit["validation"]["n"] > 0 and fit["final_train_size"] > fit["train_size"]
        )  # refit on train+val
    # the words decide the label: a working classifier beats chance clearly
    assert result(tiny_env, model, "tiny_multiclass")["metrics"]["f1_macro"] > 0.6
    assert result(tiny_env, model, "tiny_multilabel")["metrics"]["f1_macro"] > 0.6


def test_predictions_have_the_task_shape(tiny_env):
    evaluate(tiny_env, "tfidf-xgboost", XGB_OPTIONS, tasks="tiny_multilabel,tiny_regression")
    out = tiny_env[2] / "tfidf-xgboost" / "baseline"
    for line in (out / "tiny_multilabel.samples.jsonl").read_text().splitlines():
        prediction = json.loads(line)["prediction"]
        assert isinstance(prediction, list) and set(prediction) <= {"fix", "feature", "refactor"}
    for line in (out / "tiny_regression.samples.jsonl").read_text().splitlines():
        assert 0.0 <= json.loads(line)["prediction"] <= 10.0  # clipped to value_range


def test_fasttext_regression_uses_averaged_vectors_without_selection(tiny_env):
    evaluate(tiny_env, "fasttext", FT_OPTIONS, tasks="tiny_regression")
    fit = result(tiny_env, "fasttext", "tiny_regression")["info"]["fit"]
    assert fit["grid_size"] == 1 and fit["selected"] is None
    assert "averaged fastText" in fit["regression"]


@pytest.mark.parametrize(
    ("model", "options"), [("tfidf-xgboost", XGB_OPTIONS), ("fasttext", FT_OPTIONS)]
)
def test_same_seed_same_models(tiny_env, model, options, tmp_path):
    from seebench.data.dataset import load_task_data
    from seebench.methods.baseline.ft import FastTextEstimator
    from seebench.methods.baseline.xgb import TfidfXGBoostEstimator

    registry, index, _ = tiny_env
    data = load_task_data(index.get("tiny_multiclass"), registry, seed=1)
    factory = TfidfXGBoostEstimator if model == "tfidf-xgboost" else FastTextEstimator
    runs = []
    for extra in ({}, {"jobs": 1}, {"jobs": 3}) if model == "tfidf-xgboost" else ({}, {}):
        estimator = with_registry(factory(), registry)
        info = estimator.fit(data, 7, {**options, **extra})
        runs.append((info["grid_scores"], info["selected"], estimator.predict(data.test)))
    assert all(run == runs[0] for run in runs[1:])  # parallel grid points change nothing


def test_ner_and_mlm_are_not_applicable(tiny_env):
    from seebench.methods.baseline.ft import FastTextEstimator
    from seebench.methods.baseline.xgb import TfidfXGBoostEstimator

    for estimator in (TfidfXGBoostEstimator(), FastTextEstimator()):
        for task_type in ("ner", "mlm"):
            reason = estimator.not_applicable(
                SimpleNamespace(
                    type=task_type,
                    target_kind={"ner": "tag_sequence", "mlm": "masked_words"}[task_type],
                )
            )
            assert reason and task_type in reason
        assert estimator.not_applicable(SimpleNamespace(type="binary", target_kind="label")) is None


def test_an_unknown_option_fails_with_one_line_before_any_work(tiny_env):
    with pytest.raises(
        SeebenchError, match=r"unknown option 'max_dept' \(did you mean 'max_depth'\?\)"
    ):
        evaluate(tiny_env, "tfidf-xgboost", {"max_dept": 3}, tasks="tiny_binary")


def test_regression_stops_on_the_primary_metric_and_selects_by_its_direction(tiny_env):
    from seebench.data.dataset import load_task_data
    from seebench.methods.baseline.xgb import TfidfXGBoostEstimator

    registry, index, _ = tiny_env
    data = load_task_data(index.get("tiny_regression"), registry, seed=1)
    info = with_registry(TfidfXGBoostEstimator(), registry).fit(data, 7, XGB_OPTIONS)
    assert info["options"]["early_stopping_metric"] == "primary"
    assert info["validation"]["metric"] == "one_minus_smape"
    assert info["validation"]["score"] == max(p["score"] for p in info["grid_scores"])

    # the same task scored by SMAPE (lower is better): the lowest validation score is selected
    task = index.get("tiny_regression")
    smape_task = dataclasses.replace(task, metrics=("smape",))
    info = with_registry(TfidfXGBoostEstimator(), registry).fit(
        dataclasses.replace(data, task=smape_task), 7, XGB_OPTIONS
    )
    assert info["validation"]["metric"] == "smape"
    assert info["validation"]["score"] == min(p["score"] for p in info["grid_scores"])


def test_the_run_summary_names_the_selected_parameters(tiny_env):
    outcomes = evaluate(tiny_env, "tfidf-xgboost", XGB_OPTIONS, tasks="tiny_binary")
    assert (
        outcomes[0].note.startswith("selected max_depth=")
        and "validation f1_macro" in outcomes[0].note
    )
    again = evaluate(
        tiny_env, "tfidf-xgboost", XGB_OPTIONS, tasks="tiny_binary"
    )  # cached: same note
    assert again[0].status == "cached" and again[0].note == outcomes[0].note


@pytest.mark.parametrize("task", ["tiny_binary", "tiny_multiclass"])
def test_classification_can_stop_on_the_primary_metric(tiny_env, task):
    from seebench.data.dataset import load_task_data
    from seebench.methods.baseline.xgb import TfidfXGBoostEstimator

    registry, index, _ = tiny_env
    data = load_task_data(index.get(task), registry, seed=1)
    estimator = with_registry(TfidfXGBoostEstimator(), registry)
    info = estimator.fit(
        data, 7, {**XGB_OPTIONS, "early_stopping_metric": "primary", "early_stopping_rounds": 3}
    )
    assert info["options"]["early_stopping_metric"] == "primary"
    # the custom metric decodes XGBoost's probabilities: the words decide the label, so F1 is high
    assert info["validation"]["score"] > 0.6
    assert all(1 <= p["rounds"][0] <= 20 for p in info["grid_scores"])
    assert len(estimator.predict(data.test)) == len(data.test)
