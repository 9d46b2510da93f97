"""A budget holds on every path of the one evaluation loop: serial, ``--workers 2``,
``--executor ray``, ``--model a,b`` and ``--retries 1`` stop at the same units, keep them, and
name the units not run with the command that runs them."""

from __future__ import annotations

import importlib.util

import pytest

from tests.cli.test_cli import run_cli
from tests.runner.test_budget import COST_PER_TASK, PRICES, TASKS

pytest.importorskip("httpx", reason="the openai backend needs the api extra")

from tests.methods.prompting.conftest import make_prompt_task  # noqa: E402
from tests.methods.prompting.fake_openai import FakeOpenAI  # noqa: E402

NO_RAY = importlib.util.find_spec("ray") is None

PATHS = {
    "serial": [],
    "workers": ["--workers", "2"],
    "ray": ["--executor", "ray", "--resource", "cpu=2"],
    "two-models": ["--model", "openai:m,openai:n"],
    "retries": ["--retries", "1"],
}


@pytest.fixture
def budget_env(tmp_path):
    tasks = tmp_path / "tasks"
    for name in TASKS:
        make_prompt_task(tasks, name, "binary", [f"{name} expect=bug", f"{name} expect=other"])
    with FakeOpenAI() as fake:
        yield (
            tmp_path,
            {
                "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin",
                "SEEBENCH_TEST_TASK_DIR": str(tasks),
                "SEEBENCH_HOME": str(tmp_path / "home"),
                "OPENAI_BASE_URL": fake.base_url,
                "RAY_AUTH_MODE": "disabled",
            },
        )


def _args(out, path: str) -> list[str]:
    args = ["eval", "--tasks", ",".join(TASKS), "--output", str(out), "--no-progress"]
    args += ["--bootstrap", "0", "--max-cost", str(1.5 * COST_PER_TASK)]
    for key, value in PRICES.items():
        args += ["-o", f"{key}={value}"]
    extra = PATHS[path]
    return args + (extra if "--model" in extra else ["--model", "openai:m", *extra])


@pytest.mark.parametrize(
    "path",
    [
        *[p for p in PATHS if p != "ray"],
        pytest.param(
            "ray",
            marks=[
                pytest.mark.slow,
                pytest.mark.skipif(NO_RAY, reason="Ray is not installed (the ray extra)"),
            ],
        ),
    ],
)
def test_a_budget_stops_at_the_same_units_on_every_path(budget_env, path):
    tmp_path, env = budget_env
    out = tmp_path / "out"
    code, stdout, stderr = run_cli(_args(out, path), env=env)
    assert code == 3, stdout + stderr
    assert "Traceback" not in stderr
    # the first two units ran (the second one spent the budget), and nothing else
    written = sorted(str(p.relative_to(out)) for p in out.glob("openai-*/*/*.json"))
    assert written == ["openai-m/zero-shot/t1.json", "openai-m/zero-shot/t2.json"]
    assert "stopped: cost budget reached" in stderr
    assert "2 finished unit(s) are kept" in stderr
    not_run = ["openai-m/zero-shot/t3"]
    if path == "two-models":
        not_run += [f"openai-n/zero-shot/{t}" for t in TASKS]
    assert f"{len(not_run)} unit(s) not started ({', '.join(not_run)})" in stderr
    # the command that runs only them, with the run's other options
    assert "seebench eval --model openai:m --method zero-shot --tasks t3 " in stderr
    if path == "two-models":
        assert "seebench eval --model openai:n --method zero-shot --tasks t1,t2,t3 " in stderr
    command = next(line for line in stderr.splitlines() if "--tasks t3 " in line)
    assert "--max-cost" in command and "--output" in command
    # the summary table lists the units not run
    assert stdout.count("not_run") == len(not_run)
