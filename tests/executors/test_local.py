"""The sweep driver on the local executor: several models, resume, retries, checks, events,
Ctrl-C, and --workers processes giving the serial run's results."""

from __future__ import annotations

import json

import pytest

from seebench.executors import SweepInterrupted
from seebench.executors.base import Executor
from seebench.executors.driver import failure_summary
from seebench.executors.events import EventLog, read_events
from seebench.executors.local import LocalExecutor
from seebench.executors.worker import UnitReport


def result_of(out, model_id, task):
    return json.loads((out / model_id / "resource-echo" / f"{task}.json").read_text())


def test_sweep_runs_every_model_and_task_and_a_rerun_runs_nothing(sweep_env, tmp_path):
    models = ["xecho:plain-a", "xecho:plain-b"]
    log = tmp_path / "events.jsonl"
    result = sweep_env.run(models, LocalExecutor(sweep_env.options()), events=EventLog(log))
    assert [(o.model_id, o.task, o.status) for o in result.outcomes] == [
        (m, t, "ok") for m in ("xecho-plain-a", "xecho-plain-b") for t in ("alpha", "beta", "gamma")
    ]
    assert result.executed == 6
    events = read_events(log)
    assert [e["event"] for e in events].count("unit_end") == 6
    assert events[0]["event"] == "sweep_start" and events[-1]["event"] == "sweep_end"
    again = sweep_env.run(models, LocalExecutor(sweep_env.options()))
    assert again.executed == 0 and {o.status for o in again.outcomes} == {"cached"}


def test_transient_failure_is_retried_and_recorded_deterministic_is_not(sweep_env):
    result = sweep_env.run(
        ["xecho:flaky-1", "xecho:broken-1"], LocalExecutor(sweep_env.options()), tasks="alpha"
    )
    flaky, broken = result.outcomes
    assert flaky.status == "ok" and broken.status == "failed"
    assert "bad data" in broken.reason
    recorded = result_of(sweep_env.out, "xecho-flaky-1", "alpha")
    assert [a["attempt"] for a in recorded["attempts"]] == [1]
    assert "ConnectionError" in recorded["attempts"][0]["reason"]
    assert "attempts" not in result_of(sweep_env.out, "xecho-broken-1", "alpha")
    assert result.executed == 3  # flaky twice, broken once
    lines = failure_summary(result, ["--output", "out"])
    assert lines[1].startswith("  xecho-broken-1/resource-echo/alpha: ValueError")
    assert lines[-1] == (
        "  seebench eval --model xecho:broken-1 --method resource-echo --tasks alpha --output out"
    )


def test_no_retries_leaves_a_transient_failure_failed(sweep_env):
    result = sweep_env.run(
        ["xecho:flaky-2"], LocalExecutor(sweep_env.options()), tasks="alpha", retries=0
    )
    assert result.outcomes[0].status == "failed" and result.executed == 1


class InvisibleResults(Executor):
    """Reports success without a result file: a worker writing to a disk the driver lacks."""

    name = "invisible"

    def start(self, units):
        self.pending = []

    def submit(self, unit, attempts):
        self.pending.append(unit)
        return unit.key

    def wait(self, timeout):
        unit = self.pending.pop(0)
        return [(unit.key, UnitReport(key=unit.key, status="ok", node="elsewhere:1"))]


def test_a_result_the_driver_cannot_see_fails_at_once(sweep_env):
    result = sweep_env.run(["xecho:plain-c"], InvisibleResults(), tasks="alpha")
    outcome = result.outcomes[0]
    assert outcome.status == "failed" and "shared" in outcome.reason
    assert "elsewhere:1" in outcome.reason
    assert result.executed == 1  # not retried: another attempt would not help


class StopsAfterOne(LocalExecutor):
    """Runs one unit, then the user presses Ctrl-C."""

    def wait(self, timeout):
        if getattr(self, "ran", False):
            raise KeyboardInterrupt
        self.ran = True
        return super().wait(timeout)


def test_ctrl_c_keeps_the_finished_units(sweep_env):
    with pytest.raises(SweepInterrupted) as stopped:
        sweep_env.run(["xecho:plain-d"], StopsAfterOne(sweep_env.options()))
    assert [o.task for o in stopped.value.outcomes] == ["alpha"]
    again = sweep_env.run(["xecho:plain-d"], LocalExecutor(sweep_env.options()))
    assert [o.status for o in again.outcomes] == ["cached", "ok", "ok"]


def test_ctrl_c_while_the_driver_checks_a_finished_unit_counts_it_as_kept(sweep_env, monkeypatch):
    from seebench.executors import driver

    def interrupted_check(unit, report):
        raise KeyboardInterrupt  # Ctrl-C after the unit ended, before it was recorded

    monkeypatch.setattr(driver, "verify_report", interrupted_check)
    with pytest.raises(SweepInterrupted) as stopped:
        sweep_env.run(["xecho:plain-e"], LocalExecutor(sweep_env.options()))
    assert [o.task for o in stopped.value.outcomes] == ["alpha"]
    assert stopped.value.running == []


