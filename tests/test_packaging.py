"""The wheel carries the task definitions (``task_configs/``), the suites' metadata and the
JSON Schemas, and an installed (not editable) wheel lists every task."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile

import pytest

from tests.conftest import REPO_ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
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
    return wheel


@pytest.fixture(scope="module")
def wheel_names(wheel):
    return set(zipfile.ZipFile(wheel).namelist())


def test_wheel_contains_every_task_config(wheel_names):
    """The top-level ``task_configs/`` ships as ``seebench/task_configs/``, data lists included."""
    configs = REPO_ROOT / "task_configs"
    shipped = sorted(p for p in configs.rglob("*") if p.is_file())
    assert len([p for p in shipped if p.parent.name == "selu" and p.suffix == ".yaml"]) >= 23
    for path in shipped:
        assert f"seebench/task_configs/{path.relative_to(configs).as_posix()}" in wheel_names


def test_wheel_contains_every_suite_metadata_file(wheel_names):
    suites = REPO_ROOT / "seebench" / "suites"
    for path in sorted(p for p in suites.rglob("*.json") if "study" not in p.parts):
        assert path.relative_to(REPO_ROOT).as_posix() in wheel_names


def test_an_installed_wheel_lists_every_task(wheel, tmp_path):
    """Unpacked (as pip installs it) and first on the path, the wheel finds every suite's tasks
    without the checkout."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site), "SEEBENCH_HOME": str(tmp_path / "home")}
    env["SEEBENCH_LOAD_PLUGINS"] = ""  # the built-in suites only
    code = (
        "import json, sys, seebench; from seebench.cli.main import main; "
        "print(json.dumps(seebench.__file__)); main(['tasks', 'list', '--json'])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    first, _, rest = done.stdout.partition("\n")
    assert json.loads(first).startswith(str(site)), "the checkout was imported, not the wheel"
    listed = {row["name"] for row in json.loads(rest) if row["status"] == "ok"}
    configs = REPO_ROOT / "task_configs"
    expected = {
        p.stem
        for p in configs.rglob("*.yaml")
        if not p.name.startswith("_") and "data" not in p.parts
    }
    assert expected <= listed and len(expected) >= 60


def test_wheel_contains_schemas_and_type_marker(wheel_names):
    assert "seebench/tasks/schema/task.schema.json" in wheel_names
    assert "seebench/results/schema/result.schema.json" in wheel_names
    assert "seebench/runner/schema/run.schema.json" in wheel_names
    assert "seebench/py.typed" in wheel_names


def test_wheel_does_not_carry_the_study_app(wheel_names):
    """The study app (web server, JavaScript) is the seebench-study distribution."""
    assert not [n for n in wheel_names if n.startswith("seebench/suites/study/")]
    assert not [n for n in wheel_names if n.endswith("editor.js") or "/static/" in n]
