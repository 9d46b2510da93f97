"""Budgets: ``--max-tokens-total`` and ``--max-cost`` stop a run cleanly between units, keeping
every finished unit, and a rerun continues; ``--unit-time-limit`` fails a slow unit only."""

from __future__ import annotations

import json

import pytest

from seebench import EvalConfig, run_eval
from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.runner.budget import Budget, BudgetExhausted
from seebench.tasks.index import build_task_index
from tests.conftest import make_binary_task
from tests.plugins import tmp_tasks_plugin

pytest.importorskip("httpx", reason="the openai backend needs the api extra")

from tests.methods.prompting.conftest import make_prompt_task  # noqa: E402
from tests.methods.prompting.fake_openai import FakeOpenAI  # noqa: E402

TASKS = ["t1", "t2", "t3"]
# the fake server's usage: 100 prompt + 3 completion tokens per request; 2 requests per task
PRICES = {"price_input": 1000.0, "price_output": 1000.0, "concurrency": 1}
COST_PER_TASK = 2 * 103 * 1000.0 / 1e6  # 0.206 USD


@pytest.fixture
def env(tmp_path, monkeypatch):
    tasks = tmp_path / "tasks"
    for name in TASKS:
        make_prompt_task(tasks, name, "binary", [f"{name} expect=bug", f"{name} expect=other"])
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tasks))
    registry = build_registry(
        create_plugin_manager(((tmp_tasks_plugin, "tmp"),), entry_points=False)
    )
    with FakeOpenAI() as fake:
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        yield registry, tmp_path / "out", fake


def _run(env, budget: Budget | None, **extra):
    registry, out, _ = env
    config = EvalConfig(
        model="openai:m",
        tasks=",".join(TASKS),
        output=out,
        progress=False,
        bootstrap=0,
        method_options=dict(PRICES),
        budget=budget,
        **extra,
    )
    return run_eval(config, registry, build_task_index(registry))


def _done(out):
    return sorted(p.stem for p in (out / "openai-m" / "zero-shot").glob("*.json"))


def test_a_cost_budget_stops_cleanly_and_a_rerun_continues(env):
    _, out, fake = env
    with pytest.raises(BudgetExhausted) as stop:
        _run(env, Budget(max_cost=1.5 * COST_PER_TASK))
    assert "cost budget reached" in stop.value.reason
    assert [o.status for o in stop.value.outcomes] == ["ok", "ok"]
    assert stop.value.remaining == ["openai-m/zero-shot/t3"]
    assert _done(out) == ["t1", "t2"]  # finished units are kept, intact
    for name in _done(out):
        result = json.loads((out / "openai-m" / "zero-shot" / f"{name}.json").read_text())
        assert result["status"] == "ok"
    requests = fake.requests

    outcomes = _run(env, Budget(max_cost=10 * COST_PER_TASK))
    assert [o.status for o in outcomes] == ["cached", "cached", "ok"]
    assert fake.requests == requests + 2  # only the remaining unit called the model
    assert _done(out) == TASKS


def test_a_token_budget_stops_before_the_next_unit(env):
    with pytest.raises(BudgetExhausted) as stop:
        _run(env, Budget(max_tokens_total=100))
    assert "token budget reached: 206 tokens" in stop.value.reason
    assert stop.value.remaining == ["openai-m/zero-shot/t2", "openai-m/zero-shot/t3"]


def test_cached_units_cost_nothing(env):
    _run(env, None)
    outcomes = _run(env, Budget(max_tokens_total=1))  # everything is done already
    assert [o.status for o in outcomes] == ["cached"] * 3


def test_a_unit_over_its_time_limit_fails_and_the_run_goes_on(tmp_path, monkeypatch):
    make_binary_task(tmp_path / "tasks", "slow", rows=40)
    make_binary_task(tmp_path / "tasks", "quick", rows=40)
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tmp_path / "tasks"))
    registry = build_registry(
        create_plugin_manager(((tmp_tasks_plugin, "tmp"),), entry_points=False)
    )
    out = tmp_path / "out"

    def run(sleep: str, limit: float | None):
        monkeypatch.setenv("SEEBENCH_TEST_SLEEP", sleep)
        config = EvalConfig(
            model="majority",
            method="slow-echo",
            tasks="slow,quick",
            output=out,
            progress=False,
            bootstrap=0,
            budget=Budget(unit_time_limit=limit) if limit else None,
        )
        return run_eval(config, registry, build_task_index(registry))

    outcomes = run("0.2", 0.5)  # 40 samples x 0.2 s: far over the limit
    slow = next(o for o in outcomes if o.task == "slow")
    assert slow.status == "failed" and "unit time limit of 0.5 s reached" in slow.reason
    assert {o.task for o in outcomes} == {"slow", "quick"}  # the run went on
    again = run("0", None)  # a rerun retries the failed unit
    assert {o.task: o.status for o in again}["slow"] == "ok"


def test_the_cli_says_what_remains_and_how_to_continue(env, monkeypatch, capsys):
    from seebench.cli.main import main

    registry, out, _ = env
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.tmp_tasks_plugin")
    args = ["eval", "--model", "openai:m", "--tasks", ",".join(TASKS), "--output", str(out)]
    args += ["--no-progress", "--bootstrap", "0", "--max-tokens-total", "300"]
    for key, value in PRICES.items():
        args += ["-o", f"{key}={value}"]
    with pytest.raises(SystemExit) as done:
        main(args)
    err = capsys.readouterr().err
    assert done.value.code == 3
    assert "token budget reached" in err and "2 finished unit(s) are kept" in err
    assert "1 unit(s) not started (openai-m/zero-shot/t3)" in err
    assert "run the same command again" in err
    # and the command that runs only the rest
    assert "seebench eval --model openai:m --method zero-shot --tasks t3 " in err


def test_charge_reads_usage_and_cost_of_each_repeat_and_names_unpriced_units(tmp_path, caplog):
    priced = tmp_path / "priced.json"
    priced.write_text(
        json.dumps(
            {
                "task": {"name": "a"},
                "info": {
                    "repeats": [
                        {"usage": {"prompt_tokens": 10, "completion_tokens": 2}, "cost_usd": 0.5},
                        {"usage": {"prompt_tokens": 10, "completion_tokens": 3}, "cost_usd": 0.25},
                    ]
                },
            }
        )
    )
    unpriced = tmp_path / "unpriced.json"
    unpriced.write_text(
        json.dumps({"task": {"name": "b"}, "info": {"usage": {"prompt_tokens": 5}}})
    )
    budget = Budget(max_cost=1.0)
    budget.charge(priced, "ok")
    budget.charge(unpriced, "ok")
    budget.charge(priced, "cached")  # read from the results directory: costs nothing
    assert budget.spent() == {"tokens": 30, "cost_usd": 0.75}
    assert budget.units_without_price == ["b"] and "'b' used tokens but has no price" in caplog.text
    assert budget.exhausted() is None
    budget.charge(priced, "ok")
    assert budget.exhausted().startswith("cost budget reached: 1.5000 USD spent")


@pytest.mark.parametrize(
    "content",
    [
        "[1, 2]",
        '"text"',
        json.dumps({"task": "not a record", "info": {"usage": {"prompt_tokens": 5}}}),
    ],
)
def test_a_result_of_another_shape_is_charged_what_it_shows_not_raised(tmp_path, content):
    result = tmp_path / "odd.json"
    result.write_text(content)
    budget = Budget(max_cost=1.0)
    budget.charge(result, "ok")
    assert budget.spent()["cost_usd"] == 0.0
    assert budget.units_without_price in ([], [str(result)])
