"""Task files that are links (class 4 of round 2): a task YAML that is a symbolic link to a
file outside its folder (or to a file that is not YAML) is confined like its sources: it is
not read, ``tasks validate`` names it without quoting its content, and a good task beside it
still runs. A link to a task file inside the folder still works."""

from __future__ import annotations

import os

import pytest

from tests.reliability.helpers import eval_env, make_tasks, run_cli, run_eval_cli

SECRET = "TOP-SECRET-CONTENT-1234"


@pytest.fixture
def task_dir(tmp_path):
    folder = make_tasks(tmp_path, ["good"])
    outside = tmp_path / "outside"
    outside.mkdir()
    # a YAML file outside the folder (a valid task, even) and a secret that is not YAML
    (outside / "task.yaml").write_text(
        (folder / "good.yaml").read_text().replace("name: good", f"name: x  # {SECRET}")
    )
    (outside / "secret.txt").write_text(f"password: {SECRET}\n")
    return folder


@pytest.mark.parametrize(
    "target", ["../outside/task.yaml", "../outside/secret.txt", "ABSOLUTE"], ids=str
)
def test_a_task_file_linked_outside_its_folder_is_refused_unquoted(tmp_path, task_dir, target):
    if target == "ABSOLUTE":
        target = str(tmp_path / "outside" / "task.yaml")
    os.symlink(target, task_dir / "leak.yaml")
    env = eval_env(task_dir, tmp_path / "home")
    validate = run_cli(["tasks", "validate", str(task_dir / "leak.yaml")], env)
    assert validate.returncode == 1 and "Traceback" not in validate.stderr
    assert SECRET not in validate.stdout + validate.stderr
    assert "symbolic link" in validate.stdout
    listing = run_cli(["tasks", "list"], env)
    assert SECRET not in listing.stdout + listing.stderr
    run = run_eval_cli(tmp_path / "out", env, tasks="good")
    assert run.returncode == 0, run.stdout + run.stderr
    assert SECRET not in run.stdout + run.stderr


def test_a_task_file_linked_inside_its_folder_still_loads(tmp_path, task_dir):
    (task_dir / "real").mkdir()
    (task_dir / "real" / "other.yaml").write_text(
        (task_dir / "good.yaml").read_text().replace("name: good", "name: other")
    )
    os.symlink("real/other.yaml", task_dir / "other.yaml")
    env = eval_env(task_dir, tmp_path / "home")
    validate = run_cli(["tasks", "validate", str(task_dir / "other.yaml")], env)
    assert validate.returncode == 0, validate.stdout + validate.stderr
