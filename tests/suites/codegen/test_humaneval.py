"""HumanEval end to end: data from the wheel, methods, the sandbox, results, re-scoring."""

from __future__ import annotations

import pytest

from seebench.results.io import validate_result
from seebench.runner.rescore import rescore
from seebench.tasks.index import build_task_index
from tests.suites.codegen.conftest import derived_task, evaluate, read_unit

MISSING_BWRAP = "/nonexistent/bwrap"


def test_reference_passes_all_164_problems_in_the_sandbox(code_env, sandbox_ok):
    [outcome] = evaluate(code_env, "reference", "humaneval")
    assert outcome.status == "ok", outcome.reason
    result, samples = read_unit(code_env[2], "reference", "reference", "humaneval")
    assert validate_result(result) == []
    assert result["n"] == len(samples) == 164 and result["invalid"] == 0
    assert result["metrics"] == {"pass_rate": 1.0}
    assert result["metric_info"]["pass_rate"]["higher_is_better"] is True
    identity = result["scorers"]["python_tests"]
    assert identity["sandbox"].startswith("bwrap") and identity["limits"]["cpu_s"] == 5
    assert all(s["score"] == 1.0 for s in samples) and "unscored" not in result


def test_a_wrong_method_fails_every_problem(code_env, sandbox_ok):
    [outcome] = evaluate(code_env, "reference", "humaneval", method="wrong", limit=12)
    assert outcome.status == "ok" and outcome.metrics == {"pass_rate": 0.0}
    _, samples = read_unit(code_env[2], "reference", "wrong", "humaneval")
    verdicts = {s["scores"]["python_tests"]["metadata"]["verdict"] for s in samples}
    assert verdicts == {"failed"}
    assert all(s["scores"]["python_tests"]["explanation"].startswith("failed:") for s in samples)


def test_invalid_answers_count_as_failures(code_env, sandbox_ok):
    [outcome] = evaluate(code_env, "reference", "humaneval", method="mixed", limit=10)
    result, _ = read_unit(code_env[2], "reference", "mixed", "humaneval")
    # positions 0, 2, 6, 8 answer the reference; 1, 3, 5, 7 a wrong body; 4 and 9 nothing
    assert outcome.metrics == {"pass_rate": pytest.approx(0.4)} and result["invalid"] == 2


def test_without_bwrap_the_unit_is_skipped_with_sandbox_unavailable(code_env):
    registry, tasks, out = code_env
    derived_task(
        tasks,
        "he_nobwrap",
        f"scorers: [{{name: python_tests, options: {{bwrap: {MISSING_BWRAP}}}}}]",
    )
    [outcome] = evaluate(code_env, "reference", "he_nobwrap", limit=4)
    assert outcome.status == "skipped"
    assert outcome.reason.startswith(
        f"sandbox_unavailable: no bwrap executable found at {MISSING_BWRAP}"
    )
    result, samples = read_unit(out, "reference", "reference", "he_nobwrap")
    assert validate_result(result) == []
    assert result["status"] == "skipped" and result["metrics"] == {} and result["scored"] is False
    assert result["scorers"]["python_tests"]["sandbox"] == "unavailable"
    assert result["unscored"]["count"] == 4
    assert len(samples) == 4 and all(s["score"] is None for s in samples)  # predictions kept
    # a rerun tries again (a skipped unit is never "done")
    assert [o.status for o in evaluate(code_env, "reference", "he_nobwrap", limit=4)] == ["skipped"]


def test_a_skipped_unit_is_scored_once_a_sandbox_is_there(code_env, sandbox_ok):
    registry, tasks, out = code_env
    derived_task(
        tasks, "he_later", f"scorers: [{{name: python_tests, options: {{bwrap: {MISSING_BWRAP}}}}}]"
    )
    evaluate(code_env, "reference", "he_later", limit=3)
    path = out / "reference" / "reference" / "he_later.json"
    done = rescore(path, registry, build_task_index(registry), scorer="python_tests", bootstrap=0)
    assert done.metrics == {"pass_rate": 1.0}
    result, _ = read_unit(out, "reference", "reference", "he_later")
    assert result["status"] == "ok" and result["reason"] is None and "unscored" not in result
    assert validate_result(result) == []