def test_local_executor_refuses_a_gpu_unit_without_a_gpu(sweep_env):
    from seebench.errors import SeebenchError

    with pytest.raises(SeebenchError, match="needs gpu=1 and this machine has 0"):
        sweep_env.run(["xecho:gpu-1"], LocalExecutor(sweep_env.options(capacity={"gpu": 0})))
    assert not sweep_env.out.exists() or not any(sweep_env.out.rglob("*.json"))


def test_local_fits_never_oversubscribes_the_sandbox(sweep_env):
    units, _ = sweep_env.plan(["xecho:sandbox-1", "xecho:plain-1"])
    executor = LocalExecutor(sweep_env.options(workers=4, capacity={"sandbox": 1, "gpu": 0}))
    sandboxed, plain = units[0], units[3]
    assert executor.fits(sandboxed, [])
    assert not executor.fits(sandboxed, [sandboxed.resources])
    assert executor.fits(plain, [sandboxed.resources])


@pytest.mark.slow
def test_worker_processes_give_the_serial_results(sweep_env, tmp_path):
    models = ["xecho:plain-e", "xecho:flaky-3"]
    serial = sweep_env.run(models, LocalExecutor(sweep_env.options()), output=tmp_path / "serial")
    for marker in sweep_env.flaky.iterdir():
        marker.unlink()
    pooled = sweep_env.run(
        models, LocalExecutor(sweep_env.options(workers=2)), output=tmp_path / "pooled"
    )
    assert [o.metrics for o in pooled.outcomes] == [o.metrics for o in serial.outcomes]
    assert {o.status for o in pooled.outcomes} == {"ok"}
    for model, task in (("xecho-plain-e", "beta"), ("xecho-flaky-3", "gamma")):
        one = (tmp_path / "serial" / model / "resource-echo" / f"{task}.samples.jsonl").read_text()
        two = (tmp_path / "pooled" / model / "resource-echo" / f"{task}.samples.jsonl").read_text()
        assert one == two


@pytest.mark.slow
def test_a_lost_worker_process_is_retried(sweep_env):
    result = sweep_env.run(
        ["xecho:crash-1"], LocalExecutor(sweep_env.options(workers=2)), tasks="alpha,beta"
    )
    assert [o.status for o in result.outcomes] == ["ok", "ok"]
    recorded = result_of(sweep_env.out, "xecho-crash-1", "alpha")["attempts"]
    assert recorded and "worker process lost" in recorded[0]["reason"]


def test_workers_do_not_outlive_a_killed_driver(tmp_path):
    """A driver killed with SIGKILL (no clean-up runs) takes its worker processes with it."""
    import os
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "driver.py"
    script.write_text(
        "import os, time\n"
        "from seebench.executors.base import ExecutorOptions\n"
        "from seebench.executors.local import LocalExecutor\n"
        "if __name__ == '__main__':\n"
        "    executor = LocalExecutor(ExecutorOptions(workers=2))\n"
        "    executor.start([])\n"
        "    jobs = [executor._pool.submit(time.sleep, 0.5) for _ in range(2)]\n"
        "    pids = {executor._pool.submit(os.getpid).result() for _ in range(8)}\n"
        "    print(' '.join(map(str, sorted(pids))), flush=True)\n"
        "    time.sleep(600)\n"
    )
    driver = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        workers = [int(pid) for pid in driver.stdout.readline().split()]
        assert workers and driver.pid not in workers
        driver.send_signal(signal.SIGKILL)
        driver.wait(timeout=10)
        deadline = time.monotonic() + 10
        alive = workers
        while alive and time.monotonic() < deadline:
            time.sleep(0.1)
            alive = [pid for pid in alive if _alive(pid)]
        assert not alive, f"worker processes {alive} outlived the driver"
    finally:
        if driver.poll() is None:
            os.kill(driver.pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ", 1)[1][0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def test_serial_local_runs_units_that_wait_on_a_server_side_by_side_and_no_other():
    from seebench.executors.base import ExecutorOptions
    from seebench.executors.plan import Resources

    def unit(resources):
        from seebench.executors.plan import Unit
        from seebench.runner.config import EvalConfig

        return Unit("m", "m", "zero-shot", "t", EvalConfig(model="m", tasks="t"), resources)

    served = Resources(cpu=0.25, waits_on_server=True)
    local = Resources()
    executor = LocalExecutor(ExecutorOptions())
    assert executor.fits(unit(served), [served, served, served])  # 4 x 0.25 cpu: one cpu
    assert not executor.fits(unit(served), [served] * 4)
    assert not executor.fits(unit(local), [served])
    assert not executor.fits(unit(served), [local])
    assert not executor.fits(unit(Resources(cpu=0.25)), [served])  # a method not thread-safe
    wider = LocalExecutor(ExecutorOptions(capacity={"cpu": 2}))
    assert wider.fits(unit(served), [served] * 7)
    sandboxed = Resources(cpu=0.25, sandbox=1, waits_on_server=True)
    assert not executor.fits(unit(sandboxed), [sandboxed])  # one sandbox slot
