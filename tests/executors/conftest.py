"""A small task set and the executor test plugin, visible to worker processes too."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from seebench.executors import ExecutorOptions, plan_sweep, run_sweep
from seebench.executors.worker import driver_env
from seebench.runner.config import EvalConfig
from tests.conftest import make_binary_task

PLUGINS = "tests.plugins.tmp_tasks_plugin,tests.plugins.executor_plugin"


@dataclasses.dataclass
class SweepEnv:
    out: Path
    flaky: Path

    def plan(self, models, tasks="tmp", output=None, **config):
        from seebench.plugin_manager import get_registry, get_task_index

        registry, index = get_registry(), get_task_index()
        cfg = EvalConfig(
            model=models[0], tasks=tasks, output=output or self.out, progress=False, **config
        )
        runners = {}
        return plan_sweep(cfg, models, registry, index, runners), runners

    def options(self, **kwargs) -> ExecutorOptions:
        from seebench.plugin_manager import get_registry, get_task_index

        return ExecutorOptions(
            env=driver_env(), registry=get_registry(), index=get_task_index(), **kwargs
        )

    def run(self, models, executor, events=None, retries=2, **config):
        units, runners = self.plan(models, **config)
        return run_sweep(
            units,
            executor,
            runners=runners,
            retries=retries,
            backoff=0.05,
            events=events,
            progress=False,
        )


@pytest.fixture
def sweep_env(tmp_path, monkeypatch) -> SweepEnv:
    tasks = tmp_path / "tasks"
    for name in ("alpha", "beta", "gamma"):
        make_binary_task(tasks, name, rows=20)
    flaky = tmp_path / "flaky"
    flaky.mkdir()
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tasks))
    monkeypatch.setenv("SEEBENCH_PLUGINS", PLUGINS)
    monkeypatch.setenv("SEEBENCH_TEST_FLAKY_DIR", str(flaky))
    return SweepEnv(out=tmp_path / "out", flaky=flaky)
