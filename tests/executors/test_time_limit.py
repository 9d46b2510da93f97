"""``--unit-time-limit`` bounds a unit's wall time even while it waits on a model server that
never answers, serially and on worker processes; the run goes on and the result says why."""

from __future__ import annotations

import json
import socket

import pytest

from tests.cli.test_cli import run_cli

pytest.importorskip("aiohttp", reason="the openai backend needs the api extra")

from tests.methods.prompting.conftest import make_prompt_task  # noqa: E402


@pytest.fixture
def silent_server():
    """A stand-in model server on 127.0.0.1: it takes connections and never answers."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(64)  # never accepted: the kernel completes the handshake, nothing replies
    try:
        yield f"http://127.0.0.1:{server.getsockname()[1]}/v1"
    finally:
        server.close()


@pytest.mark.parametrize("extra", [[], ["--workers", "2"]], ids=["serial", "workers"])
def test_a_unit_waiting_on_a_silent_server_fails_at_its_time_limit(tmp_path, silent_server, extra):
    tasks = tmp_path / "tasks"
    for name in ("t1", "t2"):
        make_prompt_task(tasks, name, "binary", [f"{name} expect=bug", f"{name} expect=other"])
    env = {
        "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin",
        "SEEBENCH_TEST_TASK_DIR": str(tasks),
        "SEEBENCH_HOME": str(tmp_path / "home"),
        "OPENAI_BASE_URL": silent_server,
    }
    out = tmp_path / "out"
    args = ["eval", "--model", "openai:m", "--tasks", "t1,t2", "--output", str(out)]
    args += ["--no-progress", "--unit-time-limit", "2", "--retries", "0", *extra]
    # the client's own timeout is 60 s a request, with retries: run_cli gives up after 120 s
    code, stdout, stderr = run_cli(args, env=env)
    assert code == 1, stdout + stderr
    assert "Traceback" not in stderr
    for name in ("t1", "t2"):  # the run went on with the second unit
        result = json.loads((out / "openai-m" / "zero-shot" / f"{name}.json").read_text())
        assert result["status"] == "failed"
        assert result["reason"] == f"unit time limit of 2 s reached while running {name!r}"
    assert "2 unit(s) failed" in stdout
