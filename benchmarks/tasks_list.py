"""How long ``seebench tasks list`` takes with N task YAMLs registered (default 40).

Writes N valid tasks (sharing a base through ``include:``) into a temporary directory,
registers it through a throw-away plugin module (``SEEBENCH_PLUGINS``), and times, in fresh
processes, the median wall time of:

- ``python -c pass`` (interpreter start, the floor),
- ``seebench --help`` (start-up with every plugin loaded, no task parsed),
- ``seebench tasks list`` (plus loading and validating every task).

Usage: python benchmarks/tasks_list.py [N] [--repeat R]
Target (issue 2): tasks list under 1 s wall with 40 tasks.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
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
from seebench import hookimpl

@hookimpl
def register_task_dirs(register):
    register(os.environ["SEEBENCH_BENCH_TASKS"], suite="bench")
"""


def fake_sha256(i: int) -> str:
    """A well-formed sha256 for task ``i``'s (never fetched) source; never the all-zero one,
    which the task schema rejects as a placeholder."""
    return hashlib.sha256(f"bench_task_{i:03d}".encode()).hexdigest()


def timed(command: list[str], env: dict[str, str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run(command, env=env, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed: {proc.stderr.strip()}")
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        tasks = root / "tasks"
        tasks.mkdir()
        (tasks / "_base.yaml").write_text(BASE)
        for i in range(args.n):
            (tasks / f"bench_task_{i:03d}.yaml").write_text(TASK.format(i=i, sha=fake_sha256(i)))
        (root / "bench_tasks_plugin.py").write_text(PLUGIN)
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])),
            "SEEBENCH_PLUGINS": "bench_tasks_plugin",
            "SEEBENCH_BENCH_TASKS": str(tasks),
        }
        seebench = [sys.executable, "-m", "seebench.cli.main"]
        listing = json.loads(
            subprocess.run(
                [*seebench, "tasks", "list", "--json"],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        valid = sum(1 for row in listing if row["suite"] == "bench" and row["status"] == "ok")
        broken = [row for row in listing if row["status"] != "ok"]
        if valid != args.n or broken:
            raise SystemExit(f"expected {args.n} valid tasks, got {valid}; broken: {broken[:1]}")
        floor = timed([sys.executable, "-c", "pass"], env, args.repeat)
        help_s = timed([*seebench, "--help"], env, args.repeat)
        list_s = timed([*seebench, "tasks", "list"], env, args.repeat)
    print(f"tasks registered: {len(listing)} ({valid} benchmark tasks, all valid)")
    print(f"python -c pass          {floor:6.3f} s")
    print(f"seebench --help         {help_s:6.3f} s")
    print(f"seebench tasks list     {list_s:6.3f} s   (target < 1 s)")
    print(
        f"ratio tasks list / --help: {list_s / help_s:.2f}x; task loading adds {list_s - help_s:.3f} s"
    )


if __name__ == "__main__":
    main()