def test_unsafe_host_exec_runs_without_bwrap_and_says_sandbox_none(code_env):
    registry, tasks, out = code_env
    derived_task(
        tasks,
        "he_unsafe",
        f"scorers: [{{name: python_tests, options: {{bwrap: {MISSING_BWRAP}}}}}]",
    )
    [outcome] = evaluate(
        code_env, "reference", "he_unsafe", limit=5, method_options={"unsafe_host_exec": True}
    )
    assert outcome.status == "ok" and outcome.metrics == {"pass_rate": 1.0}
    result, samples = read_unit(out, "reference", "reference", "he_unsafe")
    assert result["scorers"]["python_tests"]["sandbox"] == "none"
    assert result["run"]["config"]["scorers"]["python_tests"]["sandbox"] == "none"
    assert {s["scores"]["python_tests"]["metadata"]["sandbox"] for s in samples} == {"none"}
    # the same unit without the flag is another unit: it is not taken from the unsafe result
    [again] = evaluate(code_env, "reference", "he_unsafe", limit=5)
    assert again.status == "skipped"


def test_predict_only_then_score_gives_the_same_pass_rate(code_env, sandbox_ok):
    registry, _, out = code_env
    [plain] = evaluate(
        code_env, "reference", "humaneval", method="mixed", limit=10, output=out / "plain"
    )
    [predicted] = evaluate(
        code_env,
        "reference",
        "humaneval",
        method="mixed",
        limit=10,
        output=out / "later",
        predict_only=True,
    )
    assert predicted.status == "ok" and predicted.metrics == {}
    path = out / "later" / "reference" / "mixed" / "humaneval.json"
    done = rescore(path, registry, build_task_index(registry), bootstrap=50)
    assert done.metrics == plain.metrics == {"pass_rate": pytest.approx(0.4)}
    assert done.computed == {"python_tests": 10}
    logs = list(
        (out / "later" / "reference" / "mixed" / "humaneval.artifacts" / "python_tests").iterdir()
    )
    assert len(logs) == 8  # two answers were invalid: nothing to run


def test_repeats_give_pass_at_k(code_env, sandbox_ok):
    registry, tasks, out = code_env
    derived_task(tasks, "he_k", "pass_k: [1, 2]")
    [outcome] = evaluate(
        code_env, "reference", "he_k", method="flaky", limit=6, method_options={"repeats": 3}
    )
    assert outcome.status == "ok", outcome.reason
    result, samples = read_unit(out, "reference", "flaky", "he_k")
    assert len(samples) == 18 and result["run"]["config"]["repeats"] == 3
    # every item passes in exactly one repeat of three
    assert result["repeat_metrics"] == {
        "pass@1": pytest.approx(1 / 3),
        "pass^1": pytest.approx(1 / 3),
        "pass@2": pytest.approx(2 / 3),
        "pass^2": 0.0,
    }
    assert {row["passed"] for row in result["item_spread"]} == {1}


def test_the_suite_is_one_plugin_that_can_be_disabled(monkeypatch):
    from seebench.plugin_manager import build_registry, create_plugin_manager

    registry = build_registry(create_plugin_manager((), entry_points=False))
    assert "humaneval" in build_task_index(registry).select("codegen")[0].name
    monkeypatch.setenv("SEEBENCH_DISABLE_PLUGINS", "codegen")
    registry = build_registry(create_plugin_manager((), entry_points=False))
    assert "codegen" not in registry.suites and "code" not in registry.task_types
    assert "python_tests" not in registry.scorers and "reference" not in registry.models
    assert "humaneval" not in {t.name for t in build_task_index(registry).select("all")}
