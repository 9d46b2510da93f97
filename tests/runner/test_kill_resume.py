"""kill -9 in the middle of a multi-task run loses nothing already completed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from seebench.results.io import validate_result
from tests.conftest import REPO_ROOT, make_binary_task

TASKS = [f"task{i}" for i in range(6)]


def _env(tmp_path, task_dir, sleep: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin",
            "SEEBENCH_TEST_TASK_DIR": str(task_dir),
            "SEEBENCH_TEST_SLEEP": sleep,
            "SEEBENCH_LOAD_PLUGINS": "",
            "PYTHONPATH": str(REPO_ROOT),
        }
    )
    return env


def _eval(out, env, **kwargs):
    command = [
        sys.executable,
        "-m",
        "seebench.cli.main",
        "eval",
        "--model",
        "majority",
        "--method",
        "slow-echo",
        "--tasks",
        "tmp",
        "--output",
        str(out),
        "--no-progress",
    ]
    return subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=REPO_ROOT,
        **kwargs,
    )


def test_kill_9_then_rerun_completes_the_rest(tmp_path):
    task_dir = tmp_path / "tasks"
    for name in TASKS:
        make_binary_task(task_dir, name, rows=20)
    out = tmp_path / "out"
    results = out / "majority" / "slow-echo"
    process = _eval(out, _env(tmp_path, task_dir, "0.1"))  # 4 test samples x 0.1 s per task
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(results.glob("*.json"))) < 2:
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    done_before = sorted(p.name for p in results.glob("*.json"))
    assert 2 <= len(done_before) < len(TASKS), done_before
    mtimes = {name: (results / name).stat().st_mtime_ns for name in done_before}

    rerun = _eval(out, _env(tmp_path, task_dir, "0"))
    output, _ = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, output
    assert output.count("already done, skipped") == len(done_before)
    for name in TASKS:
        result = json.loads((results / f"{name}.json").read_text())
        assert validate_result(result) == [], name
        assert result["status"] == "ok"
        lines = (results / f"{name}.samples.jsonl").read_text().splitlines()
        assert len(lines) == result["n"] and all(json.loads(line) for line in lines)
    for name, mtime in mtimes.items():  # completed units were not recomputed
        assert (results / name).stat().st_mtime_ns == mtime
