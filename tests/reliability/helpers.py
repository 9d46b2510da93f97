"""Running ``seebench eval`` in a subprocess on tiny tasks made in the test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT, make_binary_task

TASKS = [f"task{i}" for i in range(5)]


def make_tasks(root: Path, names=TASKS, rows: int = 20) -> Path:
    """Binary tasks with ``rows`` rows each (4 test samples); returns their directory."""
    for name in names:
        make_binary_task(root / "tasks", name, rows=rows)
    return root / "tasks"


def eval_env(task_dir: Path, home: Path, sleep: str = "0") -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(REPO_ROOT),
        "SEEBENCH_HOME": str(home),
        "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin",
        "SEEBENCH_TEST_TASK_DIR": str(task_dir),
        "SEEBENCH_TEST_SLEEP": sleep,
    }


def eval_command(out: Path, method: str = "slow-echo", tasks: str = "tmp") -> list[str]:
    return [
        sys.executable,
        "-m",
        "seebench.cli.main",
        "eval",
        "--model",
        "majority",
        "--method",
        method,
        "--tasks",
        tasks,
        "--output",
        str(out),
        "--no-progress",
    ]


def start_eval(out: Path, env: dict[str, str], **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        eval_command(out, **kwargs),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=REPO_ROOT,
    )


def run_eval_cli(out: Path, env: dict[str, str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        eval_command(out, **kwargs),
        env=env,
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=120,
    )


def run_cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "seebench.cli.main", *args],
        env=env,
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=120,
    )


def unit_lines(text: str, task: str) -> list[str]:
    """The lines the sweep driver prints about ``task``'s unit: ``MODEL/METHOD/TASK: ...``."""
    return [line for line in text.splitlines() if line.split(": ", 1)[0].endswith(f"/{task}")]


def slow_echo_eval(out: Path, *extra: str) -> list[str]:
    """``seebench eval`` arguments: the ``slow-echo`` method on the ``tmp`` tasks into ``out``."""
    return [
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
        *extra,
    ]


def use_tmp_tasks(tmp_path: Path, monkeypatch, names=("t0", "t1")) -> Path:
    """Make binary tasks ``names`` and load them as the ``tmp`` suite in this process."""
    task_dir = make_tasks(tmp_path, list(names))
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.tmp_tasks_plugin")
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(task_dir))
    return task_dir
