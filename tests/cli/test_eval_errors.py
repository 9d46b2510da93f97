"""``seebench eval`` refuses bad input with one ``error:`` line and exit 1, and says what
Ctrl-C kept."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from seebench.cli.main import main
from tests.conftest import REPO_ROOT, make_binary_task


@pytest.fixture
def tmp_tasks(tmp_path, monkeypatch):
    make_binary_task(tmp_path / "tasks", "alpha", rows=12)
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.tmp_tasks_plugin")
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tmp_path / "tasks"))
    return tmp_path


def cli(capsys, *args):
    """Run ``seebench ARGS`` in process: (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


def eval_args(output, *more):
    return (
        "eval",
        "--model",
        "majority",
        "--tasks",
        "alpha",
        "--output",
        str(output),
        "--no-progress",
        *more,
    )


def test_an_option_that_is_not_yaml(tmp_tasks, capsys):
    code, _, err = cli(capsys, *eval_args(tmp_tasks / "out", "-o", "x=[1,"))
    assert code == 1
    assert err.startswith("error: --option 'x=[1,': the value is not valid YAML (")
    assert err.count("\n") == 1


def test_limit_zero_is_one_error_line(tmp_tasks, capsys):
    code, _, err = cli(capsys, *eval_args(tmp_tasks / "out", "--limit", "0"))
    assert (code, err) == (1, "error: --limit 0: must be at least 1\n")


def test_output_that_is_a_file_or_under_a_file(tmp_tasks, capsys):
    a_file = tmp_tasks / "a_file"
    a_file.write_text("x")
    code, _, err = cli(capsys, *eval_args(a_file))
    assert (code, err) == (1, f"error: --output {a_file}: is a file, not a directory\n")
    code, _, err = cli(capsys, *eval_args(a_file / "sub"))
    assert (code, err) == (
        1,
        f"error: --output {a_file / 'sub'}: a parent of it is a file, not a directory\n",
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_output_that_is_read_only(tmp_tasks, capsys):
    read_only = tmp_tasks / "ro"
    read_only.mkdir(mode=0o555)
    code, _, err = cli(capsys, *eval_args(read_only / "out"))
    assert code == 1 and err.startswith(f"error: --output {read_only / 'out'}: cannot write there:")


def test_output_where_writing_fails(tmp_tasks, capsys, monkeypatch):
    """The read-only case as root too: the write probe fails with EACCES."""
    import tempfile

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "TemporaryFile", refuse)
    code, _, err = cli(capsys, *eval_args(tmp_tasks / "out"))
    assert (code, err) == (
        1,
        f"error: --output {tmp_tasks / 'out'}: cannot write there: Permission denied\n",
    )


def test_unknown_task_and_suite_get_a_did_you_mean(tmp_tasks, capsys):
    code, _, err = cli(
        capsys, "eval", "--model", "majority", "--tasks", "alpah", "--output", str(tmp_tasks)
    )
    assert (code, err) == (
        1,
        "error: unknown task 'alpah' (did you mean 'alpha'?); see 'seebench tasks list'\n",
    )
    code, _, err = cli(capsys, "tasks", "list", "--suite", "tpm")
    assert code == 1 and err.startswith("error: unknown suite 'tpm' (did you mean 'tmp'?); known: ")


def _second_unit_started(out: Path) -> bool:
    """Whether the run's event log says a second unit was submitted (the first has ended)."""
    for log in out.glob(".seebench/events-*.jsonl"):
        if log.read_text().count('"unit_submit"') >= 2:
            return True
    return False


def test_ctrl_c_says_what_was_kept_and_how_to_resume(tmp_path):
    tasks = tmp_path / "tasks"
    for name in ("task0", "task1", "task2", "task3"):
        make_binary_task(tasks, name, rows=20)
    out = tmp_path / "out"
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO_ROOT),
        "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin",
        "SEEBENCH_TEST_TASK_DIR": str(tasks),
        "SEEBENCH_TEST_SLEEP": "1.0",  # 4 s a task: the run cannot end before the signal
    }
    command = [
        sys.executable,
        "-m",
        "seebench.cli.main",
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
    ]
    # a shell running this suite in the background ignores SIGINT, and children inherit that:
    # restore the default so the run gets Ctrl-C as a user's terminal would send it
    process = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    results = out / "majority" / "slow-echo"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not _second_unit_started(out):
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    kept = len(list(results.glob("*.json")))
    assert 1 <= kept < 4
    assert err.strip().splitlines()[-1] == (
        f"interrupted: {kept} finished unit(s) are kept in {out}; stopped 1 running unit(s) "
        f"(majority/slow-echo/task{kept}), nothing of them was kept; run the same command "
        "again to resume"
    )
    assert not list(results.glob(".*.lock"))
