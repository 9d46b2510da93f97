"""The wheel carries the suites (task YAMLs, metadata) and the JSON Schemas."""

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
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(REPO_ROOT),
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = out.glob("seebench-*.whl")
    return set(zipfile.ZipFile(wheel).namelist())


def test_wheel_contains_every_suite_file(wheel_names):
    """Each built-in suite ships as one package: task YAMLs and metadata files included."""
    suites = REPO_ROOT / "seebench" / "suites"
    shipped = sorted(p for p in suites.rglob("*") if p.suffix in (".yaml", ".json"))
    assert len([p for p in shipped if p.suffix == ".yaml"]) >= 23, "SELU's task YAMLs are missing"
    for path in shipped:
        assert path.relative_to(REPO_ROOT).as_posix() in wheel_names


def test_wheel_contains_schemas_and_type_marker(wheel_names):
    assert "seebench/tasks/schema/task.schema.json" in wheel_names
    assert "seebench/results/schema/result.schema.json" in wheel_names
    assert "seebench/runner/schema/run.schema.json" in wheel_names
    assert "seebench/py.typed" in wheel_names
