"""Helpers shared by the generate and test scenario tests: the RealHumanEval mirror, a
temporary data cache with it imported, a registry, in-process evaluation and a sandbox."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from seebench import EvalConfig, run_eval
from seebench.data.file_sets import FileSet
from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.tasks.index import build_task_index
from tests.requirements import unavailable

MIRROR = Path(__file__).resolve().parents[4] / ".." / "shared" / "data" / "realhumaneval"
UPSTREAM_DIR = "tasks_study/tasks"
#: CI sets this so that a missing sandbox fails the tests instead of skipping them.


def mirror_or_skip() -> Path:
    """The mirror's ``realhumaneval`` folder (skips the test without it)."""
    if not (MIRROR / "tasks_json").is_dir():
        pytest.skip("no ../shared/data/realhumaneval mirror")
    return MIRROR.resolve()


def mirror_file_set() -> FileSet:
    """The mirror's task files as a file set named by their upstream paths."""
    folder = mirror_or_skip() / "tasks_json"
    paths = {f"{UPSTREAM_DIR}/{p.name}": p for p in sorted(folder.glob("*.json"))}
    return FileSet(folder, paths)


def registry_and_index() -> tuple[Any, Any]:
    registry = build_registry(create_plugin_manager())
    return registry, build_task_index(registry)


def import_mirror(monkeypatch, home: Path) -> None:
    """A temporary SEEBENCH_HOME with the RealHumanEval task files imported."""
    from seebench.data.manage import import_directory

    monkeypatch.setenv("SEEBENCH_HOME", str(home))
    registry, index = registry_and_index()
    tasks = [index.get(n) for n in ("copilot_generate_realhumaneval", "copilot_test_realhumaneval")]
    report = import_directory(mirror_or_skip() / "tasks_json", tasks)
    assert len(report.imported) == 17


def evaluate(model: str, tasks: str, output: Path, **kwargs: Any) -> list[Any]:
    """Run ``seebench eval`` in-process; returns the outcomes."""
    registry, index = registry_and_index()
    config = EvalConfig(
        model=model, tasks=tasks, output=output, progress=False, bootstrap=50, **kwargs
    )
    return run_eval(config, registry, index)


def sandbox_or_skip() -> None:
    """Skip (fail in CI) when no sandbox can start here."""
    from seebench.sandbox import SandboxUnavailable, detect

    try:
        detect()
    except SandboxUnavailable as error:
        unavailable("sandbox", f"no sandbox here: {error}")
