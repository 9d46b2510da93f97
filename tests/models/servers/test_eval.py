"""``seebench eval`` with a managed server (the stand-in vLLM): a whole run, Ctrl-C, kill -9."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import REPO_ROOT, make_binary_task
from tests.models.servers.conftest import pid_alive, read_pid


def _eval(tmp_path: Path, model_dir: Path, **env: str) -> tuple[list[str], dict[str, str]]:
    tasks = tmp_path / "tasks"
    make_binary_task(tasks, "alpha", rows=12)
    command = [
        sys.executable,
        "-m",
        "seebench.cli.main",
        "eval",
        "--model",
        f"vllm:{model_dir}",
        "--tasks",
        "alpha",
        "--output",
        str(tmp_path / "out"),
        "--no-progress",
        "-o",
        "concurrency=2",
    ]
    environ = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), os.environ["PYTHONPATH"]]),
        "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin",
        "SEEBENCH_TEST_TASK_DIR": str(tasks),
        **env,
    }
    return command, environ


def _gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not pid_alive(pid):
            return True
        time.sleep(0.1)
    return False


def _wait_for_request(folder: Path, seconds: float = 60) -> None:
    """Until the stand-in has started (its arguments are written) and is listening."""
    deadline = time.monotonic() + seconds
    while not (folder / "args.json").is_file() or not (folder / "worker.pid").is_file():
        assert time.monotonic() < deadline, "the stand-in server did not start"
        time.sleep(0.1)
    time.sleep(1.0)  # past loading: requests are in flight


def test_eval_with_a_managed_server_writes_a_result_without_port_or_key(
    stand_in, model_dir, tmp_path
):
    command, env = _eval(tmp_path, model_dir)
    done = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=300, cwd=REPO_ROOT
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(next((tmp_path / "out").rglob("alpha.json")).read_text())
    assert result["status"] == "ok"
    assert result["model"]["identity"]["server"] == "vllm"
    assert result["info"]["server"]["server"] == "vllm" and "base_url" not in result["info"]
    assert result["info"]["concurrency"] == 2 and result["info"]["requests"] >= 1
    args = json.loads((stand_in / "args.json").read_text())
    port = args["argv"][args["argv"].index("--port") + 1]
    written = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    for path in written:
        text = path.read_text(errors="replace")
        assert args["api_key"] not in text, f"API key in {path}"
        assert f":{port}" not in text, f"port in {path}"
    assert not pid_alive(read_pid(stand_in))  # stopped when the run ended


def test_no_server_outlives_seebench_killed_with_sigkill(stand_in, model_dir, tmp_path):
    command, env = _eval(tmp_path, model_dir, STAND_IN_DELAY_S="600", STAND_IN_WORKER="1")
    run = subprocess.Popen(command, env=env, cwd=REPO_ROOT, stderr=subprocess.DEVNULL)
    try:
        _wait_for_request(stand_in)
        server, worker = read_pid(stand_in), read_pid(stand_in, "worker.pid")
        assert pid_alive(server) and run.poll() is None
        run.send_signal(signal.SIGKILL)
        run.wait()
        assert _gone_within(server, 10), "the server outlived seebench"
        assert _gone_within(worker, 10), "the server's child process outlived seebench"
    finally:
        run.kill()
        run.wait()


def test_ctrl_c_stops_the_server(stand_in, model_dir, tmp_path):
    command, env = _eval(tmp_path, model_dir, STAND_IN_DELAY_S="600", STAND_IN_WORKER="1")
    # a shell running the suite in the background ignores SIGINT and children inherit that:
    # restore the default, as a user's terminal has it
    run = subprocess.Popen(
        command,
        env=env,
        cwd=REPO_ROOT,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        _wait_for_request(stand_in)
        server, worker = read_pid(stand_in), read_pid(stand_in, "worker.pid")
        run.send_signal(signal.SIGINT)
        # a hang guard: the stand-in holds each request 600 s, so a run that waited for the
        # requests in flight instead of stopping the server would not exit in time
        run.wait(timeout=60)
        assert run.returncode != 0
        assert not pid_alive(server) and _gone_within(worker, 10)
    finally:
        run.kill()
        run.wait()
