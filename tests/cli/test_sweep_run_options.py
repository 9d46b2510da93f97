"""Every run option (``--config``, ``--log-to``, ``--max-tokens-total``, ``--max-cost``,
``--unit-time-limit``) on a sweep of several models: the run ends with exit 0 and no traceback,
its run record names every model with its resolved options, and a rerun command of failed
units repeats the option."""

from __future__ import annotations

import importlib.util

import pytest
import yaml

from tests.cli.test_cli import run_cli
from tests.conftest import make_binary_task

FLAGS = {
    "config": None,  # a run file, written by the test
    "log-to": "mlflow",
    "max-tokens-total": "1000",
    "max-cost": "5",
    "unit-time-limit": "60",
}


@pytest.fixture
def env(tmp_path):
    for name in ("alpha", "beta"):
        make_binary_task(tmp_path / "tasks", name, rows=20)
    (tmp_path / "flaky").mkdir()
    return {
        "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin,tests.plugins.executor_plugin",
        "SEEBENCH_TEST_TASK_DIR": str(tmp_path / "tasks"),
        "SEEBENCH_TEST_FLAKY_DIR": str(tmp_path / "flaky"),
        "SEEBENCH_HOME": str(tmp_path / "home"),
        "MLFLOW_TRACKING_URI": (tmp_path / "mlruns").as_uri(),
        "MLFLOW_ALLOW_FILE_STORE": "true",
    }


def _flag(name: str, tmp_path) -> list[str]:
    if name == "config":
        run_file = tmp_path / "run.yaml"
        run_file.write_text("seed: 7\noptions:\n  repeats: 1\n")
        return ["--config", str(run_file)]
    if name == "log-to" and importlib.util.find_spec("mlflow") is None:
        pytest.skip("mlflow is not installed (the trackers extra)")
    return [f"--{name}", FLAGS[name]]


def _record(out) -> dict:
    [record] = sorted((out / "runs").glob("*.yaml"))
    return yaml.safe_load(record.read_text())


@pytest.mark.parametrize("name", list(FLAGS))
def test_each_run_option_works_on_a_sweep(env, tmp_path, name):
    out = tmp_path / "out"
    flag = _flag(name, tmp_path)
    args = ["eval", "--model", "majority,random", "--tasks", "tmp", "--output", str(out)]
    code, stdout, stderr = run_cli([*args, "--no-progress", *flag], env=env)
    assert code == 0, stdout + stderr
    assert "Traceback" not in stderr
    record = _record(out)
    assert [m["spec"] for m in record["models"]] == ["majority", "random"]
    assert [m["method"] for m in record["models"]] == ["baseline", "baseline"]
    if name == "config":
        assert record["seed"] == 7
        assert record["sources"]["options"] == "run file"
        assert record["models"][0]["method_options"] == {"repeats": 1}
        assert record["run_file"].endswith("run.yaml")
    assert len(list(out.glob("*/baseline/*.json"))) == 4


@pytest.mark.parametrize("name", list(FLAGS))
def test_the_rerun_command_of_failed_units_repeats_each_run_option(env, tmp_path, name):
    out = tmp_path / "out"
    flag = _flag(name, tmp_path)
    args = ["eval", "--model", "majority,xecho:broken-a", "--tasks", "tmp", "--output", str(out)]
    code, stdout, stderr = run_cli([*args, "--no-progress", "--retries", "0", *flag], env=env)
    assert code == 1, stdout + stderr
    assert "Traceback" not in stderr
    [command] = [line for line in stdout.splitlines() if line.startswith("  seebench eval")]
    assert "--model xecho:broken-a" in command and " ".join(flag) in command


def test_a_rejected_eval_writes_no_run_record(env, tmp_path):
    out = tmp_path / "out"
    for bad in (["--model", "majority,no-such-model"], ["--model", "majority", "--method", "nope"]):
        code, _, stderr = run_cli(
            ["eval", *bad, "--tasks", "tmp", "--output", str(out), "--no-progress"], env=env
        )
        assert code != 0 and "Traceback" not in stderr
    code, _, stderr = run_cli(
        ["eval", "--model", "majority", "--tasks", "nosuchtask", "--output", str(out)], env=env
    )
    assert code != 0 and "Traceback" not in stderr
    assert not (out / "runs").exists()
