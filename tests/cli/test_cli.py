"""The command line: tasks list/show/validate, plugins, eval, data."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from seebench.cli.main import main
from tests.conftest import REPO_ROOT, make_binary_task, write_task


def run_cli(args, env=None, cwd=REPO_ROOT):
    """Run ``seebench ARGS`` in a fresh interpreter; returns (exit code, stdout, stderr)."""
    full_env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), **(env or {})}
    proc = subprocess.run(
        [sys.executable, "-m", "seebench.cli.main", *args],
        env=full_env,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def task_dir(tmp_path):
    directory = tmp_path / "tasks"
    make_binary_task(directory, "good_task")
    return directory


def tmp_env(task_dir):
    return {
        "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin",
        "SEEBENCH_TEST_TASK_DIR": str(task_dir),
    }


def test_validate_reports_each_problem_on_one_line(tmp_path):
    write_task(
        tmp_path,
        "dup",
        """
        name: dup
        suite: s
        suite: t
        version: 1
        type: binary
        labels: [{name: a}, {name: b}]
        data: {sources: [{path: x.csv, format: csv}]}
        metrics: [f1_macro]
    """,
    )
    write_task(
        tmp_path,
        "unknown",
        """
        name: unknown
        suite: s
        version: 1
        type: binary
        labels: [{name: a}, {name: b}]
        data: {sources: [{path: x.csv, format: csv}]}
        metrics: [f1_macro]
        lables: []
    """,
    )
    write_task(
        tmp_path,
        "wrongtype",
        """
        name: wrongtype
        suite: s
        version: 1
        type: binary
        labels: [{name: a}, {name: b}]
        data: {sources: [{path: x.csv, format: csv}]}
        metrics: f1_macro
    """,
    )
    code, out, err = run_cli(["tasks", "validate", str(tmp_path)])
    assert code == 1
    lines = out.strip().splitlines()
    assert lines == [
        f"{tmp_path / 'dup.yaml'}:3: suite: duplicate key 'suite' (first defined at line 2)",
        f"{tmp_path / 'unknown.yaml'}: lables: unknown key 'lables'",
        f"{tmp_path / 'wrongtype.yaml'}: metrics: 'f1_macro' is not of type 'array'",
    ]
    assert "Traceback" not in out + err
    assert "0 valid, 3 invalid" in err


def test_validate_valid_files_exit_0(task_dir):
    code, out, err = run_cli(["tasks", "validate", str(task_dir)])
    assert code == 0, out + err
    assert "1 valid, 0 invalid" in err


def test_validate_missing_path(tmp_path):
    code, out, err = run_cli(["tasks", "validate", str(tmp_path / "nope.yaml")])
    assert (
        code == 1 and err.strip() == f"error: {tmp_path / 'nope.yaml'}: no such file or directory"
    )


def test_list_shows_broken_tasks_with_reason(task_dir):
    (task_dir / "broken.yaml").write_text("name: broken\nsuite: tmp\nsuite: x\n")
    code, out, _ = run_cli(["tasks", "list", "--suite", "tmp", "--json"], env=tmp_env(task_dir))
    assert code == 0
    rows = {row["name"]: row for row in json.loads(out)}
    assert rows["good_task"]["status"] == "ok" and rows["good_task"]["type"] == "binary"
    assert rows["broken"]["status"] == "broken"
    assert "duplicate key 'suite'" in rows["broken"]["problems"][0]
    code, out, _ = run_cli(["tasks", "list"], env=tmp_env(task_dir))
    assert "BROKEN" in out and "broken" in out


def test_show_prints_merged_yaml(task_dir):
    code, out, _ = run_cli(["tasks", "show", "good_task"], env=tmp_env(task_dir))
    assert code == 0 and "name: good_task" in out and "f1_macro" in out


def test_unknown_task_is_one_line_error(task_dir):
    code, out, err = run_cli(
        ["eval", "--model", "majority", "--tasks", "nope"], env=tmp_env(task_dir)
    )
    assert code == 1
    assert err.strip() == "error: unknown task 'nope'; see 'seebench tasks list'"


def test_unknown_model_is_one_line_error(task_dir):
    code, _, err = run_cli(
        ["eval", "--model", "no-such-model", "--tasks", "good_task"], env=tmp_env(task_dir)
    )
    assert (
        code == 1
        and err.startswith("error: unknown model 'no-such-model'")
        and "Traceback" not in err
    )


def test_eval_then_resume(task_dir, tmp_path):
    out_dir = tmp_path / "out"
    args = [
        "eval",
        "--model",
        "majority",
        "--tasks",
        "good_task",
        "--output",
        str(out_dir),
        "--no-progress",
    ]
    code, out, err = run_cli(args, env=tmp_env(task_dir))
    assert code == 0, out + err
    assert (out_dir / "majority" / "baseline" / "good_task.json").is_file()
    code, out, err = run_cli(args, env=tmp_env(task_dir))
    assert code == 0 and "already done, skipped" in out + err and "cached" in out


def test_plugins_json_lists_builtins_with_hooks():
    code, out, _ = run_cli(["plugins", "--all", "--json"])
    plugins = {p["name"]: p for p in json.loads(out)}
    assert plugins["seebench.builtin.metrics"]["hooks"] == ["register_metrics"]
    assert plugins["seebench.builtin.metrics"]["distribution"] == "seebench"


def test_plugin_command_via_env(tmp_path):
    code, out, _ = run_cli(["hello-test"], env={"SEEBENCH_PLUGINS": "tests.plugins.good_plugin"})
    assert code == 0 and out.strip() == "hello from a plugin"


def test_bad_extra_plugin_is_one_line_warning():
    """A third-party plugin with a misspelt hook is left out in one line; the rest works."""
    code, _, err = run_cli(["tasks", "list"], env={"SEEBENCH_PLUGINS": "tests.plugins.typo_plugin"})
    (line,) = [line for line in err.splitlines() if "typo_plugin" in line]
    assert code == 0 and "implements unknown hook 'register_metric'" in line
    assert "Traceback" not in err


def test_main_in_process_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert "seebench, version" in capsys.readouterr().out
