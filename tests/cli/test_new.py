"""``seebench new plugin NAME`` writes a plugin that passes ``seebench plugins check`` and its
own tests as written, and builds into a wheel that carries its task and data."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

import pytest

from tests.cli.test_cli import run_cli
from tests.conftest import REPO_ROOT


@pytest.fixture(scope="module")
def plugin(tmp_path_factory):
    parent = tmp_path_factory.mktemp("new")
    code, out, err = run_cli(
        ["new", "plugin", "demo", "--dir", str(parent)],
        env={"SEEBENCH_HOME": str(parent / "home")},
    )
    assert code == 0, out + err
    return parent / "seebench-demo"


def test_the_scaffold_has_every_piece(plugin) -> None:
    written = sorted(p.relative_to(plugin).as_posix() for p in plugin.rglob("*") if p.is_file())
    assert written == [
        "README.md",
        "pyproject.toml",
        "seebench_demo/__init__.py",
        "seebench_demo/metrics.py",
        "seebench_demo/tasks/demo_intent.jsonl",
        "seebench_demo/tasks/demo_intent.yaml",
        "tests/test_demo.py",
    ]
    sources = [plugin / "seebench_demo/__init__.py", plugin / "tests/test_demo.py"]
    assert all("from seebench.api import" in p.read_text() for p in sources)


def test_the_scaffold_passes_plugins_check(plugin, tmp_path) -> None:
    code, out, err = run_cli(
        ["plugins", "check", str(plugin)], env={"SEEBENCH_HOME": str(tmp_path)}
    )
    assert code == 0, out + err
    assert out.strip().splitlines()[-1] == f"{plugin}: passed (0 to fix, 0 warnings)"
    assert "OK    smoke demo_intent: majority/baseline" in out


def test_the_scaffold_passes_its_own_tests(plugin, tmp_path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "SEEBENCH_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=plugin,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout


def test_the_scaffold_builds_a_wheel_with_its_data(plugin, tmp_path) -> None:
    from tests.docs.test_plugin_wheels import build_wheel

    wheel = build_wheel(plugin, tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {
        "seebench_demo/tasks/demo_intent.yaml",
        "seebench_demo/tasks/demo_intent.jsonl",
    } <= names
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "demo = seebench_demo" in zipfile.ZipFile(wheel).read(entry_points).decode()


@pytest.mark.parametrize("name", ["Demo", "1x", "my-plugin", "a" * 60])
def test_a_bad_name_is_one_line(name, tmp_path) -> None:
    code, _, err = run_cli(["new", "plugin", name, "--dir", str(tmp_path)])
    assert code == 1 and err.startswith(f"error: plugin name {name!r}")


def test_an_existing_folder_is_left_alone(plugin) -> None:
    code, _, err = run_cli(["new", "plugin", "demo", "--dir", str(plugin.parent)])
    assert code == 1 and "already exists" in err
