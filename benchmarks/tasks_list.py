"""How long ``seebench tasks list`` takes with N task YAMLs registered (default 40).

Writes N valid tasks (sharing a base through ``include:``) into a temporary directory,
registers it through a throw-away plugin module (``SEEBENCH_PLUGINS``), and times, in fresh
processes, the median wall time of:

- ``python -c pass`` (interpreter start, the floor),
- ``seebench --help`` (start-up with every plugin loaded, no task parsed),
- ``seebench tasks list`` with the task index cache off (``SEEBENCH_NO_TASK_CACHE=1``: every
  task parsed and validated, the reference),
- ``seebench tasks list`` cold (the first run, which parses everything and writes the cache)
  and warm (later runs, which read the cache).

One broken task is added, and must be listed as broken by every run.

Usage: python benchmarks/tasks_list.py [N] [--repeat R] [--uncached-repeat R] [--cold-repeat R]
Targets (issues 2 and 19): tasks list under 1 s wall with 1,000 tasks, 2 s with 14,000, warm;
(issue 29) cold under 1 s with 1,000 tasks, under 8 s with 14,000 (idle machine). Each cold run
(``--cold-repeat``) starts from an empty ``SEEBENCH_HOME``; the CPU column counts the worker
processes a cold build of 400 or more tasks starts (``seebench.tasks.index.PARALLEL_MIN_FILES``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASE = """\
suite: bench
version: 1
type: multiclass
labels:
  - {name: fix, description: repairs behaviour}
  - {name: feature, description: adds behaviour}
  - {name: refactor, description: restructures code}
tags: {family: bench, activity: maintenance}
metrics: [f1_macro, accuracy]
split: {test_size: 0.2, seed: 1}
prompt:
  context: Commit messages.
  task: Classify the commit.
  answer_format: One label.
  entity: commit message
"""

TASK = """\
include: _base.yaml
name: bench_task_{i:03d}
description: Benchmark task number {i}.
data:
  sources:
    - name: commits
      url: https://example.org/data/commits_{i}.csv
      sha256: '{sha}'
      format: csv
  prepare:
    - {{step: select, columns: {{input: message, target: kind}}}}
    - {{step: drop_missing, columns: [input, target]}}
"""

PLUGIN = """\
import os
import resource
from seebench import hookimpl

@hookimpl
def register_task_dirs(register):
    register(os.environ["SEEBENCH_BENCH_TASKS"], suite="bench")
"""


def fake_sha256(i: int) -> str:
    """A well-formed sha256 for task ``i``'s (never fetched) source; never the all-zero one,
    which the task schema rejects as a placeholder."""
    return hashlib.sha256(f"bench_task_{i:03d}".encode()).hexdigest()


BROKEN = """\
include: _base.yaml
name: bench_broken
metrics: [no_such_metric]
data:
  sources:
    - {url: https://example.org/data/broken.csv, sha256: '%s', format: csv}
"""


def timed(command: list[str], env: dict[str, str], repeat: int) -> tuple[float, float]:
    """Median wall time and median CPU time (user + system, of the child) of ``repeat`` runs.
    On a loaded machine the CPU time is the better guide to the wall time on an idle one."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(command, env=env, capture_output=True, text=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed: {proc.stderr.strip()}")
    return statistics.median(walls), statistics.median(cpus)


def check_listing(command: list[str], env: dict[str, str], n: int) -> int:
    """Run ``tasks list --json``; fail unless it shows the n valid tasks and the broken one."""
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    listing = json.loads(out)
    valid = sum(1 for row in listing if row["suite"] == "bench" and row["status"] == "ok")
    broken = [row for row in listing if row["status"] != "ok"]
    if valid != n or [row["name"] for row in broken] != ["bench_broken"]:
        raise SystemExit(f"expected {n} valid tasks and bench_broken, got {valid}; {broken[:2]}")
    return len(listing)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--uncached-repeat",
        type=int,
        help="runs of the uncached reference (default: --repeat; it is slow at 14,000 tasks)",
    )
    parser.add_argument(
        "--cold-repeat",
        type=int,
        default=1,
        help="cold runs, each with an empty SEEBENCH_HOME (default 1; slow at 14,000 tasks)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        tasks = root / "tasks"
        tasks.mkdir()
        (tasks / "_base.yaml").write_text(BASE)
        for i in range(args.n):
            (tasks / f"bench_task_{i:03d}.yaml").write_text(TASK.format(i=i, sha=fake_sha256(i)))
        (tasks / "bench_broken.yaml").write_text(BROKEN % fake_sha256(-1))
        (root / "bench_tasks_plugin.py").write_text(PLUGIN)
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])),
            "SEEBENCH_PLUGINS": "bench_tasks_plugin",
            "SEEBENCH_BENCH_TASKS": str(tasks),
            "SEEBENCH_HOME": str(root / "home"),  # an empty task index cache
        }
        uncached_env = {**env, "SEEBENCH_NO_TASK_CACHE": "1"}
        seebench = [sys.executable, "-m", "seebench.cli.main"]
        listing = [*seebench, "tasks", "list"]
        # files written within RACY_NS of a build are read again by the next one; real task
        # files are older than that
        time.sleep(1.2)
        colds = [
            timed(listing, {**env, "SEEBENCH_HOME": str(root / f"cold-home-{i}")}, 1)
            for i in range(args.cold_repeat)
        ]
        cold_s = (
            statistics.median(c[0] for c in colds),
            statistics.median(c[1] for c in colds),
        )
        timed(listing, env, 1)  # the warm runs' cache
        warm_s = timed(listing, env, args.repeat)
        shown = check_listing([*listing, "--json"], env, args.n)
        check_listing([*listing, "--json"], uncached_env, args.n)
        uncached_s = timed(listing, uncached_env, args.uncached_repeat or args.repeat)
        floor = timed([sys.executable, "-c", "pass"], env, args.repeat)
        help_s = timed([*seebench, "--help"], env, args.repeat)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"tasks registered: {shown} ({args.n} benchmark tasks + 1 broken, listed as broken)")
    print(
        f"load average: {load} on {os.cpu_count()} CPUs; median of {args.repeat} runs "
        f"({args.uncached_repeat or args.repeat} without the cache, {args.cold_repeat} cold)"
    )
    print(f"{'':33} {'wall':>8} {'cpu':>8}")
    rows = [
        ("python -c pass", floor),
        ("seebench --help", help_s),
        ("tasks list, no cache (reference)", uncached_s),
        ("tasks list, cold (1st, builds)", cold_s),
        ("tasks list, warm (cached)", warm_s),
    ]
    for label, (wall, cpu) in rows:
        print(f"{label:<33} {wall:7.3f}s {cpu:7.3f}s")
    print(
        "target: warm under 1 s at 1,000 tasks, under 2 s at 14,000; cold under 1 s at 1,000, "
        "under 8 s at 14,000 (idle machine)"
    )
    print(
        f"speed-up warm vs no cache: {uncached_s[0] / warm_s[0]:.1f}x wall, "
        f"{uncached_s[1] / warm_s[1]:.1f}x cpu; cold / no cache: {cold_s[0] / uncached_s[0]:.2f}x; "
        f"warm - --help: {warm_s[0] - help_s[0]:.3f} s wall, {warm_s[1] - help_s[1]:.3f} s cpu"
    )


if __name__ == "__main__":
    main()
