"""The command line: ``--unsafe-host-exec`` on eval and score, predict-only then score."""

from __future__ import annotations

import json

from tests.cli.test_cli import run_cli
from tests.suites.codegen.conftest import derived_task


def _env(tasks):
    return {
        "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin",
        "SEEBENCH_TEST_TASK_DIR": str(tasks),
    }


def test_unsafe_host_exec_flag_runs_without_a_sandbox_and_says_so(tmp_path):
    tasks, out = tmp_path / "tasks", tmp_path / "out"
    derived_task(
        tasks, "he_cli", "scorers: [{name: python_tests, options: {bwrap: /nonexistent/bwrap}}]"
    )
    args = [
        "eval",
        "--model",
        "reference",
        "--tasks",
        "he_cli",
        "--limit",
        "3",
        "--output",
        str(out),
        "--no-progress",
        "--bootstrap",
        "0",
    ]
    code, stdout, stderr = run_cli(args, env=_env(tasks))
    assert code == 0, stdout + stderr
    result_path = out / "reference" / "reference" / "he_cli.json"
    result = json.loads(result_path.read_text())
    assert result["status"] == "skipped" and "sandbox_unavailable" in result["reason"]

    code, stdout, stderr = run_cli([*args, "--unsafe-host-exec"], env=_env(tasks))
    assert code == 0, stdout + stderr
    result = json.loads(result_path.read_text())
    assert result["status"] == "ok" and result["metrics"] == {"pass_rate": 1.0}
    assert result["scorers"]["python_tests"]["sandbox"] == "none"

    code, stdout, stderr = run_cli(
        ["score", str(result_path), "--unsafe-host-exec", "--bootstrap", "0"], env=_env(tasks)
    )
    assert code == 0, stdout + stderr
    assert "pass_rate 1.0000 (0 score(s) computed" in stdout  # the same identity: from the cache
