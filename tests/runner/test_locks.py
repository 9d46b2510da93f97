"""Per-unit locks: a unit another live run is computing is skipped; a dead run's lock is taken."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from seebench import EvalConfig, run_eval
from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.runner.locks import UnitBusy, lock_path, unit_lock
from seebench.tasks.index import build_task_index
from tests.conftest import REPO_ROOT, make_binary_task
from tests.plugins import tmp_tasks_plugin


@pytest.fixture
def run(tmp_path, monkeypatch):
    for name in ("alpha", "beta"):
        make_binary_task(tmp_path / "tasks", name, rows=12)
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tmp_path / "tasks"))
    registry = build_registry(
        create_plugin_manager(((tmp_tasks_plugin, "tmp"),), entry_points=False)
    )
    out = tmp_path / "out"

    def run_once():
        config = EvalConfig(model="majority", tasks="tmp", output=out, progress=False)
        return {o.task: o for o in run_eval(config, registry, build_task_index(registry))}

    return run_once, out / "majority" / "baseline"


def test_a_held_unit_is_skipped_and_nothing_is_written(run):
    run_once, folder = run
    with unit_lock(lock_path(folder / "alpha.json")):
        outcomes = run_once()
    assert outcomes["alpha"].status == "skipped"
    assert outcomes["alpha"].reason == (
        f"another run (pid {os.getpid()}) is computing it now; rerun later to pick up its result"
    )
    assert not (folder / "alpha.json").exists()
    assert outcomes["beta"].status == "ok"
    assert run_once()["alpha"].status == "ok"  # released: computed now
    assert not list(folder.glob(".*.lock"))


def test_a_second_holder_is_refused(tmp_path):
    path = tmp_path / ".t.lock"
    with unit_lock(path), pytest.raises(UnitBusy), unit_lock(path):
        pass


def test_the_lock_of_a_killed_run_is_taken_over(run, tmp_path):
    run_once, folder = run
    path = lock_path(folder / "alpha.json")
    holder = textwrap.dedent(f"""
        import sys, time
        from pathlib import Path
        from seebench.runner.locks import unit_lock
        with unit_lock(Path({str(path)!r})):
            print("held", flush=True)
            time.sleep(60)
    """)
    process = subprocess.Popen(
        [sys.executable, "-c", holder],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    try:
        assert process.stdout.readline().strip() == "held"
        assert run_once()["alpha"].status == "skipped"
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    assert path.exists()  # kill -9 left the file behind, but no live lock
    assert run_once()["alpha"].status == "ok"
