"""Ray failing under a sweep is one seebench line: a Ray that does not start, a local Ray that
is gone when the driver calls it, and a driver that Ray's core worker ends from C++ (after
the dashboard agent died and the raylet with it), told by the sentinel."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from types import SimpleNamespace

import pytest

from seebench.errors import SeebenchError
from seebench.executors.base import ExecutorOptions
from seebench.executors.ray_executor import RayExecutor
from seebench.executors.ray_failures import ray_cause, start_failed_line, stopped_line
from tests.conftest import REPO_ROOT

AGENT_DIED = (
    "[2026-11-28 17:47:14,728 E 32690 32690] (raylet) main.cc:301: The raylet exited "
    "immediately because one Ray agent failed, agent_name = dashboard_agent/424238335.\n"
    "The raylet fate shares with the agent. This can happen because\n"
)
AGENT_LATE = (
    "[2026-11-28 17:47:14,728 C 32690 32690] (raylet) node_manager.cc:3576:  An unexpected "
    "system state has occurred.\n    ray::raylet::NodeManager::WaitForDashboardAgentPorts()\n"
)


def _logs(tmp_path, text):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "raylet.out").write_text("[state-dump] ...\n" * 2000 + text)
    return logs


def test_the_raylet_log_says_which_agent_died(tmp_path):
    assert ray_cause(_logs(tmp_path, AGENT_DIED)) == (
        "Ray's dashboard_agent died and the raylet exited with it"
    )


def test_the_raylet_log_says_the_agent_did_not_start(tmp_path):
    assert "did not start in time" in ray_cause(_logs(tmp_path, AGENT_LATE))


@pytest.mark.parametrize("logs", [None, "missing"])
def test_no_log_or_nothing_known_is_no_cause(tmp_path, logs):
    assert ray_cause(None if logs is None else tmp_path / logs) is None
    assert ray_cause(_logs(tmp_path, "[state-dump] all fine\n")) is None


def test_the_stopped_line_says_what_happened_where_the_units_are_and_how_to_resume(tmp_path):
    line = stopped_line(tmp_path / "out", _logs(tmp_path, AGENT_DIED))
    assert "\n" not in line
    assert "dashboard_agent died" in line and str(tmp_path / "out") in line
    assert "run the same command again to resume" in line
    unknown = stopped_line(tmp_path / "out", None)
    assert "ended abruptly" in unknown and "resume" in unknown


def test_the_start_line_is_ray_s_first_line_only():
    error = Exception(
        "The current node timed out during startup. This could happen because some of the "
        "raylet failed to startup or the GCS has become overloaded.\nmore\nlines"
    )
    line = start_failed_line(error)
    assert "\n" not in line and "timed out during startup" in line
    assert "nothing was run" in line and "--executor local" in line


class _FakeRay:
    """The few calls the executor makes, failing as a stopped Ray does."""

    def __init__(self, init_error=None, wait_error=None):
        self.init_error, self.wait_error = init_error, wait_error
        self.exceptions = SimpleNamespace(RayError=RuntimeError)
        self._private = SimpleNamespace(worker=SimpleNamespace(_global_node=None))

    def is_initialized(self):
        return False

    def init(self, **kwargs):
        if self.init_error:
            raise self.init_error

    def nodes(self):
        return [{"Alive": True, "Resources": {"CPU": 2}}]

    def remote(self, **kwargs):
        return lambda function: function

    def wait(self, refs, **kwargs):
        raise self.wait_error

    def shutdown(self):
        pass


def test_a_ray_that_does_not_start_is_one_line(monkeypatch):
    from seebench.executors import ray_executor

    error = Exception("The current node timed out during startup. This could happen ...")
    monkeypatch.setattr(ray_executor, "_import_ray", lambda: _FakeRay(init_error=error))
    executor = RayExecutor(ExecutorOptions())
    with pytest.raises(SeebenchError, match="Ray did not start: The current node timed out"):
        executor.start([])
    executor.close()


def test_a_ray_gone_under_the_sweep_is_one_line(monkeypatch):
    from seebench.executors import ray_executor

    error = ConnectionError("GCS has been lost")
    monkeypatch.setattr(ray_executor, "_import_ray", lambda: _FakeRay(wait_error=error))
    executor = RayExecutor(ExecutorOptions())
    executor.start([])
    executor._refs = {"ref": object()}
    try:
        with pytest.raises(SeebenchError, match="Ray stopped during the sweep .GCS has been lost"):
            executor.wait(0.1)
    finally:
        executor.close()


DRIVER = textwrap.dedent(
    """
    import os, sys
    from seebench.executors.ray_failures import Sentinel
    sentinel = Sentinel(sys.argv[1])
    sentinel.tell("logs", sys.argv[2])
    if sys.argv[3] == "quick-exit":
        sys.stderr.write("[C ...] core_worker.cc: Shutting down the core worker because the "
                         "local raylet failed.\\n")
        sys.stderr.flush()
        os._exit(1)  # what Ray's core worker does: no Python code runs any more
    sentinel.done()
    """
)


@pytest.mark.parametrize("how", ["quick-exit", "done"])
def test_the_sentinel_tells_an_abrupt_end_in_one_line(tmp_path, how):
    logs = _logs(tmp_path, AGENT_DIED)
    run = subprocess.run(
        [sys.executable, "-c", DRIVER, str(tmp_path / "out"), str(logs), how],
        env={"PYTHONPATH": str(REPO_ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    ours = [line for line in run.stderr.splitlines() if line.startswith("error: ")]
    assert "Traceback" not in run.stderr
    if how == "done":
        assert run.returncode == 0 and ours == []
        return
    assert run.returncode == 1
    [line] = ours
    assert "Ray stopped during the sweep (Ray's dashboard_agent died" in line
    assert str(tmp_path / "out") in line and "run the same command again" in line


def test_a_dead_raylet_of_our_ray_stops_the_sweep_in_one_line(monkeypatch, tmp_path):
    """Without its raylet no further unit of a local Ray ever starts: the sweep would wait
    for ever. It stops with the line instead (what finished is on disk already)."""
    from seebench.executors import ray_executor

    fake = _FakeRay(wait_error=AssertionError("ray.wait must not be called"))
    dead = [("raylet", SimpleNamespace(returncode=-9))]
    node = SimpleNamespace(dead_processes=lambda: dead, get_logs_dir_path=lambda: str(tmp_path))
    fake._private.worker._global_node = node
    monkeypatch.setattr(ray_executor, "_import_ray", lambda: fake)
    executor = RayExecutor(ExecutorOptions())
    executor.start([])
    executor._refs = {"ref": object()}
    try:
        with pytest.raises(SeebenchError, match="Ray's raylet exited with code -9") as caught:
            executor.wait(0.1)
        assert "run the same command again" in str(caught.value)
        assert str(tmp_path) in str(caught.value)  # Ray's logs
    finally:
        executor.close()
