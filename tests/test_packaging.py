"""The wheel carries the task YAMLs and the JSON Schemas, so an installed seebench has them."""

from __future__ import annotations

import subprocess
import sys
import zipfile

import pytest

from tests.conftest import REPO_ROOT


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory):
    pytest.importorskip("hatchling")
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(REPO_ROOT), "--no-deps", "--no-build-isolation",
         "-q", "-w", str(out)],
        check=True, capture_output=True, timeout=300,
    )
    (wheel,) = out.glob("seebench-*.whl")
    return set(zipfile.ZipFile(wheel).namelist())


def test_wheel_contains_every_task_yaml(wheel_names):
    shipped = sorted((REPO_ROOT / "task_configs").rglob("*.yaml"))
    assert shipped, "no task YAMLs in task_configs/"
    for path in shipped:
        assert f"seebench/task_configs/{path.relative_to(REPO_ROOT / 'task_configs')}" in wheel_names


def test_wheel_contains_schemas_and_type_marker(wheel_names):
    assert "seebench/tasks/schema/task.schema.json" in wheel_names
    assert "seebench/results/schema/result.schema.json" in wheel_names
    assert "seebench/py.typed" in wheel_names
