"""kill -9 at random moments of a multi-task run, then rerun: every result is complete and
correct, nothing completed is recomputed, nothing is computed twice by concurrent runs."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import time

from seebench.results.verify import verify_result
from tests.reliability.helpers import TASKS, eval_env, make_tasks, run_eval_cli, start_eval

KILLS = 3  # bounded: each kill costs one interpreter start-up (~1-2 s)


def _trusted(folder):
    """Task names whose result a rerun would trust; asserts every other file is recomputable."""
    trusted = set()
    for path in folder.glob("*.json"):
        check = verify_result(path)
        assert check.result is not None, check.problem  # an interrupted write never leaves junk
        if check.result["status"] == "ok":
            trusted.add(path.stem)
    return trusted


def test_kill_9_at_random_moments_then_rerun(tmp_path):
    task_dir = make_tasks(tmp_path)
    out = tmp_path / "out"
    folder = out / "majority" / "slow-echo"
    env = eval_env(task_dir, tmp_path / "home", sleep="0.05")
    rng = random.Random(13)
    for _ in range(KILLS):
        before = {p.name: p.stat().st_mtime_ns for p in folder.glob("*.json")}
        process = start_eval(out, env)
        time.sleep(rng.uniform(0.5, 3.0))  # start-up, data loading, mid-unit, between units
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        if folder.exists():
            _trusted(folder)
        for name, mtime in before.items():  # a completed unit is never rewritten
            assert (folder / name).stat().st_mtime_ns == mtime
    rerun = run_eval_cli(out, env)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert _trusted(folder) == set(TASKS)
    for name in TASKS:
        result = json.loads((folder / f"{name}.json").read_text())
        assert result["n"] == 4 and result["metrics"]["accuracy"] == 1.0  # echo of the gold label
    assert not list(folder.glob(".*.lock")) and not list(folder.glob(".*.tmp"))


def test_two_runs_on_one_output_compute_each_unit_once(tmp_path):
    task_dir = make_tasks(tmp_path)
    out = tmp_path / "out"
    env = eval_env(task_dir, tmp_path / "home", sleep="0.1")
    first, second = start_eval(out, env), start_eval(out, env)
    outputs = [p.communicate(timeout=120)[0] for p in (first, second)]
    assert first.returncode == second.returncode == 0, outputs
    computed = [m for text in outputs for m in re.findall(r"│ (task\d) .* │ ok +│", text)]
    assert sorted(computed) == TASKS  # every unit once, by one of the two runs
    assert {p.stem for p in (out / "majority" / "slow-echo").glob("*.json")} == set(TASKS)
